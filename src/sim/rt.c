// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_FIFO / SCHED_RR: the highest priority runs; equal priorities in
 * FIFO order (a woken task queues at the tail, a preempted one keeps its
 * place); RR rotates every RR_TIMESLICE (100 ms) of running.
 * Not modelled: RT throttling (sched_rt_runtime_us), RT group scheduling.
 */
#include "sim.h"

#define RR_TIMESLICE_NS (100 * NSEC_PER_MSEC)

void rt_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	(void)s;
	if (!t->rr_left)
		t->rr_left = RR_TIMESLICE_NS;
	tvec_add(&c->q[CLS_RT], t);
}

void rt_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	(void)s;
	tvec_del(&c->q[CLS_RT], t);
}

struct sim_task *rt_pick(struct sim *s, struct sim_cpu *c)
{
	struct tvec *q = &c->q[CLS_RT];
	struct sim_task *best = NULL;
	int i;

	(void)s;
	for (i = 0; i < q->n; i++)
		if (!best || q->v[i]->prio > best->prio)
			best = q->v[i];
	return best;
}

bool rt_check_preempt(struct sim_cpu *c, struct sim_task *t)
{
	return t->prio > c->curr->prio;
}

static void requeue_tail(struct sim_cpu *c, struct sim_task *t)
{
	tvec_del(&c->q[CLS_RT], t);
	tvec_add(&c->q[CLS_RT], t);
}

static bool has_peer(struct sim_cpu *c, struct sim_task *t)
{
	int i;

	for (i = 0; i < c->q[CLS_RT].n; i++)
		if (c->q[CLS_RT].v[i] != t && c->q[CLS_RT].v[i]->prio == t->prio)
			return true;
	return false;
}

bool rt_tick(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *t = c->curr;

	(void)s;
	if (t->policy != WL_SCHED_RR || t->rr_left)
		return false;
	t->rr_left = RR_TIMESLICE_NS;
	if (!has_peer(c, t))
		return false;
	requeue_tail(c, t);
	return true;
}

void rt_yield(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	requeue_tail(c, t);
	sim_resched(s, c);
}
