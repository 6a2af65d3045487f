// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "perfetto_format.h"
#include "trace_reader.h"

char *pf_utoa(char *e, uint64_t u, unsigned int base, bool neg)
{
	char *s = e;

	do {
		*--s = "0123456789abcdef"[u % base];
		u /= base;
	} while (u);
	if (neg)
		*--s = '-';
	return s;
}

/* A copy of @s in the event's strings */
static char *keep(struct pf_out *p, const char *s, size_t n)
{
	char *d;

	if (p->used + n + 1 > p->cap) {
		/* the strings already handed out for this event stay where
		 * they are: grow only before the first (out_used 0) */
		if (p->used)
			return (char *)"";
		p->cap = n + 1 > 16384 ? n + 1 : 16384;
		free(p->buf);
		p->buf = malloc(p->cap);
		if (!p->buf)
			abort();
	}
	d = p->buf + p->used;
	memcpy(d, s, n);
	d[n] = '\0';
	p->used += n + 1;
	return d;
}

static void field(struct ftrace_event *ev, const char *key, const char *val)
{
	if (ev->nr_fields < FTRACE_MAX_FIELDS) {
		ev->fields[ev->nr_fields].key = key;
		ev->fields[ev->nr_fields].val = val;
		ev->nr_fields++;
	}
}

/* @v in decimal (or hex) into the event's strings */
static void field_num(struct pf_out *p, struct ftrace_event *ev,
		      const char *key, int64_t v, bool hex)
{
	char buf[24], *e = buf + sizeof(buf), *s;
	bool neg = !hex && v < 0;

	s = pf_utoa(e, neg ? -(uint64_t)v : (uint64_t)v, hex ? 16 : 10, neg);
	field(ev, key, keep(p, s, (size_t)(e - s)));
}

static void field_str(struct pf_out *p, const struct pf_strings *str,
		      struct ftrace_event *ev, const char *key, uint32_t id)
{
	const char *s = pf_str(str, id);

	field(ev, key, keep(p, s, strlen(s)));
}

static const char *const kind_names[] = {
	[PF_SWITCH] = "sched_switch", [PF_WAKEUP] = "sched_wakeup",
	[PF_WAKEUP_NEW] = "sched_wakeup_new", [PF_WAKING] = "sched_waking",
	[PF_MIGRATE] = "sched_migrate_task", [PF_FREQ] = "cpu_frequency",
	[PF_IDLE] = "cpu_idle", [PF_NEWTASK] = "task_newtask",
	[PF_RENAME] = "task_rename", [PF_PRINT] = "tracing_mark_write",
};

/* Each kind's fields in the kernel's order: "s0"/"s1" its strings,
 * "vN" its numbers ("xN" printed in hex, as the kernel prints them) */
static const char *const kind_fields[][8] = {
	[PF_SWITCH] = { "s0prev_comm", "v0prev_pid", "v1prev_prio",
			"v2prev_state", "s1next_comm", "v3next_pid",
			"v4next_prio" },
	[PF_WAKEUP] = { "s0comm", "v0pid", "v1prio", "v2target_cpu" },
	[PF_WAKEUP_NEW] = { "s0comm", "v0pid", "v1prio", "v2target_cpu" },
	[PF_WAKING] = { "s0comm", "v0pid", "v1prio", "v2target_cpu" },
	[PF_MIGRATE] = { "s0comm", "v0pid", "v1prio", "v2orig_cpu",
			 "v3dest_cpu" },
	[PF_FREQ] = { "v0state", "v1cpu_id" },
	[PF_IDLE] = { "v0state", "v1cpu_id" },
	[PF_NEWTASK] = { "v0pid", "s0comm", "x1clone_flags",
			 "v2oom_score_adj" },
	[PF_RENAME] = { "v0pid", "s0oldcomm", "s1newcomm",
			"v1oom_score_adj" },
};

void pf_format(struct pf_out *p, const struct pf_strings *str,
	       const struct pf_tasks *tasks, struct pf_ev *e,
	       struct ftrace_event *ev)
{
	const char *s;
	int i;

	p->used = 0;
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = e->ts;
	ev->cpu = e->cpu;
	ev->pid = e->pid;
	ev->cpu_col = ev->ts_col = 1;
	i = e->pid > 0 ? pf_task_find(tasks, e->pid) : -1;
	ev->tgid = i >= 0 ? tasks->tgid[i] : -1;
	s = e->pid ? pf_str(str, e->comm) : "<idle>";
	ev->comm = keep(p, s, strlen(s));
	if (e->kind == PF_GENERIC) {
		const char *b = e->blob;

		ev->name = b;
		b += strlen(b) + 1;
		for (i = 0; i < e->v[0]; i++) {
			const char *k = b, *v = k + strlen(k) + 1;

			field(ev, k, v);
			b = v + strlen(v) + 1;
		}
		return;
	}
	ev->name = kind_names[e->kind];
	if (e->kind == PF_PRINT) {
		char *body = e->blob;
		size_t n = strlen(body);

		/* a marker's text ends in the newline echo wrote */
		while (n && (body[n - 1] == '\n' || body[n - 1] == ' '))
			body[--n] = '\0';
		trace_marker_event(&body, ev);
		ftrace_split_fields(body, ev);
		return;
	}
	for (i = 0; i < 8 && kind_fields[e->kind][i]; i++) {
		const char *f = kind_fields[e->kind][i];
		int k = f[1] - '0';

		if (f[0] == 's' && (e->has & (1u << (5 + k))))
			field_str(p, str, ev, f + 2, e->s[k]);
		else if (f[0] != 's' && (e->has & (1u << k)))
			field_num(p, ev, f + 2, e->v[k], f[0] == 'x');
	}
}

void pf_out_free(struct pf_out *o)
{
	free(o->buf);
	*o = (struct pf_out){ 0 };
}
