/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the trace.dat reader's two processes share (trace_reader_dat.c,
 * the parent; trace_dat_child.c, the child that reads the file through
 * libtracecmd): the frames the child writes down the pipe, and the page
 * of shared memory where it says, before each call into the libraries,
 * what it is about to read, so that the parent can name the section when
 * the child dies inside one.
 *
 * libtracecmd 3.1.6 and libtraceevent 1.7.1 crash on malformed files
 * (tep_parse_event() on a corrupt event format, kbuffer_load_subbuffer()
 * on a corrupt page header; `trace-cmd report` dies the same way): the
 * child contains that, the parent turns it into bad input (exit 2).
 */
#ifndef CAPSIM_TRACE_DAT_PROTO_H
#define CAPSIM_TRACE_DAT_PROTO_H

#include <signal.h>
#include <stdint.h>

enum dat_frame_type {
	DAT_FRAME_OPEN = 1,	/* the file opened: events follow */
	DAT_FRAME_EVENT,	/* struct dat_event_head, then the strings */
	DAT_FRAME_ERROR,	/* struct dat_error_head, then the message */
	DAT_FRAME_END,		/* every record was read */
};

struct dat_frame {
	uint32_t len;		/* of what follows this header */
	uint32_t type;
};

/*
 * An event: then its name, its comm and each field's key and value,
 * NUL-terminated, @nr_fields pairs
 */
struct dat_event_head {
	uint64_t ts_ns;
	int64_t record;
	int64_t lost;		/* events the record says were lost before it */
	int32_t cpu;
	int32_t pid;
	int32_t nr_fields;
	int32_t pad;
};

enum dat_error_kind {
	DAT_ERR_OPEN = 1,	/* libtracecmd refused the headers */
	DAT_ERR_DATA,		/* ... the CPU data (a file cut short) */
	DAT_ERR_RECORD,		/* a record capsim refuses: the message */
};

struct dat_error_head {
	int64_t record;
	int64_t lost;
	int32_t kind;
	int32_t pad;
};

/* The largest frame the child writes: an event's strings are bounded by
 * its arena (16 KB, trace_dat_child.c) */
#define DAT_FRAME_MAX (64 * 1024)

/* Where the child is, set before each call into the libraries */
enum dat_phase {
	DAT_PH_START,
	DAT_PH_HEADERS,		/* tracecmd_open_head(): the headers */
	DAT_PH_INIT,		/* tracecmd_init_data(): each CPU's first page */
	DAT_PH_FIRST,		/* tracecmd_read_cpu_first(@cpu) */
	DAT_PH_READ,		/* tracecmd_read_data(@cpu): @offset its last */
	DAT_PH_EVENT,		/* @event's record at @offset converted */
	DAT_PH_DONE,
};

struct dat_where {
	volatile sig_atomic_t phase;
	volatile sig_atomic_t cpu;
	volatile sig_atomic_t sig;	/* the signal the child died of */
	volatile sig_atomic_t sanitizer;	/* ... raised on an ASan report
					 * inside a library call */
	volatile int64_t offset;	/* the record being read, in the file */
	volatile int64_t fd_offset;	/* libtracecmd's descriptor, at death */
	volatile int64_t record;
	char event[96];			/* SYSTEM/NAME of DAT_PH_EVENT */
};

/* trace_dat_set_hooks()'s, or NULL */
extern const struct trace_dat_hooks *trace_dat_hooks;

/*
 * The child: read @path through libtracecmd, write its frames to @out,
 * say where it is in @w. Never returns: exit status 0 after END, 2 after
 * an ERROR frame, death by the signal a library raised.
 */
_Noreturn void trace_dat_child(const char *path, int out,
			       struct dat_where *w);

#endif
