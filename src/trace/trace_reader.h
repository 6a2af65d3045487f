/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One reader for every trace people capture: open a path, find its
 * format, hand out its events one at a time, normalized to the kernel's
 * own field names so that a consumer (sched_state.c's schedule, and the
 * analyses on it; later `capsim import`) reads them all the same way:
 *
 *  - ftrace text: capsim's trace.txt, the kernel's trace and trace_pipe;
 *  - `trace-cmd report` text: its header lines (version = 6, cpus=N,
 *    CPU N is empty), and its three faces: the default (sched_switch and
 *    sched_wakeup printed by libtraceevent's plugins, "comm:pid [prio] S
 *    ==> comm:pid [prio]"), -N (the kernel's print fmt) and -R (every
 *    field raw, prev_state a number);
 *  - systrace/Perfetto text with the TGID column, plain or inside
 *    systrace's HTML wrapper (<script class="trace-data">);
 *  - trace.dat, read through libtracecmd/libtraceevent;
 *  - Perfetto's protobuf (.perfetto-trace, .pftrace), through protobuf-c
 *    (perfetto_reader.h), found by its first bytes whatever its name.
 * A file that is none of them is named for what it is (trace_sniff.h).
 *
 * Normalized: sched_switch and sched_wakeup* carry prev_comm= prev_pid=
 * prev_prio= prev_state= next_comm= next_pid= next_prio= / comm= pid=
 * prio= target_cpu= whatever the face; prev_state is the kernel's letters
 * ("S", "R+", "D|K"), a raw number translated; a marker written to
 * trace_marker ("tracing_mark_write: NAME: k=v ...", trace-cmd's
 * "print: ...") whose text starts with "NAME:" and holds fields is event
 * NAME (devlib's cpu_frequency_devlib, for one).
 *
 * Input is untrusted: a bad line is reported "FILE:LINE:COL: error: ..."
 * (a trace.dat's LINE is the record's number, COL 1), timestamps must not
 * go back, and memory does not grow with the number of events.
 */
#ifndef CAPSIM_TRACE_READER_H
#define CAPSIM_TRACE_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ftrace.h"
#include "trace_file.h"

enum trace_format {
	TRACE_FMT_TEXT,		/* ftrace / trace-cmd report / systrace text */
	TRACE_FMT_HTML,		/* systrace's HTML, the text inside it */
	TRACE_FMT_DAT,		/* trace-cmd's binary trace.dat */
	TRACE_FMT_PERFETTO,	/* Perfetto's protobuf */
};

struct trace_dat;
struct trace_pf;

struct trace_reader {
	const char *path;
	enum trace_format format;
	/* a text line without ": sched_" is skipped before it is parsed
	 * (struct scan's sched_only) */
	bool sched_only;
	/* a text line without this string is skipped before it is parsed
	 * (NULL: none; sched_only is ": sched_"): a consumer of a few
	 * events, xcheck's replays, reads a capsim trace at grep's pace */
	const char *only;
	long lineno;		/* text: the line; trace.dat: the record;
				 * Perfetto: its packet's byte offset */
	const char *line;	/* the line being read, for columns (text) */
	size_t line_len;
	long events;
	long lost;		/* events the trace says it lost */

	/* private */
	FILE *f;
	struct trace_lines lines;
	bool html_block;	/* inside a trace-data <script> */
	bool html_skip;		/* ... that holds JSON, not text */
	bool html_started;	/* the block's first line is read */
	bool html_after;	/* a trace-data block ended, no other began */
	bool html_begun;	/* <!-- BEGIN TRACE --> seen ... */
	bool html_done;		/* ... and <!-- END TRACE --> */
	long html_open;		/* the line of the block's <script> */
	long html_close;	/* ... of the last block's </script> */
	bool started;
	uint64_t last_ts;
	struct trace_dat *dat;
	struct trace_pf *pf;
	bool borrowed;		/* f is the caller's: not closed */
	char state[24];		/* prev_state translated from a number:
				 * at most "S|D|T|t|X|Z|P|I+" */
};

/*
 * Open @path and find its format. 0, or with the message printed
 * TRACE_FILE_BAD (not a trace: not a regular file, a trace.dat
 * libtracecmd refuses, or one in a build without it) or TRACE_FILE_IO.
 */
int trace_reader_open(struct trace_reader *r, const char *path);
/* The same, its messages naming @path @name (a copy named as the user's
 * file, or the path the user will see it at) */
int trace_reader_open_as(struct trace_reader *r, const char *path,
			 const char *name);
/*
 * Read the text faces (not trace.dat, which needs a file) from the
 * caller's open @f, named @name in messages; trace_reader_close leaves
 * @f open. 0.
 */
int trace_reader_open_stream(struct trace_reader *r, FILE *f,
			     const char *name);
/*
 * The next event in *ev (its strings valid until the next call). 1, 0 at
 * the end, or with "FILE:LINE:COL: error: ..." printed TRACE_FILE_BAD (a
 * malformed line, a timestamp going back, a line too long) or
 * TRACE_FILE_IO (a read error).
 */
int trace_reader_next(struct trace_reader *r, struct ftrace_event *ev);
/* The 1-based column of @at, a string of the last event; 1 when it is
 * not in the line (a trace.dat's fields) */
int trace_reader_col(const struct trace_reader *r, const char *at);
void trace_reader_close(struct trace_reader *r);
/* Whether the file open at @f (at its start, rewound after) is a
 * trace.dat, by its magic */
bool trace_reader_is_dat(FILE *f);
/* ... a Perfetto protobuf trace (trace_sniff_perfetto()) */
bool trace_reader_is_perfetto(FILE *f);
const char *trace_format_name(enum trace_format f);

/* Internal: the steps every face shares (trace_reader.c), and the
 * trace.dat face (trace_reader_dat.c). */
void trace_normalize_state(struct trace_reader *r, struct ftrace_event *ev);
bool trace_marker_event(char **body, struct ftrace_event *ev);
/* 0 with *d open, or with the message (naming @name) printed
 * TRACE_FILE_BAD or TRACE_FILE_IO */
int trace_dat_open(const char *path, const char *name, struct trace_dat **d);
/* 1, 0 at the end, -1 bad input (*err, *record the record's number),
 * -2 an I/O error (the message printed) */
int trace_dat_next(struct trace_dat *d, struct ftrace_event *ev,
		   long *record, long *lost, const char **err);
void trace_dat_close(struct trace_dat *d);

/*
 * For a coverage-guided fuzzer (tests/fuzz/fuzz_trace_dat.c), whose
 * counters the child increments in its own copy: @child_end runs in the
 * child as it ends, from its crash handler too (async-signal-safe
 * only), @reaped in the parent once the child is gone, to bring the
 * child's counts home. NULL: none (every command).
 */
struct trace_dat_hooks {
	void (*child_end)(void);
	void (*reaped)(void);
};
void trace_dat_set_hooks(const struct trace_dat_hooks *h);

#endif
