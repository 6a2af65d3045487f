/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's trace events, typed, one emitter per row of the event
 * table (src/trace/trace_events.def):
 *
 *	trace_sched_wakeup(s, cpu, &(struct te_sched_wakeup){
 *		.comm = t->comm, .pid = t->pid, .prio = task_kprio(t),
 *		.target_cpu = dst->id });
 *
 * writes the trace.txt line as @cpu's current task (field by field, in
 * the table's order and text format: no format string is read) and, with
 * --trace-dat, the event's trace.dat record from the same values, as the
 * kernel's TP_fast_assign fills its TP_STRUCT__entry. Without a trace the
 * line is only counted. Included at the end of sim.h (the emitters read
 * struct sim). A marker (TE_MARKER) names its task:
 * trace_rtapp_loop(s, cpu, comm, pid, &(struct te_rtapp_loop){ ... }).
 */
#ifndef CAPSIM_TRACE_EVENTS_H
#define CAPSIM_TRACE_EVENTS_H

#include <stdint.h>

#include "ftrace_writer.h"
#include "sim.h"

/* The C type each field KIND takes (trace_events.def) */
#define TE_CTYPE_INT int
#define TE_CTYPE_INT03 int
#define TE_CTYPE_PID int
#define TE_CTYPE_UINT unsigned int
#define TE_CTYPE_U32 uint32_t
#define TE_CTYPE_ULONG unsigned long
#define TE_CTYPE_U64 uint64_t
#define TE_CTYPE_S64 int64_t
#define TE_CTYPE_UL_U unsigned long
#define TE_CTYPE_U_UL unsigned int
#define TE_CTYPE_COMM const char *
#define TE_CTYPE_STR const char *
#define TE_CTYPE_STATE const char *

/* Each event's fields: struct te_NAME */
#define TF(kind, n) TE_CTYPE_##kind n;
#define TFL(kind, n, lit) TE_CTYPE_##kind n;
#define TE_EVENT(name, system, id, fmt, fields) struct te_##name { fields };
#define TE_MARKER(name, lead, fields) struct te_##name { fields };
#include "trace_events.def"
#undef TF
#undef TFL

/*
 * The emitters: the line counted only when there is no trace (no record
 * built), else te_emit_NAME() writes it. Inline here so that a run
 * without its trace pays a test, not a call.
 */
#define TE_EVENT(name, system, id, fmt, fields) \
	void te_emit_##name(struct sim *s, int cpu, \
			    const struct te_##name *a); \
	static inline void trace_##name(struct sim *s, int cpu, \
					const struct te_##name *a) \
	{ \
		if (ftrace_writer_on(&s->tr)) \
			te_emit_##name(s, cpu, a); \
		else \
			ftrace_writer_skip(&s->tr); \
	}
#define TE_MARKER(name, lead, fields) \
	void te_emit_##name(struct sim *s, int cpu, const char *comm, \
			    int pid, const struct te_##name *a); \
	static inline void trace_##name(struct sim *s, int cpu, \
					const char *comm, int pid, \
					const struct te_##name *a) \
	{ \
		if (ftrace_writer_on(&s->tr)) \
			te_emit_##name(s, cpu, comm, pid, a); \
		else \
			ftrace_writer_skip(&s->tr); \
	}
#include "trace_events.def"

#endif
