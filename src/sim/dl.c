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
 * cpudl beyond wake-up placement and idle pull, admission per root domain.
 */
#include "sim.h"

/* dl_entity_overflow(): runtime / (deadline - now) > dl_runtime / dl_deadline */
static bool overflow(const struct sim_task *t, uint64_t now)
{
	unsigned __int128 left, right;

	if (t->dl_budget <= 0)
		return true;
	left = (unsigned __int128)t->dl_rel_deadline * (uint64_t)t->dl_budget;
	right = (unsigned __int128)(t->dl_deadline - now) * t->dl_runtime;
	return right < left;
}

void dl_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		bool wakeup)
{
	if (wakeup && !t->dl_throttled &&
	    (t->dl_deadline <= s->now || overflow(t, s->now))) {
		t->dl_deadline = s->now + t->dl_rel_deadline;
		t->dl_budget = (int64_t)t->dl_runtime;
	}
	c->running_bw += t->dl_bw;
	tvec_add(&c->q[CLS_DL], t);
}

void dl_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		bool sleep)
{
	(void)s;
	(void)sleep;
	c->running_bw -= t->dl_bw < c->running_bw ? t->dl_bw : c->running_bw;
	tvec_del(&c->q[CLS_DL], t);
}

struct sim_task *dl_pick(struct sim *s, struct sim_cpu *c)
{
	struct tvec *q = &c->q[CLS_DL];
	struct sim_task *best = NULL;
	int i;

	(void)s;
	for (i = 0; i < q->n; i++) {
		struct sim_task *t = q->v[i];

		if (t->dl_throttled)
			continue;
		if (!best || t->dl_deadline < best->dl_deadline)
			best = t;
	}
	return best;
}

bool dl_check_preempt(struct sim_cpu *c, struct sim_task *t)
{
	return c->curr->dl_throttled || t->dl_deadline < c->curr->dl_deadline;
}

void dl_update_curr(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		    uint64_t delta, unsigned int cap)
{
	(void)s;
	(void)c;
	if (t->dl_throttled)
		return;
	t->dl_budget -= (int64_t)(delta * cap / 1024);
}

void dl_throttle(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	uint64_t next = t->dl_deadline - t->dl_rel_deadline + t->dl_period;

	(void)c;
	t->dl_throttled = true;
	t->dl_throttles++;
	if (next <= s->now)
		next = s->now;
	evq_push(&s->q, next, EVK_DL_REPLENISH, t->idx, ++t->dl_gen);
}

/* replenish_dl_entity() from the replenishment timer */
void dl_replenish(struct sim *s, struct sim_task *t)
{
	struct sim_cpu *c = &s->cpus[t->cpu];

	if (!t->dl_throttled)
		return;
	sim_update_curr(s, c);
	t->dl_throttled = false;
	while (t->dl_budget <= 0) {
		t->dl_deadline += t->dl_period;
		t->dl_budget += (int64_t)t->dl_runtime;
	}
	if (t->dl_deadline <= s->now) {
		t->dl_deadline = s->now + t->dl_rel_deadline;
		t->dl_budget = (int64_t)t->dl_runtime;
	}
	if (t->state == TS_RUNNABLE)
		sim_check_preempt(s, c, t);
}

/* sched_yield() of a DEADLINE task gives up the rest of this period */
void dl_yield(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	sim_update_curr(s, c);
	t->dl_budget = 0;
	dl_throttle(s, c, t);
	sim_resched(s, c);
}
