// SPDX-License-Identifier: GPL-2.0
/*
 * PELT in the simulated machine: each CPU's PELT clock (advanced with
 * its rq clock in sim_update_curr(), as update_rq_clock() calls
 * update_rq_clock_pelt()), the RT and DL runqueue signals, the idle
 * sync, and the blocked-averages updates. The arithmetic is pelt.c's;
 * the CFS update points (update_load_avg()) are in cfs.c, the RT and DL
 * ones in rt.c and dl.c, at the places 6.12 has them.
 */
#include "sim.h"

/* LOAD_AVG_PERIOD ms: nohz.next_blocked's interval (fair.c) */
#define BLOCKED_UPDATE_NS ((uint64_t)PELT_LOAD_AVG_PERIOD * NSEC_PER_MSEC)

void sig_clock_advance(struct sim_cpu *c, uint64_t delta)
{
	const struct pdomain *pd = c->dom->pd;
	unsigned long freq = pelt_freq_scale(pd->opps[c->dom->cur_opp].khz,
					     pd->opps[pd->nopps - 1].khz);

	/* rq->curr is the idle task while c->curr is NULL */
	pelt_clock_update(&c->pelt, delta, !c->curr, c->capacity, freq);
}

uint64_t sig_clock_pelt(struct sim *s, struct sim_cpu *c)
{
	sim_update_curr(s, c);
	return pelt_clock_now(&c->pelt);
}

void sig_update_rt(struct sim *s, struct sim_cpu *c, bool running)
{
	if (pelt_update_class_rq(sig_clock_pelt(s, c), &c->rt.avg, running))
		sig_trace_class_rq(s, c, true);
	sim_signals_changed(s, c);
}

void sig_update_dl(struct sim *s, struct sim_cpu *c, bool running)
{
	if (pelt_update_class_rq(sig_clock_pelt(s, c), &c->dl.avg, running))
		sig_trace_class_rq(s, c, false);
	sim_signals_changed(s, c);
}

void sig_enter_idle(struct sim *s, struct sim_cpu *c)
{
	sim_update_curr(s, c);
	pelt_clock_idle(&c->pelt, c->cfs.avg.util_sum, c->rt.avg.util_sum,
			c->dl.avg.util_sum);
}

/*
 * sched_balance_update_blocked_averages(): update_other_load_avgs() (RT
 * and DL, running if the current task is theirs) and the CFS queue
 * (__update_blocked_fair(); no task groups here, so one cfs_rq).
 */
void sig_update_blocked(struct sim *s, struct sim_cpu *c)
{
	uint64_t now = sig_clock_pelt(s, c);
	/*
	 * Each queue's "running" is whether curr is of its class, named as
	 * update_other_load_avgs() names them (curr_class == &rt_sched_class,
	 * &dl_sched_class): the signals are per class, not a class's hook
	 */
	const struct sim_class *cur = c->curr ? c->curr->cls : NULL;

	if (pelt_update_class_rq(now, &c->rt.avg, cur == &rt_sched_class))
		sig_trace_class_rq(s, c, true);
	if (pelt_update_class_rq(now, &c->dl.avg, cur == &dl_sched_class))
		sig_trace_class_rq(s, c, false);
	if (pelt_update_cfs_rq(now, &c->cfs.avg, &c->cfs.removed,
			       (unsigned long)c->cfs.tree.load,
			       (unsigned int)c->cfs.nr, c->cfs.curr != NULL))
		sig_trace_cfs(s, c);
	sim_signals_changed(s, c);
	c->last_blocked_ns = s->now;
}

/*
 * The blocked averages are refreshed by load balancing: the ticking CPU's
 * own in its periodic balance (sched_balance_softirq()), the idle CPUs'
 * by the nohz stats kick a busy CPU's tick sends (nohz_balancer_kick()
 * with NOHZ_STATS_KICK), each at most every LOAD_AVG_PERIOD ms as
 * nohz.next_blocked paces it. (The balance intervals of the sched
 * domains are not modelled: both use that one period.) The ticking CPU's
 * periodic balance also refreshes its capacity (update_group_capacity()
 * of its local group -> update_cpu_capacity(), sched_cpu_capacity_tp);
 * the nohz stats kick does not balance, so the idle CPUs' is not.
 */
void sig_tick_blocked(struct sim *s, struct sim_cpu *c)
{
	uint64_t next;
	int i;

	if (s->now - c->last_blocked_ns >= BLOCKED_UPDATE_NS) {
		sig_update_blocked(s, c);
		/* then its balance: update_group_capacity() of its group */
		sig_trace_cpu_capacity(s, c);
	}
	/*
	 * nohz.next_blocked: no CPU is due before the earliest of their
	 * last updates plus the period, and updates only move that later,
	 * so until then the walk would find nothing (it was most of a
	 * tick's cost on 1 024 CPUs).
	 */
	if (s->now < s->next_blocked_ns)
		return;
	next = UINT64_MAX;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *x = &s->cpus[i];

		if (x != c && !x->curr &&
		    s->now - x->last_blocked_ns >= BLOCKED_UPDATE_NS)
			sig_update_blocked(s, x);
		if (x->last_blocked_ns + BLOCKED_UPDATE_NS < next)
			next = x->last_blocked_ns + BLOCKED_UPDATE_NS;
	}
	s->next_blocked_ns = next;
}

/* cpu_util(cpu, NULL, -1, @boost): util_avg, runnable if boosted, util_est */
static unsigned long cfs_util(const struct sim_cpu *c, bool boost)
{
	unsigned long util = c->cfs.avg.util_avg;

	if (boost && c->cfs.avg.runnable_avg > util)
		util = c->cfs.avg.runnable_avg;
	if (c->cfs.avg.util_est > util)
		util = c->cfs.avg.util_est;
	return util < c->capacity ? util : c->capacity;
}

unsigned long cpu_util_cfs(const struct sim_cpu *c)
{
	return cfs_util(c, false);
}

unsigned long cpu_util_cfs_boost(const struct sim_cpu *c)
{
	return cfs_util(c, true);
}

unsigned long cpu_util(struct sim *s, struct sim_cpu *c)
{
	(void)s;
	return cpu_util_cfs(c) + c->rt.avg.util_avg + c->dl.avg.util_avg;
}

/*
 * sync_entity_load_avg(): a task off its runqueue decays to the time its
 * queue was last updated; a queued one reads as it is (task_util()).
 */
unsigned long task_util(struct sim *s, struct sim_task *t)
{
	struct sim_cpu *c = &s->cpus[t->cpu];

	if (!t->se.on_rq && t->avg.last_update_time &&
	    pelt_update_blocked_se(c->cfs.avg.last_update_time, &t->avg,
				   t->se.node.weight))
		sig_trace_se(s, c, t);
	return t->avg.util_avg;
}

unsigned long task_util_est(struct sim *s, struct sim_task *t)
{
	unsigned long u = task_util(s, t), e = pelt_task_util_est(&t->avg);

	return u > e ? u : e;
}
