/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace text output, streamed as the kernel prints the nop tracer's
 * trace file with irq-info off:
 *   "%16s-%-7d [%03d] %5lu.%06lu: event: fields"
 * The events are buffered in a scratch file; ftw_close() writes the
 * header (with the final entries count, no padding) and then them.
 */
#ifndef CAPSIM_FTRACE_WRITER_H
#define CAPSIM_FTRACE_WRITER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ftrace_writer {
	FILE *out;		/* the trace, NULL for none */
	FILE *f;		/* the events, until ftw_close() */
	uint64_t entries;
	uint64_t bytes;		/* of events so far */
	uint64_t max_bytes;	/* 0: no limit (kept by ftw_open()) */
	bool *stop;		/* set when the limit is passed (kept too) */
	int ncpus;
	bool failed;
	bool over_limit;
};

/*
 * The scratch file lives in $TMPDIR, often a small tmpfs, and an allowed
 * duration can ask for terabytes of trace: past @max_bytes the writer
 * fails (over_limit) and sets *@stop, which ends the run. Call before
 * ftw_open(), which keeps them.
 */
void ftw_limit(struct ftrace_writer *t, uint64_t max_bytes, bool *stop);
int ftw_open(struct ftrace_writer *t, FILE *f, int ncpus);
void ftw_event(struct ftrace_writer *t, uint64_t ns, int cpu, const char *comm,
		  int pid, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void ftw_vevent(struct ftrace_writer *t, uint64_t ns, int cpu,
		const char *comm, int pid, const char *event, const char *fmt,
		va_list ap);
/* writes the header and the events to the output; -1 on I/O error */
int ftw_close(struct ftrace_writer *t);

#endif
