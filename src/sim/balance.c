// SPDX-License-Identifier: GPL-2.0
/*
 * Placement and balance, "good enough to spread independent hogs". The
 * class-independent parts, and CFS placement:
 *  - wake-up: the task's class chooses (select_rq: DL and RT in dl.c and
 *    rt.c look for a CPU where the task can run now); CFS uses the previous CPU if idle, else an idle CPU
 *    of the same cache domain (select_idle_sibling, the frequency domain
 *    here), on asymmetric platforms energy-aware placement
 *    (find_energy_efficient_cpu) unless overutilized, then
 *    select_idle_capacity(); fork picks the idlest CPU;
 *  - newidle balance asks each class, highest first, for a waiting task
 *    of another CPU (RT: the highest; CFS: from the busiest CPU);
 *  - at each tick a CPU with waiting tasks pushes one to an idle CPU (the
 *    nohz idle balance, folded), except the one about to preempt curr
 *    (a wake-up at the tick's ns); then each class's push hook runs (RT:
 *    push_rt_task(); CFS: a misfit task on a small CPU moves to an idle
 *    bigger one, active balance).
 */
#include "schedutil.h"
#include "sim.h"


static struct sim_cpu *first_allowed(struct sim *s, struct sim_task *t)
{
	int i;

	for (i = 0; i < s->ncpus; i++)
		if (t->allowed[i])
			return &s->cpus[i];
	return &s->cpus[0];
}

struct sim_cpu *find_idle_cpu(struct sim *s, struct sim_task *t,
			      struct sim_cpu *from, bool same_domain)
{
	int i;

	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(from->id + i) % s->ncpus];

		if (!t->allowed[c->id] || !cpu_idle(c))
			continue;
		if (same_domain && c->dom != from->dom)
			continue;
		return c;
	}
	return NULL;
}

/*
 * eenv_pd_max_util(): the performance level the domain would run at with
 * @t on @dst (NULL: nowhere, @t already taken off @prev): per CPU,
 * effective_cpu_util()'s min and max (DL bandwidth, and with uclamp the
 * CPU's clamps, else a runnable RT class asking the top), on @dst raised
 * by the task's own uclamp, then sugov_effective_cpu_perf().
 */
static unsigned long pd_max_util(struct sim *s, const struct pdomain *pd,
				 struct sim_task *t, struct sim_cpu *prev,
				 struct sim_cpu *dst, unsigned long tu)
{
	unsigned long scale = s->cpus[pd->cpus[0]].capacity, max_util = 0;
	bool uclamp = s->policy == &clamp_policy_uclamp;
	unsigned int teff[UCLAMP_CNT];
	int i;

	if (uclamp)
		uclamp_task_eff(s, t, teff);
	for (i = 0; i < pd->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[pd->cpus[i]];
		unsigned long u = cpu_util(s, c), lo, hi = scale, perf;

		if (c == prev)	/* cpu_util_without() */
			u = u > tu ? u - tu : 0;
		if (c == dst)
			u += tu;
		if (u > scale)
			u = scale;
		lo = (unsigned long)c->dl.running_bw;
		if (uclamp) {
			unsigned long rq_max = uclamp_cpu_value(&c->uclamp,
								UCLAMP_MAX);

			if (uclamp_cpu_value(&c->uclamp, UCLAMP_MIN) > lo)
				lo = uclamp_cpu_value(&c->uclamp, UCLAMP_MIN);
			hi = rq_max < scale ? rq_max : scale;
			if (c == dst) {
				if (teff[UCLAMP_MIN] > lo)
					lo = teff[UCLAMP_MIN];
				/* an idle CPU's held max is the task's now */
				if (c->uclamp.idle || teff[UCLAMP_MAX] > hi)
					hi = teff[UCLAMP_MAX];
			}
		} else if (c->rt.nr) {
			lo = scale;
		}
		perf = map_util_perf(u);
		if (perf > hi)
			perf = hi;
		if (lo > perf)
			perf = lo;
		if (perf > max_util)
			max_util = perf;
	}
	return max_util < scale ? max_util : scale;
}

/* find_energy_efficient_cpu(), simplified: one candidate per domain */
static struct sim_cpu *feec(struct sim *s, struct sim_task *t,
			    struct sim_cpu *prev)
{
	unsigned long tu = task_util_est(s, t);
	struct sim_cpu *best = NULL;
	uint64_t best_delta = UINT64_MAX;
	int d, i, best_fits = 0;

	for (d = 0; d < s->ndoms; d++) {
		const struct pdomain *pd = s->doms[d].pd;
		struct sim_cpu *cand = NULL;
		unsigned long cand_spare = 0, sum_u = 0;
		int fits, cand_fits = 0;
		unsigned long scale = s->cpus[pd->cpus[0]].capacity;
		uint64_t base, with;

		for (i = 0; i < pd->ncpus; i++) {
			struct sim_cpu *c = &s->cpus[pd->cpus[i]];
			unsigned long u = cpu_util(s, c);

			if (c == prev)	/* cpu_util_without() */
				u = u > tu ? u - tu : 0;
			if (u > scale)
				u = scale;
			sum_u += u;
			if (!t->allowed[c->id])
				continue;
			fits = task_util_fits(s, t, c, u + tu);	/* util_fits_cpu() */
			if (!fits)
				continue;
			if (!cand || scale - u > cand_spare ||
			    (scale - u == cand_spare && c == prev)) {
				cand = c;
				cand_spare = scale - u;
				cand_fits = fits;
			}
		}
		if (!cand)
			continue;
		/* compute_energy() without and with the task on cand */
		base = em_cpu_energy(pd, pd_max_util(s, pd, t, prev, NULL, tu),
				     sum_u, scale);
		with = em_cpu_energy(pd, pd_max_util(s, pd, t, prev, cand, tu),
				     sum_u + tu, scale);
		/*
		 * A CPU where the task's uclamp_min fits (fits > 0) wins over
		 * one where only its util does (-1); among the latter the
		 * biggest wins (6.12's best_fits / best_actual_cap); then the
		 * least energy.
		 */
		if (best && cand_fits != best_fits) {
			if (cand_fits < best_fits)
				continue;
		} else if (best && cand_fits < 0) {
			if (cand->capacity <= best->capacity)
				continue;
		} else if (best && !(with - base < best_delta ||
				     (with - base == best_delta && cand == prev))) {
			continue;
		}
		best_delta = with - base;
		best = cand;
		best_fits = cand_fits;
	}
	return best;
}

static struct sim_cpu *select_idle_capacity(struct sim *s, struct sim_task *t,
					    struct sim_cpu *prev)
{
	unsigned long tu = task_util_est(s, t);
	struct sim_cpu *best = NULL;
	int i;

	/* select_idle_capacity(): fits > 0 wins, else the biggest */
	if (cpu_idle(prev) && t->allowed[prev->id] &&
	    task_util_fits(s, t, prev, tu) > 0)
		return prev;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(prev->id + i) % s->ncpus];

		if (!t->allowed[c->id] || !cpu_idle(c))
			continue;
		if (task_util_fits(s, t, c, tu) > 0)
			return c;
		if (!best || c->capacity > best->capacity)
			best = c;
	}
	return best ? best : prev;
}

static struct sim_cpu *idlest(struct sim *s, struct sim_task *t)
{
	struct sim_cpu *best = NULL;
	int bn = 0, i;
	unsigned long bu = 0;

	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		int n = cpu_nr_running(c);
		unsigned long u = cpu_util(s, c);

		if (!t->allowed[i])
			continue;
		if (s->pl->asym && !best) {
			best = c;
			bn = n;
			bu = u;
			continue;
		}
		if (!best || n < bn || (n == bn && u < bu) ||
		    (n == bn && u == bu && s->pl->asym &&
		     c->capacity > best->capacity)) {
			best = c;
			bn = n;
			bu = u;
		}
	}
	return best ? best : first_allowed(s, t);
}

/* select_task_rq(): the class chooses among the allowed CPUs */
struct sim_cpu *select_task_rq(struct sim *s, struct sim_task *t, bool fork)
{
	struct sim_cpu *prev = &s->cpus[t->cpu];

	if (!t->allowed[prev->id])
		prev = first_allowed(s, t);
	s->placed_by = MIG_WAKEUP;	/* select_fair_rq() may say EAS */
	return t->cls->select_rq(s, t, prev, fork);
}

/* select_task_rq_fair() */
struct sim_cpu *select_fair_rq(struct sim *s, struct sim_task *t,
			       struct sim_cpu *prev, bool fork)
{
	struct sim_cpu *c;

	if (fork)
		return idlest(s, t);
	if (s->pl->asym) {
		if (!s->overutilized) {
			c = feec(s, t, prev);
			if (c) {
				s->placed_by = MIG_EAS;
				return c;
			}
		}
		return select_idle_capacity(s, t, prev);
	}
	if (cpu_idle(prev))
		return prev;
	c = find_idle_cpu(s, t, prev, true);
	return c ? c : prev;
}

/* queued, not running, not already on its way to another CPU */
bool task_waiting(const struct sim_task *t)
{
	return t->state == TS_RUNNABLE && !t->on_cpu && t->pending_migrate < 0;
}

/*
 * newidle balance: the first class, highest first, that has a waiting
 * task on another CPU allowed here gives it up; it runs here next.
 */
struct sim_task *idle_balance(struct sim *s, struct sim_cpu *c)
{
	const struct sim_class *cls;

	for_each_class(cls) {
		struct sim_task *pick = cls->pull ? cls->pull(s, c) : NULL;

		if (pick) {
			sim_migrate(s, pick, c, c->id, MIG_PULL);
			return cls->pick(s, c);
		}
	}
	return NULL;
}

/*
 * @t runs on @c at the pending reschedule: it has just woken and preempts
 * curr (check_preempt_curr() already asked for it, the tick only comes
 * first at the same ns). 6.12 keeps such a task where it is:
 * select_task_rq_rt() placed it on a CPU it can run on now and
 * push_rt_task() only pushes a task that cannot preempt rq->curr.
 */
bool task_runs_next(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	const struct sim_class *cls;
	struct sim_task *next = NULL;

	for_each_class(cls) {
		next = cls->pick(s, c);
		if (next)
			break;
	}
	/* a CFS wake-up preemption, not the tick's own rotation */
	if (next && next->cls == &fair_sched_class &&
	    (!c->resched_pending || !t->latency_pending))
		return false;
	return next == t;
}

void tick_balance(struct sim *s, struct sim_cpu *c)
{
	const struct sim_class *cls;
	struct sim_task *t;

	/* push a waiting task to an idle CPU, the same domain first */
	for_each_class(cls) {
		if (!cls->push_to_idle)
			continue;
		list_for_each_entry(t, cls->tasks(c), run_node) {
			struct sim_cpu *d;

			if (!task_waiting(t) || task_runs_next(s, c, t))
				continue;
			d = s->pl->asym ? NULL : find_idle_cpu(s, t, c, true);
			if (!d)
				d = find_idle_cpu(s, t, c, false);
			if (d) {
				sim_migrate(s, t, d, c->id, MIG_PUSH);
				return;
			}
		}
	}
	for_each_class(cls)
		if (cls->push && cls->push(s, c))
			return;
}
