// SPDX-License-Identifier: GPL-2.0
/*
 * CFS as 6.12 runs it, simplified: EEVDF with one base slice per task.
 * Virtual time advances at delta * NICE_0 / weight; a task is eligible when
 * its vruntime is at or below the weighted average; the eligible task with
 * the earliest virtual deadline runs; with RUN_TO_PARITY the running task
 * keeps the CPU until its deadline passes. Lag is saved at dequeue (clamped
 * as update_entity_lag() does) and restored at enqueue (place_entity(),
 * PLACE_LAG and PLACE_DEADLINE_INITIAL). Not modelled: group scheduling,
 * DELAY_DEQUEUE, custom slices.
 */
#include "sim.h"

/* kernel/sched/core.c: sched_prio_to_weight[], nice -20 .. 19 */
static const unsigned long prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
};

#define NICE_0_LOAD 1024UL
#define WEIGHT_IDLEPRIO 3UL

unsigned long cfs_weight(enum wl_policy pol, int nice)
{
	if (pol == WL_SCHED_IDLE)
		return WEIGHT_IDLEPRIO;
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	return prio_to_weight[nice + 20];
}

static int64_t calc_delta_fair(uint64_t delta, const struct sim_task *t)
{
	return (int64_t)(delta * NICE_0_LOAD / t->weight);
}

/* The weighted average vruntime of the queue (avg_vruntime()) */
static int64_t avg_vruntime(const struct sim_cpu *c)
{
	const struct tvec *q = &c->q[CLS_CFS];
	int64_t v0, sum = 0;
	uint64_t w = 0;
	int i;

	if (!q->n)
		return c->cfs_avg;
	v0 = q->v[0]->vruntime;
	for (i = 0; i < q->n; i++) {
		sum += (q->v[i]->vruntime - v0) * (int64_t)q->v[i]->weight;
		w += q->v[i]->weight;
	}
	/* round towards -inf, as the kernel does for negative sums */
	if (sum < 0)
		sum -= (int64_t)w - 1;
	return v0 + sum / (int64_t)w;
}

static bool eligible(const struct sim_cpu *c, const struct sim_task *t)
{
	const struct tvec *q = &c->q[CLS_CFS];
	int64_t v0 = t->vruntime, sum = 0;
	uint64_t w = 0;
	int i;

	for (i = 0; i < q->n; i++) {
		sum += (q->v[i]->vruntime - v0) * (int64_t)q->v[i]->weight;
		w += q->v[i]->weight;
	}
	(void)w;
	return sum >= 0;
}

void cfs_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		 bool wakeup)
{
	struct tvec *q = &c->q[CLS_CFS];
	int64_t avg = avg_vruntime(c), lag = t->vlag, vslice;
	uint64_t W = 0;
	int i;

	(void)wakeup;
	for (i = 0; i < q->n; i++)
		W += q->v[i]->weight;
	/* PLACE_LAG: inflate the lag by the weight the entity adds */
	if (W)
		lag = lag * (int64_t)(W + t->weight) / (int64_t)W;
	t->vruntime = avg - lag;
	vslice = calc_delta_fair(s->base_slice_ns, t);
	/* PLACE_DEADLINE_INITIAL for a new task: half a slice */
	if (t->state == TS_NEW || !t->wakeups)
		vslice /= 2;
	t->deadline = t->vruntime + vslice;
	t->protect = false;
	tvec_add(q, t);
}

void cfs_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		 bool sleep)
{
	int64_t avg = avg_vruntime(c), limit;
	uint64_t span = 2 * s->base_slice_ns;

	(void)sleep;
	if (span < s->tick_ns)
		span = s->tick_ns;
	limit = calc_delta_fair(span, t);
	t->vlag = avg - t->vruntime;
	if (t->vlag > limit)
		t->vlag = limit;
	if (t->vlag < -limit)
		t->vlag = -limit;
	tvec_del(&c->q[CLS_CFS], t);
	if (!c->q[CLS_CFS].n)
		c->cfs_avg = avg;
}

void cfs_update_curr(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		     uint64_t delta)
{
	(void)c;
	t->vruntime += calc_delta_fair(delta, t);
	if (t->vruntime >= t->deadline) {
		t->deadline = t->vruntime + calc_delta_fair(s->base_slice_ns, t);
		t->protect = false;
	}
}

/* pick_eevdf() */
struct sim_task *cfs_pick(struct sim *s, struct sim_cpu *c)
{
	struct tvec *q = &c->q[CLS_CFS];
	struct sim_task *curr = c->curr, *best = NULL, *minv = NULL;
	int i;

	(void)s;
	if (!q->n)
		return NULL;
	if (q->n == 1)
		return q->v[0];
	if (curr && curr->cls == CLS_CFS && curr->state == TS_RUNNABLE &&
	    curr->cpu == c->id && curr->protect && eligible(c, curr) &&
	    curr->pending_migrate < 0)
		return curr;
	for (i = 0; i < q->n; i++) {
		struct sim_task *t = q->v[i];

		if (!minv || t->vruntime < minv->vruntime)
			minv = t;
		if (!eligible(c, t))
			continue;
		if (!best || t->deadline < best->deadline)
			best = t;
	}
	return best ? best : minv;
}

void cfs_set_next(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	(void)s;
	(void)c;
	t->protect = true;
}

/* check_preempt_wakeup_fair() */
bool cfs_check_preempt(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	struct sim_task *curr = c->curr;

	if (curr->policy == WL_SCHED_IDLE && t->policy != WL_SCHED_IDLE)
		return true;
	if (t->policy != WL_SCHED_OTHER)
		return false;
	sim_update_curr(s, c);
	return cfs_pick(s, c) == t;
}

bool cfs_tick(struct sim *s, struct sim_cpu *c)
{
	if (c->q[CLS_CFS].n < 2)
		return false;
	return cfs_pick(s, c) != c->curr;
}

/* yield_task_fair(): push the deadline one slice out */
void cfs_yield(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	sim_update_curr(s, c);
	t->deadline += calc_delta_fair(s->base_slice_ns, t);
	t->protect = false;
	sim_resched(s, c);
}
