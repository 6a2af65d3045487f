// SPDX-License-Identifier: GPL-2.0
/*
 * What a phase becomes (docs/import.md, "Periods"), the first rule that
 * holds, each over at least IMPORT_PERIODIC_MIN (4) wake-up intervals:
 *
 *  1. run then sleep: the sleeps' CV under IMPORT_PERIODIC_CV and at most
 *     half the intervals' CV: `loop` of the mean run and the mean sleep,
 *     rt-app's own run/sleep task (its period stretches with the run, as
 *     it did in the trace: a timer task's sleeps vary with its run and its
 *     intervals do not, a sleeping task's the other way round). Tested
 *     before the intervals' CV: a sleeping task whose run barely varies
 *     has regular intervals too, and a timer of its mean interval would
 *     no longer stretch with its run (audio.json's ui: busy 5.4 % off).
 *     A phase of at most IMPORT_STEPS_MAX activations whose runs vary
 *     (their CV at least IMPORT_PERIODIC_CV) is its measured steps
 *     instead (rule 4's form): the same run/sleep task, each run its own,
 *     since a mean run spreads the long and short bursts evenly and moves
 *     the frequency they raise and the placement races they decide
 *     (video-playback.json's sync; game.json's stream-1, whose period
 *     was 1.28 % off as 95 mean runs);
 *  2. periodic: the intervals' coefficient of variation (standard
 *     deviation / mean) under IMPORT_PERIODIC_CV (0.10): `run` and a
 *     `timer` of the median interval (periodic() says why); when its
 *     runs vary (their CV at least IMPORT_PERIODIC_CV), each activation
 *     its own run under that timer instead of their mean;
 *  3. periodic all the same when at least IMPORT_PERIODIC_SHARE (90 %) of
 *     the intervals are within IMPORT_PERIODIC_TOL (10 %) of their median
 *     (a timer task that overran a few periods: each miss is one long
 *     interval, which the CV alone counts against it);
 *  4. at most IMPORT_SEQ_MAX (32) activations: the measured run/sleep
 *     sequence, each run its activation's work, each sleep the time from
 *     its last running moment to the next wake-up, one rt-app phase per
 *     activation (rt-app counts a phase's pass as an activation);
 *  5. else summarized: `loop` of the mean run and the mean sleep, so the
 *     file stays small and the rate and duty cycle are kept (the order of
 *     long and short bursts is not).
 * A phase of a task that follows a waker (import_deps.c) is `suspend`
 * + `run`; a task that never sleeps and is busy for at least
 * IMPORT_HOG_SHARE of its time runs throughout.
 */
#include <math.h>
#include <stdlib.h>

#include "import.h"
#include "util.h"

int import_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The coefficient of variation of n values summing to @s, squares to @s2 */
static double cv(double s, double s2, int n)
{
	double mean = s / n, var = s2 / n - mean * mean;

	return mean > 0 ? sqrt(var > 0 ? var : 0) / mean : INFINITY;
}

/*
 * The phase's figures: the mean and CV of its wake-up intervals, their
 * median (a periodic task's period: a missed wake-up, when an activation
 * overran its period, doubles one interval and would drag the mean),
 * the mean work per activation and the mean sleep and its CV.
 */
static void stats(const struct import_task *t, struct import_phase *p,
		  double *median)
{
	double s = 0, s2 = 0, w = 0, w2 = 0, sl = 0, sl2 = 0, iv, z, *ivs;
	int i, n = 0;

	ivs = xmalloc((size_t)(p->n + 1) * sizeof(double));
	for (i = p->first; i < p->first + p->n; i++) {
		w += t->acts[i].work;
		w2 += t->acts[i].work * t->acts[i].work;
		if (i + 1 >= t->nacts)
			continue;
		iv = (double)(t->acts[i + 1].wake - t->acts[i].wake);
		ivs[n++] = iv;
		s += iv;
		s2 += iv * iv;
		z = import_sleep_us(t, i) * 1000.0;
		sl += z;
		sl2 += z * z;
	}
	p->run_us = p->n ? w / p->n / 1000.0 : 0;
	p->period_us = n ? s / n / 1000.0 : 0;
	p->sleep_us = n ? sl / n / 1000.0 : 0;
	p->cv = n >= 2 ? cv(s, s2, n) : INFINITY;
	p->sleep_cv = n >= 2 ? cv(sl, sl2, n) : INFINITY;
	p->run_cv = p->n >= 2 ? cv(w, w2, p->n) : 0;
	qsort(ivs, (size_t)n, sizeof(double), import_cmp_double);
	*median = n ? ivs[n / 2] / 1000.0 : 0;
	/* the share of intervals within IMPORT_PERIODIC_TOL of the median */
	p->near_share = 0;
	for (i = 0; i < n; i++)
		p->near_share += fabs(ivs[i] / 1000.0 - *median) <=
				 IMPORT_PERIODIC_TOL * *median;
	p->near_share = n ? p->near_share / n : 0;
	free(ivs);
}

/*
 * A periodic phase's timer: the median interval; its loop count the
 * periods its activations span (a missed wake-up is a period all the
 * same), its run the phase's work spread over them, so the busy time
 * and the rate both stay.
 * A phase whose runs vary (CV >= IMPORT_PERIODIC_CV) and that missed no
 * wake-up keeps each activation's own run, each under the timer (one
 * rt-app phase per activation, as a sequence), up to
 * IMPORT_STEPS_MAX activations (as rule 1's): on a shared frequency
 * domain the long bursts are what raise the frequency, and a mean run
 * spread evenly kept it lower (video-playback.json's decoder, +-25 % a frame: busy
 * time 8.29 % over as a mean run, 0.00 % as its runs; 0.24 % as a mean
 * run with the jitter taken out of the source). Beyond that many the
 * file would grow by ~90 bytes an activation: the mean run.
 */
static void periodic(const struct import_task *t, struct import_phase *p,
		     double median_us)
{
	int last = p->first + p->n - 1;
	double span = (double)(t->acts[last].wake - t->acts[p->first].wake) /
		      1000.0;
	double work = p->run_us * p->n;

	p->kind = IMPORT_PERIODIC;
	p->period_us = median_us;
	/* the periods between its first and last wake-up, and the last's */
	p->loops = (int)lround(span / median_us) + 1;
	p->run_us = work / p->loops;
	p->runs_vary = p->loops == p->n && p->n <= IMPORT_STEPS_MAX &&
		       p->run_cv >= IMPORT_PERIODIC_CV;
}

void import_classify(struct import_model *m, struct import_task *t)
{
	uint64_t life = m->we > t->first_seen ? m->we - t->first_seen : 0;
	double median;
	int i;

	if (t->loop)
		return;		/* a loop of k steps (import_loop.c) */
	if (t->nacts <= 1 && life &&
	    (double)t->busy_ns >= IMPORT_HOG_SHARE * (double)life) {
		t->phases[0].kind = IMPORT_HOG;
		t->phases[0].run_us = t->work / 1000.0;
		return;
	}
	for (i = 0; i < t->nphases; i++) {
		struct import_phase *p = &t->phases[i];
		int nint = p->n - (p->first + p->n >= t->nacts ? 1 : 0);

		stats(t, p, &median);
		p->loops = p->n;
		if (t->waker >= 0)
			p->kind = IMPORT_SUSPENDED;
		else if (nint >= IMPORT_PERIODIC_MIN &&
			 p->sleep_cv < IMPORT_PERIODIC_CV &&
			 p->sleep_cv < p->cv / 2) {
			p->runs_vary = p->n <= IMPORT_STEPS_MAX &&
				       p->run_cv >= IMPORT_PERIODIC_CV;
			p->kind = p->runs_vary ? IMPORT_SEQUENCE :
						 IMPORT_RUNSLEEP;
		} else if (nint >= IMPORT_PERIODIC_MIN && median > 0 &&
			 p->cv < IMPORT_PERIODIC_CV)
			periodic(t, p, median);
		else if (nint >= IMPORT_PERIODIC_MIN && median > 0 &&
			 p->near_share >= IMPORT_PERIODIC_SHARE)
			periodic(t, p, median);
		else if (p->n <= IMPORT_SEQ_MAX)
			p->kind = IMPORT_SEQUENCE;
		else
			p->kind = IMPORT_SUMMARY;
	}
}
