/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace text output, streamed as the kernel prints the nop tracer's
 * trace file with irq-info off:
 *   "%16s-%-7d [%03d] %5lu.%06lu: event: fields"
 * The entries count in the header is patched in place at the end.
 */
#ifndef CAPSIM_FTRACE_WRITER_H
#define CAPSIM_FTRACE_WRITER_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

struct ftrace_writer {
	FILE *f;
	long count_pos;		/* file offset of the entries count */
	uint64_t entries;
	int ncpus;
};

int ftw_open(struct ftrace_writer *t, FILE *f, int ncpus);
void ftw_event(struct ftrace_writer *t, uint64_t ns, int cpu, const char *comm,
		  int pid, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void ftw_vevent(struct ftrace_writer *t, uint64_t ns, int cpu,
		const char *comm, int pid, const char *event, const char *fmt,
		va_list ap);
int ftw_close(struct ftrace_writer *t);	/* patches the header; -1 on I/O error */

#endif
