/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events capsim writes, as the kernel describes them in
 * tracing/events/SYSTEM/EVENT/format: td_events[], made from the event
 * table (trace_events.def, where an event or a field is added), from
 * which the format files of trace.dat and the binary records are both
 * derived: the format's offsets and print fmt follow the fields.
 */
#ifndef CAPSIM_TRACEDAT_EVENTS_H
#define CAPSIM_TRACEDAT_EVENTS_H

#include <stddef.h>
#include <stdint.h>

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

/* Each row's index in td_events[]: TD_ROW_name (a layout: TD_ROW_tag) */
enum td_row {
#define TE_EVENT(name, system, id, fmt, fields) TD_ROW_##name,
#define TE_LAYOUT(tag, name, system, id, fmt, fields) TD_ROW_##tag,
#include "trace_events.def"
	TD_NROWS
};

/* A field kind's record type (trace_events.def's KINDs) */
#define TD_TYPE_INT TD_INT
#define TD_TYPE_INT03 TD_INT
#define TD_TYPE_PID TD_PID
#define TD_TYPE_UINT TD_UINT
#define TD_TYPE_U32 TD_U32
#define TD_TYPE_ULONG TD_ULONG
#define TD_TYPE_U64 TD_U64
#define TD_TYPE_S64 TD_LONG
#define TD_TYPE_UL_U TD_UINT
#define TD_TYPE_U_UL TD_ULONG
#define TD_TYPE_COMM TD_COMM
#define TD_TYPE_STR TD_STR
#define TD_TYPE_STATE TD_TASK_STATE

/*
 * Each row's record as a C struct, struct td_rec_NAME (a layout's:
 * td_rec_TAG): the kernel's TP_STRUCT__entry after its common fields,
 * laid out by the compiler as the kernel's is, so that offsetof() gives
 * the format file's offsets (tests/trace/test_trace_events.c checks them
 * against td_field_offset()). A __data_loc string is its u32.
 */
#define TD_MEMBER_INT(n) int32_t n;
#define TD_MEMBER_INT03(n) int32_t n;
#define TD_MEMBER_PID(n) int32_t n;
#define TD_MEMBER_UINT(n) uint32_t n;
#define TD_MEMBER_U32(n) uint32_t n;
#define TD_MEMBER_ULONG(n) uint64_t n;
#define TD_MEMBER_U64(n) uint64_t n;
#define TD_MEMBER_S64(n) int64_t n;
#define TD_MEMBER_UL_U(n) uint32_t n;
#define TD_MEMBER_U_UL(n) uint64_t n;
#define TD_MEMBER_COMM(n) char n[16];
#define TD_MEMBER_STR(n) uint32_t n;
#define TD_MEMBER_STATE(n) int64_t n;
#define TD_REC_STRUCT(tag, fields) \
	struct td_rec_##tag { \
		uint16_t common_type; \
		uint8_t common_flags, common_preempt_count; \
		int32_t common_pid; \
		fields \
	};
#define TF(kind, n) TD_MEMBER_##kind(n)
#define TFL(kind, n, lit) TD_MEMBER_##kind(n)
#define TE_EVENT(name, system, id, fmt, fields) TD_REC_STRUCT(name, fields)
#define TE_LAYOUT(tag, name, system, id, fmt, fields) TD_REC_STRUCT(tag, fields)
#include "trace_events.def"
#undef TF
#undef TFL

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
