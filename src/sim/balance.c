// SPDX-License-Identifier: GPL-2.0
/*
 * Placement and balance, "good enough to spread independent hogs":
 *  - wake-up: DL and RT look for a CPU where the task can run now (cpudl /
 *    cpupri in spirit); CFS uses the previous CPU if idle, else an idle CPU
 *    of the same cache domain (select_idle_sibling, the frequency domain
 *    here), on asymmetric platforms energy-aware placement
 *    (find_energy_efficient_cpu) unless overutilized, then
 *    select_idle_capacity(); fork picks the idlest CPU;
 *  - newidle balance pulls a waiting RT task, else a waiting CFS task of
 *    the busiest CPU;
 *  - at each tick a CPU with waiting tasks pushes one to an idle CPU (the
 *    nohz idle balance, folded), except the one about to preempt curr
 *    (a wake-up at the tick's ns), and a misfit task on a small CPU moves to
 *    an idle bigger one (active balance).
 */
#include "schedutil.h"
#include "sim.h"

static bool fits(unsigned long util, unsigned long cap)
{
	return util * 1280 < cap * 1024;	/* fits_capacity() */
}

static struct sim_cpu *first_allowed(struct sim *s, struct sim_task *t)
{
	int i;

	for (i = 0; i < s->ncpus; i++)
		if (t->allowed[i])
			return &s->cpus[i];
	return &s->cpus[0];
}

static struct sim_cpu *find_idle(struct sim *s, struct sim_task *t,
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

static struct sim_cpu *select_rt(struct sim *s, struct sim_task *t,
				 struct sim_cpu *prev)
{
	struct sim_cpu *best = NULL;
	int best_rank = -1, i;

	/* rank: 3 idle, 2 running CFS, 1 running lower RT */
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(prev->id + i) % s->ncpus];
		struct sim_task *cur = c->curr;
		int rank;

		if (!t->allowed[c->id])
			continue;
		if (cpu_idle(c))
			rank = 3;
		else if (!cur || cur->cls == CLS_CFS)
			rank = c->q[CLS_RT].n || c->q[CLS_DL].n ? 0 : 2;
		else if (cur->cls == CLS_RT && cur->prio < t->prio)
			rank = 1;
		else
			rank = 0;
		if (c == prev && rank > 0)
			return c;
		if (rank > best_rank) {
			best_rank = rank;
			best = c;
		}
	}
	return best_rank > 0 ? best : prev;
}

static struct sim_cpu *select_dl(struct sim *s, struct sim_task *t,
				 struct sim_cpu *prev)
{
	uint64_t dl = s->now + t->dl_rel_deadline, latest = 0;
	struct sim_cpu *best = NULL;
	int i;

	if (!prev->q[CLS_DL].n)
		return prev;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(prev->id + i) % s->ncpus];

		if (t->allowed[c->id] && !c->q[CLS_DL].n)
			return c;
	}
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(prev->id + i) % s->ncpus];
		struct sim_task *cur = c->curr;

		if (!t->allowed[c->id])
			continue;
		if (cur && cur->cls == CLS_DL && cur->dl_deadline > dl &&
		    cur->dl_deadline > latest) {
			latest = cur->dl_deadline;
			best = c;
		}
	}
	return best ? best : prev;
}

/* find_energy_efficient_cpu(), simplified: one candidate per domain */
static struct sim_cpu *feec(struct sim *s, struct sim_task *t,
			    struct sim_cpu *prev)
{
	unsigned long tu = task_util(s, t);
	struct sim_cpu *best = NULL;
	uint64_t best_delta = UINT64_MAX;
	int d, i;

	for (d = 0; d < s->ndoms; d++) {
		const struct pdomain *pd = s->doms[d].pd;
		struct sim_cpu *cand = NULL;
		unsigned long cand_spare = 0, max_u = 0, sum_u = 0, max_w = 0;
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
			if (u > max_u)
				max_u = u;
			if (!t->allowed[c->id] || !fits(u + tu, scale))
				continue;
			if (!cand || scale - u > cand_spare ||
			    (scale - u == cand_spare && c == prev)) {
				cand = c;
				cand_spare = scale - u;
			}
		}
		if (!cand)
			continue;
		for (i = 0; i < pd->ncpus; i++) {
			struct sim_cpu *c = &s->cpus[pd->cpus[i]];
			unsigned long u = cpu_util(s, c);

			if (c == prev)
				u = u > tu ? u - tu : 0;
			if (c == cand)
				u += tu;
			if (u > max_w)
				max_w = u;
		}
		base = em_pd_energy(pd, map_util_perf(max_u), sum_u, scale);
		with = em_pd_energy(pd, map_util_perf(max_w), sum_u + tu, scale);
		if (with - base < best_delta ||
		    (with - base == best_delta && cand == prev)) {
			best_delta = with - base;
			best = cand;
		}
	}
	return best;
}

static struct sim_cpu *select_idle_capacity(struct sim *s, struct sim_task *t,
					    struct sim_cpu *prev)
{
	unsigned long tu = task_util(s, t);
	struct sim_cpu *best = NULL;
	int i;

	if (cpu_idle(prev) && t->allowed[prev->id] && fits(tu, prev->capacity))
		return prev;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(prev->id + i) % s->ncpus];

		if (!t->allowed[c->id] || !cpu_idle(c))
			continue;
		if (fits(tu, c->capacity))
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

struct sim_cpu *select_task_rq(struct sim *s, struct sim_task *t, bool fork)
{
	struct sim_cpu *prev = &s->cpus[t->cpu], *c;

	if (!t->allowed[prev->id])
		prev = first_allowed(s, t);
	if (t->cls == CLS_DL)
		return select_dl(s, t, prev);
	if (t->cls == CLS_RT)
		return select_rt(s, t, prev);
	if (fork)
		return idlest(s, t);
	if (s->pl->asym) {
		if (!s->overutilized) {
			c = feec(s, t, prev);
			if (c)
				return c;
		}
		return select_idle_capacity(s, t, prev);
	}
	if (cpu_idle(prev))
		return prev;
	c = find_idle(s, t, prev, true);
	return c ? c : prev;
}

static bool waiting(const struct sim_task *t)
{
	return t->state == TS_RUNNABLE && !t->on_cpu && t->pending_migrate < 0;
}

struct sim_task *idle_balance(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *pick = NULL;
	struct sim_cpu *busiest = NULL;
	int i, j, most = 1;

	/* pull_rt_task(): the highest waiting RT task that may run here */
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *o = &s->cpus[i];

		for (j = 0; o != c && j < o->q[CLS_RT].n; j++) {
			struct sim_task *t = o->q[CLS_RT].v[j];

			if (waiting(t) && t->allowed[c->id] &&
			    (!pick || t->prio > pick->prio))
				pick = t;
		}
	}
	if (!pick) {
		for (i = 0; i < s->ncpus; i++) {
			struct sim_cpu *o = &s->cpus[i];
			int n = o->q[CLS_CFS].n;

			if (o == c || n <= most)
				continue;
			for (j = 0; j < n; j++) {
				if (waiting(o->q[CLS_CFS].v[j]) &&
				    o->q[CLS_CFS].v[j]->allowed[c->id]) {
					busiest = o;
					most = n;
					break;
				}
			}
		}
		if (busiest) {
			for (j = 0; j < busiest->q[CLS_CFS].n; j++) {
				struct sim_task *t = busiest->q[CLS_CFS].v[j];

				if (waiting(t) && t->allowed[c->id]) {
					pick = t;
					break;
				}
			}
		}
	}
	if (!pick)
		return NULL;
	sim_migrate(s, pick, c, c->id);
	c->resched_pending = false;
	c->resched_gen++;
	if (pick->cls == CLS_RT)
		return rt_pick(s, c);
	return cfs_pick(s, c);
}

/*
 * @t runs on @c at the pending reschedule: it has just woken and preempts
 * curr (check_preempt_curr() already asked for it, the tick only comes
 * first at the same ns). 6.12 keeps such a task where it is:
 * select_task_rq_rt() placed it on a CPU it can run on now and
 * push_rt_task() only pushes a task that cannot preempt rq->curr.
 */
static bool runs_next(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	struct sim_task *next = dl_pick(s, c);

	if (!next)
		next = rt_pick(s, c);
	if (!next) {
		/* a CFS wake-up preemption, not the tick's own rotation */
		if (!c->resched_pending || !t->latency_pending)
			return false;
		next = cfs_pick(s, c);
	}
	return next == t;
}

void tick_balance(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *cur = c->curr;
	int i, j;

	/* push a waiting task to an idle CPU */
	for (j = 0; j < 2; j++) {
		struct tvec *q = &c->q[j ? CLS_CFS : CLS_RT];

		for (i = 0; i < q->n; i++) {
			struct sim_task *t = q->v[i];
			struct sim_cpu *d;

			if (!waiting(t) || runs_next(s, c, t))
				continue;
			d = s->pl->asym ? NULL : find_idle(s, t, c, true);
			if (!d)
				d = find_idle(s, t, c, false);
			if (d) {
				sim_migrate(s, t, d, c->id);
				return;
			}
		}
	}
	/* push_rt_task(): a waiting RT task goes where only CFS runs */
	for (i = 0; i < c->q[CLS_RT].n; i++) {
		struct sim_task *t = c->q[CLS_RT].v[i];

		if (!waiting(t) || runs_next(s, c, t))
			continue;
		for (j = 0; j < s->ncpus; j++) {
			struct sim_cpu *d = &s->cpus[(c->id + j) % s->ncpus];

			if (d != c && t->allowed[d->id] && !d->q[CLS_RT].n &&
			    !d->q[CLS_DL].n) {
				sim_migrate(s, t, d, c->id);
				return;
			}
		}
	}
	/* misfit: the running task has outgrown this CPU */
	if (s->pl->asym && cur && cur->cls == CLS_CFS &&
	    cur->state == TS_RUNNABLE && cur->pending_migrate < 0 &&
	    !fits(task_util(s, cur), c->capacity)) {
		struct sim_cpu *best = NULL;

		for (i = 0; i < s->ncpus; i++) {
			struct sim_cpu *d = &s->cpus[i];

			if (d->capacity > c->capacity && cpu_idle(d) &&
			    cur->allowed[i] &&
			    (!best || d->capacity > best->capacity))
				best = d;
		}
		if (best)
			sim_migrate(s, cur, best, c->id);
	}
}
