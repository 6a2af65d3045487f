// SPDX-License-Identifier: GPL-2.0
/*
 * A loop of k steps: an rt-app loop whose body sleeps k times (run 5 ms,
 * sleep 2 ms, run 1 ms, timer 16 ms; a `wait` then a `suspend`; a
 * `sleep` then an `iorun`) shows k wake-ups per pass, and no trace marks
 * where a pass begins. Taken one wake-up at a time (import_period.c),
 * such a task is k times as many activations of a mean run and interval:
 * the wrong rate and the wrong period. So before the per-phase rules,
 * the task's activations are tried as a repeating pattern of k (run,
 * interval) steps, k = 2 .. IMPORT_LOOP_KMAX (docs/import.md, "Loops of
 * several steps").
 *
 * The figure: a step's spread is the standard deviation of its runs
 * (work) over the mean of them, and likewise of its intervals (wake-up to
 * the next wake-up), the larger of the two; a step shorter than the
 * task's mean activation is measured against that mean instead of its
 * own (a 50 us step with 10 us of noise is regular enough). A pattern's
 * spread is its worst step's. With k = 1 the same figure is the flat
 * reading's (the coefficient of variation of every run and interval).
 *
 * The criterion: the smallest k whose spread is under IMPORT_LOOP_TOL
 * (10 %) over at least IMPORT_LOOP_MIN (4) whole loops, when the flat
 * reading's is not (k = 1 at or above 10 %, over all the activations and
 * over those of the whole loops alone: one mean run and interval does not
 * explain each activation, k steps do; a regular task whose first or last
 * activation is odd is no loop). A task whose activations
 * are regular one by one keeps the per-phase rules; one whose behaviour
 * changes over the window finds no k and keeps them too (phases and
 * loops are not combined).
 *
 * Where a pass begins: the step with the longest mean sleep ends it (a
 * loop's own period wait is as a rule its longest idle), so the
 * activation after it is step 0; the activations before the first whole
 * loop (the head) and after the last (the tail) stay measured steps. The
 * last step waits as the task did: a `sleep` of its mean when its sleeps
 * are regular (CV under 10 % and at most half the loop period's, as
 * import_period.c's rule 1), else a `timer` of the median loop period
 * when that is regular, else its mean sleep. A task that follows a waker
 * (suspend, import_deps.c) is a loop only when every step is a wake-up by
 * that waker in at least half the loops: each step is then a `suspend`
 * and its run (rt-app's mp3 OMXCall, woken twice a pass by the decoder).
 * A task that resumes others does so in each step where it woke one in
 * at least half the loops (the step where it did most often when none
 * reaches half), so a follower of it has a resume for each suspend.
 * A task of a two-way pair (import_deps.c) is never a loop: a step that
 * does not resume its partner would keep the token, and both would wait.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "util.h"

/* Sums of one quantity over a step's activations */
struct moments {
	double s, s2;
	int n;
};

static void add(struct moments *mo, double x)
{
	mo->s += x;
	mo->s2 += x * x;
	mo->n++;
}

static double mean(const struct moments *mo)
{
	return mo->n ? mo->s / mo->n : 0;
}

static double sd(const struct moments *mo)
{
	double mu = mean(mo), var = mo->n ? mo->s2 / mo->n - mu * mu : 0;

	return var > 0 ? sqrt(var) : 0;
}

/* The spread of @mo against its mean, or @floor when that is larger */
static double spread(const struct moments *mo, double floor)
{
	double ref = fmax(mean(mo), floor);

	if (mo->n < 2)
		return INFINITY;
	return ref > 0 ? sd(mo) / ref : 0;
}

struct fit {
	struct moments work[IMPORT_LOOP_KMAX], iv[IMPORT_LOOP_KMAX],
		       sleep[IMPORT_LOOP_KMAX];
	int woke[IMPORT_LOOP_KMAX];		/* activations that woke a task */
	int followed[IMPORT_LOOP_KMAX];		/* ... woken by the task's waker */
	double woke_frac[IMPORT_LOOP_KMAX];	/* ... sum of their shares */
	int loops;
	double spread;
};

/*
 * Activations [@r, @to) in loops of @k steps: each step's sums and the
 * pattern's spread (the worst step's). Only whole loops count.
 */
static void fit(const struct import_task *t, int k, int r, int to,
		struct fit *f)
{
	struct moments all_w = { 0 }, all_iv = { 0 };
	int i, j, end;

	memset(f, 0, sizeof(*f));
	f->loops = (to - r) / k;
	end = r + f->loops * k;
	for (i = r; i < end; i++) {
		const struct import_act *a = &t->acts[i];

		j = (i - r) % k;
		f->followed[j] += t->waker >= 0 && a->waker == t->waker;
		add(&f->work[j], a->work);
		add(&all_w, a->work);
		if (a->work_at_wake >= 0) {
			f->woke[j]++;
			f->woke_frac[j] += a->work > 0 ? a->work_at_wake / a->work
						       : 1.0;
		}
		if (i + 1 >= t->nacts)
			continue;
		add(&f->iv[j], (double)(t->acts[i + 1].wake - a->wake));
		add(&all_iv, (double)(t->acts[i + 1].wake - a->wake));
		add(&f->sleep[j], import_sleep_us(t, i));
	}
	f->spread = 0;
	for (j = 0; j < k; j++) {
		double s = fmax(spread(&f->work[j], mean(&all_w)),
				spread(&f->iv[j], mean(&all_iv)));

		f->spread = fmax(f->spread, s);
		/* a follower's every step is a suspend its waker ends */
		if (t->waker >= 0 && 2 * f->followed[j] < f->work[j].n)
			f->spread = INFINITY;
	}
}

/* The step after the one with the longest mean sleep begins a pass */
static int first_step(const struct fit *f, int k)
{
	int j, longest = 0;

	for (j = 1; j < k; j++)
		if (mean(&f->sleep[j]) > mean(&f->sleep[longest]))
			longest = j;
	return (longest + 1) % k;
}

/* The loop period (a pass's first wake-up to the next pass's): its
 * median and CV over the whole loops that have a next pass */
static void loop_period(const struct import_task *t, struct import_loop *lp)
{
	double *p = xmalloc((size_t)(lp->loops + 1) * sizeof(double));
	struct moments mo = { 0 };
	int q, n = 0;

	for (q = 0; q < lp->loops; q++) {
		int i = lp->head + q * lp->k;

		if (i + lp->k >= t->nacts)
			break;
		p[n] = (double)(t->acts[i + lp->k].wake - t->acts[i].wake) /
		       1000.0;
		add(&mo, p[n++]);
	}
	qsort(p, (size_t)n, sizeof(double), import_cmp_double);
	lp->period_us = n ? p[n / 2] : 0;
	lp->period_cv = n >= 2 && mean(&mo) > 0 ? sd(&mo) / mean(&mo)
						 : INFINITY;
	free(p);
}

/* The loop @f found (k steps from activation @r) becomes @t's one phase */
static void take(struct import_task *t, int k, int r, const struct fit *f,
		 double flat)
{
	struct import_loop *lp = xcalloc(1, sizeof(*lp));
	const struct moments *last_sleep = &f->sleep[k - 1];
	struct import_phase *p;
	int j, most = 0;
	double run = 0;

	*lp = (struct import_loop){ .k = k, .head = r, .loops = f->loops,
				    .tail = t->nacts - r - f->loops * k,
				    .spread = f->spread, .flat_spread = flat };
	for (j = 0; j < k; j++) {
		struct import_step *s = &lp->steps[j];

		s->run_us = mean(&f->work[j]) / 1000.0;
		s->interval_us = mean(&f->iv[j]) / 1000.0;
		s->sleep_us = mean(&f->sleep[j]);
		s->spread = fmax(spread(&f->work[j], 0), spread(&f->iv[j], 0));
		s->resume_frac = -1;
		s->barrier_wait = s->barrier_arrive = -1;
		run += s->run_us;
		if (f->woke[j] > f->woke[most])
			most = j;
	}
	/* its dependants: resumed where it woke them in half the loops */
	for (j = 0; t->nresumes && j < k; j++)
		if (2 * f->woke[j] >= f->loops || (j == most && f->woke[j]))
			lp->steps[j].resume_frac = f->woke_frac[j] / f->woke[j];
	loop_period(t, lp);
	lp->last_sleep_cv = last_sleep->n >= 2 && mean(last_sleep) > 0 ?
			    sd(last_sleep) / mean(last_sleep) : INFINITY;
	lp->timer = lp->period_cv < IMPORT_LOOP_TOL &&
		    !(lp->last_sleep_cv < IMPORT_LOOP_TOL &&
		      lp->last_sleep_cv < lp->period_cv / 2);
	t->loop = lp;
	t->phases = xrealloc(t->phases, sizeof(*p));
	t->nphases = 1;
	p = &t->phases[0];
	*p = (struct import_phase){ .first = 0, .n = t->nacts,
				    .loops = lp->loops, .kind = IMPORT_LOOP,
				    .period_us = lp->period_us,
				    .cv = lp->period_cv, .run_us = run };
}

bool import_loop_at(struct import_task *t, int head)
{
	struct import_loop *old = t->loop;
	struct fit f;

	fit(t, old->k, head, t->nacts, &f);
	if (f.loops < IMPORT_LOOP_MIN || !(f.spread < IMPORT_LOOP_TOL))
		return false;
	t->loop = NULL;
	take(t, old->k, head, &f, old->flat_spread);
	free(old);
	return true;
}

void import_loops(struct import_model *m, struct import_task *t)
{
	struct fit f, one;
	double flat;
	int k, r;

	(void)m;
	t->loop_best_k = 0;
	t->loop_best_spread = INFINITY;
	if (t->folded || t->partner >= 0 || t->nacts < 2 * IMPORT_LOOP_MIN)
		return;
	fit(t, 1, 0, t->nacts, &f);
	flat = t->loop_flat_spread = f.spread;
	if (flat < IMPORT_LOOP_TOL)
		return;		/* one step explains it: the per-phase rules */
	for (k = 2; k <= IMPORT_LOOP_KMAX; k++) {
		if (t->nacts / k < IMPORT_LOOP_MIN + 1)
			break;
		fit(t, k, 0, t->nacts, &f);
		r = first_step(&f, k);
		fit(t, k, r, t->nacts, &f);
		if (f.loops < IMPORT_LOOP_MIN)
			continue;
		/* one step per activation over the same whole loops: the
		 * head and the tail alone may be what made it irregular */
		fit(t, 1, r, r + f.loops * k, &one);
		if (one.spread < IMPORT_LOOP_TOL)
			return;
		if (f.spread < t->loop_best_spread) {
			t->loop_best_k = k;
			t->loop_best_spread = f.spread;
		}
		if (f.spread < IMPORT_LOOP_TOL) {
			take(t, k, r, &f, flat);
			return;
		}
	}
}
