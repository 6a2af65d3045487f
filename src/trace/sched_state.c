// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_state.h"
#include "util.h"

/* cpu_idle's state when a CPU leaves idle: (u32)-1, PWR_EVENT_EXIT */
#define IDLE_EXIT 4294967295ULL

void sched_state_init(struct sched_state *ss, struct trace_reader *r)
{
	ss->reader = r;
	ss->path = r ? r->path : NULL;
	if (!ss->cpu_limit)
		ss->cpu_limit = SCHED_CPU_MAX;
}

int sched_state_bad(const struct sched_state *ss, const char *at,
		    const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%ld:%d: error: ", ss->path ? ss->path : "?",
		ss->reader ? ss->reader->lineno : 0L,
		ss->reader ? trace_reader_col(ss->reader, at) : 1);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return SCHED_BAD_INPUT;
}

/* A CPU the trace names: within the limit, or reported */
static int check_cpu(const struct sched_state *ss, long cpu, const char *at,
		     const char *what)
{
	if (cpu >= 0 && cpu < ss->cpu_limit)
		return 0;
	if (ss->platform)
		return sched_state_bad(ss, at, "%s %ld is beyond the platform's %d CPUs (%s)",
				       what, cpu, ss->platform_ncpus,
				       ss->platform);
	return sched_state_bad(ss, at, "%s %ld is out of range: allowed [0, %d] without a platform",
			       what, cpu, ss->cpu_limit - 1);
}

int sched_state_field_cpu(const struct sched_state *ss,
			  const struct ftrace_event *ev, const char *key,
			  int *out)
{
	int64_t v;

	if (!ftrace_get_i64(ev, key, &v))
		return 0;
	if (v < 0 || v >= ss->cpu_limit)
		return check_cpu(ss, (long)v, ftrace_get(ev, key), key);
	*out = (int)v;
	return 1;
}

int sched_state_field_pid(const struct sched_state *ss,
			  const struct ftrace_event *ev, const char *key,
			  int *out)
{
	int64_t v;

	if (!ftrace_get_i64(ev, key, &v))
		return 0;
	if (v < 0 || v > FTRACE_PID_MAX)
		return sched_state_bad(ss, ftrace_get(ev, key),
				       "%s=%s: a pid is in [0, %d] (the kernel's PID_MAX_LIMIT)",
				       key, ftrace_get(ev, key), FTRACE_PID_MAX);
	*out = (int)v;
	return 1;
}

void sched_state_grow(struct sched_state *ss, int cpu)
{
	int n = ss->ncpus;

	if (cpu < n)
		return;
	ss->ncpus = cpu + 1;
	ss->cpus = xrealloc(ss->cpus, (size_t)ss->ncpus * sizeof(*ss->cpus));
	/* a CPU's intervals start when it is first known (a platform's
	 * CPUs: before the trace, then from its first event) */
	for (int i = n; i < ss->ncpus; i++)
		ss->cpus[i] = (struct sched_cpu){ .curr = SCHED_CPU_UNKNOWN,
						  .idle = SCHED_IDLE_NONE,
						  .khz_since = ss->now,
						  .idle_since = ss->now };
	if (ss->ops.cpus_grown)
		ss->ops.cpus_grown(ss->ops.arg, n, ss->ncpus);
}

/* Remember @comm as a name of @t (systrace's "<...>" is no name) */
static void add_comm(struct sched_task *t, const char *comm)
{
	if (!comm || !*comm || !strcmp(comm, "<...>"))
		return;
	for (int i = t->ncomms - 1; i >= 0; i--)
		if (!strcmp(t->comms[i], comm))
			return;
	if (t->ncomms < SCHED_COMMS_MAX)
		t->comms[t->ncomms++] = xstrdup(comm);
}

struct sched_task *sched_state_find(const struct sched_state *ss, int pid)
{
	int i = pid_map_get(&ss->pids, pid);

	return i >= 0 ? ss->tasks[i] : NULL;
}

struct sched_task *sched_state_task(struct sched_state *ss, int pid,
				    const char *comm)
{
	size_t size = ss->ops.task_size > sizeof(struct sched_task) ?
		      ss->ops.task_size : sizeof(struct sched_task);
	struct sched_task *t;

	if (pid <= 0 || pid > FTRACE_PID_MAX)
		return NULL;
	t = sched_state_find(ss, pid);
	if (t) {
		add_comm(t, comm);
		return t;
	}
	t = xcalloc(1, size);
	t->pid = pid;
	t->idx = ss->ntasks;
	t->tgid = -1;
	t->prio = -1;
	t->comm = xstrdup(comm ? comm : "?");
	add_comm(t, comm);
	t->state = SCHED_SLEEPING;
	t->cpu = -1;
	t->since = ss->now;
	/* doubling: a trace of 100 000 pids must not copy the table at
	 * every new one */
	if (!(ss->ntasks & (ss->ntasks - 1)))
		ss->tasks = xrealloc(ss->tasks, (size_t)(ss->ntasks ? 2 * ss->ntasks : 1) *
				     sizeof(*ss->tasks));
	pid_map_put(&ss->pids, pid, ss->ntasks);
	ss->tasks[ss->ntasks++] = t;
	if (ss->ops.task_new)
		ss->ops.task_new(ss->ops.arg, t);
	return t;
}

/* @t is in @state from now (RUNNING: on @cpu); the interval it leaves is
 * reported */
static void set_state(struct sched_state *ss, struct sched_task *t,
		      enum sched_task_state state, int cpu)
{
	if (t->state == state && (state != SCHED_RUNNING || t->cpu == cpu))
		return;
	if (ss->now > t->since && ss->ops.interval)
		ss->ops.interval(ss->ops.arg, t, t->since, ss->now, t->state,
				 t->cpu);
	t->state = state;
	t->since = ss->now;
	if (state == SCHED_RUNNING) {
		if (t->cpu >= 0 && t->cpu != cpu && ss->ops.migrate)
			ss->ops.migrate(ss->ops.arg, t, t->cpu, cpu);
		t->cpu = cpu;
	}
}

/*
 * Field @key as a small decimal (a prio, -1 for a deadline task; a
 * target CPU), looked for first at index @at, where a normalized event
 * has it: true with *out set. Parsed here, as it is at every switch-in
 * and wake-up.
 */
static bool small_int(const struct ftrace_event *ev, const char *key, int at,
		      int *out)
{
	const char *s = at < ev->nr_fields && !strcmp(ev->fields[at].key, key) ?
			ev->fields[at].val : ftrace_get(ev, key);
	int v = 0, sign = 1;

	if (!s)
		return false;
	if (*s == '-') {
		sign = -1;
		s++;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = sign * v;
	return true;
}

/* A task's prio as the event says it: at its switch-in and its wake-up
 * (the switch-out's prev_prio repeats the switch-in's, unless a
 * priority change in between, which the next wake-up tells) */
static void take_prio(struct sched_task *t, const struct ftrace_event *ev,
		      const char *key, int at)
{
	int v;

	if (small_int(ev, key, at, &v))
		t->prio = v;
}

static int on_switch(struct sched_state *ss, const struct ftrace_event *ev)
{
	const char *st = ftrace_get(ev, "prev_state");
	struct sched_task *prev, *next;
	int ppid, npid, r;

	ss->switches++;
	if ((r = sched_state_field_pid(ss, ev, "prev_pid", &ppid)) <= 0 ||
	    (r = sched_state_field_pid(ss, ev, "next_pid", &npid)) <= 0)
		return r;
	prev = sched_state_task(ss, ppid, ftrace_get(ev, "prev_comm"));
	if (prev) {
		if (st && st[0] == 'R')
			set_state(ss, prev, SCHED_RUNNABLE, -1);
		else
			set_state(ss, prev, st && st[0] == 'X' ? SCHED_DEAD :
				  SCHED_SLEEPING, -1);
	}
	next = sched_state_task(ss, npid, ftrace_get(ev, "next_comm"));
	ss->cpus[ev->cpu].curr = next ? next->idx : SCHED_CPU_IDLE;
	if (next) {
		/* next_prio: the normalized switch's seventh field */
		take_prio(next, ev, "next_prio", 6);
		set_state(ss, next, SCHED_RUNNING, ev->cpu);
	}
	if (ss->ops.switched)
		ss->ops.switched(ss->ops.arg, ev->cpu, prev, st, next);
	return 0;
}

static int on_wake(struct sched_state *ss, const struct ftrace_event *ev,
		   bool waking)
{
	struct sched_task *t;
	int target, pid, r;

	if ((r = sched_state_field_pid(ss, ev, "pid", &pid)) <= 0)
		return r;
	t = sched_state_task(ss, pid, ftrace_get(ev, "comm"));
	if (!t)
		return 0;
	/* prio: the normalized wake-up's third field */
	take_prio(t, ev, "prio", 2);
	if (ss->ops.wakeup) {
		/* target_cpu: the normalized wake-up's fourth field */
		if (!small_int(ev, "target_cpu", 3, &target) || target < 0 ||
		    target >= ss->cpu_limit)
			target = -1;
		ss->ops.wakeup(ss->ops.arg, t, ev->pid, target, waking);
	}
	if (waking)
		return 0;
	if (t->state != SCHED_RUNNING)
		set_state(ss, t, SCHED_RUNNABLE, -1);
	return 0;
}

static int on_migrate(struct sched_state *ss, const struct ftrace_event *ev)
{
	struct sched_task *t;
	int pid, from, to, r;

	if ((r = sched_state_field_pid(ss, ev, "pid", &pid)) <= 0 ||
	    (r = sched_state_field_cpu(ss, ev, "orig_cpu", &from)) <= 0 ||
	    (r = sched_state_field_cpu(ss, ev, "dest_cpu", &to)) <= 0)
		return r;
	t = sched_state_task(ss, pid, ftrace_get(ev, "comm"));
	if (t && ss->ops.migrate)
		ss->ops.migrate(ss->ops.arg, t, from, to);
	return 0;
}

static int on_freq(struct sched_state *ss, const struct ftrace_event *ev)
{
	bool devlib = ev->name[13] != '\0';
	struct sched_cpu *c;
	unsigned int old;
	uint64_t since;
	int64_t v;
	int cpu, r;

	if ((r = sched_state_field_cpu(ss, ev, "cpu_id", &cpu)) <= 0)
		return r;
	if (!ftrace_get_i64(ev, "state", &v))
		return 0;
	if (v <= 0 || v > UINT32_MAX)
		return sched_state_bad(ss, ftrace_get(ev, "state"),
				       "state=%s: a frequency is in [1, %u] kHz",
				       ftrace_get(ev, "state"), UINT32_MAX);
	sched_state_grow(ss, cpu);
	c = &ss->cpus[cpu];
	/* devlib's markers stand in for the kernel's events only until
	 * the CPU has one of its own */
	if (devlib && c->kernel_freq)
		return 0;
	if (!devlib)
		c->kernel_freq = true;
	old = c->khz;
	since = old ? c->khz_since : ss->t_first;
	c->khz = (unsigned int)v;
	c->khz_since = ss->now;
	if (ss->ops.freq)
		return ss->ops.freq(ss->ops.arg, ev, cpu, since, ss->now, old);
	return 0;
}

static int on_idle(struct sched_state *ss, const struct ftrace_event *ev)
{
	struct sched_cpu *c;
	uint64_t since;
	int64_t v;
	int cpu, r, old;

	if ((r = sched_state_field_cpu(ss, ev, "cpu_id", &cpu)) <= 0)
		return r;
	if (!ftrace_get_i64(ev, "state", &v))
		return 0;
	sched_state_grow(ss, cpu);
	c = &ss->cpus[cpu];
	old = c->idle;
	since = c->idle_since > ss->t_first ? c->idle_since : ss->t_first;
	c->idle = (unsigned long long)v == IDLE_EXIT ? SCHED_IDLE_NONE : (int)v;
	c->idle_since = ss->now;
	if (ss->ops.idle)
		ss->ops.idle(ss->ops.arg, cpu, since, ss->now, old);
	return 0;
}

/* The event's own task: its tgid, when the trace says it (systrace) */
static void take_tgid(struct sched_state *ss, const struct ftrace_event *ev)
{
	struct sched_task *t;

	if (ev->tgid < 0 || ev->pid <= 0)
		return;
	t = sched_state_find(ss, ev->pid);
	if (t)
		t->tgid = ev->tgid;
}

int sched_state_feed(struct sched_state *ss, const struct ftrace_event *ev)
{
	int r = 0;

	if (ev->cpu >= ss->cpu_limit)
		return check_cpu(ss, ev->cpu, ss->reader && ss->reader->line ?
				 ss->reader->line + ev->cpu_col - 1 : NULL,
				 "CPU");
	if (!ss->started) {
		ss->started = true;
		ss->t_first = ev->ts_ns;
	}
	ss->now = ev->ts_ns;
	ss->events++;
	sched_state_grow(ss, ev->cpu);
	/* every event of the state is sched_* or cpu_*: the rest (most of a
	 * capsim trace) go to the consumer after one compare */
	if (ev->name[0] == 's' && !strncmp(ev->name, "sched_", 6)) {
		const char *n = ev->name + 6;

		if (!strcmp(n, "switch"))
			r = on_switch(ss, ev);
		else if (!strcmp(n, "waking"))
			r = on_wake(ss, ev, true);
		else if (!strcmp(n, "wakeup") || !strcmp(n, "wakeup_new"))
			r = on_wake(ss, ev, false);
		else if (!strcmp(n, "migrate_task"))
			r = on_migrate(ss, ev);
	} else if (ev->name[0] == 'c' && ev->name[1] == 'p' &&
		   !strncmp(ev->name, "cpu_", 4)) {
		const char *n = ev->name + 4;

		if (!strcmp(n, "frequency") || !strcmp(n, "frequency_devlib"))
			r = on_freq(ss, ev);
		else if (!strcmp(n, "idle"))
			r = on_idle(ss, ev);
	}
	if (r)
		return r;
	take_tgid(ss, ev);
	return ss->ops.event ? ss->ops.event(ss->ops.arg, ev) : 0;
}

void sched_state_finish(struct sched_state *ss, uint64_t end)
{
	if (end > ss->now)
		ss->now = end;
	for (int i = 0; i < ss->ntasks; i++)
		set_state(ss, ss->tasks[i], SCHED_DEAD, -1);
	for (int c = 0; c < ss->ncpus; c++) {
		struct sched_cpu *p = &ss->cpus[c];
		uint64_t since = p->idle_since > ss->t_first ?
				 p->idle_since : ss->t_first;

		if (ss->ops.idle && ss->now > since)
			ss->ops.idle(ss->ops.arg, c, since, ss->now, p->idle);
		p->idle_since = ss->now;
		/* an unknown frequency is so from the trace's start */
		since = p->khz ? p->khz_since : ss->t_first;
		if (ss->ops.freq && ss->now > since)
			ss->ops.freq(ss->ops.arg, NULL, c, since, ss->now,
				     p->khz);
		p->khz_since = ss->now;
	}
}

void sched_state_free(struct sched_state *ss)
{
	for (int i = 0; i < ss->ntasks; i++) {
		struct sched_task *t = ss->tasks[i];

		free(t->comm);
		for (int k = 0; k < t->ncomms; k++)
			free(t->comms[k]);
		free(t);
	}
	free(ss->tasks);
	free(ss->cpus);
	pid_map_free(&ss->pids);
	ss->tasks = NULL;
	ss->cpus = NULL;
	ss->ntasks = ss->ncpus = 0;
}
