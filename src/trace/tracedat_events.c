// SPDX-License-Identifier: GPL-2.0
/*
 * Facts from Linux 6.12: the fields of sched_switch, the sched_wakeup
 * class, sched_migrate_task (include/trace/events/sched.h) and of the cpu
 * class (include/trace/events/power.h), their layout after the common
 * fields (kernel/trace/trace_events.c: type, flags, preempt_count, pid),
 * and the print fmt the kernel shows: TP_printk's arguments stringified
 * after macro expansion, __entry as REC. char is unsigned since 6.2
 * (-funsigned-char), hence signed:0 for the comm arrays.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat_events.h"

#define COMMON_SIZE 8

static const struct td_field wakeup_fields[] = {
	{ "comm", TD_COMM }, { "pid", TD_PID }, { "prio", TD_INT },
	{ "target_cpu", TD_INT }, { NULL, 0 },
};

static const struct td_field switch_fields[] = {
	{ "prev_comm", TD_COMM }, { "prev_pid", TD_PID },
	{ "prev_prio", TD_INT }, { "prev_state", TD_TASK_STATE },
	{ "next_comm", TD_COMM }, { "next_pid", TD_PID },
	{ "next_prio", TD_INT }, { NULL, 0 },
};

static const struct td_field migrate_fields[] = {
	{ "comm", TD_COMM }, { "pid", TD_PID }, { "prio", TD_INT },
	{ "orig_cpu", TD_INT }, { "dest_cpu", TD_INT }, { NULL, 0 },
};

static const struct td_field cpu_fields[] = {
	{ "state", TD_U32 }, { "cpu_id", TD_U32 }, { NULL, 0 },
};

/* capsim's own events (src/sim/sim.c), printed as trace.txt prints them */
static const struct td_field clamp_cpu_fields[] = {
	{ "cpu", TD_INT }, { "min", TD_UINT }, { "max", TD_UINT },
	{ NULL, 0 },
};

/*
 * The guest kernel's cap_clamp events (kernel/patches/0006's TP_printk):
 * the same names, each with its per-CPU seq; a trace.dat holds the layout
 * its source's first line of each event has (td_event_match)
 */
static const struct td_field kclamp_cpu_fields[] = {
	{ "cpu", TD_INT }, { "min", TD_UINT }, { "max", TD_UINT },
	{ "seq", TD_U64 }, { NULL, 0 },
};

/* their fields before and after the update's old range */
#define KCLAMP_HEAD \
	{ "cpu", TD_INT }, { "pid", TD_INT }, { "comm", TD_COMM }, \
	{ "group", TD_U64 }
#define KCLAMP_TAIL \
	{ "min", TD_UINT }, { "max", TD_UINT }, { "cpu_min", TD_UINT }, \
	{ "cpu_max", TD_UINT }, { "nr", TD_UINT }, { "seq", TD_U64 }, \
	{ NULL, 0 }

static const struct td_field kclamp_task_fields[] = {
	KCLAMP_HEAD, KCLAMP_TAIL,
};

static const struct td_field kclamp_update_fields[] = {
	KCLAMP_HEAD, { "old_min", TD_UINT }, { "old_max", TD_UINT },
	KCLAMP_TAIL,
};

static const struct td_field group_write_fields[] = {
	{ "group", TD_INT }, { "path", TD_STR }, { "attr", TD_STR },
	{ "value", TD_U64 }, { "ret", TD_INT }, { "min", TD_UINT },
	{ "max", TD_UINT }, { NULL, 0 },
};

static const struct td_field sugov_fields[] = {
	{ "dom", TD_INT }, { "util", TD_ULONG }, { "perf", TD_ULONG },
	{ "min", TD_UINT }, { "max", TD_UINT }, { "target_khz", TD_UINT },
	{ "khz", TD_UINT }, { "changed", TD_INT }, { "caller", TD_INT },
	{ "cached_khz", TD_UINT }, { "need_update", TD_INT }, { NULL, 0 },
};

/* as guest kernels before patch 11's clamp_nr printed it, then since */
#define SUGOV_CPU_V1 \
	{ "dom", TD_INT }, { "cpu", TD_INT }, { "util_cfs", TD_ULONG }, \
	{ "util_rt", TD_ULONG }, { "util_dl", TD_ULONG }, \
	{ "bw_dl", TD_ULONG }, { "rt_runnable", TD_INT }, \
	{ "dl_runnable", TD_INT }, { "idle", TD_INT }, \
	{ "idle_calls", TD_ULONG }, { "clamp_min", TD_ULONG }, \
	{ "clamp_max", TD_ULONG }, { "rt_floor", TD_ULONG }, \
	{ "boost", TD_ULONG }

static const struct td_field sugov_cpu_v1_fields[] = {
	SUGOV_CPU_V1, { NULL, 0 },
};

static const struct td_field sugov_cpu_fields[] = {
	SUGOV_CPU_V1, { "clamp_nr", TD_UINT }, { NULL, 0 },
};

/* LISA's kernel module's events (--trace-signals), as it prints them */
static const struct td_field pelt_se_fields[] = {
	{ "cpu", TD_INT }, { "path", TD_STR }, { "comm", TD_STR },
	{ "pid", TD_INT }, { "load", TD_ULONG }, { "util", TD_ULONG },
	{ "update_time", TD_U64 }, { "runnable", TD_ULONG }, { NULL, 0 },
};

/* capsim's own event at pelt_se_tp: the state a signal replay starts from */
static const struct td_field capsim_pelt_se_fields[] = {
	{ "cpu", TD_INT }, { "pid", TD_INT }, { "update_time", TD_U64 },
	{ "load_sum", TD_U64 }, { "runnable_sum", TD_UINT },
	{ "util_sum", TD_UINT }, { "period_contrib", TD_UINT },
	{ "on_rq", TD_INT }, { "running", TD_INT }, { NULL, 0 },
};

static const struct td_field pelt_cfs_fields[] = {
	{ "cpu", TD_INT }, { "path", TD_STR }, { "load", TD_ULONG },
	{ "util", TD_ULONG }, { "update_time", TD_U64 },
	{ "runnable", TD_ULONG }, { NULL, 0 },
};

static const struct td_field pelt_rq_fields[] = {
	{ "cpu", TD_INT }, { "load", TD_ULONG }, { "util", TD_ULONG },
	{ "update_time", TD_U64 }, { "runnable", TD_ULONG }, { NULL, 0 },
};

static const struct td_field util_est_se_fields[] = {
	{ "cpu", TD_INT }, { "path", TD_STR }, { "comm", TD_STR },
	{ "pid", TD_INT }, { "util", TD_ULONG }, { "util_est", TD_UINT },
	{ NULL, 0 },
};

static const struct td_field util_est_cfs_fields[] = {
	{ "cpu", TD_INT }, { "path", TD_STR }, { "util", TD_ULONG },
	{ "util_est", TD_UINT }, { NULL, 0 },
};

static const struct td_field uclamp_se_fields[] = {
	{ "pid", TD_INT }, { "comm", TD_STR }, { "cpu", TD_INT },
	{ "util_avg", TD_ULONG }, { "uclamp_avg", TD_ULONG },
	{ "uclamp_min", TD_ULONG }, { "uclamp_max", TD_ULONG }, { NULL, 0 },
};

static const struct td_field uclamp_cfs_fields[] = {
	{ "cpu", TD_INT }, { "util_avg", TD_ULONG },
	{ "uclamp_avg", TD_ULONG }, { "uclamp_min", TD_ULONG },
	{ "uclamp_max", TD_ULONG }, { NULL, 0 },
};

static const struct td_field cpu_capacity_fields[] = {
	{ "cpu", TD_INT }, { "capacity", TD_ULONG },
	{ "capacity_orig", TD_ULONG }, { "capacity_curr", TD_ULONG },
	{ NULL, 0 },
};

static const struct td_field util_fields[] = {
	{ "cpu", TD_INT }, { "util_cfs", TD_ULONG }, { "util_rt", TD_ULONG },
	{ "util_dl", TD_ULONG }, { "bw_dl", TD_ULONG },
	{ "task_util", TD_ULONG }, { NULL, 0 },
};

/*
 * A trace_marker write (kernel/trace/trace.c, ftrace's print entry): the
 * caller's address (0: trace.dat carries no symbols) and the text. The
 * kernel's buf is a char[] that ends the record; here it is a __data_loc
 * string printed with __get_str(), as trace-cmd prints the kernel's, and
 * without the newline the kernel appends (trace.txt's line ends there)
 */
static const struct td_field print_fields[] = {
	{ "ip", TD_ULONG }, { "buf", TD_STR }, { NULL, 0 },
};

#define WAKEUP_FMT "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu"
#define CPU_FMT "\"state=%lu cpu_id=%lu\", (unsigned long)REC->state, (unsigned long)REC->cpu_id"
/* TASK_REPORT_MAX expanded: (((TASK_REPORT) + 1) << 1) */
#define REPORT "((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1)"
#define SWITCH_FMT "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", " \
	"REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((" REPORT " << 1) - 1)) ? " \
	"__print_flags(REC->prev_state & ((" REPORT " << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, " \
	"{ 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, " \
	"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (" REPORT " << 1) ? \"+\" : \"\", " \
	"REC->next_comm, REC->next_pid, REC->next_prio"

const struct td_event td_events[] = {
	{ "sched", "sched_switch", 316, switch_fields, SWITCH_FMT },
	{ "sched", "sched_waking", 318, wakeup_fields, WAKEUP_FMT },
	{ "sched", "sched_wakeup", 319, wakeup_fields, WAKEUP_FMT },
	{ "sched", "sched_wakeup_new", 320, wakeup_fields, WAKEUP_FMT },
	{ "sched", "sched_migrate_task", 321, migrate_fields,
	  "\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu" },
	{ "ftrace", "print", 5, print_fields,
	  "\"%ps: %s\", (void *)REC->ip, __get_str(buf)" },
	{ "power", "cpu_idle", 500, cpu_fields, CPU_FMT },
	{ "power", "cpu_frequency", 503, cpu_fields, CPU_FMT },
	{ "capsim", "cap_clamp_cpu", 1000, clamp_cpu_fields, NULL },
	{ "capsim", "cap_clamp_write", 1001, group_write_fields, NULL },
	{ "capsim", "capsim_sugov", 1002, sugov_fields, NULL },
	{ "capsim", "capsim_util", 1003, util_fields, NULL },
	{ "capsim", "capsim_sugov_cpu", 1004, sugov_cpu_fields, NULL },
	{ "capsim", "capsim_sugov_cpu", 1004, sugov_cpu_v1_fields, NULL },
	{ "capsim", "cap_clamp_cpu", 1000, kclamp_cpu_fields, NULL },
	{ "capsim", "cap_clamp_enqueue", 1006, kclamp_task_fields, NULL },
	{ "capsim", "cap_clamp_dequeue", 1007, kclamp_task_fields, NULL },
	{ "capsim", "cap_clamp_update", 1008, kclamp_update_fields, NULL },
	{ "capsim", "capsim_pelt_se", 1005, capsim_pelt_se_fields, NULL },
	{ "lisa", "lisa__sched_pelt_se", 1100, pelt_se_fields, NULL },
	{ "lisa", "lisa__sched_pelt_cfs", 1101, pelt_cfs_fields, NULL },
	{ "lisa", "lisa__sched_pelt_rt", 1102, pelt_rq_fields, NULL },
	{ "lisa", "lisa__sched_pelt_dl", 1103, pelt_rq_fields, NULL },
	{ "lisa", "lisa__sched_util_est_se", 1104, util_est_se_fields, NULL },
	{ "lisa", "lisa__sched_util_est_cfs", 1105, util_est_cfs_fields, NULL },
	{ "lisa", "lisa__uclamp_util_se", 1106, uclamp_se_fields, NULL },
	{ "lisa", "lisa__uclamp_util_cfs", 1107, uclamp_cfs_fields, NULL },
	{ "lisa", "lisa__sched_cpu_capacity", 1108, cpu_capacity_fields, NULL },
	{ NULL, NULL, 0, NULL, NULL },
};

const struct td_event *td_event_find(const char *name)
{
	const struct td_event *e;

	for (e = td_events; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/* @ev has exactly @e's fields, in any order */
static bool same_fields(const struct td_event *e, const struct ftrace_event *ev)
{
	int n = 0, f;

	for (; e->fields[n].name; n++)
		if (!ftrace_get(ev, e->fields[n].name))
			return false;
	for (f = 0; f < ev->nr_fields; f++) {
		int k;

		for (k = 0; k < n && strcmp(e->fields[k].name, ev->fields[f].key); k++)
			;
		if (k == n)
			return false;
	}
	return true;
}

const struct td_event *td_event_match(const struct ftrace_event *ev)
{
	const struct td_event *e, *first = td_event_find(ev->name);

	for (e = first; e && e->name; e++)
		if (!strcmp(e->name, ev->name) && same_fields(e, ev))
			return e;
	return first;
}

static const struct {
	const char *ctype;	/* as the format file names it */
	size_t size;
	int is_signed;
	const char *conv;	/* printf conversion, for a derived fmt */
} types[] = {
	[TD_INT] = { "int", 4, 1, "%d" },
	[TD_UINT] = { "unsigned int", 4, 0, "%u" },
	[TD_U32] = { "u32", 4, 0, "%u" },
	[TD_PID] = { "pid_t", 4, 1, "%d" },
	[TD_LONG] = { "long", 8, 1, "%ld" },
	[TD_ULONG] = { "unsigned long", 8, 0, "%lu" },
	[TD_U64] = { "u64", 8, 0, "%llu" },
	[TD_COMM] = { "char", 16, 0, "%s" },
	[TD_STR] = { "__data_loc char[]", 4, 0, "%s" },
	[TD_TASK_STATE] = { "long", 8, 1, "%ld" },
};

size_t td_field_size(enum td_type t)
{
	return types[t].size;
}

/* Natural alignment, as the C struct of TP_STRUCT__entry has it */
static size_t align_of(enum td_type t)
{
	return t == TD_COMM ? 1 : types[t].size;
}

size_t td_field_offset(const struct td_event *e, int idx)
{
	size_t off = COMMON_SIZE;
	int i;

	for (i = 0; ; i++) {
		size_t a = align_of(e->fields[i].type);

		off = (off + a - 1) / a * a;
		if (i == idx)
			return off;
		off += types[e->fields[i].type].size;
	}
}

size_t td_fixed_size(const struct td_event *e)
{
	int n = 0;

	while (e->fields[n].name)
		n++;
	return td_field_offset(e, n - 1) +
	       types[e->fields[n - 1].type].size;
}

/* A growable string (this library stands alone: no simulator helpers) */
struct text {
	char *buf;
	size_t len;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	t->buf = realloc(t->buf, t->len + (size_t)n + 1);
	if (!t->buf)
		abort();
	memcpy(t->buf + t->len, s, (size_t)n + 1);
	t->len += (size_t)n;
	free(s);
}

char *td_format(const struct td_event *e)
{
	struct text t = { NULL, 0 };
	int i;

	add(&t, "name: %s\nID: %d\nformat:\n", e->name, e->id);
	add(&t, "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n");
	add(&t, "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n");
	add(&t, "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n");
	add(&t, "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (i = 0; e->fields[i].name; i++) {
		enum td_type ty = e->fields[i].type;

		add(&t, "\tfield:%s %s%s;\toffset:%zu;\tsize:%zu;\tsigned:%d;\n",
		    types[ty].ctype, e->fields[i].name,
		    ty == TD_COMM ? "[16]" : "", td_field_offset(e, i),
		    types[ty].size, types[ty].is_signed);
	}
	add(&t, "\nprint fmt: ");
	if (e->print_fmt) {
		add(&t, "%s\n", e->print_fmt);
		return t.buf;
	}
	add(&t, "\"");
	for (i = 0; e->fields[i].name; i++)
		add(&t, "%s%s=%s", i ? " " : "", e->fields[i].name,
		    types[e->fields[i].type].conv);
	add(&t, "\"");
	for (i = 0; e->fields[i].name; i++) {
		if (e->fields[i].type == TD_STR)
			add(&t, ", __get_str(%s)", e->fields[i].name);
		else
			add(&t, ", REC->%s", e->fields[i].name);
	}
	add(&t, "\n");
	return t.buf;
}
