// SPDX-License-Identifier: GPL-2.0
/*
 * The emitters of trace_events.h, expanded from the event table
 * (src/trace/trace_events.def) once per part: the room a line needs,
 * its text, its trace.dat record, then the emitter calling the three.
 */
#include <stddef.h>
#include <string.h>

#include "fastfmt.h"
#include "ftrace_writer.h"
#include "sim.h"
#include "trace_events.h"
#include "tracedat_events.h"
#include "tracedat_write.h"

/* A literal's bytes: a constant size, moved without a call */
#define TE_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), \
			(p) + sizeof(lit) - 1)

static inline char *te_int(char *p, int64_t v)
{
	return v >= 0 ? fastfmt_udec(p, (uint64_t)v) : fastfmt_sdec(p, v);
}

static inline char *te_strn(char *p, const char *v, size_t n)
{
	memcpy(p, v, n);
	return p + n;
}

/* The most bytes a field's value prints as */
#define TE_ROOM_NUM(v) FASTFMT_NUM_MAX
#define TE_ROOM_INT TE_ROOM_NUM
#define TE_ROOM_INT03 TE_ROOM_NUM
#define TE_ROOM_PID TE_ROOM_NUM
#define TE_ROOM_UINT TE_ROOM_NUM
#define TE_ROOM_U32 TE_ROOM_NUM
#define TE_ROOM_ULONG TE_ROOM_NUM
#define TE_ROOM_U64 TE_ROOM_NUM
#define TE_ROOM_S64 TE_ROOM_NUM
#define TE_ROOM_UL_U TE_ROOM_NUM
#define TE_ROOM_U_UL TE_ROOM_NUM
#define TE_ROOM_STRING(v) (len[k] = strlen(v), len[k++])
#define TE_ROOM_COMM TE_ROOM_STRING
#define TE_ROOM_STR TE_ROOM_STRING
#define TE_ROOM_STATE TE_ROOM_STRING

#define TE_IS_STR_INT 0
#define TE_IS_STR_INT03 0
#define TE_IS_STR_PID 0
#define TE_IS_STR_UINT 0
#define TE_IS_STR_U32 0
#define TE_IS_STR_ULONG 0
#define TE_IS_STR_U64 0
#define TE_IS_STR_S64 0
#define TE_IS_STR_UL_U 0
#define TE_IS_STR_U_UL 0
#define TE_IS_STR_COMM 1
#define TE_IS_STR_STR 1
#define TE_IS_STR_STATE 1

/* A field's value as its text conversion prints it */
#define TE_TXT_INT(p, v) te_int(p, v)
#define TE_TXT_INT03(p, v) fastfmt_dec03(p, v)
#define TE_TXT_PID(p, v) te_int(p, v)
#define TE_TXT_UINT(p, v) fastfmt_udec(p, v)
#define TE_TXT_U32(p, v) fastfmt_udec(p, v)
#define TE_TXT_ULONG(p, v) fastfmt_udec(p, v)
#define TE_TXT_U64(p, v) fastfmt_udec(p, v)
#define TE_TXT_S64(p, v) fastfmt_sdec(p, v)
#define TE_TXT_UL_U(p, v) fastfmt_udec(p, v)
#define TE_TXT_U_UL(p, v) fastfmt_udec(p, v)
#define TE_TXT_COMM(p, v) te_strn(p, v, len[k++])
#define TE_TXT_STR TE_TXT_COMM
#define TE_TXT_STATE TE_TXT_COMM

/* A field into the record, at its member's offset and size */
#define TE_DAT_NUM(w, n, v) \
	tdw_put(w, offsetof(te_rec, n), (uint64_t)(v), sizeof(((te_rec *)0)->n))
#define TE_DAT_INT(w, n, v) TE_DAT_NUM(w, n, (int64_t)(v))
#define TE_DAT_INT03 TE_DAT_INT
#define TE_DAT_PID TE_DAT_INT
#define TE_DAT_UINT TE_DAT_NUM
#define TE_DAT_U32 TE_DAT_NUM
#define TE_DAT_ULONG TE_DAT_NUM
#define TE_DAT_U64 TE_DAT_NUM
#define TE_DAT_S64 TE_DAT_INT
#define TE_DAT_UL_U TE_DAT_NUM
#define TE_DAT_U_UL TE_DAT_NUM
#define TE_DAT_COMM(w, n, v) tdw_put_comm(w, offsetof(te_rec, n), v)
#define TE_DAT_STR(w, n, v) tdw_put_str(w, offsetof(te_rec, n), v)
#define TE_DAT_STATE(w, n, v) te_state(w, offsetof(te_rec, n), v)

static void te_state(struct tdw *w, size_t off, const char *letters)
{
	uint64_t x;

	if (tdw_task_state(letters, &x))
		tdw_put(w, off, x, 8);
}

/*
 * The room a line's fields need (the literals, the values): a string's
 * length is kept in @len, in the fields' order, for the text
 */
#define TF(kind, n) r += sizeof(" " #n "=") - 1 + TE_ROOM_##kind(a->n);
#define TFL(kind, n, lit) r += sizeof(lit) - 1 + TE_ROOM_##kind(a->n);
#define TE_EVENT(name, system, id, fmt, fields) \
	static inline size_t room_##name(const struct te_##name *a, \
					 size_t *len) \
	{ \
		size_t r = sizeof(#name ":\n") - 1; \
		int k = 0; \
\
		fields \
		(void)a; \
		(void)len; \
		(void)k; \
		return r; \
	}
#define TE_MARKER(name, lead, fields) \
	static inline size_t room_##name(const struct te_##name *a, \
					 size_t *len) \
	{ \
		size_t r = sizeof("tracing_mark_write:" lead "\n") - 1; \
		int k = 0; \
\
		fields \
		(void)a; \
		(void)len; \
		(void)k; \
		return r; \
	}
#include "trace_events.def"
#undef TF
#undef TFL

/* Each event's count of strings: its @len's size */
#define TF(kind, n) + TE_IS_STR_##kind
#define TFL(kind, n, lit) + TE_IS_STR_##kind
#define TE_EVENT(name, system, id, fmt, fields) \
	enum { nstr_##name = 1 fields };
#define TE_MARKER(name, lead, fields) \
	enum { nstr_##name = 1 fields };
#include "trace_events.def"
#undef TF
#undef TFL

/* The text: the event's name, its fields (@len: their strings') */
#define TF(kind, n) p = TE_LIT(p, " " #n "="); p = TE_TXT_##kind(p, a->n);
#define TFL(kind, n, lit) p = TE_LIT(p, lit); p = TE_TXT_##kind(p, a->n);
#define TE_EVENT(name, system, id, fmt, fields) \
	static inline char *text_##name(char *p, const struct te_##name *a, \
					const size_t *len) \
	{ \
		int k = 0; \
\
		p = TE_LIT(p, #name ":"); \
		fields \
		(void)len; \
		(void)k; \
		return p; \
	}
#define TE_MARKER(name, lead, fields) \
	static inline char *text_##name(char *p, const struct te_##name *a, \
					const size_t *len) \
	{ \
		int k = 0; \
\
		p = TE_LIT(p, "tracing_mark_write:" lead); \
		fields \
		(void)len; \
		(void)k; \
		return p; \
	}
#include "trace_events.def"
#undef TF
#undef TFL

/* The record's fields, each at its member's offset in te_rec (the
 * row's struct td_rec_NAME, tracedat_events.h) */
#define TF(kind, n) TE_DAT_##kind(w, n, a->n);
#define TFL(kind, n, lit) TF(kind, n)
#define TE_EVENT(name, system, id, fmt, fields) \
	static inline void dat_##name(struct tdw *w, \
				      const struct te_##name *a) \
	{ \
		typedef struct td_rec_##name te_rec; \
		fields \
	}
#include "trace_events.def"
#undef TF
#undef TFL

/* The record's task and time: the line's, at the µs the text prints */
static void dat_commit(struct ftrace_writer *w, int cpu, uint64_t ns,
		       const char *comm, int pid)
{
	tdw_comm(w->dat, pid, comm);
	if (tdw_commit(w->dat, cpu, (ns + w->clock_ns) / 1000 * 1000))
		w->dat_failed = true;
}

/* The line's task: @cpu's current, or its idle task */
static inline void line_task(const struct sim *s, int cpu, const char **comm,
			     int *pid)
{
	const struct sim_task *cur = s->cpus[cpu].curr;

	*comm = cur ? cur->comm : "<idle>";
	*pid = cur ? cur->pid : 0;
}

#define TE_EVENT(name, system, id, fmt, fields) \
void te_emit_##name(struct sim *s, int cpu, const struct te_##name *a) \
{ \
	struct ftrace_writer *w = &s->tr; \
	size_t len[nstr_##name]; \
	const char *comm; \
	char *p; \
	int pid; \
\
	line_task(s, cpu, &comm, &pid); \
	p = ftw_begin(w, s->now, cpu, comm, strlen(comm), pid, \
		      room_##name(a, len)); \
	if (!p) \
		return; \
	ftw_end(w, text_##name(p, a, len), s->now); \
	if (w->dat) { \
		tdw_begin(w->dat, &td_events[TD_ROW_##name], pid); \
		dat_##name(w->dat, a); \
		dat_commit(w, cpu, s->now, comm, pid); \
	} \
}
/* A marker's record is ftrace's print entry of its text (after the
 * "tracing_mark_write: ", the line's newline excluded) */
#define TE_MARKER(name, lead, fields) \
void te_emit_##name(struct sim *s, int cpu, const char *comm, int pid, \
		    const struct te_##name *a) \
{ \
	static const char head[] = "tracing_mark_write: "; \
	struct ftrace_writer *w = &s->tr; \
	size_t len[nstr_##name]; \
	char *p, *end; \
\
	p = ftw_begin(w, s->now, cpu, comm, strlen(comm), pid, \
		      room_##name(a, len)); \
	if (!p) \
		return; \
	end = text_##name(p, a, len); \
	if (w->dat) { \
		tdw_begin(w->dat, &td_events[TD_ROW_print], pid); \
		tdw_put_strn(w->dat, offsetof(struct td_rec_print, buf), \
			     p + sizeof(head) - 1, \
			     (size_t)(end - p) - (sizeof(head) - 1)); \
		dat_commit(w, cpu, s->now, comm, pid); \
	} \
	ftw_end(w, end, s->now); \
}
#include "trace_events.def"
