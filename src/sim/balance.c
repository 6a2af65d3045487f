// SPDX-License-Identifier: GPL-2.0
/*
 * Placement and balance, "good enough to spread independent hogs". The
 * class-independent parts, and CFS placement:
 *  - wake-up: the task's class chooses (select_rq: DL and RT in dl.c and
 *    rt.c look for a CPU where the task can run now); CFS uses the previous CPU if idle, else an idle CPU
 *    of the same cache domain (select_idle_sibling, the frequency domain
 *    here), on asymmetric platforms energy-aware placement
 *    (find_energy_efficient_cpu(), as 6.12's: prev or stay) unless
 *    overutilized, then select_idle_capacity(); fork picks the idlest CPU;
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

	/*
	 * Within the domain: the same CPU as the walk below finds, the
	 * first idle one counting up from @from and wrapping, but looking
	 * at the domain's CPUs only (a walk over 1 024 CPUs for the 8 of
	 * one domain was most of a wake-up's cost at that size).
	 */
	if (same_domain) {
		const struct pdomain *pd = from->dom->pd;
		struct sim_cpu *best = NULL;
		int best_dist = s->ncpus;

		for (i = 0; i < pd->ncpus; i++) {
			struct sim_cpu *c = &s->cpus[pd->cpus[i]];
			int dist = (c->id - from->id + s->ncpus) % s->ncpus;

			if (dist < best_dist && t->allowed[c->id] &&
			    cpu_idle(c)) {
				best = c;
				best_dist = dist;
			}
		}
		return best;
	}
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(from->id + i) % s->ncpus];

		if (t->allowed[c->id] && cpu_idle(c))
			return c;
	}
	return NULL;
}

/*
 * cpu_util(cpu, p, dst_cpu, boost) (fair.c): the CFS utilization of @c
 * if @t ran on @dst (NULL: nowhere, dst_cpu -1). @t's util_avg (and
 * runnable) is added where it is not yet and @dst is @c, taken off where
 * it is and @dst is another CPU; its estimate is added on @dst (a waking
 * task is not enqueued, so no CPU's util_est holds it). @t's signals are
 * read as they are: find_energy_efficient_cpu() synced them at its start,
 * as the kernel's does, and nothing moves them until it returns.
 */
static unsigned long cpu_util_with(struct sim_cpu *c, struct sim_task *t,
				   struct sim_cpu *dst, bool boost)
{
	bool add = t->cpu != c->id && dst == c;
	bool sub = t->cpu == c->id && dst != c;
	unsigned long util = c->cfs.avg.util_avg, tu = t->avg.util_avg;
	unsigned long est = c->cfs.avg.util_est;

	if (add)
		util += tu;
	else if (sub)
		util = util > tu ? util - tu : 0;
	if (boost) {
		unsigned long run = c->cfs.avg.runnable_avg;

		if (add)
			run += t->avg.runnable_avg;
		else if (sub)
			run = run > t->avg.runnable_avg ?
			      run - t->avg.runnable_avg : 0;
		if (run > util)
			util = run;
	}
	if (dst == c)
		est += pelt_task_util_est(&t->avg);
	if (est > util)
		util = est;
	return util < c->capacity ? util : c->capacity;
}

/*
 * capacity_of(): rq->cpu_capacity, scale_rt_capacity() as
 * update_cpu_capacity() sets it (the capacity less the RT and DL
 * utilization, at least 1), computed at the time of asking here rather
 * than at the last balance.
 */
static unsigned long capacity_of(const struct sim_cpu *c)
{
	unsigned long used = c->rt.avg.util_avg + c->dl.avg.util_avg;

	return used >= c->capacity ? 1 : c->capacity - used;
}

unsigned long eas_cpu_perf(const struct sugov_cpu_input *in,
			   unsigned long scale, const unsigned int *teff,
			   bool rq_idle)
{
	struct sugov_perf_in p;

	sugov_effective_cpu_util(in, scale, &p);
	if (teff) {
		if (teff[UCLAMP_MIN] > p.min)
			p.min = teff[UCLAMP_MIN];
		/* an idle CPU's held max is the task's now */
		if (rq_idle || teff[UCLAMP_MAX] > p.max)
			p.max = teff[UCLAMP_MAX];
	}
	return sugov_effective_cpu_perf(&p);
}

/*
 * eenv_pd_max_util(): the performance level the domain would run at with
 * @t on @dst (NULL: nowhere): per CPU, effective_cpu_util() of
 * cpu_util(cpu, p, dst, 1) with the CPU's clamps @in (em_cpu_clamp()),
 * on @dst widened by the task's own uclamp @teff, then
 * sugov_effective_cpu_perf() (eas_cpu_perf()); at most the domain's
 * capacity. @in and @teff do not depend on @dst: feec reads them once
 * per domain for its two or three estimates.
 */
static unsigned long pd_max_util(struct sim *s, const struct pdomain *pd,
				 struct sugov_cpu_input *in,
				 const unsigned int *teff, struct sim_task *t,
				 struct sim_cpu *dst)
{
	unsigned long scale = s->cpus[pd->cpus[0]].capacity, max_util = 0;
	int i;

	for (i = 0; i < pd->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[pd->cpus[i]];
		bool task = c == dst && s->clamp->uclamp_used;
		unsigned long perf;

		sim_cpu_util_input(c, cpu_util_with(c, t, dst, true), &in[i]);
		perf = eas_cpu_perf(&in[i], scale, task ? teff : NULL,
				    c->uclamp.idle);
		if (perf > max_util)
			max_util = perf;
	}
	return max_util < scale ? max_util : scale;
}

/*
 * eenv_pd_busy_time(): the domain's utilization without @t, each CPU's
 * effective_cpu_util() of cpu_util(cpu, p, -1, 0) (CFS plus RT and DL,
 * at most its capacity), the sum at most the domain's capacity.
 */
static unsigned long pd_busy_time(struct sim *s, const struct pdomain *pd,
				  struct sim_task *t, unsigned long pd_cap)
{
	unsigned long scale = s->cpus[pd->cpus[0]].capacity, sum = 0;
	int i;

	for (i = 0; i < pd->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[pd->cpus[i]];
		unsigned long u = cpu_util_with(c, t, NULL, false) +
				  c->rt.avg.util_avg + c->dl.avg.util_avg;

		sum += u < scale ? u : scale;
	}
	return sum < pd_cap ? sum : pd_cap;
}

int task_util_fits_at(struct sim *s, struct sim_task *t, struct sim_cpu *c,
		      unsigned long util, unsigned long capacity)
{
	if (s->clamp->task_fits)
		return s->clamp->task_fits(s, t, c, util, capacity);
	return fits_capacity(util, capacity);
}

int task_util_fits(struct sim *s, struct sim_task *t, struct sim_cpu *c,
		   unsigned long util)
{
	return task_util_fits_at(s, t, c, util, c->capacity);
}

/*
 * util_fits_cpu() of @t with @util on @c, as feec asks it: against
 * capacity_of(), with the CPU's and the task's clamps max-aggregated
 * unless the CPU's are idle (uclamp only).
 */
static int feec_fits(struct sim *s, struct sim_task *t, struct sim_cpu *c,
		     unsigned long util)
{
	return task_util_fits_at(s, t, c, util, capacity_of(c));
}

/*
 * struct energy_env (fair.c): what feec's estimates of one domain share,
 * the domain's utilization without the task and its CPUs' clamps among
 * them.
 */
struct energy_env {
	const struct pdomain *pd;
	/* per CPU of pd: clamps (em_cpu_clamp()), signals per estimate */
	struct sugov_cpu_input *in;
	const unsigned int *teff;		/* the task's uclamp */
	unsigned long busy, task_busy, pd_cap, cpu_cap;
};

/* compute_energy(): the domain's EM estimate, @t on @dst (NULL: nowhere) */
static uint64_t compute_energy(struct sim *s, const struct energy_env *env,
			       struct sim_task *t, struct sim_cpu *dst)
{
	unsigned long busy = env->busy;

	if (dst) {
		busy += env->task_busy;
		if (busy > env->pd_cap)
			busy = env->pd_cap;
	}
	return em_cpu_energy(env->pd, pd_max_util(s, env->pd, env->in,
						  env->teff, t, dst),
			     busy, env->cpu_cap);
}

/*
 * find_energy_efficient_cpu() (fair.c). Per performance domain: the
 * CPUs @t fits on (util_fits_cpu() of cpu_util(cpu, p, cpu) against
 * capacity_of()), prev always a candidate of its own, else the one with
 * the most spare capacity (fits first); the domain's energy without @t,
 * then with it on prev and on that CPU, the latter only when its spare
 * capacity exceeds prev's. A CPU where the task's uclamp_min fits (1)
 * wins over one where only its util does (-1), among the latter the
 * biggest actual capacity; among fitting ones the least energy, prev's
 * delta included. An estimate below the base (the signals moved) keeps
 * prev. Returns prev when nothing beats it, as the kernel's target.
 */
struct sim_cpu *find_energy_efficient_cpu(struct sim *s, struct sim_task *t,
					  struct sim_cpu *prev)
{
	uint64_t prev_delta = UINT64_MAX, best_delta = UINT64_MAX;
	unsigned long task_busy, best_actual_cap = 0, prev_actual_cap = 0;
	unsigned int teff[UCLAMP_CNT] = { 0, UCLAMP_SCALE };
	struct sim_cpu *best = NULL;
	int d, i, prev_fits = -1, best_fits = -1;

	if (s->clamp->task_range)
		s->clamp->task_range(s, t, teff);
	/* sync_entity_load_avg(), then nothing to place: stay */
	task_busy = task_util_est(s, t);	/* eenv_task_busy_time() */
	if (!task_busy && !teff[UCLAMP_MIN])
		return prev;
	for (d = 0; d < s->ndoms; d++) {
		const struct pdomain *pd = s->doms[d].pd;
		unsigned long cpu_actual_cap = s->cpus[pd->cpus[0]].capacity;
		unsigned long pd_cap = 0;
		struct energy_env env;
		long prev_spare = -1, max_spare = -1;
		struct sim_cpu *max_spare_cpu = NULL;
		int max_fits = -1;
		uint64_t base, e;

		for (i = 0; i < pd->ncpus; i++) {
			struct sim_cpu *c = &s->cpus[pd->cpus[i]];
			unsigned long util, cap;
			int fits;

			pd_cap += cpu_actual_cap;
			if (!t->allowed[c->id])
				continue;
			util = cpu_util_with(c, t, c, false);
			fits = feec_fits(s, t, c, util);
			if (!fits)
				continue;
			cap = capacity_of(c);
			cap = cap > util ? cap - util : 0;	/* lsub_positive() */
			if (c == prev) {
				prev_spare = (long)cap;
				prev_fits = fits;
			} else if (fits > max_fits ||
				   (fits == max_fits && (long)cap > max_spare)) {
				max_spare = (long)cap;
				max_spare_cpu = c;
				max_fits = fits;
			}
		}
		if (!max_spare_cpu && prev_spare < 0)
			continue;
		/* the domain's schedutil buffer: no decision runs in feec */
		for (i = 0; i < pd->ncpus; i++) {
			struct sugov_cpu_input *in = &s->doms[d].gov_in[i];

			*in = (struct sugov_cpu_input){ 0 };
			em_cpu_clamp(s, &s->cpus[pd->cpus[i]], cpu_actual_cap,
				     in);
		}
		env = (struct energy_env){
			.pd = pd, .in = s->doms[d].gov_in, .teff = teff,
			.busy = pd_busy_time(s, pd, t, pd_cap),
			.task_busy = task_busy, .pd_cap = pd_cap,
			.cpu_cap = cpu_actual_cap,
		};
		base = compute_energy(s, &env, t, NULL);
		if (prev_spare > -1) {
			e = compute_energy(s, &env, t, prev);
			if (e < base)	/* the utilization changed */
				return prev;
			prev_delta = e - base;
			prev_actual_cap = cpu_actual_cap;
			if (prev_delta < best_delta)
				best_delta = prev_delta;
		}
		if (max_spare_cpu && max_spare > prev_spare) {
			if (max_fits < best_fits)
				continue;
			if (max_fits < 0 && cpu_actual_cap <= best_actual_cap)
				continue;
			e = compute_energy(s, &env, t, max_spare_cpu);
			if (e < base)
				return prev;
			e -= base;
			if (max_fits > 0 && best_fits > 0 && e >= best_delta)
				continue;
			best_delta = e;
			best = max_spare_cpu;
			best_fits = max_fits;
			best_actual_cap = cpu_actual_cap;
		}
	}
	if (best && (best_fits > prev_fits ||
		     (best_fits > 0 && best_delta < prev_delta) ||
		     (best_fits < 0 && best_actual_cap > prev_actual_cap)))
		return best;
	return prev;
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

/*
 * The fork's choice between @c (@n tasks queued, utilization @u) and the
 * best so far: fewer tasks, then less utilization, then on an asymmetric
 * platform the bigger capacity; a full tie keeps the best, the lower id
 * as the walk goes up.
 */
static bool idlest_beats(const struct sim *s, const struct sim_cpu *c,
			 int n, unsigned long u, const struct sim_cpu *best,
			 int bn, unsigned long bu)
{
	if (!best || n < bn)
		return true;
	if (n > bn)
		return false;
	if (u != bu)
		return u < bu;
	return s->pl->asym && c->capacity > best->capacity;
}

/* find_idlest over the task's own mask: every allowed CPU */
static struct sim_cpu *idlest_scan(struct sim *s, struct sim_task *t)
{
	struct sim_cpu *best = NULL;
	int bn = 0, i;
	unsigned long bu = 0;

	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		unsigned long u;
		int n;

		if (!t->allowed[i])
			continue;
		n = cpu_nr_running(c);
		/* more tasks than the best so far cannot win: its utilization
		 * (a pure read) is not needed */
		if (best && n > bn)
			continue;
		u = cpu_util(s, c);
		if (idlest_beats(s, c, n, u, best, bn, bu)) {
			best = c;
			bn = n;
			bu = u;
		}
	}
	return best ? best : first_allowed(s, t);
}

/*
 * The fork's CPU. A task allowed everywhere (the shared mask) can only
 * land on a CPU with the fewest tasks queued, so only those are visited,
 * in id order as the scan would: the same CPU, without a walk over the
 * machine per fork (s->load_idx). On a symmetric platform a CPU with no
 * utilization at all cannot be beaten by a higher id: the walk stops.
 */
static struct sim_cpu *idlest(struct sim *s, struct sim_task *t)
{
	const struct cpu_load_index *ix = &s->load_idx;
	struct sim_cpu *best = NULL;
	int n = cpu_load_index_least(ix), i = -1;
	unsigned long bu = 0;

	if (t->allowed != s->all_cpus)
		return idlest_scan(s, t);
	while ((i = cpu_load_index_next_least(ix, i)) >= 0) {
		struct sim_cpu *c = &s->cpus[i];
		unsigned long u = cpu_util(s, c);

		if (idlest_beats(s, c, n, u, best, n, bu)) {
			best = c;
			bu = u;
			if (!u && !s->pl->asym)
				break;
		}
	}
	return best;
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
			c = find_energy_efficient_cpu(s, t, prev);
			if (c != prev)
				s->placed_by = MIG_EAS;
			return c;
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
	/*
	 * a CFS wake-up preemption, not the tick's own rotation: RT and DL
	 * pick by priority and deadline, so their pick naming @t is the
	 * preemption; CFS's pick may name @t for its slice alone. A question
	 * about the winner of the walk above, kept here beside the walk.
	 */
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
