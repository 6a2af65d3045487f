// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE: EDF over the non-throttled tasks, with the CBS rules of
 * kernel/sched/deadline.c: on wake-up a new deadline (now + dl_deadline)
 * and a full budget unless the old pair is still usable (not past, no
 * overflow); the budget is consumed in frequency- and capacity-scaled time
 * (dl_scaled_delta_exec()); an exhausted task is throttled until its next
 * period, then replenished (deadline += period, budget += runtime).
 * running_bw follows the queued DEADLINE tasks (the 0-lag timer of an
 * inactive task is not modelled). Not modelled: GRUB, push/pull by
 * cpudl beyond wake-up placement, admission per root domain.
 */
#include "sim.h"

#define for_each_dl_task(t, c) \
	list_for_each_entry(t, &(c)->dl.tasks, run_node)

/* dl_entity_overflow(): runtime / (deadline - now) > dl_runtime / dl_deadline */
static bool overflow(const struct sim_task *t, uint64_t now)
{
	unsigned __int128 left, right;

	if (t->dl.budget <= 0)
		return true;
	left = (unsigned __int128)t->dl.rel_deadline * (uint64_t)t->dl.budget;
	right = (unsigned __int128)(t->dl.deadline - now) * t->dl.runtime;
	return right < left;
}

static void enqueue_dl(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		       int flags)
{
	if ((flags & ENQUEUE_WAKEUP) && !t->dl.throttled &&
	    (t->dl.deadline <= s->now || overflow(t, s->now))) {
		t->dl.deadline = s->now + t->dl.rel_deadline;
		t->dl.budget = (int64_t)t->dl.runtime;
	}
	c->dl.running_bw += t->dl.bw;
	list_add_tail(&t->run_node, &c->dl.tasks);
	c->dl.nr++;
}

static void dequeue_dl(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		       int flags)
{
	(void)s;
	(void)flags;
	c->dl.running_bw -= t->dl.bw < c->dl.running_bw ? t->dl.bw :
			    c->dl.running_bw;
	list_del_init(&t->run_node);
	c->dl.nr--;
}

static struct sim_task *pick_dl(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *best = NULL, *t;

	(void)s;
	for_each_dl_task(t, c) {
		if (t->dl.throttled)
			continue;
		if (!best || t->dl.deadline < best->dl.deadline)
			best = t;
	}
	return best;
}

/*
 * set_next_task_dl(): the class starts running; if the previous task was
 * of this class, its put_prev already updated the signal
 */
static void set_next_dl(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	(void)t;
	if (!c->curr || c->curr->cls != &dl_sched_class)
		sig_update_dl(s, c, false);
}

/* put_prev_task_dl(): the time it ran counts as running */
static void put_prev_dl(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	(void)t;
	sig_update_dl(s, c, true);
}

/* task_tick_dl(): the signal; the budget has its own event */
static bool tick_dl(struct sim *s, struct sim_cpu *c)
{
	sig_update_dl(s, c, true);
	return false;
}

static bool check_preempt_dl(struct sim *s, struct sim_cpu *c,
			     struct sim_task *t)
{
	(void)s;
	return c->curr->dl.throttled || t->dl.deadline < c->curr->dl.deadline;
}

static void update_curr_dl(struct sim *s, struct sim_cpu *c,
			   struct sim_task *t, uint64_t delta,
			   unsigned int cap)
{
	(void)s;
	(void)c;
	if (t->dl.throttled)
		return;
	t->dl.budget -= (int64_t)(delta * cap / 1024);
}

static void throttle(struct sim *s, struct sim_task *t)
{
	uint64_t next = t->dl.deadline - t->dl.rel_deadline + t->dl.period;

	t->dl.throttled = true;
	t->dl.throttles++;
	if (next <= s->now)
		next = s->now;
	evq_push(&s->q, next, EVK_DL_REPLENISH, t->idx, ++t->dl.gen);
}

/* The budget in ns of running at @cap (dl_scaled_delta_exec() inverted) */
static uint64_t budget_ns_dl(const struct sim_task *t, unsigned int cap)
{
	if (t->dl.throttled)
		return UINT64_MAX;
	return t->dl.budget > 0 ?
	       ((uint64_t)t->dl.budget * 1024 + cap - 1) / cap : 0;
}

/* update_curr_dl() at budget exhaustion: throttle until the next period */
static bool budget_expired_dl(struct sim *s, struct sim_cpu *c,
			      struct sim_task *t)
{
	if (t->dl.budget > 0 || t->dl.throttled)
		return false;
	throttle(s, t);
	sim_resched(s, c);
	return true;
}

/* replenish_dl_entity() from the replenishment timer (engine event) */
void dl_replenish(struct sim *s, struct sim_task *t)
{
	struct sim_cpu *c = &s->cpus[t->cpu];

	if (!t->dl.throttled)
		return;
	sim_update_curr(s, c);
	t->dl.throttled = false;
	while (t->dl.budget <= 0) {
		t->dl.deadline += t->dl.period;
		t->dl.budget += (int64_t)t->dl.runtime;
	}
	if (t->dl.deadline <= s->now) {
		t->dl.deadline = s->now + t->dl.rel_deadline;
		t->dl.budget = (int64_t)t->dl.runtime;
	}
	if (t->state == TS_RUNNABLE)
		sim_check_preempt(s, c, t);
}

/* sched_yield() of a DEADLINE task gives up the rest of this period */
static void yield_dl(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	sim_update_curr(s, c);
	t->dl.budget = 0;
	throttle(s, t);
	sim_resched(s, c);
}

/*
 * select_task_rq_dl(), cpudl in spirit: stay if no DEADLINE task is
 * queued here, else a CPU with none, else the CPU running the latest
 * deadline later than ours.
 */
static struct sim_cpu *select_rq_dl(struct sim *s, struct sim_task *t,
				    struct sim_cpu *prev, bool fork)
{
	uint64_t dl = s->now + t->dl.rel_deadline, latest = 0;
	struct sim_cpu *best = NULL;
	int i;

	(void)fork;
	if (!prev->dl.nr)
		return prev;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(prev->id + i) % s->ncpus];

		if (t->allowed[c->id] && !c->dl.nr)
			return c;
	}
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(prev->id + i) % s->ncpus];
		struct sim_task *cur = c->curr;

		if (!t->allowed[c->id])
			continue;
		if (cur && cur->cls == &dl_sched_class &&
		    cur->dl.deadline > dl && cur->dl.deadline > latest) {
			latest = cur->dl.deadline;
			best = c;
		}
	}
	return best ? best : prev;
}

static struct list_head *dl_tasks(struct sim_cpu *c)
{
	return &c->dl.tasks;
}

static int kprio_dl(const struct sim_task *t)
{
	(void)t;
	return -1;
}

const struct sim_class dl_sched_class = {
	.name = "dl",
	.id = 0,
	.enqueue = enqueue_dl,
	.dequeue = dequeue_dl,
	.pick = pick_dl,
	.set_next = set_next_dl,
	.put_prev = put_prev_dl,
	.update_curr = update_curr_dl,
	.check_preempt = check_preempt_dl,
	.tick = tick_dl,
	.yield = yield_dl,
	.select_rq = select_rq_dl,
	.budget_ns = budget_ns_dl,
	.budget_expired = budget_expired_dl,
	.tasks = dl_tasks,
	.kprio = kprio_dl,
};
