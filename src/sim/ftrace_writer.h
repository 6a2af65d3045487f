/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace text output, streamed as the kernel prints the nop tracer's
 * trace file with irq-info off:
 *   "%16s-%-7d [%03d] %5lu.%06lu: event: fields"
 * Each event's emitter (trace_events.c) writes its line field by field
 * (fastfmt.c's writers) between ftw_begin() and ftw_end(), into one
 * large buffer that
 * is written straight into the output file, after room left for the
 * header, whose entries count (printed without padding) is known only at
 * ftrace_writer_close(). The room is a guess of the count's digits, made when the
 * buffer first fills (from the entries so far and the run's progress):
 * when the guess is wrong, ftrace_writer_close() moves the events by the
 * difference (a copy of the file within itself, counted in @shifted).
 * A run whose trace fits the buffer is written once, exactly.
 */
#ifndef CAPSIM_FTRACE_WRITER_H
#define CAPSIM_FTRACE_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "fastfmt.h"

/* The buffer's default size: large writes, few of them */
#define FTW_BUFFER_DEFAULT (4u << 20)

struct tdw;

struct ftrace_writer {
	FILE *out;		/* the trace, NULL for none */
	int fd;			/* its descriptor, written with pwrite() */
	bool on;		/* a trace is being written */
	char *buf;		/* the lines not yet written */
	size_t len, cap;
	size_t buf_size;	/* the buffer's size: 0 the default (kept) */
	off_t base;		/* where the trace starts in the file */
	long hdr_room;		/* bytes left for the header, -1: not yet */
	uint64_t flushed;	/* bytes of events written to the file */
	uint64_t end_ns;	/* the run's expected end, for the guess */
	uint64_t shifted;	/* bytes moved because the guess was wrong */
	uint64_t entries;
	uint64_t max_bytes;	/* 0: no limit (kept by ftrace_writer_open()) */
	uint64_t limit;		/* the events' bytes allowed: UINT64_MAX none */
	bool *stop;		/* set when the limit is passed (kept too) */
	int ncpus;
	bool failed;
	bool over_limit;
	/*
	 * What the timestamps print at ns 0 (kept by ftrace_writer_open()):
	 * the events' ns stay the run's own, for the header's guess
	 */
	uint64_t clock_ns;
	/* the last timestamp printed, "%5lu.%06lu: " (lines come in runs
	 * of the same µs): UINT64_MAX none */
	uint64_t stamp_us;
	size_t stamp_len;
	char stamp[FASTFMT_STAMP_MAX];
	char *big;		/* a line longer than the buffer, or NULL */
	/* trace.dat beside the text (ftrace_writer_dat()), its records
	 * written by the emitters from their fields; NULL: none */
	FILE *dat_out;
	struct tdw *dat;
	bool dat_failed;
};

/*
 * An allowed duration can ask for terabytes of trace: past @max_bytes the
 * writer fails (over_limit) and sets *@stop, which ends the run. Call
 * before ftrace_writer_open(), which keeps them.
 */
void ftrace_writer_limit(struct ftrace_writer *t, uint64_t max_bytes, bool *stop);
/*
 * Write to @f (NULL: no trace), a seekable file, from its current
 * position; @end_ns is when the run is expected to end (0 or UINT64_MAX
 * if unknown), for the header's room. -1 if @f cannot be written so.
 */
int ftrace_writer_open(struct ftrace_writer *t, FILE *f, int ncpus, uint64_t end_ns);
static inline bool ftrace_writer_on(const struct ftrace_writer *t)
{
	return t->on;
}

/*
 * An event not written (no trace): counted all the same, so that a run
 * without its trace reports the entries it would have had
 */
static inline void ftrace_writer_skip(struct ftrace_writer *t)
{
	t->entries++;
}
/*
 * A line by @comm/@pid on @cpu at @ns begun, with room for @need bytes
 * (the event's name, its fields and the newline) after the timestamp it
 * wrote: where the event's name goes, or NULL if the trace has failed.
 * The caller has checked ftrace_writer_on(). ftw_end() ends it at @end.
 */
char *ftw_begin_long(struct ftrace_writer *t, uint64_t ns, int cpu,
		     const char *comm, size_t clen, int pid, size_t need);
void ftw_stamp(struct ftrace_writer *t, uint64_t us);
static inline char *ftw_begin(struct ftrace_writer *t, uint64_t ns, int cpu,
			      const char *comm, size_t clen, int pid,
			      size_t need)
{
	uint64_t us = (ns + t->clock_ns) / 1000;
	char *p;

	if (t->failed ||
	    t->cap - t->len < FASTFMT_PREFIX_MAX + FASTFMT_STAMP_MAX + clen +
			      need)
		return ftw_begin_long(t, ns, cpu, comm, clen, pid, need);
	p = fastfmt_trace_task(t->buf + t->len, comm, clen, pid, cpu);
	if (us != t->stamp_us)
		ftw_stamp(t, us);
	memcpy(p, t->stamp, FASTFMT_STAMP_MAX);	/* a constant size */
	return p + t->stamp_len;
}
void ftw_end_long(struct ftrace_writer *t, char *end, uint64_t ns);
void ftw_over_limit(struct ftrace_writer *t);
static inline void ftw_end(struct ftrace_writer *t, char *end, uint64_t ns)
{
	if (t->big) {
		ftw_end_long(t, end, ns);
		return;
	}
	*end++ = '\n';
	t->len = (size_t)(end - t->buf);
	t->entries++;
	if (t->flushed + t->len > t->limit)
		ftw_over_limit(t);
}

/* A line of an already formatted @text ("event: text"; tests, tools) */
void ftrace_writer_text(struct ftrace_writer *t, uint64_t ns, int cpu,
			const char *comm, int pid, const char *event,
			const char *text);

/*
 * trace.dat written beside the text into @out (the emitters' records),
 * at ftrace_writer_close(); call before ftrace_writer_open()
 */
void ftrace_writer_dat(struct ftrace_writer *t, FILE *out);
/* The trace.dat writer, NULL without one */
static inline struct tdw *ftrace_writer_tdw(struct ftrace_writer *t)
{
	return t->dat;
}

/*
 * Writes the header, places the events after it and leaves the file's
 * position at the end of the trace, then trace.dat if asked (dat_failed
 * says it was that one); -1 on I/O error
 */
int ftrace_writer_close(struct ftrace_writer *t);

#endif
