// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_reader.h"
#include "trace_file.h"

#ifdef HAVE_PERFETTO
#include "capsim_perfetto.pb-c.h"
#include "perfetto_arena.h"
#include "perfetto_format.h"
#include "perfetto_inflate.h"
#include "perfetto_merge.h"
#include "perfetto_names.h"
#include "perfetto_wire.h"
#include "trace_reader.h"

/* include/uapi/linux/sched.h: a clone sharing its thread group */
#define CLONE_THREAD 0x00010000ull

struct cpu_now {
	int32_t pid;		/* the task running, from its last switch */
	int32_t prio;
	uint32_t comm;
	bool known;
};

struct trace_pf {
	const char *name;
	struct pf_stream st;
	struct pf_merge m;
	struct pf_strings str;
	struct pf_tasks tasks;
	struct cpu_now *cpus;
	int ncpus;
	struct pf_arena ar;
	struct pf_zbuf z;	/* a packet's compressed packets, inflated */
	uint64_t pkt_off;	/* the packet being decoded */
	bool inner;		/* ... one of them (its offset: inner_off) */
	uint64_t inner_off;
	bool eof;
	long lost;
	struct pid_map seqs;	/* the packet sequences seen (id -> 0) */
	uint32_t id_unknown;	/* "<...>" */
	/* the event handed out: its strings, its blob */
	struct pf_out out;
	char *blob;
	char err[512];
};

static int bad(struct trace_pf *p, uint64_t at, const char *msg)
{
	if (p->inner)	/* @at is in the inflated bytes */
		fprintf(stderr, "%s: byte %" PRIu64 ": error: Perfetto trace: in its compressed_packets, at byte %" PRIu64 " of them inflated: %s\n",
			p->name, p->pkt_off, at, msg);
	else
		fprintf(stderr, "%s: byte %" PRIu64 ": error: Perfetto trace: %s\n",
			p->name, at, msg);
	return TRACE_FILE_BAD;
}

/* A bad packet: its byte offset and what the trace should have said */
static int bad_pkt(struct trace_pf *p, const char *what)
{
	return bad(p, p->inner ? p->inner_off : p->pkt_off, what);
}

static int intern(struct trace_pf *p, const char *s, uint32_t *id)
{
	if (pf_intern(&p->str, s ? s : "", s ? strlen(s) : 0, id, p->err,
		      sizeof(p->err)))
		return bad_pkt(p, p->err);
	return 0;
}

/* Task @pid's table entry (not for pid 0, whose name is per CPU) */
static int task(struct trace_pf *p, int64_t pid, int *i)
{
	if (pid <= 0 || pid > FTRACE_PID_MAX) {
		*i = -1;
		return 0;
	}
	*i = pf_task(&p->tasks, (int)pid, p->err, sizeof(p->err));
	return *i < 0 ? bad_pkt(p, p->err) : 0;
}

/* @pid's name is now the string @id: "" and "<...>" (a name the
 * capture lost) are none, as the schedule takes them (sched_state.c) */
static int name_task_id(struct trace_pf *p, int64_t pid, uint32_t id)
{
	int i, k;

	if (id == p->id_unknown || !*pf_str(&p->str, id))
		return 0;
	if (!(k = task(p, pid, &i)) && i >= 0)
		p->tasks.comm[i] = id;
	return k;
}

/* ... the string @comm (none: nothing changes) */
static int name_task(struct trace_pf *p, int64_t pid, const char *comm)
{
	uint32_t id;
	int k;

	if (!comm || !*comm)
		return 0;
	if ((k = intern(p, comm, &id)))
		return k;
	return name_task_id(p, pid, id);
}

static int set_tgid(struct trace_pf *p, int64_t pid, int64_t tgid)
{
	int i, k;

	if (tgid <= 0 || tgid > FTRACE_PID_MAX)
		return 0;
	if ((k = task(p, pid, &i)) || i < 0)
		return k;
	p->tasks.tgid[i] = (int32_t)tgid;
	return 0;
}

/* The name @pid has now ("<...>": none given yet) */
static uint32_t comm_of(struct trace_pf *p, int64_t pid)
{
	int i = pid > 0 && pid <= FTRACE_PID_MAX ?
		pf_task_find(&p->tasks, (int)pid) : -1;

	return i >= 0 && p->tasks.comm[i] != PF_NOSTR ? p->tasks.comm[i] :
	       p->id_unknown;
}

static struct cpu_now *cpu_now(struct trace_pf *p, int cpu)
{
	if (cpu >= p->ncpus) {
		int n = p->ncpus ? p->ncpus : 8;

		while (n <= cpu)
			n *= 2;
		p->cpus = realloc(p->cpus, (size_t)n * sizeof(*p->cpus));
		if (!p->cpus)
			abort();
		memset(p->cpus + p->ncpus, 0, (size_t)(n - p->ncpus) * sizeof(*p->cpus));
		p->ncpus = n;
	}
	return &p->cpus[cpu];
}

static int push(struct trace_pf *p, struct pf_ev *ev)
{
	ev->off = p->pkt_off;
	if (pf_merge_push(&p->m, ev, p->err, sizeof(p->err)))
		return bad_pkt(p, p->err);
	return 0;
}

/* A comm field as an id: the event's own string, or "" when unsaid */
static int comm_field(struct trace_pf *p, const char *s, struct pf_ev *ev,
		      int slot)
{
	ev->has |= s ? 1u << (5 + slot) : 0;
	return intern(p, s, &ev->s[slot]);
}

static void num(struct pf_ev *ev, int i, bool has, int64_t v)
{
	if (has) {
		ev->v[i] = v;
		ev->has |= 1u << i;
	}
}

static int switch_event(struct trace_pf *p, const Pf__FtraceEvent *e,
			struct pf_ev *ev, struct cpu_now *now)
{
	const Pf__SchedSwitchFtraceEvent *s = e->sched_switch;
	int k;

	ev->kind = PF_SWITCH;
	if ((k = comm_field(p, s->prev_comm, ev, 0)) ||
	    (k = comm_field(p, s->next_comm, ev, 1)))
		return k;
	num(ev, 0, s->has_prev_pid, s->prev_pid);
	num(ev, 1, s->has_prev_prio, s->prev_prio);
	num(ev, 2, s->has_prev_state, s->prev_state);
	num(ev, 3, s->has_next_pid, s->next_pid);
	num(ev, 4, s->has_next_prio, s->next_prio);
	if ((s->prev_comm && (k = name_task_id(p, s->prev_pid, ev->s[0]))) ||
	    (s->next_comm && (k = name_task_id(p, s->next_pid, ev->s[1]))))
		return k;
	if (s->has_next_pid) {
		now->pid = s->next_pid;
		now->prio = s->next_prio;
		now->comm = ev->s[1];
		now->known = true;
	}
	return 0;
}

static int wake_event(struct trace_pf *p, const Pf__SchedWakeupFtraceEvent *w,
		      struct pf_ev *ev)
{
	int k;

	if ((k = comm_field(p, w->comm, ev, 0)))
		return k;
	num(ev, 0, w->has_pid, w->pid);
	num(ev, 1, w->has_prio, w->prio);
	num(ev, 2, w->has_target_cpu, w->target_cpu);
	return w->comm ? name_task_id(p, w->pid, ev->s[0]) : 0;
}

/* A generic event's blob: "NAME\0KEY\0VALUE\0..." */
static int generic_event(struct trace_pf *p, const Pf__GenericFtraceEvent *g,
			 struct pf_ev *ev)
{
	size_t n = 1, i, off = 0;
	char buf[32];

	if (!g->event_name || !*g->event_name)
		return bad_pkt(p, "a generic ftrace event without its event_name");
	n += strnlen(g->event_name, PF_STRING_MAX) + 1;
	for (i = 0; i < g->n_field; i++) {
		n += (g->field[i]->name ? strnlen(g->field[i]->name, PF_STRING_MAX) : 0) + 1;
		n += (g->field[i]->value_case == PF__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE ?
		      strnlen(g->field[i]->str_value, TRACE_LINE_MAX) : 24) + 1;
	}
	if (n > TRACE_LINE_MAX)
		return bad_pkt(p, "a generic ftrace event longer than a trace line may be (65536 bytes)");
	ev->kind = PF_GENERIC;
	ev->blob = malloc(n);
	if (!ev->blob)
		abort();
#define PUT(s, len) do { memcpy(ev->blob + off, (s), (len)); off += (len); \
			 ev->blob[off++] = '\0'; } while (0)
	PUT(g->event_name, strnlen(g->event_name, PF_STRING_MAX));
	for (i = 0; i < g->n_field && i < FTRACE_MAX_FIELDS; i++) {
		const Pf__GenericFtraceEvent__Field *f = g->field[i];
		const char *v = buf;
		char *e = buf + sizeof(buf) - 1;

		if (!f->name || !*f->name)
			continue;
		switch (f->value_case) {
		case PF__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE:
			v = f->str_value;
			break;
		case PF__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE:
			*e = '\0';
			v = pf_utoa(e, f->int_value < 0 ? -(uint64_t)f->int_value :
				 (uint64_t)f->int_value, 10, f->int_value < 0);
			break;
		case PF__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE:
			*e = '\0';
			v = pf_utoa(e, f->uint_value, 10, false);
			break;
		default:
			continue;
		}
		PUT(f->name, strnlen(f->name, PF_STRING_MAX));
		PUT(v, strnlen(v, TRACE_LINE_MAX));
		ev->v[0]++;
	}
#undef PUT
	return 0;
}

/* One of the bundle's full events */
static int full_event(struct trace_pf *p, const Pf__FtraceEvent *e, int cpu)
{
	struct cpu_now *now = cpu_now(p, cpu);
	struct pf_ev ev = { .ts = e->timestamp, .cpu = cpu };
	int k = 0, i;

	ev.pid = e->has_pid ? (int32_t)e->pid : 0;
	if (e->has_pid && e->pid > FTRACE_PID_MAX) {
		snprintf(p->err, sizeof(p->err),
			 "an ftrace event's pid %u is out of [0, %d]", e->pid,
			 FTRACE_PID_MAX);
		return bad_pkt(p, p->err);
	}
	ev.comm = ev.pid ? comm_of(p, ev.pid) : PF_NOSTR;
	switch (e->event_case) {
	case PF__FTRACE_EVENT__EVENT_SCHED_SWITCH:
		k = switch_event(p, e, &ev, now);
		/* the line's own comm is prev's, as it was */
		if (!k && ev.pid && (ev.has & (1u << 5)) &&
		    ev.v[0] == ev.pid)
			ev.comm = ev.s[0];
		break;
	case PF__FTRACE_EVENT__EVENT_SCHED_WAKEUP:
		ev.kind = PF_WAKEUP;
		k = wake_event(p, e->sched_wakeup, &ev);
		break;
	case PF__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW:
		ev.kind = PF_WAKEUP_NEW;
		k = wake_event(p, e->sched_wakeup_new, &ev);
		break;
	case PF__FTRACE_EVENT__EVENT_SCHED_WAKING:
		ev.kind = PF_WAKING;
		k = wake_event(p, e->sched_waking, &ev);
		break;
	case PF__FTRACE_EVENT__EVENT_SCHED_MIGRATE_TASK: {
		const Pf__SchedMigrateTaskFtraceEvent *m = e->sched_migrate_task;

		ev.kind = PF_MIGRATE;
		if ((k = comm_field(p, m->comm, &ev, 0)))
			break;
		num(&ev, 0, m->has_pid, m->pid);
		num(&ev, 1, m->has_prio, m->prio);
		num(&ev, 2, m->has_orig_cpu, m->orig_cpu);
		num(&ev, 3, m->has_dest_cpu, m->dest_cpu);
		break;
	}
	case PF__FTRACE_EVENT__EVENT_CPU_FREQUENCY:
		ev.kind = PF_FREQ;
		num(&ev, 0, e->cpu_frequency->has_state, e->cpu_frequency->state);
		num(&ev, 1, e->cpu_frequency->has_cpu_id, e->cpu_frequency->cpu_id);
		break;
	case PF__FTRACE_EVENT__EVENT_CPU_IDLE:
		ev.kind = PF_IDLE;
		num(&ev, 0, e->cpu_idle->has_state, e->cpu_idle->state);
		num(&ev, 1, e->cpu_idle->has_cpu_id, e->cpu_idle->cpu_id);
		break;
	case PF__FTRACE_EVENT__EVENT_TASK_NEWTASK: {
		const Pf__TaskNewtaskFtraceEvent *t = e->task_newtask;

		ev.kind = PF_NEWTASK;
		if ((k = comm_field(p, t->comm, &ev, 0)))
			break;
		num(&ev, 0, t->has_pid, t->pid);
		num(&ev, 1, t->has_clone_flags, (int64_t)t->clone_flags);
		num(&ev, 2, t->has_oom_score_adj, t->oom_score_adj);
		if (t->comm && (k = name_task_id(p, t->pid, ev.s[0])))
			break;
		/* a thread joins its creator's group, a process is its own */
		if (t->has_clone_flags && (t->clone_flags & CLONE_THREAD)) {
			i = ev.pid > 0 ? pf_task_find(&p->tasks, ev.pid) : -1;
			k = set_tgid(p, t->pid, i >= 0 ? p->tasks.tgid[i] : -1);
		} else if (t->has_clone_flags) {
			k = set_tgid(p, t->pid, t->pid);
		}
		break;
	}
	case PF__FTRACE_EVENT__EVENT_TASK_RENAME: {
		const Pf__TaskRenameFtraceEvent *t = e->task_rename;

		ev.kind = PF_RENAME;
		if ((k = comm_field(p, t->oldcomm, &ev, 0)) ||
		    (k = comm_field(p, t->newcomm, &ev, 1)))
			break;
		num(&ev, 0, t->has_pid, t->pid);
		num(&ev, 1, t->has_oom_score_adj, t->oom_score_adj);
		if (t->newcomm)
			k = name_task_id(p, t->pid, ev.s[1]);
		break;
	}
	case PF__FTRACE_EVENT__EVENT_PRINT: {
		const char *buf = e->print->buf ? e->print->buf : "";
		size_t n = strnlen(buf, TRACE_LINE_MAX + 1);

		if (n > TRACE_LINE_MAX)
			return bad_pkt(p, "a print (trace_marker) longer than a trace line may be (65536 bytes)");
		ev.kind = PF_PRINT;
		ev.blob = malloc(n + 1);
		if (!ev.blob)
			abort();
		memcpy(ev.blob, buf, n);
		ev.blob[n] = '\0';
		break;
	}
	case PF__FTRACE_EVENT__EVENT_GENERIC:
		k = generic_event(p, e->generic, &ev);
		break;
	default:
		return 0;	/* an event capsim does not read */
	}
	if (k) {
		free(ev.blob);
		return k;
	}
	return push(p, &ev);
}

static int bad_array(struct trace_pf *p, const char *what, size_t a, size_t b)
{
	snprintf(p->err, sizeof(p->err),
		 "compact_sched: %s arrays of different lengths (%zu and %zu): each holds one entry per event",
		 what, a, b);
	return bad_pkt(p, p->err);
}

static int bad_index(struct trace_pf *p, const char *what, size_t i,
		     uint32_t idx, size_t n)
{
	snprintf(p->err, sizeof(p->err),
		 "compact_sched: %s[%zu] = %u names an interned comm the bundle never defined (its intern_table has %zu)",
		 what, i, idx, n);
	return bad_pkt(p, p->err);
}

/* Delta-encoded timestamps: the next one, refused past 2^64 ns */
static int delta(struct trace_pf *p, uint64_t *ts, uint64_t d, size_t i)
{
	if (i && *ts > UINT64_MAX - d)
		return bad_pkt(p, "compact_sched: delta-encoded timestamps past 2^64 ns");
	*ts = i ? *ts + d : d;
	return 0;
}

static int compact_switch(struct trace_pf *p, const Pf__FtraceEventBundle__CompactSched *c,
			  size_t i, uint64_t ts, int cpu, const uint32_t *ids)
{
	struct cpu_now *now = cpu_now(p, cpu);
	struct pf_ev ev = { .ts = ts, .cpu = cpu, .kind = PF_SWITCH };
	int k;

	/* prev: what the CPU's previous switch put on it, if seen */
	ev.s[0] = now->known ? now->comm : p->id_unknown;
	ev.has = (1u << 5) | (1u << 6);
	num(&ev, 0, true, now->known ? now->pid : 0);
	num(&ev, 1, now->known, now->prio);
	num(&ev, 2, true, c->switch_prev_state[i]);
	ev.s[1] = ids[c->switch_next_comm_index[i]];
	num(&ev, 3, true, c->switch_next_pid[i]);
	num(&ev, 4, true, c->switch_next_prio[i]);
	ev.pid = (int32_t)ev.v[0];
	if (ev.pid < 0 || ev.pid > FTRACE_PID_MAX)
		ev.pid = 0;
	ev.comm = ev.pid ? ev.s[0] : PF_NOSTR;
	if ((k = name_task_id(p, ev.v[3], ev.s[1])))
		return k;
	now->pid = (int32_t)ev.v[3];
	now->prio = (int32_t)ev.v[4];
	now->comm = ev.s[1];
	now->known = true;
	return push(p, &ev);
}

static int compact_waking(struct trace_pf *p, const Pf__FtraceEventBundle__CompactSched *c,
			  size_t i, uint64_t ts, int cpu, const uint32_t *ids)
{
	struct cpu_now *now = cpu_now(p, cpu);
	struct pf_ev ev = { .ts = ts, .cpu = cpu, .kind = PF_WAKING };
	int k;

	/* the waker is the task running on the CPU (unknown: pid 0) */
	ev.pid = now->known && now->pid > 0 && now->pid <= FTRACE_PID_MAX ?
		 now->pid : 0;
	ev.comm = ev.pid ? now->comm : PF_NOSTR;
	ev.s[0] = ids[c->waking_comm_index[i]];
	ev.has = 1u << 5;
	num(&ev, 0, true, c->waking_pid[i]);
	num(&ev, 1, true, c->waking_prio[i]);
	num(&ev, 2, true, c->waking_target_cpu[i]);
	if ((k = name_task_id(p, ev.v[0], ev.s[0])))
		return k;
	return push(p, &ev);
}

/*
 * A bundle: its full events and its compact switches and wakings merged
 * by timestamp (each in order already; at one timestamp full events,
 * then wakings, then switches), so that each compact event sees the task
 * its CPU runs at that instant
 */
static int bundle(struct trace_pf *p, const Pf__FtraceEventBundle *b)
{
	const Pf__FtraceEventBundle__CompactSched *c = b->compact_sched;
	size_t ne = b->n_event, ns = 0, nw = 0, ie = 0, is = 0, iw = 0, i;
	uint64_t ts_s = 0, ts_w = 0;
	uint32_t *ids = NULL;
	int cpu, k = 0;

	if (!b->has_cpu)
		return bad_pkt(p, "an ftrace bundle without its cpu");
	if (b->cpu > PF_CPU_MAX) {
		snprintf(p->err, sizeof(p->err),
			 "an ftrace bundle of CPU %u: CPUs are in [0, %d]",
			 b->cpu, PF_CPU_MAX);
		return bad_pkt(p, p->err);
	}
	cpu = (int)b->cpu;
	if (b->has_lost_events && b->lost_events)
		p->lost++;
	for (i = 0; i < ne; i++)
		if (!b->event[i]->has_timestamp)
			return bad_pkt(p, "an ftrace event without its timestamp");
	if (c) {
		ns = c->n_switch_timestamp;
		nw = c->n_waking_timestamp;
		if (c->n_switch_prev_state != ns || c->n_switch_next_pid != ns ||
		    c->n_switch_next_prio != ns || c->n_switch_next_comm_index != ns)
			return bad_array(p, "switch_*", ns,
					 c->n_switch_prev_state != ns ? c->n_switch_prev_state :
					 c->n_switch_next_pid != ns ? c->n_switch_next_pid :
					 c->n_switch_next_prio != ns ? c->n_switch_next_prio :
					 c->n_switch_next_comm_index);
		if (c->n_waking_pid != nw || c->n_waking_target_cpu != nw ||
		    c->n_waking_prio != nw || c->n_waking_comm_index != nw)
			return bad_array(p, "waking_*", nw,
					 c->n_waking_pid != nw ? c->n_waking_pid :
					 c->n_waking_target_cpu != nw ? c->n_waking_target_cpu :
					 c->n_waking_prio != nw ? c->n_waking_prio :
					 c->n_waking_comm_index);
		for (i = 0; i < ns; i++)
			if (c->switch_next_comm_index[i] >= c->n_intern_table)
				return bad_index(p, "switch_next_comm_index", i,
						 c->switch_next_comm_index[i],
						 c->n_intern_table);
		for (i = 0; i < nw; i++)
			if (c->waking_comm_index[i] >= c->n_intern_table)
				return bad_index(p, "waking_comm_index", i,
						 c->waking_comm_index[i],
						 c->n_intern_table);
		ids = malloc((c->n_intern_table + 1) * sizeof(*ids));
		if (!ids)
			abort();
		for (i = 0; i < c->n_intern_table && !k; i++)
			k = intern(p, c->intern_table[i], &ids[i]);
		if (!k && ns)
			k = delta(p, &ts_s, c->switch_timestamp[0], 0);
		if (!k && nw)
			k = delta(p, &ts_w, c->waking_timestamp[0], 0);
	}
	while (!k && (ie < ne || is < ns || iw < nw)) {
		uint64_t te = ie < ne ? b->event[ie]->timestamp : UINT64_MAX;

		if (ie < ne && (is >= ns || te <= ts_s) && (iw >= nw || te <= ts_w)) {
			k = full_event(p, b->event[ie++], cpu);
		} else if (iw < nw && (is >= ns || ts_w <= ts_s)) {
			k = compact_waking(p, c, iw, ts_w, cpu, ids);
			if (!k && ++iw < nw)
				k = delta(p, &ts_w, c->waking_timestamp[iw], iw);
		} else {
			k = compact_switch(p, c, is, ts_s, cpu, ids);
			if (!k && ++is < ns)
				k = delta(p, &ts_s, c->switch_timestamp[is], is);
		}
	}
	free(ids);
	return k;
}

/* The base name of a command line's first word, 15 bytes as a comm */
static void cmd_comm(const char *cmd, char comm[16])
{
	const char *s = strrchr(cmd, '/');

	s = s ? s + 1 : cmd;
	snprintf(comm, 16, "%s", s);
}

/* A process's name where its main thread has none yet */
static int name_process(struct trace_pf *p, int64_t pid, const char *name,
			char **cmdline, size_t ncmd)
{
	char comm[16];
	int i, k;

	if ((k = set_tgid(p, pid, pid)) || pid <= 0 || pid > FTRACE_PID_MAX)
		return k;
	i = pf_task_find(&p->tasks, (int)pid);
	if (i >= 0 && p->tasks.comm[i] != PF_NOSTR)
		return 0;
	if (name && *name)
		return name_task(p, pid, name);
	if (ncmd && cmdline[0] && *cmdline[0]) {
		cmd_comm(cmdline[0], comm);
		return name_task(p, pid, comm);
	}
	return 0;
}

static int descriptors(struct trace_pf *p, const Pf__ProcessDescriptor *pd,
		       const Pf__ThreadDescriptor *td)
{
	int k = 0;

	if (pd && pd->has_pid)
		k = name_process(p, pd->pid, pd->process_name, pd->cmdline,
				 pd->n_cmdline);
	if (!k && td && td->has_tid && td->tid > 0 && td->tid <= FTRACE_PID_MAX) {
		if (td->has_pid)
			k = set_tgid(p, td->tid, td->pid);
		if (!k)
			k = name_task(p, td->tid, td->thread_name);
	}
	return k;
}

static int process_tree(struct trace_pf *p, const Pf__ProcessTree *t)
{
	size_t i;
	int k = 0;

	for (i = 0; i < t->n_processes && !k; i++)
		if (t->processes[i]->has_pid)
			k = name_process(p, t->processes[i]->pid, NULL,
					 t->processes[i]->cmdline,
					 t->processes[i]->n_cmdline);
	for (i = 0; i < t->n_threads && !k; i++) {
		const Pf__ProcessTree__Thread *th = t->threads[i];

		if (!th->has_tid)
			continue;
		if (th->has_tgid)
			k = set_tgid(p, th->tid, th->tgid);
		if (!k)
			k = name_task(p, th->tid, th->name);
	}
	return k;
}

/* The service's word that packets of the packet's sequence were lost
 * (ring-buffer mode overwrote them): it also marks each sequence's first
 * packet, which is no loss */
static int sequence(struct trace_pf *p, const Pf__TracePacket *tp)
{
	if (!tp->has_trusted_packet_sequence_id)
		return 0;
	if (pid_map_get(&p->seqs, (int)tp->trusted_packet_sequence_id) < 0) {
		if (p->seqs.n >= PF_TASKS_MAX)
			return bad_pkt(p, "more than 262144 packet sequences: not a trace capsim reads");
		pid_map_put(&p->seqs, (int)tp->trusted_packet_sequence_id, 0);
		return 0;
	}
	if (tp->has_previous_packet_dropped && tp->previous_packet_dropped)
		p->lost++;
	return 0;
}

/* Whether a packet holds anything capsim reads (its top-level fields
 * looked at without decoding): most of a phone's are track events,
 * frame timelines, stats. A malformed one is decoded, to be reported. */
static bool wanted(const uint8_t *pkt, size_t len)
{
	const uint8_t *q = pkt, *end;
	uint64_t tag, v;

	/* an empty packet (no bytes, no buffer) holds nothing */
	if (!len)
		return false;
	end = pkt + len;

	while (q < end) {
		if (!pf_varint(&q, end, &tag))
			return true;
		switch (tag >> 3) {
		case 1: case 2: case 42: case 43: case 44: case 50: case 60:
			return true;
		}
		switch (tag & 7) {
		case 0:
			if (!pf_varint(&q, end, &v))
				return true;
			break;
		case 1:
			q += 8;
			break;
		case 5:
			q += 4;
			break;
		case 2:
			if (!pf_varint(&q, end, &v) || v > (uint64_t)(end - q))
				return true;
			q += v;
			break;
		default:
			return true;
		}
	}
	return q != end;
}

static int inflated(struct trace_pf *p, const ProtobufCBinaryData *c);

/* One packet's bytes, @base the offset of its first (in the file, or in
 * the inflated bytes of a compressed one) */
static int decode_packet(struct trace_pf *p, const uint8_t *pkt, size_t len,
			 uint64_t base)
{
	Pf__TracePacket *tp;
	uint64_t at;
	int k = 0;

	if (!wanted(pkt, len))
		return 0;
	pf_arena_reset(&p->ar, false);
	tp = pf__trace_packet__unpack(&p->ar.alloc, len, pkt);
	if (!tp) {
		if (!pf_check(&pf__trace_packet__descriptor, pkt, len, base,
			      &at, p->err, sizeof(p->err)))
			return bad(p, at, p->err);
		return bad_pkt(p, p->ar.full ?
			       "a packet that decodes into more than 512 MiB (or more memory than there is): not a trace capsim reads" :
			       "a packet protobuf-c cannot decode");
	}
	k = sequence(p, tp);
	if (!k && tp->process_tree)
		k = process_tree(p, tp->process_tree);
	if (!k && (tp->process_descriptor || tp->thread_descriptor))
		k = descriptors(p, tp->process_descriptor, tp->thread_descriptor);
	if (!k && tp->track_descriptor)
		k = descriptors(p, tp->track_descriptor->process,
				tp->track_descriptor->thread);
	if (!k && tp->ftrace_events)
		k = bundle(p, tp->ftrace_events);
	if (!k && tp->has_compressed_packets) {
		if (p->inner)
			return bad_pkt(p, "compressed_packets inside compressed_packets");
		k = inflated(p, &tp->compressed_packets);
	}
	return k;
}

/* A packet's compressed packets: inflated, then each decoded */
static int inflated(struct trace_pf *p, const ProtobufCBinaryData *c)
{
	const uint8_t *q, *end;
	uint64_t tag, n;
	int k = 0;

	if (pf_inflate(&p->z, c->data, c->len, p->err, sizeof(p->err)))
		return bad_pkt(p, p->err);
	q = p->z.buf;
	end = q + p->z.len;
	p->inner = true;
	while (!k && q < end) {
		const uint8_t *rec = q;

		p->inner_off = (uint64_t)(rec - p->z.buf);
		if (!pf_varint(&q, end, &tag) || tag != 0x0a ||
		    !pf_varint(&q, end, &n) || n > (uint64_t)(end - q)) {
			k = bad_pkt(p, "expected a TracePacket (field 1, length-delimited) running no further than the inflated bytes");
			break;
		}
		k = decode_packet(p, q, (size_t)n, (uint64_t)(q - p->z.buf));
		q += n;
	}
	p->inner = false;
	return k;
}

static int read_packet(struct trace_pf *p)
{
	const uint8_t *pkt;
	uint64_t at;
	size_t len;
	int k;

	k = pf_stream_next(&p->st, &pkt, &len, &at, p->err, sizeof(p->err));
	if (k <= 0) {
		if (k == TRACE_FILE_IO)
			fprintf(stderr, "capsim: error reading %s: %s\n",
				p->name, p->err);
		else if (k == TRACE_FILE_BAD)
			return bad(p, at, p->err);
		if (!k)
			p->eof = true;
		return k;
	}
	p->pkt_off = at;
	k = decode_packet(p, pkt, len, p->st.off - len);
	return k ? k : 1;
}

struct trace_pf *trace_pf_open(FILE *f, const char *name)
{
	struct trace_pf *p = calloc(1, sizeof(*p));

	if (!p)
		abort();
	p->name = name;
	pf_stream_init(&p->st, f);
	pf_arena_init(&p->ar);
	if (pf_intern(&p->str, "<...>", 5, &p->id_unknown, p->err,
		      sizeof(p->err)))
		abort();
	{
		uint8_t seen[(PF_CPU_MAX + 8) / 8] = { 0 };

		pf_scan_cpus(f, seen, PF_CPU_MAX);
		for (int c = 0; c <= PF_CPU_MAX; c++)
			if (seen[c / 8] & (1u << (c % 8)))
				pf_merge_expect(&p->m, c);
	}
	return p;
}

void trace_pf_close(struct trace_pf *p)
{
	pf_stream_free(&p->st);
	pf_merge_free(&p->m);
	pf_strings_free(&p->str);
	pf_tasks_free(&p->tasks);
	pid_map_free(&p->seqs);
	pf_arena_reset(&p->ar, true);
	pf_zbuf_free(&p->z);
	free(p->cpus);
	pf_out_free(&p->out);
	free(p->blob);
	free(p);
}

int trace_pf_next(struct trace_pf *p, struct ftrace_event *ev, long *where,
		  long *lost)
{
	struct pf_ev e;
	int c, k;

	free(p->blob);
	p->blob = NULL;
	while ((c = pf_merge_ready(&p->m, p->eof)) < 0) {
		if (p->eof)
			return 0;
		if ((k = read_packet(p)) < 0)
			return k;
		*lost = p->lost;
	}
	pf_merge_pop(&p->m, c, &e);
	p->blob = e.blob;
	*where = (long)e.off;
	pf_format(&p->out, &p->str, &p->tasks, &e, ev);
	return 1;
}

#else /* !HAVE_PERFETTO: the guest's static runner, text only */

struct trace_pf *trace_pf_open(FILE *f, const char *name)
{
	(void)f;
	fprintf(stderr, "capsim: %s is a Perfetto protobuf trace: this build reads none (it has no protobuf-c)\n",
		name);
	return NULL;
}

int trace_pf_next(struct trace_pf *p, struct ftrace_event *ev, long *where,
		  long *lost)
{
	(void)p, (void)ev, (void)where, (void)lost;
	return 0;
}

void trace_pf_close(struct trace_pf *p)
{
	(void)p;
}

#endif
