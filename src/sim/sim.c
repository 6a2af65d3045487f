// SPDX-License-Identifier: GPL-2.0
/*
 * The core of the simulated kernel: activate/deactivate (with the clamp
 * core's enqueue/dequeue), wake-up, block, schedule, time accounting,
 * the tick, schedutil's rate limit and frequency transitions, group writes,
 * and the event loop that drives them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "rtapp_markers.h"
#include "schedutil.h"
#include "sim.h"

#define IDLE_EXIT_STATE 4294967295U

void tvec_add(struct tvec *tv, struct sim_task *t)
{
	if (tv->n == tv->cap) {
		tv->cap = tv->cap ? 2 * tv->cap : 8;
		tv->v = xrealloc(tv->v, (size_t)tv->cap * sizeof(*tv->v));
	}
	tv->v[tv->n++] = t;
}

void tvec_del(struct tvec *tv, struct sim_task *t)
{
	int i;

	for (i = 0; i < tv->n; i++) {
		if (tv->v[i] == t) {
			memmove(&tv->v[i], &tv->v[i + 1],
				(size_t)(tv->n - i - 1) * sizeof(*tv->v));
			tv->n--;
			return;
		}
	}
}

void tvec_free(struct tvec *tv)
{
	free(tv->v);
	tv->v = NULL;
	tv->n = tv->cap = 0;
}

unsigned int sim_cur_capacity(const struct sim_cpu *c)
{
	return c->dom->pd->opps[c->dom->cur_opp].capacity;
}

int cpu_nr_running(const struct sim_cpu *c)
{
	return c->nr_running;
}

bool cpu_idle(const struct sim_cpu *c)
{
	return cpu_nr_running(c) == 0;
}

int task_kprio(const struct sim_task *t)
{
	return t->cls->kprio(t);
}

const char *const mig_reason_name[NR_MIG_REASONS] = {
	[MIG_WAKEUP] = "wakeup",
	[MIG_EAS] = "eas",
	[MIG_MISFIT] = "misfit",
	[MIG_PULL] = "pull",
	[MIG_PUSH] = "push",
	[MIG_AFFINITY] = "affinity",
};

/* @t ran @delta ns on @cpu: a task runs on few CPUs, most often its last */
static void account_cpu_time(struct sim_task *t, int cpu, uint64_t delta)
{
	struct cpu_time *ct;
	int i = t->last_cpu_time;

	if (i < t->ncpu_time && t->cpu_time[i].cpu == cpu) {
		t->cpu_time[i].ns += delta;
		return;
	}
	for (i = 0; i < t->ncpu_time; i++)
		if (t->cpu_time[i].cpu == cpu)
			break;
	if (i == t->ncpu_time) {
		if (t->ncpu_time == t->cap_cpu_time) {
			t->cap_cpu_time = t->cap_cpu_time ? 2 * t->cap_cpu_time : 2;
			t->cpu_time = xrealloc(t->cpu_time, (size_t)t->cap_cpu_time *
					       sizeof(*t->cpu_time));
		}
		ct = &t->cpu_time[t->ncpu_time++];
		ct->cpu = cpu;
		ct->ns = 0;
	}
	t->cpu_time[i].ns += delta;
	t->last_cpu_time = i;
}

const struct sim_class *const sim_classes[NR_SCHED_CLASSES] = {
	&dl_sched_class,
	&rt_sched_class,
	&fair_sched_class,
};

const struct sim_class *sim_policy_class(enum wl_policy pol)
{
	if (pol == WL_SCHED_DEADLINE)
		return &dl_sched_class;
	if (pol == WL_SCHED_FIFO || pol == WL_SCHED_RR)
		return &rt_sched_class;
	return &fair_sched_class;
}

/* Account the time since the last update on @c: work, vruntime, budget,
 * signals, energy. Idempotent at a given time. */
void sim_update_curr(struct sim *s, struct sim_cpu *c)
{
	uint64_t now = s->now, delta = now - c->last_update;
	unsigned int cap = sim_cur_capacity(c);
	struct sim_task *t = c->curr;
	bool running = t && t->state == TS_RUNNABLE;

	if (now < c->last_update)
		return;
	if (delta) {
		/* update_rq_clock() -> update_rq_clock_pelt(), c->curr's delta */
		sig_clock_advance(c, delta);
		if (running) {
			if (t->work == WORK_RUN) {
				uint64_t done = delta * cap;

				t->work_left -= done < t->work_left ? done :
						t->work_left;
			} else if (t->work == WORK_RUNTIME) {
				t->runtime_left -= delta < t->runtime_left ?
						   delta : t->runtime_left;
			}
			t->runtime_ns += delta;
			t->run_khz_ns += (double)delta *
				c->dom->pd->opps[c->dom->cur_opp].khz;
			account_cpu_time(t, c->id, delta);
			t->cls->update_curr(s, c, t, delta, cap);
			c->busy_ns[c->dom->cur_opp] += delta;
		} else {
			c->idle_ns[c->idle_state >= 0 ? c->idle_state : 0] +=
				delta;
		}
	}
	c->last_update = now;
}

/* enqueue_task(): the class, under the rq lock */
static void activate_class(struct sim *s, struct sim_cpu *c,
			   struct sim_task *t, int flags)
{
	raw_spin_lock(&c->lock);
	t->cpu = c->id;
	t->state = TS_RUNNABLE;
	t->cls->enqueue(s, c, t, flags);
	c->nr_running++;
	cpu_load_index_move(&s->load_idx, c->id, c->nr_running - 1,
			    c->nr_running);
	raw_spin_unlock(&c->lock);
}

/* enqueue_task(): the class, then the clamp core */
static void activate(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		     int flags)
{
	activate_class(s, c, t, flags);
	s->clamp->enqueue(s, c, t);
}

static void deactivate(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		       int flags)
{
	raw_spin_lock(&c->lock);
	t->cls->dequeue(s, c, t, flags);
	c->nr_running--;
	cpu_load_index_move(&s->load_idx, c->id, c->nr_running + 1,
			    c->nr_running);
	raw_spin_unlock(&c->lock);
	s->clamp->dequeue(s, c, t);
}

void sim_resched(struct sim *s, struct sim_cpu *c)
{
	uint64_t delay = 0;

	if (c->resched_pending)
		return;
	c->resched_pending = true;
	if (!c->curr && c->idle_state >= 0) {
		if (c->irq_until > s->now)
			delay = c->irq_until - s->now;	/* already waking up */
		else if (!c->irq_until || c->irq_until != s->now)
			delay = (uint64_t)c->dom->pd->idle[c->idle_state].exit_latency_us *
				NSEC_PER_USEC;
	}
	evq_push(&s->q, s->now + delay, EVK_RESCHED, c->id, ++c->resched_gen);
}

void sim_check_preempt(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	struct sim_task *curr = c->curr;

	/* wakeup_preempt(): a higher class always wins, the same class asks */
	if (!curr || curr->state != TS_RUNNABLE ||
	    sched_class_above(t->cls, curr->cls)) {
		sim_resched(s, c);
		return;
	}
	/*
	 * Two classes compared, not one named: the same test as
	 * wakeup_preempt()'s p->sched_class == rq->curr->sched_class
	 */
	if (t->cls == curr->cls && t->cls->check_preempt(s, c, t))
		sim_resched(s, c);
}

/*
 * A task changes CPU (set_task_cpu()): its class moves its share of the
 * runqueue signals with it (migrate_task_rq + attach at enqueue). As in
 * set_task_cpu(), the class's migrate_task_rq() runs before
 * __set_task_cpu(): migrate_task_rq_fair()'s remove_entity_load_avg()
 * syncs a waking task to its *source* cfs_rq's last update (and
 * pelt_se_tp names the source CPU); only then does it change CPU.
 */
static void move_signals(struct sim *s, struct sim_task *t,
			 struct sim_cpu *src, struct sim_cpu *dst)
{
	if (t->cls->migrate_signals)
		t->cls->migrate_signals(s, t, src, dst);
	t->cpu = dst->id;
}

static void trace_migrate(struct sim *s, struct sim_task *t, int from, int to,
			  int trace_cpu, enum mig_reason why)
{
	t->mig[why]++;
	trace_sched_migrate_task(s, trace_cpu, &(struct te_sched_migrate_task){
		.comm = t->comm, .pid = t->pid, .prio = task_kprio(t),
		.orig_cpu = from, .dest_cpu = to });
	t->migrations++;
}

void sim_migrate(struct sim *s, struct sim_task *t, struct sim_cpu *dst,
		 int trace_cpu, enum mig_reason why)
{
	struct sim_cpu *src = &s->cpus[t->cpu];

	if (src == dst)
		return;
	if (t->on_cpu) {
		/* active migration: preempt first, move once switched out */
		t->pending_migrate = dst->id;
		t->pending_reason = why;
		sim_resched(s, src);
		return;
	}
	sim_update_curr(s, src);
	sim_update_curr(s, dst);
	deactivate(s, src, t, DEQUEUE_MIGRATING);
	trace_migrate(s, t, src->id, dst->id, trace_cpu, why);
	move_signals(s, t, src, dst);
	activate(s, dst, t, ENQUEUE_MIGRATED);
	sim_check_preempt(s, dst, t);
	sim_cpufreq_update(s, src);
	sim_cpufreq_update(s, dst);
}

/* A wake-up starts a response unless one is still open (a task woken
 * again before it switched out asleep) */
static void resp_begin(struct sim *s, struct sim_task *t)
{
	if (t->resp_open)
		return;
	t->resp_open = true;
	t->resp_start_us = s->now / NSEC_PER_USEC;
	t->resp_start_ns = s->now;
}

void sim_wake(struct sim *s, struct sim_task *t, int waker_cpu,
	      const struct sim_task *waker)
{
	struct sim_cpu *dst;
	bool io, late;

	if (t->state != TS_SLEEPING)
		return;
	if (s->nchains)
		chains_woken(s, t, waker);
	io = t->iowait && t->cls->iowait_boost;	/* p->in_iowait */
	t->iowait = false;
	trace_sched_waking(s, waker_cpu, &(struct te_sched_waking){
		.comm = t->comm, .pid = t->pid, .prio = task_kprio(t),
		.target_cpu = t->cpu });
	resp_begin(s, t);
	if (t->wake_at)		/* its armed timer is disarmed */
		s->cpus[t->timer_cpu].nr_armed--;
	t->wake_gen++;
	t->wake_at = 0;
	dst = select_task_rq(s, t, false);
	if (dst->id != t->cpu) {
		trace_migrate(s, t, t->cpu, dst->id, waker_cpu, s->placed_by);
		move_signals(s, t, &s->cpus[t->cpu], dst);
	}
	sim_update_curr(s, dst);
	late = s->clamp->inc_after_class_update;
	if (late) {
		/*
		 * 6.12's enqueue_task(): the class's enqueue updates schedutil
		 * (cfs_rq_util_change() from update_load_avg(), the IOWAIT
		 * request, enqueue_top_rt_rq()) before uclamp_rq_inc() adds
		 * the task's clamps: that decision does not see them.
		 */
		activate_class(s, dst, t, ENQUEUE_WAKEUP);
		sim_cpufreq_update_flags(s, dst, io);
		s->clamp->enqueue(s, dst, t);
	} else {
		activate(s, dst, t, ENQUEUE_WAKEUP);
	}
	t->woken_at = s->now;
	t->latency_pending = true;
	t->wakeups++;
	trace_sched_wakeup(s, dst->id, &(struct te_sched_wakeup){
		.comm = t->comm, .pid = t->pid, .prio = task_kprio(t),
		.target_cpu = dst->id });
	sim_check_preempt(s, dst, t);
	/* enqueue_task_fair(): a task back from I/O asks for the boost */
	if (!late)
		sim_cpufreq_update_flags(s, dst, io);
}

struct timer_check {
	struct sim *s;
	int cpu;
};

/* Is the heap entry still a sleeping task's armed timer on this CPU? */
static bool timer_armed(void *ctx, const struct timer_entry *e)
{
	const struct timer_check *chk = ctx;
	const struct sim_task *t = chk->s->tasks[e->task];

	return t->state == TS_SLEEPING && t->wake_gen == e->gen &&
	       t->wake_at == e->at && t->timer_cpu == chk->cpu;
}

void sim_block(struct sim *s, struct sim_task *t, uint64_t until, char state)
{
	struct sim_cpu *c = &s->cpus[t->cpu];

	sim_update_curr(s, c);
	deactivate(s, c, t, DEQUEUE_SLEEP);
	t->state = TS_SLEEPING;
	t->sleep_state = state;
	t->work = WORK_NONE;
	if (until) {
		t->wake_gen++;
		t->wake_at = until;
		t->timer_cpu = c->id;
		timer_heap_push(&c->timers, until, t->idx, t->wake_gen);
		c->nr_armed++;
		/*
		 * A busy CPU never asks for its next timer: drop the stale
		 * entries once they are half the heap (amortized O(1)).
		 */
		if (c->timers.n > 2 * (size_t)c->nr_armed + 16) {
			struct timer_check chk = { s, c->id };

			timer_heap_compact(&c->timers, timer_armed, &chk);
		}
		evq_push(&s->q, until, EVK_TASK_WAKE, t->idx, t->wake_gen);
	}
	sim_resched(s, c);
	sim_cpufreq_update(s, c);
}

void sim_task_exit(struct sim *s, struct sim_task *t)
{
	struct sim_cpu *c = &s->cpus[t->cpu];

	sim_update_curr(s, c);
	deactivate(s, c, t, DEQUEUE_SLEEP);
	if (t->cls->task_dead)
		t->cls->task_dead(s, t);
	t->state = TS_DEAD;
	t->sleep_state = 'X';
	t->work = WORK_NONE;
	sim_resched(s, c);
	sim_cpufreq_update(s, c);
}

/* A task moves to another group (cgroup attach: sched_move_task()) */
void sim_set_group(struct sim *s, struct sim_task *t, struct host_group *g)
{
	if (t->group == g)
		return;
	t->group = g;
	s->clamp->move(s, t, g);
}

/*
 * The clamp core's host reports a CPU whose range changed: trace it (the
 * kernel face's cap_clamp_cpu event) and, when no enqueue or dequeue is
 * about to kick schedutil anyway, kick it (a group move or write).
 */
void sim_clamp_range_changed(void *ctx, unsigned int cpu,
			     enum clamp_host_cause cause)
{
	struct sim *s = ctx;
	struct sim_cpu *c = &s->cpus[cpu];
	struct cap_clamp_range r;

	clamp_host_range(&s->host, cpu, &r);
	trace_cap_clamp_cpu(s, c->id, &(struct te_cap_clamp_cpu){
		.cpu = c->id, .min = r.min, .max = r.max });
	if (cause == CLAMP_HOST_MOVE || cause == CLAMP_HOST_WRITE)
		sim_cpufreq_update(s, c);
}

/* sched_yield() of the running @t */
void sim_yield(struct sim *s, struct sim_task *t)
{
	t->cls->yield(s, &s->cpus[t->cpu], t);
}

/*
 * sched_setscheduler() / sched_setattr(): nothing to do when nothing
 * changes (__sched_setscheduler() returns early); else a queued task
 * leaves its class and the clamp core (DEQUEUE_SAVE), takes the new
 * policy and comes back (ENQUEUE_RESTORE), and the CPU reschedules.
 */
void sim_setscheduler(struct sim *s, struct sim_task *t, enum wl_policy pol,
		      int prio)
{
	struct sim_cpu *c = &s->cpus[t->cpu];
	bool queued = t->state == TS_RUNNABLE;

	if (pol == t->policy && prio == t->prio)
		return;
	if (queued) {
		sim_update_curr(s, c);
		deactivate(s, c, t, DEQUEUE_SAVE);
		if (t->on_cpu && t->cls->put_prev)
			t->cls->put_prev(s, c, t);
	}
	t->policy = pol;
	t->prio = prio;
	t->cls = sim_policy_class(pol);
	t->se.node.weight = cfs_weight(pol, prio);
	if (queued) {
		activate(s, c, t, ENQUEUE_RESTORE);
		if (t->on_cpu)
			t->cls->set_next(s, c, t);
		if (t->on_cpu)
			sim_resched(s, c);
		else
			sim_check_preempt(s, c, t);
		sim_cpufreq_update(s, c);
	}
}

/* sched_setaffinity(): a queued task on a CPU it may no longer use moves */
void sim_set_cpus_allowed(struct sim *s, struct sim_task *t, const int *cpus,
			  int ncpus)
{
	int i;

	if (t->allowed == s->all_cpus)	/* the shared mask: its own now */
		t->allowed = xcalloc((size_t)s->ncpus, sizeof(bool));
	for (i = 0; i < s->ncpus; i++)
		t->allowed[i] = false;
	for (i = 0; i < ncpus; i++)
		t->allowed[cpus[i]] = true;
	if (!t->allowed[t->cpu] && t->state == TS_RUNNABLE)
		sim_migrate(s, t, select_task_rq(s, t, false), t->cpu,
			    MIG_AFFINITY);
}

/* The deepest idle state worth entering before this CPU's next timer */
static int pick_idle_state(struct sim *s, struct sim_cpu *c)
{
	const struct pdomain *pd = c->dom->pd;
	const struct timer_entry *first;
	struct timer_check chk = { s, c->id };
	uint64_t next = UINT64_MAX;
	int i;

	first = timer_heap_first(&c->timers, timer_armed, &chk);
	if (first)
		next = first->at;
	for (i = pd->nidle - 1; i > 0; i--) {
		uint64_t res = (uint64_t)pd->idle[i].target_residency_us *
			       NSEC_PER_USEC;

		if (next == UINT64_MAX || next - s->now >= res)
			return i;
	}
	return 0;
}

static void arm_tick(struct sim *s, struct sim_cpu *c)
{
	uint64_t next;

	if (c->tick_armed)
		return;
	c->tick_armed = true;
	next = (s->now / s->tick_ns + 1) * s->tick_ns;
	evq_push(&s->q, next, EVK_TICK, c->id, ++c->tick_gen);
}

static void program_run_done(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *t = c->curr;
	unsigned int cap = sim_cur_capacity(c);
	uint64_t dt = UINT64_MAX;

	c->run_gen++;
	if (!t || t->state != TS_RUNNABLE)
		return;
	if (t->work == WORK_RUN)
		dt = (t->work_left + cap - 1) / cap;
	else if (t->work == WORK_RUNTIME)
		dt = t->runtime_left;
	if (t->cls->budget_ns) {
		uint64_t b = t->cls->budget_ns(t, cap);

		if (b < dt)
			dt = b;
	}
	if (dt != UINT64_MAX)
		evq_push(&s->q, s->now + dt, EVK_RUN_DONE, c->id, c->run_gen);
}

static struct sim_task *pick_next(struct sim *s, struct sim_cpu *c)
{
	const struct sim_class *cls;
	struct sim_task *t;

	for_each_class(cls) {
		t = cls->pick(s, c);
		if (t)
			return t;
	}
	return NULL;
}

static void switch_to(struct sim *s, struct sim_cpu *c, struct sim_task *prev,
		      struct sim_task *next)
{
	char pstate[3] = "R+";
	const char *idle_comm = c->idle_comm;

	if (!prev && c->idle_state >= 0 && next) {
		trace_cpu_idle(s, c->id, &(struct te_cpu_idle){
			.state = IDLE_EXIT_STATE, .cpu_id = (uint32_t)c->id });
		c->idle_state = -1;
		c->irq_until = 0;
	}
	if (prev && prev->state != TS_RUNNABLE) {
		pstate[0] = prev->sleep_state;
		pstate[1] = '\0';
	} else if (prev) {
		prev->preempted++;
	} else {
		pstate[1] = '\0';	/* the idle task is simply R */
	}
	trace_sched_switch(s, c->id, &(struct te_sched_switch){
		.prev_comm = prev ? prev->comm : idle_comm,
		.prev_pid = prev ? prev->pid : 0,
		.prev_prio = prev ? task_kprio(prev) : 120,
		.prev_state = pstate,
		.next_comm = next ? next->comm : idle_comm,
		.next_pid = next ? next->pid : 0,
		.next_prio = next ? task_kprio(next) : 120 });
	if (prev && pstate[0] != 'R' && prev->resp_open) {
		/* switched out asleep (or dead): the response ends */
		samples_add(&prev->resp, (int64_t)((s->now / NSEC_PER_USEC -
			    prev->resp_start_us) * NSEC_PER_USEC));
		prev->resp_open = false;
	}
	if (prev && pstate[0] != 'R' && s->nchains)
		chains_task_done(s, prev, pstate[0] == 'X');
	if (prev) {
		prev->on_cpu = false;
		if (prev->cls->put_prev)
			prev->cls->put_prev(s, c, prev);
	}
	if (!next) {
		int st = pick_idle_state(s, c);

		c->curr = NULL;
		sig_enter_idle(s, c);	/* set_next_task_idle() */

		c->idle_state = st;
		c->idle_calls++;
		trace_cpu_idle(s, c->id, &(struct te_cpu_idle){
			.state = (uint32_t)st, .cpu_id = (uint32_t)c->id });
		c->tick_gen++;
		c->tick_armed = false;
		return;
	}
	next->cls->set_next(s, c, next);	/* c->curr: still prev */
	c->curr = next;
	next->switches++;
	next->on_cpu = true;
	if (s->nchains)
		chains_task_in(s, next);
	if (next->latency_pending) {
		int64_t delay = (int64_t)(s->now - next->woken_at);

		samples_add(&next->wlat, delay);
		if (delay > next->wlat_max || !next->wlat_max_at) {
			next->wlat_max = delay;
			next->wlat_max_at = s->now;
		}
		next->latency_pending = false;
	}
	if (next->expired_at) {
		samples_add(&next->tlat, (int64_t)(s->now - next->expired_at));
		if (next->act_open && next->acts[next->nacts - 1].wu_lat_ns < 0)
			next->acts[next->nacts - 1].wu_lat_ns =
				(int64_t)(s->now - next->expired_at);
		next->expired_at = 0;
	}
}

/*
 * A reschedule asked for while this CPU is already scheduling is served by
 * the pick in progress: drop it and its pending event.
 */
static bool consume_resched(struct sim_cpu *c)
{
	if (!c->resched_pending)
		return false;
	c->resched_pending = false;
	c->resched_gen++;
	return true;
}

/*
 * __schedule(): pick, switch, continue the new task's events. A task that
 * blocks or yields in its first zero-time events gives the CPU up at once,
 * so the pick repeats (the need_resched loop of schedule()).
 */
static void schedule(struct sim *s, struct sim_cpu *c)
{
	int guard;

	c->resched_pending = false;
	sim_update_curr(s, c);
	for (guard = 0; guard < 1000; guard++) {
		struct sim_task *prev = c->curr, *next;

		if (prev && prev->state == TS_RUNNABLE &&
		    prev->pending_migrate >= 0) {
			/* the stopper's active migration: prev leaves now */
			int dst = prev->pending_migrate;

			prev->pending_migrate = -1;
			prev->on_cpu = false;
			sim_migrate(s, prev, &s->cpus[dst], c->id,
				    prev->pending_reason);
		}
		next = pick_next(s, c);
		if (!next)
			next = idle_balance(s, c);
		/* clear_tsk_need_resched(): this pick serves it */
		consume_resched(c);
		if (next != prev)
			switch_to(s, c, prev, next);
		if (!next)
			break;
		if (next->work == WORK_NONE) {
			task_continue(s, next);
			if (consume_resched(c) || next->state != TS_RUNNABLE ||
			    c->curr != next)
				continue;
		}
		break;
	}
	if (c->curr)
		arm_tick(s, c);
	program_run_done(s, c);
}

static void run_done(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *t = c->curr;

	sim_update_curr(s, c);
	if (!t || t->state != TS_RUNNABLE)
		return;
	if (t->cls->budget_expired && t->cls->budget_expired(s, c, t))
		return;
	if ((t->work == WORK_RUN && !t->work_left) ||
	    (t->work == WORK_RUNTIME && !t->runtime_left)) {
		t->work = WORK_NONE;
		task_continue(s, t);
	}
	if (c->curr == t && t->state == TS_RUNNABLE && !c->resched_pending)
		program_run_done(s, c);
}

static void tick(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *t = c->curr;
	bool resched = false;

	c->tick_armed = false;
	if (!t)
		return;
	sim_update_curr(s, c);
	if (t->state == TS_RUNNABLE) {
		if (t->cls->tick)
			resched = t->cls->tick(s, c);
	}
	if (resched)
		sim_resched(s, c);
	sig_tick_blocked(s, c);
	/* the overutilized flag of EAS (fair.c: cpu_overutilized) */
	sim_overutilized_tick(s);
	if (s->o.trace_util)
		trace_capsim_util(s, c->id, &(struct te_capsim_util){
			.cpu = c->id, .util_cfs = c->cfs.avg.util_avg,
			.util_rt = c->rt.avg.util_avg,
			.util_dl = c->dl.avg.util_avg,
			.bw_dl = (unsigned long)c->dl.running_bw,
			.task_util = task_util(s, t) });
	tick_balance(s, c);
	sim_cpufreq_update(s, c);
	if (c->curr)
		arm_tick(s, c);
}

static void apply_freq(struct sim *s, struct sim_domain *d)
{
	int i;

	d->freq_pending = false;
	if (d->next_opp == d->cur_opp)
		return;
	for (i = 0; i < d->pd->ncpus; i++)
		sim_update_curr(s, &s->cpus[d->pd->cpus[i]]);
	d->residency_ns[d->cur_opp] += s->now - d->last_change;
	d->last_change = s->now;
	d->cur_opp = d->next_opp;
	d->transitions++;
	/*
	 * cpufreq_driver_fast_switch() / the transition notifier loop over
	 * policy->cpus on the CPU that asked: every line in its context, its
	 * [cpu], cpu_id= each CPU of the domain. (With a transition latency
	 * the kernel's sugov:N kthread prints them; it is not modelled as a
	 * task, so the lines stay in the asking CPU's current context.)
	 */
	for (i = 0; i < d->pd->ncpus; i++)
		trace_cpu_frequency(s, d->freq_caller, &(struct te_cpu_frequency){
			.state = d->pd->opps[d->cur_opp].khz,
			.cpu_id = (uint32_t)d->pd->cpus[i] });
	for (i = 0; i < d->pd->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[d->pd->cpus[i]];

		if (c->curr && !c->resched_pending)
			program_run_done(s, c);
	}
}

/*
 * capsim_sugov_cpu (--trace-signals): each CPU's inputs to a decision, so
 * that the pure governor can replay it from the trace alone (xcheck level
 * 2); clamp_nr, the entities in the CPU's clamp aggregate (the host's
 * count), says whether the CPU counts in the RFC's domain rule
 */
static void trace_sugov_inputs(struct sim *s, struct sim_cpu *c,
			       const struct sugov_input *si)
{
	const struct pdomain *pd = c->dom->pd;

	for (int i = 0; i < si->ncpus; i++) {
		const struct sugov_cpu_input *x = &si->cpu[i];

		trace_capsim_sugov_cpu(s, c->id, &(struct te_capsim_sugov_cpu){
			.dom = pd->id, .cpu = pd->cpus[i],
			.util_cfs = x->util_cfs, .util_rt = x->util_rt,
			.util_dl = x->util_dl, .bw_dl = x->bw_dl,
			.rt_runnable = x->rt_runnable,
			.dl_runnable = x->dl_runnable, .idle = x->idle,
			.idle_calls = x->idle_calls,
			.clamp_min = x->clamp.min, .clamp_max = x->clamp.max,
			.rt_floor = x->rt_floor, .boost = x->boost,
			.clamp_nr = clamp_host_nr_queued(&s->host,
						(unsigned int)pd->cpus[i]) });
	}
}

void sim_cpufreq_update(struct sim *s, struct sim_cpu *c)
{
	sim_cpufreq_update_flags(s, c, false);
}

/*
 * cpufreq_update_util() -> schedutil: the governor (schedutil.c) decides
 * from the domain's signals and the clamp policy's values; this applies
 * its decision, at once or after the driver's transition latency.
 */
void sim_cpufreq_update_flags(struct sim *s, struct sim_cpu *c, bool iowait)
{
	struct sim_domain *d = c->dom;
	const struct pdomain *pd = d->pd;
	struct sugov_cpu_input *inp = d->gov_in;
	struct sugov_input si = { .order = s->o.order };
	struct sugov_decision dec;
	int i, caller = 0;
	bool changed, need;

	/* the energy model's estimate follows every update (energy.c) */
	em_sample(s, d);
	/* performance, powersave, userspace: no clamp, no decision */
	if (d->fixed_opp >= 0)
		return;
	/* sugov_update_{single_common,shared}(): before the rate limit */
	sugov_iowait_boost(&c->gov, &d->gov_params, s->now, iowait);
	sugov_ignore_dl_rate_limit(&d->gov, &c->gov, c->dl.running_bw);
	if (!sugov_should_update(&d->gov, &d->gov_params, s->now))
		return;
	si.scale = s->cpus[pd->cpus[0]].capacity;
	for (i = 0; i < pd->ncpus; i++) {
		struct sim_cpu *x = &s->cpus[pd->cpus[i]];

		sim_update_curr(s, x);
		/* sugov_get_util(): the signals as last updated */
		sim_cpu_util_input(x, cpu_util_cfs_boost(x), &inp[i]);
		inp[i].dl_runnable = x->dl.nr > 0;
		inp[i].idle = cpu_idle(x);
		inp[i].idle_calls = x->idle_calls;
		s->clamp->cpu_clamp(s, x, &inp[i], si.scale);
		inp[i].boost = sugov_iowait_apply(&x->gov, &d->gov_params,
						  s->now, c->capacity);
		if (x == c)
			caller = i;
	}
	si.max_khz = pd->opps[pd->nopps - 1].khz;
	si.ncpus = pd->ncpus;
	si.cpu = inp;
	si.domain_clamp = s->clamp->domain_range &&
			  s->clamp->domain_range(s, d, c->id, &si.range);
	need = d->gov.need_freq_update;
	changed = sugov_update(&d->gov, &d->gov_params, &si, caller, s->now,
			       &dec);
	for (i = 0; i < pd->ncpus; i++)	/* sg_cpu->bw_min */
		s->cpus[pd->cpus[i]].gov.bw_min = sugov_cpu_min(&si, i);
	if (s->o.trace_signals)
		trace_sugov_inputs(s, c, &si);
	/* every decision with --trace-signals, else the changes */
	if (changed || s->o.trace_signals)
		trace_capsim_sugov(s, c->id, &(struct te_capsim_sugov){
			.dom = pd->id, .util = dec.out.util,
			.perf = dec.out.perf, .min = dec.out.range.min,
			.max = dec.out.range.max, .target_khz = dec.out.khz,
			.khz = pd->opps[d->gov.next_opp].khz,
			.changed = changed, .caller = c->id,
			.cached_khz = d->gov.cached_raw_khz,
			.need_update = need });
	if (!changed)
		return;
	d->next_opp = dec.opp;
	d->freq_caller = c->id;
	if (dec.apply_at_ns == s->now) {
		apply_freq(s, d);
	} else if (!d->freq_pending) {
		d->freq_pending = true;
		evq_push(&s->q, dec.apply_at_ns, EVK_FREQ, d->idx,
			 ++d->freq_gen);
	}
}

/* A group's position in creation order ("/" is 0), its id in traces */
static int group_index(struct sim *s, const struct host_group *g)
{
	const struct host_group *x;
	int i = 0;

	list_for_each_entry(x, &s->host.groups, node) {
		if (x == g)
			return i;
		i++;
	}
	return -1;
}

/*
 * A capsim.events group write: the write (traced with its result, as the
 * kernel face traces cpu.capacity_* writes), then, if accepted, its
 * effect on the RUNNABLE tasks of the group.
 */
static void group_write_event(struct sim *s, int idx)
{
	const struct wl_group_event *ge = &s->wl->gevents[idx];
	struct host_group *g = clamp_host_group(&s->host, ge->group);
	struct group_write_log *log;
	int ret;

	ret = s->clamp->group_set(s, g, ge->attr ? CAP_CLAMP_MAX :
				   CAP_CLAMP_MIN, ge->value);
	/* the kernel face's cap_clamp_write; group: the creation index */
	trace_cap_clamp_write(s, 0, &(struct te_cap_clamp_write){
		.group = group_index(s, g), .path = g->path,
		.attr = ge->attr ? "capacity_max" : "capacity_min",
		.value = ge->value, .ret = ret,
		.min = g->cg.value[CAP_CLAMP_MIN],
		.max = g->cg.value[CAP_CLAMP_MAX] });
	s->gw = xrealloc(s->gw, (size_t)(s->ngw + 1) * sizeof(*s->gw));
	log = &s->gw[s->ngw++];
	log->at_ns = s->now;
	log->group = g->path;
	log->attr = ge->attr;
	log->value = ge->value;
	log->ret = ret;
	if (!ret)
		s->clamp->group_apply(s, g);
}

/*
 * A sleep or timer expires. Its hrtimer is on the CPU the task slept on;
 * if that CPU is in an idle state, the interrupt is only served once the
 * CPU has left it, so sched_waking and sched_wakeup come exit_latency_us
 * after the expiry (as in a kernel trace), and the wake-up onto that CPU
 * then has no further delay.
 */
static void timer_expiry(struct sim *s, struct sim_task *t, uint32_t gen)
{
	struct sim_cpu *c = &s->cpus[t->timer_cpu];

	if (t->wake_gen != gen || t->state != TS_SLEEPING)
		return;
	if (!t->expired_at)
		t->expired_at = s->now;
	if (!c->curr && c->idle_state >= 0) {
		uint64_t lat = (uint64_t)c->dom->pd->idle[c->idle_state].exit_latency_us *
			       NSEC_PER_USEC;

		if (c->irq_until < s->now)
			c->irq_until = s->now + lat;
		if (s->now < c->irq_until) {
			evq_push(&s->q, c->irq_until, EVK_TASK_WAKE, t->idx, gen);
			return;
		}
	}
	sim_wake(s, t, t->timer_cpu, NULL);
}

static void task_start(struct sim *s, struct sim_task *t)
{
	struct sim_cpu *c = select_task_rq(s, t, true);

	t->cpu = c->id;
	t->t_first = s->now;
	sim_update_curr(s, c);
	if (t->cls->task_new)
		t->cls->task_new(s, t, c);
	trace_sched_wakeup_new(s, c->id, &(struct te_sched_wakeup_new){
		.comm = t->comm, .pid = t->pid, .prio = task_kprio(t),
		.target_cpu = c->id });
	resp_begin(s, t);
	if (s->nchains)
		chains_task_started(s, t);
	activate(s, c, t, ENQUEUE_WAKEUP);
	t->woken_at = s->now;
	t->latency_pending = true;
	sim_check_preempt(s, c, t);
	sim_cpufreq_update(s, c);
}

/* The handler of each event kind: a stale generation is ignored */
static void on_task_start(void *m, const struct event *e)
{
	struct sim *s = m;

	task_start(s, s->tasks[e->obj]);
}

static void on_task_wake(void *m, const struct event *e)
{
	struct sim *s = m;

	timer_expiry(s, s->tasks[e->obj], e->gen);
}

static void on_run_done(void *m, const struct event *e)
{
	struct sim *s = m;

	if (s->cpus[e->obj].run_gen == e->gen)
		run_done(s, &s->cpus[e->obj]);
}

static void on_tick(void *m, const struct event *e)
{
	struct sim *s = m;

	if (s->cpus[e->obj].tick_gen == e->gen)
		tick(s, &s->cpus[e->obj]);
}

static void on_resched(void *m, const struct event *e)
{
	struct sim *s = m;

	if (s->cpus[e->obj].resched_gen == e->gen)
		schedule(s, &s->cpus[e->obj]);
}

static void on_freq(void *m, const struct event *e)
{
	struct sim *s = m;

	if (s->doms[e->obj].freq_gen == e->gen)
		apply_freq(s, &s->doms[e->obj]);
}

static void on_dl_replenish(void *m, const struct event *e)
{
	struct sim *s = m;
	struct sim_task *t = s->tasks[e->obj];

	if (t->dl.gen == e->gen)
		dl_replenish(s, t);
}

static void on_group_write(void *m, const struct event *e)
{
	group_write_event(m, e->obj);
}

/* The end is the run loop's own business (sim_run()) */
static void on_end(void *m, const struct event *e)
{
	(void)m;
	(void)e;
}

static ev_handler *const sim_handlers[NR_SIM_EVENTS] = {
	[EVK_END] = on_end,
	[EVK_TASK_START] = on_task_start,
	[EVK_TASK_WAKE] = on_task_wake,
	[EVK_RUN_DONE] = on_run_done,
	[EVK_TICK] = on_tick,
	[EVK_RESCHED] = on_resched,
	[EVK_FREQ] = on_freq,
	[EVK_DL_REPLENISH] = on_dl_replenish,
	[EVK_GROUP_WRITE] = on_group_write,
};

void sim_init_events(struct sim *s)
{
	evq_init(&s->q, sim_handlers, NR_SIM_EVENTS, s);
}

/*
 * Tasks that hand the CPU to each other without any of them taking time
 * (a barrier only they use, then a yield, in an endless loop) keep the
 * engine busy at one nanosecond for ever. The validator refuses a task
 * whose own loop takes no time; this is the same rule for tasks that
 * loop together: name the tasks woken in the second half of the stuck
 * events (@woken: their wake-up counts at its start), and stop the run
 * as failed.
 */
static void stuck_in_time(struct sim *s, uint64_t events,
			  const uint64_t *woken)
{
	struct strbuf sb;
	int i, n = 0;

	sb_init(&sb);
	for (i = 0; i < s->ntasks; i++) {
		if (s->tasks[i]->wakeups == woken[i])
			continue;
		if (n++ < 8)
			sb_printf(&sb, "%s%s", n > 1 ? ", " : "",
				  s->tasks[i]->name);
	}
	if (n > 8)
		sb_printf(&sb, " and %d more", n - 8);
	diag_report(s->diag, true, NULL, 0, 0,
		    "no simulated time passes: %llu events at %.6f s, waking %s: tasks that loop through barriers, yields or signals without run/sleep/timer?",
		    (unsigned long long)events, (double)s->now / 1e9,
		    n ? sb.buf : "no task");
	sb_free(&sb);
	s->failed = true;
}

int sim_run(struct sim *s, FILE *trace)
{
	/*
	 * Events at one nanosecond: a start puts a few per task and CPU
	 * there (fork, wake-up, pick, governor), far below 64 each.
	 */
	uint64_t same_ns = 0, same_ns_limit = 64 * (uint64_t)(s->ntasks +
							     s->ncpus);
	uint64_t same_ns_min = s->o.stuck_events_min ? s->o.stuck_events_min :
						       1 << 20;
	uint64_t *woken = NULL;	/* wake-up counts, once time stands */
	bool hit_end = false;
	struct event e;
	int i;

	if (same_ns_limit < same_ns_min)
		same_ns_limit = same_ns_min;
	s->tr.clock_ns = SIM_TRACE_CLOCK_NS;
	ftrace_writer_open(&s->tr, trace, s->ncpus, s->end);
	rtapp_mark_main(s, true);
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];

		trace_cpu_frequency(s, c->id, &(struct te_cpu_frequency){
			.state = c->dom->pd->opps[c->dom->cur_opp].khz,
			.cpu_id = (uint32_t)c->id });
	}
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];

		c->idle_state = pick_idle_state(s, c);
		trace_cpu_idle(s, c->id, &(struct te_cpu_idle){
			.state = (uint32_t)c->idle_state,
			.cpu_id = (uint32_t)c->id });
	}
	while (evq_pop(&s->q, &e) && !s->failed) {
		if (e.time > s->end) {
			hit_end = true;
			break;
		}
		if (e.time != s->now) {
			same_ns = 0;
		} else if (++same_ns == same_ns_limit / 2) {
			free(woken);
			woken = xcalloc((size_t)s->ntasks, sizeof(*woken));
			for (i = 0; i < s->ntasks; i++)
				woken[i] = s->tasks[i]->wakeups;
		} else if (same_ns > same_ns_limit) {
			stuck_in_time(s, same_ns, woken);
			break;
		}
		if (s->o.max_events && s->nevents == s->o.max_events)
			break;
		s->now = e.time;
		s->nevents++;
		if (s->progress && !(s->nevents & 0xffff))
			s->progress(s->progress_arg, s->now, s->end);
		if (e.kind == EVK_END) {
			hit_end = true;
			break;
		}
		evq_dispatch(&s->q, &e);
	}
	free(woken);
	if (hit_end)
		s->now = s->end;
	for (i = 0; i < s->ncpus; i++)
		sim_update_curr(s, &s->cpus[i]);
	for (i = 0; i < s->ndoms; i++) {
		struct sim_domain *d = &s->doms[i];

		d->residency_ns[d->cur_opp] += s->now - d->last_change;
		d->last_change = s->now;
		em_sample(s, d);
	}
	sim_overutilized_end(s);
	rtapp_mark_main(s, false);
	return ftrace_writer_close(&s->tr);
}
