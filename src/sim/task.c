// SPDX-License-Identifier: GPL-2.0
/*
 * The rt-app event machine: runs a task's phases, loops and events while
 * it holds a CPU. Zero-time events (lock, signal, timer set-up, ...) run
 * in place; an event that takes time either gives the task work (run,
 * runtime, mem) or blocks it (sleep, timer, iorun, lock, wait, barrier,
 * suspend). Semantics follow rt-app's src/rt-app.c: timers start at the
 * thread's first activation and add their period at each use; a late
 * relative timer restarts from now, an absolute one keeps its schedule.
 */
#include <stdlib.h>

#include "rtapp_markers.h"
#include "sim.h"

#define ZERO_TIME_LIMIT 100000

static void mutex_release(struct sim *s, int res, struct sim_task *t)
{
	struct res_state *r = &s->res[res];
	struct sim_task *next;

	if (r->owner != t)
		return;
	if (!r->waiters.n) {
		r->owner = NULL;
		return;
	}
	next = r->waiters.v[0];
	tvec_del(&r->waiters, next);
	r->owner = next;
	sim_wake(s, next, t->cpu, t);
}

/* A signalled cond waiter takes its mutex back before it may run */
static void cond_wake(struct sim *s, struct sim_task *w, struct sim_task *t)
{
	if (w->wait_mutex >= 0) {
		struct res_state *m = &s->res[w->wait_mutex];

		if (m->owner) {
			tvec_add(&m->waiters, w);
			return;
		}
		m->owner = w;
	}
	sim_wake(s, w, t->cpu, t);
}

/* The task's own "cpus", or every CPU if it has none */
static void task_back_to_own_cpus(struct sim *s, struct sim_task *t)
{
	const struct wl_attrs *own = &t->wt->attrs;
	int *all, i;

	if (own->cpus_set) {
		sim_set_cpus_allowed(s, t, own->cpus, own->ncpus);
		return;
	}
	all = xcalloc((size_t)s->ncpus, sizeof(*all));
	for (i = 0; i < s->ncpus; i++)
		all[i] = i;
	sim_set_cpus_allowed(s, t, all, s->ncpus);
	free(all);
}

/* A phase's attributes, as rt-app's set_thread_param() applies them */
void task_apply_attrs(struct sim *s, struct sim_task *t,
		      const struct wl_attrs *a)
{
	if (a->group_set)
		sim_set_group(s, t, clamp_host_group(&s->host, a->group));
	if (a->policy_set || a->prio_set)
		sim_setscheduler(s, t, a->policy_set ? a->policy : t->policy,
				 a->prio_set ? a->prio : t->prio);
	if (a->util_min_set || a->util_max_set) {
		/* sched_setattr() with SCHED_FLAG_UTIL_CLAMP_MIN/MAX */
		if (a->util_min_set) {
			t->uclamp_req[UCLAMP_MIN] = a->util_min;
			t->uclamp_user[UCLAMP_MIN] = true;
		}
		if (a->util_max_set) {
			t->uclamp_req[UCLAMP_MAX] = a->util_max;
			t->uclamp_user[UCLAMP_MAX] = true;
		}
		if (s->clamp->task_update)
			s->clamp->task_update(s, t);
	}
	if (a->cpus_set && a->ncpus)
		sim_set_cpus_allowed(s, t, a->cpus, a->ncpus);
	else if (a->cpus_set)	/* a phase without "cpus" (rt-app) */
		task_back_to_own_cpus(s, t);
}

void task_init_exec(struct sim *s, struct sim_task *t)
{
	(void)s;
	t->phase = t->phase_iter = t->ev = t->loop_iter = 0;
	t->phase_entered = false;
	t->work = WORK_NONE;
}

static uint64_t jitter(struct sim *s, uint64_t v)
{
	unsigned int pct = s->wl->run_jitter_pct;
	int64_t span, off;

	if (!pct || !v)
		return v;
	span = (int64_t)(v * pct / 100);
	if (!span)
		return v;
	off = (int64_t)(rng_next(&s->rng) % (uint64_t)(2 * span + 1)) - span;
	return (uint64_t)((int64_t)v + off);
}

/*
 * An activation (phase iteration) begins / ends: its record for
 * activations.csv, in rt-app's log terms (start, end, run time, period,
 * slack, wake-up latency), with the CPU and frequency it ended on, its
 * phase and the wake-up its work answers (docs/simulator.md).
 */
static void activation_begin(struct sim *s, struct sim_task *t)
{
	struct activation *a;

	if (!s->o.activations)
		return;
	if (t->nacts == t->cap_acts) {
		t->cap_acts = t->cap_acts ? 2 * t->cap_acts : 16;
		t->acts = xrealloc(t->acts, t->cap_acts * sizeof(*t->acts));
	}
	a = &t->acts[t->nacts++];
	a->start = s->now;
	a->end = 0;
	a->run_ns = t->runtime_ns;	/* made a difference at the end */
	a->period_ns = 0;
	a->slack_ns = 0;
	a->wu_lat_ns = -1;
	a->cpu = -1;
	a->khz = 0;
	a->phase = t->phase;
	a->wake_ns = 0;
	a->wake_set = false;
	t->act_open = true;
	t->act_starts_on_wake = false;
}

/*
 * The activation's first work (run, runtime, mem) answers the task's
 * latest wake-up: a timer's expiry, a sleep's end, a resume, its start.
 */
static void activation_work(struct sim_task *t)
{
	struct activation *a;

	if (!t->act_open)
		return;
	a = &t->acts[t->nacts - 1];
	if (a->wake_set)
		return;
	a->wake_ns = t->woken_at;
	a->wake_set = true;
}

/*
 * An activation that opens with a suspend waits for another task's
 * resume: its job starts then, not when the previous one ended (a chain's
 * second task would otherwise look as if it ran for the whole wait).
 * Called when the task runs again, so woken_at is the resume's time.
 */
static void activation_resumed(struct sim_task *t)
{
	if (!t->act_starts_on_wake)
		return;
	t->act_starts_on_wake = false;
	if (t->act_open)
		t->acts[t->nacts - 1].start = t->woken_at;
}

static void activation_end(struct sim *s, struct sim_task *t)
{
	struct activation *a;
	const struct sim_domain *d;

	if (!t->act_open)
		return;
	a = &t->acts[t->nacts - 1];
	d = s->cpus[t->cpu].dom;
	a->end = s->now;
	a->run_ns = t->runtime_ns - a->run_ns;
	a->slack_ns = t->slack_acc;
	a->cpu = t->cpu;
	a->khz = d->pd->opps[d->cur_opp].khz;
	t->act_open = false;
}

/* The task's slot for unique timer @res (set up by sim_create()) */
static struct task_timer *task_timer(struct sim_task *t, int res)
{
	int k;

	for (k = 0; k < t->ntimers; k++)
		if (t->timers[k].res == res)
			return &t->timers[k];
	return NULL;	/* not reached: every unique timer has its slot */
}

static void timer_event(struct sim *s, struct sim_task *t,
			const struct wl_event *e, bool *blocked)
{
	const struct wl_resource *wr = &s->wl->res[e->res];
	struct task_timer *own = wr->unique ? task_timer(t, e->res) : NULL;
	uint64_t *next = own ? &own->next : &s->res[e->res].t_next;
	bool *init = own ? &own->init : &s->res[e->res].t_init;
	int64_t slack;

	if (!*init) {
		*init = true;
		*next = t->t_first;
		chains_timer_armed(s, e->res, *next);
	}
	*next += e->us * NSEC_PER_USEC;
	if (t->act_open)
		t->acts[t->nacts - 1].period_ns = e->us * NSEC_PER_USEC;
	slack = (int64_t)*next - (int64_t)s->now;
	if (s->wl->cumulative_slack)
		t->slack_acc += slack;
	else
		t->slack_acc = slack;
	t->act_timed = true;
	t->timed = true;
	if (slack < 0)
		t->misses++;
	if (s->nchains)
		chains_timer_pass(s, t, e->res, *next, s->now < *next);
	if (s->now < *next) {
		sim_block(s, t, *next, 'S');
		t->iowait = false;
		*blocked = true;
	} else if (!e->absolute) {
		*next = s->now;
	}
}

void task_continue(struct sim *s, struct sim_task *t)
{
	const struct wl_task *wt = t->wt;
	int guard;

	for (guard = 0; guard < ZERO_TIME_LIMIT; guard++) {
		const struct wl_phase *ph;
		const struct wl_event *e;
		struct res_state *r;
		bool blocked = false;
		int i;

		if (t->state != TS_RUNNABLE || t->pending_migrate >= 0)
			return;
		activation_resumed(t);
		if (t->phase >= wt->nphases) {
			t->loop_iter++;
			if (wt->loop != -1 && t->loop_iter >= wt->loop) {
				rtapp_mark_task(s, t, false);
				sim_task_exit(s, t);
				return;
			}
			t->phase = 0;
			t->phase_iter = 0;
			t->ev = 0;
			t->phase_entered = false;
		}
		ph = &wt->phases[t->phase];
		if (!t->phase_entered) {
			t->phase_entered = true;
			task_apply_attrs(s, t, &ph->attrs);
			if (t->pending_migrate >= 0)
				return;
		}
		if (t->ev == 0) {
			if (!t->activations)
				rtapp_mark_task(s, t, true);
			t->activations++;
			t->slack_acc = 0;
			t->act_timed = false;
			t->loop_start_ns = s->now;
			rtapp_mark_loop(s, t, true);
			activation_begin(s, t);
		}
		if (t->ev >= ph->nev) {
			bool recorded = t->act_open;

			t->completed++;
			if (t->act_timed)
				samples_add(&t->slack, t->slack_acc);
			activation_end(s, t);
			rtapp_mark_loop(s, t, false);
			if (recorded)
				rtapp_mark_stats(s, t, &t->acts[t->nacts - 1]);
			t->phase_iter++;
			t->ev = 0;
			if (ph->loop != -1 && t->phase_iter >= ph->loop) {
				t->phase++;
				t->phase_iter = 0;
				t->phase_entered = false;
			}
			continue;
		}
		rtapp_mark_event(s, t, t->ev);
		e = &ph->ev[t->ev++];
		r = e->res >= 0 ? &s->res[e->res] : NULL;
		switch (e->type) {
		case WL_EV_RUN:
			activation_work(t);
			t->work_left = jitter(s, e->us * NSEC_PER_USEC) *
				       s->ref_capacity;
			if (!t->work_left)
				break;
			t->work = WORK_RUN;
			return;
		case WL_EV_MEM:
			activation_work(t);
			t->work_left = (uint64_t)((unsigned __int128)e->bytes *
						  NSEC_PER_SEC * 1024 /
						  s->wl->mem_bw);
			if (!t->work_left)
				break;
			t->work = WORK_RUN;
			return;
		case WL_EV_RUNTIME:
			activation_work(t);
			t->runtime_left = jitter(s, e->us * NSEC_PER_USEC);
			if (!t->runtime_left)
				break;
			t->work = WORK_RUNTIME;
			return;
		case WL_EV_SLEEP:
			if (!e->us)
				break;
			sim_block(s, t, s->now + e->us * NSEC_PER_USEC, 'S');
			return;
		case WL_EV_IORUN: {
			uint64_t d = (uint64_t)((unsigned __int128)e->bytes *
						NSEC_PER_SEC / s->wl->io_bw);

			if (!d)
				break;
			t->iowait = true;
			sim_block(s, t, s->now + d, 'D');
			return;
		}
		case WL_EV_TIMER:
			timer_event(s, t, e, &blocked);
			if (blocked)
				return;
			break;
		case WL_EV_YIELD:
			sim_yield(s, t);
			return;
		case WL_EV_LOCK:
			if (!r->owner || r->owner == t) {
				r->owner = t;
				break;
			}
			tvec_add(&r->waiters, t);
			sim_block(s, t, 0, 'S');
			return;
		case WL_EV_UNLOCK:
			mutex_release(s, e->res, t);
			break;
		case WL_EV_WAIT:
			t->wait_mutex = e->mutex;
			mutex_release(s, e->mutex, t);
			tvec_add(&r->waiters, t);
			sim_block(s, t, 0, 'S');
			return;
		case WL_EV_SIGNAL:
			if (r->waiters.n) {
				struct sim_task *w = r->waiters.v[0];

				tvec_del(&r->waiters, w);
				cond_wake(s, w, t);
			}
			break;
		case WL_EV_BROAD:
			while (r->waiters.n) {
				struct sim_task *w = r->waiters.v[0];

				tvec_del(&r->waiters, w);
				cond_wake(s, w, t);
			}
			break;
		case WL_EV_BARRIER:
			if (++r->count >= s->wl->res[e->res].users) {
				r->count = 0;
				for (i = 0; i < r->waiters.n; i++)
					sim_wake(s, r->waiters.v[i], t->cpu,
						 t);
				r->waiters.n = 0;
				break;
			}
			tvec_add(&r->waiters, t);
			sim_block(s, t, 0, 'S');
			return;
		case WL_EV_SUSPEND:
			/* the activation's first event (t->ev counts it) */
			if (t->ev == 1 && t->act_open)
				t->act_starts_on_wake = true;
			t->wait_mutex = -1;
			tvec_add(&r->waiters, t);
			sim_block(s, t, 0, 'S');
			return;
		case WL_EV_RESUME:
			if (r->waiters.n) {
				struct sim_task *w = r->waiters.v[0];

				tvec_del(&r->waiters, w);
				sim_wake(s, w, t->cpu, t);
			} else if (s->nchains) {
				/* a chain's next task still busy: lost */
				chains_resume_lost(s, t, e->res);
			}
			break;
		}
	}
	diag_report(s->diag, true, NULL, 0, 0,
		    "task %s makes no progress: %d zero-time events in a row at %.6f s (a loop without run/sleep/timer?)",
		    t->name, ZERO_TIME_LIMIT, (double)s->now / 1e9);
	s->failed = true;
	sim_task_exit(s, t);
}
