/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events capsim writes, as the kernel describes them in
 * tracing/events/SYSTEM/EVENT/format: one table, from which the format
 * files of trace.dat and the binary records are both derived. To add a
 * field to a capsim event, add a row to its field list (and print it in
 * the same place in trace.txt); the format's offsets and print fmt follow.
 */
#ifndef CAPSIM_TRACEDAT_EVENTS_H
#define CAPSIM_TRACEDAT_EVENTS_H

#include <stddef.h>

#include "ftrace.h"

enum td_type {
	TD_INT,			/* int, %d */
	TD_UINT,		/* unsigned int, %u */
	TD_U32,			/* u32 (the power events) */
	TD_PID,			/* pid_t */
	TD_LONG,		/* long */
	TD_ULONG,		/* unsigned long, %lu */
	TD_U64,			/* u64, %llu */
	TD_COMM,		/* char[TASK_COMM_LEN] */
	TD_STR,			/* __data_loc char[] (a string of any length) */
	TD_TASK_STATE,		/* long: sched_switch's prev_state letters */
};

struct td_field {
	const char *name;
	enum td_type type;
};

struct td_event {
	const char *system;
	const char *name;
	int id;
	const struct td_field *fields;	/* ends with a NULL name */
	/* the kernel's own (6.12), or NULL: "name=%conv ..." of the fields */
	const char *print_fmt;
};

/*
 * The table; ends with a NULL name. An event may have several layouts
 * (rows of the same name and id: capsim's own and the guest kernel's
 * cap_clamp_*, capsim_sugov_cpu before clamp_nr); a trace.dat holds one
 * per event, the one its first line of it has.
 */
extern const struct td_event td_events[];

/* The first row named @name, or NULL */
const struct td_event *td_event_find(const char *name);
/* The row of @ev's name with exactly @ev's fields, else the first row of
 * that name (whose record then names the field that differs), or NULL */
const struct td_event *td_event_match(const struct ftrace_event *ev);

/* Offset, size and signedness of each field, as the kernel lays out the
 * TP_STRUCT__entry after the 8 bytes of common fields */
size_t td_field_size(enum td_type t);
size_t td_field_offset(const struct td_event *e, int idx);
/* Size of the fixed part of a record (common fields included) */
size_t td_fixed_size(const struct td_event *e);

/* The format file text of @e (caller frees) */
char *td_format(const struct td_event *e);

#endif
