// SPDX-License-Identifier: GPL-2.0
/*
 * td_events[] from the event table (trace_events.def). Facts from Linux
 * 6.12: the layout after the common fields (kernel/trace/trace_events.c:
 * type, flags, preempt_count, pid), and the print fmt the kernel shows:
 * TP_printk's arguments stringified after macro expansion, __entry as
 * REC. char is unsigned since 6.2 (-funsigned-char), hence signed:0 for
 * the comm arrays.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat_events.h"

#define COMMON_SIZE 8

/* Each row's fields, from the event table */
#define TF(kind, n) { #n, TD_TYPE_##kind },
#define TFL(kind, n, lit) { #n, TD_TYPE_##kind },
#define TE_EVENT(name, system, id, fmt, fields) \
	static const struct td_field name##_fields[] = { fields { NULL, 0 } };
#define TE_LAYOUT(tag, name, system, id, fmt, fields) \
	static const struct td_field tag##_fields[] = { fields { NULL, 0 } };
#include "trace_events.def"
#undef TF
#undef TFL

const struct td_event td_events[] = {
#define TE_EVENT(name, system, id, fmt, fields) \
	{ #system, #name, id, name##_fields, fmt },
#define TE_LAYOUT(tag, name, system, id, fmt, fields) \
	{ #system, #name, id, tag##_fields, fmt },
#include "trace_events.def"
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
