// SPDX-License-Identifier: GPL-2.0
/*
 * Work or wall time (docs/import.md, "run or runtime"): rt-app has two
 * kinds of burst. `run` is work: at a lower speed (capacity x frequency)
 * it takes longer, so over a task's activations wall x speed stays
 * constant. `runtime` is wall time: the task runs that long whatever the
 * speed (rt-app's tutorial example7), so the wall time stays constant and
 * the work done moves with the speed. Imported as `run`, a `runtime`
 * burst seen at one speed stretches when a replay runs it at a lower one
 * (example7: busy time 26-33 % short of the source).
 *
 * The figure: per activation of known frequency (none of its running time
 * before its CPU's first frequency event), its wall time and its speed,
 * its work (import_work.c) over its wall time. Activations are compared
 * only with their like, each group being a step of the task's loop
 * (import_loop.c) or else one of its phases (import_phases.c), since
 * the steps or phases of one task differ in length by design. Within
 * each group, the deviations of log wall time and log speed from the
 * group's means; pooled, the least-squares slope of the first against
 * the second: 0 when the bursts are wall time, -1 when they are work
 * (logs, so that a ratio of speeds is one distance whatever the burst's
 * length).
 *
 * The rule, in docs/import.md's words:
 *   - evidence: at least IMPORT_RT_MIN (8) activations at least
 *     IMPORT_RT_SPEED (0.18 in log: 20 %) off their group's mean speed,
 *     and the slope's standard error at most IMPORT_RT_SE (0.10). A
 *     smaller change of speed moves a work burst less than twice the
 *     10 % the other rules take as noise (IMPORT_PERIODIC_CV); 8 is one
 *     block of the change-point rule, so that one odd burst is not
 *     evidence; the two readings are 1 apart, so with 0.10 the verdict's
 *     side is 5 standard errors from the midpoint. Without it: `run`,
 *     "no evidence";
 *   - the slope within IMPORT_RT_TOL (0.25) of 0: wall time, `runtime`;
 *     within 0.25 of -1: work, `run`; else unclear, `run`.
 * A work-bound task whose work varies from burst to burst, on a governor
 * that raises the frequency for the longer ones, could keep its wall time
 * steadier than its work; the 8 activations 20 % apart in speed and the
 * standard error make that need the governor to cancel nearly all of the
 * variation.
 *
 * When the answer is wall time, the task's activations count wall time
 * instead of work from then on (and its start its wall time), and its
 * phases and loop are found again on them, so every rule after this one
 * (periods, sequences, loops, where it resumes) speaks of wall time and
 * import_rtapp.c writes `runtime` where it would write `run`.
 */
#include <math.h>
#include <stdlib.h>

#include "import.h"
#include "util.h"

/* The group activation @i is compared within: its loop step, else its
 * phase; -1 when it is outside every whole loop (a loop's head and tail) */
static int group_of(const struct import_task *t, int i)
{
	const struct import_loop *lp = t->loop;
	int p;

	if (lp) {
		if (i < lp->head || i >= lp->head + lp->k * lp->loops)
			return -1;
		return (i - lp->head) % lp->k;
	}
	for (p = 0; p < t->nphases; p++)
		if (i >= t->phases[p].first &&
		    i < t->phases[p].first + t->phases[p].n)
			return p;
	return -1;
}

/* The logs of one activation: wall time, speed (its @work over its wall
 * time); false when its speed is not known (an unknown frequency, or no
 * running time) */
static bool logs(const struct import_act *a, double work, double v[2])
{
	if (a->unknown_khz || a->wall <= 0 || work <= 0)
		return false;
	v[0] = log(a->wall);
	v[1] = log(work) - v[0];
	return true;
}

/* Per group: how many, and the sums of the two logs */
struct group {
	int n;
	double s[2];
};

/* @t's activations, each with its @work (what they counted before any
 * became wall time), compared within their groups */
static void fit(const struct import_task *t, const double *work,
		struct import_bound_fit *b)
{
	int ng = t->loop ? t->loop->k : t->nphases, i, g, q, groups = 0;
	struct group *gr = xcalloc((size_t)(ng > 0 ? ng : 1), sizeof(*gr));
	double v[2], d[2], sxx = 0, sxz = 0, szz = 0, res;

	for (i = 0; i < t->nacts; i++) {
		g = group_of(t, i);
		if (g < 0 || !logs(&t->acts[i], work[i], v))
			continue;
		gr[g].n++;
		for (q = 0; q < 2; q++)
			gr[g].s[q] += v[q];
	}
	/* a group of one has nothing to compare: it is left out */
	*b = (struct import_bound_fit){ 0 };
	for (i = 0; i < t->nacts; i++) {
		g = group_of(t, i);
		if (g < 0 || gr[g].n < 2 || !logs(&t->acts[i], work[i], v))
			continue;
		for (q = 0; q < 2; q++)
			d[q] = v[q] - gr[g].s[q] / gr[g].n;
		b->n++;
		b->distinct += fabs(d[1]) >= IMPORT_RT_SPEED;
		sxx += d[0] * d[0];
		sxz += d[0] * d[1];
		szz += d[1] * d[1];
	}
	/* each group compared spends a degree of freedom on its means */
	for (g = 0; g < ng; g++)
		groups += gr[g].n >= 2;
	free(gr);
	if (szz <= 0 || b->n <= groups + 1) {
		b->slope = NAN;
		return;
	}
	b->slope = sxz / szz;
	res = sxx - b->slope * sxz;
	b->se = sqrt((res > 0 ? res : 0) / (b->n - groups - 1) / szz);
}

static enum import_bound verdict(const struct import_bound_fit *b)
{
	if (b->distinct < IMPORT_RT_MIN || isnan(b->slope) ||
	    b->se > IMPORT_RT_SE)
		return IMPORT_BOUND_NO_EVIDENCE;
	if (fabs(b->slope) <= IMPORT_RT_TOL)
		return IMPORT_BOUND_WALL;
	if (fabs(b->slope + 1) <= IMPORT_RT_TOL)
		return IMPORT_BOUND_WORK;
	return IMPORT_BOUND_UNCLEAR;
}

/* What a task's activations count, kept to be put back: work */
struct counted {
	double *work, *work_at_wake;
	double pre_work;
};

/* @t's phases and loop found again on what its activations now count,
 * and where it resumes its dependants */
static void segment(struct import_model *m, struct import_task *t)
{
	free(t->loop);
	t->loop = NULL;
	import_phases(m, t);
	import_loops(m, t);
	import_resume_frac(t);
}

/* @t's activations as wall time (what was counted kept in @c) */
static void to_wall_time(struct import_model *m, struct import_task *t,
			 struct counted *c)
{
	int i;

	c->work = xmalloc((size_t)t->nacts * sizeof(double));
	c->work_at_wake = xmalloc((size_t)t->nacts * sizeof(double));
	c->pre_work = t->pre_work;
	for (i = 0; i < t->nacts; i++) {
		struct import_act *a = &t->acts[i];

		c->work[i] = a->work;
		c->work_at_wake[i] = a->work_at_wake;
		a->work = a->wall;
		if (a->work_at_wake >= 0)
			a->work_at_wake = a->wall_at_wake;
	}
	t->pre_work = t->pre_wall;
	segment(m, t);
}

/* @t's activations as work again, as they were before to_wall_time() */
static void to_work(struct import_model *m, struct import_task *t,
		    const struct counted *c)
{
	int i;

	for (i = 0; i < t->nacts; i++) {
		t->acts[i].work = c->work[i];
		t->acts[i].work_at_wake = c->work_at_wake[i];
	}
	t->pre_work = c->pre_work;
	segment(m, t);
}

/*
 * Each reading is tested on its own phases and loop: a task whose bursts
 * keep their wall time while the speed steps down has a step in its work
 * per period there, which the change-point rule cuts into two phases of
 * one speed each (nothing left to compare), and the other way round. So
 * wall time is tried first, on phases and loop steps found on wall time;
 * when that does not hold, the work's reading, on theirs found on work.
 */
void import_runtime(struct import_model *m, struct import_task *t)
{
	struct import_bound_fit *b = &t->bound;
	struct counted c;

	*b = (struct import_bound_fit){ .verdict = IMPORT_BOUND_NO_EVIDENCE,
					.slope = NAN };
	if (t->folded || t->nacts < IMPORT_RT_MIN)
		return;
	to_wall_time(m, t, &c);
	fit(t, c.work, b);
	b->verdict = verdict(b);
	if (b->verdict != IMPORT_BOUND_WALL) {
		to_work(m, t, &c);
		fit(t, c.work, b);
		b->verdict = verdict(b);
		/* wall time that holds only on the work's phases, not on its
		 * own, is no answer */
		if (b->verdict == IMPORT_BOUND_WALL)
			b->verdict = IMPORT_BOUND_UNCLEAR;
	}
	free(c.work);
	free(c.work_at_wake);
}
