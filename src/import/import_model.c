// SPDX-License-Identifier: GPL-2.0
/*
 * The trace read once for `capsim import`, through src/trace's schedule
 * (sched_state.h): per task its activations (a wake-up to the next, with
 * the waker and the work done), the CPUs it ran on, its prio and busy
 * time, all inside the window. Running time becomes work as it is
 * accounted: at each end of a running interval and at each frequency
 * change under a running task (import_work.c says how).
 *
 * Memory: per task a record per activation in the window (64 bytes plus
 * the task's per-CPU work), per CPU nothing of its own: it grows with
 * activations, not with events (docs/import.md gives the figures).
 */
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "trace_reader.h"
#include "util.h"
#include "workload.h"

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Running time [@a, @b) of @t on @cpu at @khz, clipped to the window */
static void account(struct import_model *m, struct import_task *t, int cpu,
		    uint64_t a, uint64_t b, unsigned int khz)
{
	double w;
	uint64_t d;

	a = max64(max64(a, m->ws), t->acct);
	if (b > m->we)
		b = m->we;
	if (b <= a)
		return;
	t->acct = b;
	d = b - a;
	w = (double)d * import_capacity(m, cpu, khz) / 1024.0;
	t->work += w;
	t->busy_ns += d;
	if (!khz)
		t->unknown_khz_ns += d;
	if (cpu >= 0 && cpu < t->cpu_work_n) {
		t->cpu_work[cpu] += w;
		t->cpus_ran[cpu / 64] |= 1ULL << (cpu % 64);
	}
	if (t->nacts) {
		struct import_act *act = &t->acts[t->nacts - 1];

		act->work += w;
		act->wall += (double)d;
		act->unknown_khz |= !khz;
		act->end = b;
	} else {
		t->pre_work += w;
		t->pre_wall += (double)d;
	}
}

/* @t's running time up to now, when it runs */
static void account_now(struct import_model *m, struct import_task *t)
{
	int cpu = t->st.cpu;

	if (t->st.state == SCHED_RUNNING && cpu >= 0)
		account(m, t, cpu, t->st.since, m->ss.now,
			m->ss.cpus[cpu].khz);
}

static void on_task_new(void *arg, struct sched_task *st)
{
	struct import_model *m = arg;
	struct import_task *t = (struct import_task *)st;

	t->first_seen = max64(m->ss.now, m->ws);
	t->group = -1;
	t->waker = -1;
	t->partner = -1;
	t->start_acts = -1;
	t->cpu_work_n = m->ncpus;
	t->cpu_work = xcalloc((size_t)m->ncpus, sizeof(double));
}

static void on_interval(void *arg, const struct sched_task *st, uint64_t t0,
			uint64_t t1, enum sched_task_state state, int cpu)
{
	struct import_model *m = arg;

	if (state == SCHED_RUNNING && cpu >= 0)
		account(m, (struct import_task *)st, cpu, t0, t1,
			m->ss.cpus[cpu].khz);
}

/*
 * @prev switched out to sleep: its next wake-up opens an activation
 * again. Cleared when the sleep begins, not when its interval ends:
 * sched_state reports no interval of zero length, so a task woken by
 * sched_wakeup_new at the instant it appeared never ended a sleep, and
 * its first real wake-up was lost (one activation short per task).
 */
static void on_switched(void *arg, int cpu, struct sched_task *prev,
			const char *prev_state, struct sched_task *next)
{
	(void)arg;
	(void)cpu;
	(void)next;
	if (prev)
		import_uclamp_switched((struct import_task *)prev, prev_state);
	if (prev && prev->state == SCHED_SLEEPING)
		((struct import_task *)prev)->woken = false;
}

static void on_wakeup(void *arg, struct sched_task *st, int waker,
		      int target_cpu, bool waking)
{
	struct import_model *m = arg;
	struct import_task *t = (struct import_task *)st, *w = NULL;
	struct import_act *a;

	(void)target_cpu;
	(void)waking;
	/* the first of sched_waking/sched_wakeup of a sleeping task opens an
	 * activation (sched_state changes its state at the wake-up, not at
	 * the waking: t->woken says the waking was seen); the other one,
	 * and a wake-up of a runnable task, do not */
	if (st->state != SCHED_SLEEPING || t->woken || m->ss.now < m->ws ||
	    m->ss.now >= m->we)
		return;
	t->woken = true;
	if (waker > 0 && waker != st->pid)
		w = (struct import_task *)sched_state_find(&m->ss, waker);
	if (w) {
		account_now(m, w);
		if (w->nacts && w->acts[w->nacts - 1].work_at_wake < 0) {
			w->acts[w->nacts - 1].work_at_wake =
				w->acts[w->nacts - 1].work;
			w->acts[w->nacts - 1].wall_at_wake =
				w->acts[w->nacts - 1].wall;
		}
	}
	if (t->nacts == t->acts_cap) {
		/* from 1: most of 10^6 short-lived tasks wake once or
		 * twice, and 16 slots each were 1 GB */
		t->acts_cap = t->acts_cap ? 2 * t->acts_cap : 1;
		t->acts = xrealloc(t->acts, (size_t)t->acts_cap * sizeof(*a));
	}
	a = &t->acts[t->nacts++];
	*a = (struct import_act){ .wake = m->ss.now, .end = m->ss.now,
				  .work_at_wake = -1,
				  .wall_at_wake = -1,
				  .waker = w ? w->st.idx : -1,
				  .wake_delay = w ? 0 :
					import_wake_delay_ns(m, m->ev_cpu) };
}

static void on_idle(void *arg, int cpu, uint64_t t0, uint64_t t1,
		    int state)
{
	(void)t0;
	import_sleep_idle(arg, cpu, t1, state);
}

static int on_freq(void *arg, const struct ftrace_event *ev, int cpu,
		   uint64_t t0, uint64_t t1, unsigned int old_khz)
{
	struct import_model *m = arg;
	int c = m->ss.cpus[cpu].curr;
	struct import_task *t;

	(void)ev;
	if (c < 0)
		return 0;
	t = import_task(m, c);
	if (t->st.state == SCHED_RUNNING && t->st.cpu == cpu)
		account(m, t, cpu, max64(t0, t->st.since), t1, old_khz);
	return 0;
}

static int on_event(void *arg, const struct ftrace_event *ev)
{
	struct import_model *m = arg;

	if (!strcmp(ev->name, "sched_switch") && ev->ts_ns >= m->ws)
		m->switches++;
	if (!strncmp(ev->name, "cap_clamp_", 10))
		return import_clamp_event(m, ev);
	if (!strcmp(ev->name, "lisa__uclamp_util_se"))
		import_uclamp_event(m, ev);
	return 0;
}

static void say_no_switch(const struct import_model *m)
{
	fprintf(stderr,
		"%s: error: no sched_switch in the window: import rebuilds tasks "
		"from the scheduler's events; record them, e.g. `trace-cmd record "
		"-e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup "
		"-e sched:sched_wakeup_new -e power:cpu_frequency`, or widen "
		"--window\n", m->o->trace);
}

int import_read(struct import_model *m)
{
	struct trace_reader rd = { 0 };
	struct ftrace_event ev;
	uint64_t last = 0;
	bool beyond = false;	/* an event after the window was read */
	int k, ret = 0;

	k = trace_reader_open(&rd, m->o->trace);
	if (k)
		return k == TRACE_FILE_IO ? 1 : 2;
	m->ncpus = m->pl->ncpus < IMPORT_CPU_MAX ? m->pl->ncpus :
		   IMPORT_CPU_MAX;
	m->ss.ops = (struct sched_state_ops){
		.arg = m,
		.task_size = sizeof(struct import_task),
		.task_new = on_task_new,
		.interval = on_interval,
		.wakeup = on_wakeup,
		.switched = on_switched,
		.freq = on_freq,
		.idle = on_idle,
		.event = on_event,
	};
	m->idle_left = xmalloc((size_t)m->ncpus * sizeof(*m->idle_left));
	m->idle_left_at = xcalloc((size_t)m->ncpus, sizeof(*m->idle_left_at));
	for (k = 0; k < m->ncpus; k++)
		m->idle_left[k] = SCHED_IDLE_NONE;
	m->ss.cpu_limit = m->ncpus;
	m->ss.platform = m->pl->name;
	m->ss.platform_ncpus = m->pl->ncpus;
	m->ws = 0;
	m->we = UINT64_MAX;
	sched_state_init(&m->ss, &rd);
	sched_state_grow(&m->ss, m->ncpus - 1);
	while ((k = trace_reader_next(&rd, &ev)) > 0) {
		if (!m->started) {
			m->started = true;
			m->t0 = ev.ts_ns;
			m->ws = ev.ts_ns + (uint64_t)(m->o->from_s * 1e9);
			if (m->o->to_s >= 0)
				m->we = ev.ts_ns + (uint64_t)(m->o->to_s * 1e9);
		}
		if (ev.ts_ns > m->we) {
			beyond = true;
			break;
		}
		last = ev.ts_ns;
		m->ev_cpu = ev.cpu;
		if (sched_state_feed(&m->ss, &ev)) {
			ret = 2;
			break;
		}
	}
	if (k < 0)
		ret = k == TRACE_FILE_IO ? 1 : 2;
	if (!ret && m->we == UINT64_MAX) {
		m->we = last;
		m->window_open = true;
	}
	/* all of the trace read, and its last event before the window */
	if (!ret && (m->ws >= m->we || !m->started ||
		     (!beyond && last < m->ws))) {
		fprintf(stderr, "%s: error: the window starts at %.6f s, after the trace's last event (%.6f s from its start): choose an earlier --window\n",
			m->o->trace, m->o->from_s,
			m->started ? (double)(last - m->t0) / 1e9 : 0.0);
		ret = 2;
	}
	/* a task may run, sleep or wait for its first wake-up through the
	 * whole window, and each becomes one rt-app event: the window is
	 * bounded by the longest event a workload may hold, an hour (which
	 * also refuses a timestamp that jumps by years) */
	if (!ret && m->we - m->ws > (uint64_t)WL_EVENT_MAX_US * 1000) {
		fprintf(stderr, "%s: error: the window is %.0f s long, more than one imported run or sleep may last (%lld s): choose a --window of at most that\n",
			m->o->trace, (double)(m->we - m->ws) / 1e9,
			WL_EVENT_MAX_US / 1000000);
		ret = 2;
	}
	if (!ret) {
		import_uclamp_finish(m);
		sched_state_finish(&m->ss, m->we);
		if (!m->switches) {
			say_no_switch(m);
			ret = 2;
		}
	}
	if (!ret)
		ret = import_clamp_check(m);
	trace_reader_close(&rd);
	return ret;
}

void import_model_free(struct import_model *m)
{
	int i;

	for (i = 0; i < m->ss.ntasks; i++) {
		struct import_task *t = import_task(m, i);

		free(t->acts);
		free(t->cpu_work);
		free(t->name);
		free(t->resumes);
		free(t->phases);
		free(t->loop);
	}
	for (i = 0; i < m->nbarriers; i++)
		free(m->barriers[i].name);
	free(m->barriers);
	import_clamp_free(m);
	free(m->bg_work);
	free(m->idle_left);
	free(m->idle_left_at);
	sched_state_free(&m->ss);
}
