// SPDX-License-Identifier: GPL-2.0
/*
 * Where a task's behaviour changes, a new phase: the change-point rule.
 *
 * The activations are taken in blocks of IMPORT_CP_BLOCK (8). A phase
 * keeps the mean wake-up interval and the mean duty cycle (work per
 * interval) of the blocks it holds; the next block starts a new phase
 * when its mean interval differs from the phase's by more than
 * IMPORT_CP_PERIOD (15 %) or its duty cycle by more than IMPORT_CP_DUTY
 * (25 %, relative, or 2 points absolute for a nearly idle task). A short
 * last block joins the phase before. So a change is seen at most 8
 * activations late, and noise within a phase of regular activations
 * does not cut it. Before the blocks, a pause cuts: a wake-up interval
 * over IMPORT_CP_PAUSE (4) times the task's median interval ends a phase
 * at once (an idle stretch between bursts).
 */
#include <math.h>
#include <stdlib.h>

#include "import.h"
#include "util.h"

/* Mean interval and duty of activations [a, b) (b <= nacts - 1: each
 * needs the next wake-up) */
static void block_stats(const struct import_task *t, int a, int b,
			double *interval, double *duty)
{
	double iv = 0, w = 0;
	int i;

	for (i = a; i < b; i++) {
		iv += (double)(t->acts[i + 1].wake - t->acts[i].wake);
		w += t->acts[i].work;
	}
	*interval = b > a ? iv / (b - a) : 0;
	*duty = iv > 0 ? w / iv : 0;
}

static bool differs(double x, double ref, double rel, double abs_floor)
{
	return fabs(x - ref) > rel * ref && fabs(x - ref) > abs_floor;
}

static struct import_phase *add_phase(struct import_task *t, int first)
{
	struct import_phase *p;

	t->phases = xrealloc(t->phases, (size_t)(t->nphases + 1) * sizeof(*p));
	p = &t->phases[t->nphases++];
	*p = (struct import_phase){ .first = first };
	return p;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The median of @t's wake-up intervals (0 without two activations) */
static uint64_t median_interval(const struct import_task *t)
{
	uint64_t *iv, med;
	int i, n = t->nacts - 1;

	if (n < 1)
		return 0;
	iv = xmalloc((size_t)n * sizeof(*iv));
	for (i = 0; i < n; i++)
		iv[i] = t->acts[i + 1].wake - t->acts[i].wake;
	qsort(iv, (size_t)n, sizeof(*iv), by_value);
	med = iv[n / 2];
	free(iv);
	return med;
}

/* Does a pause (an interval over IMPORT_CP_PAUSE x the median) end just
 * before activation @i? */
static bool pause_before(const struct import_task *t, int i, uint64_t med)
{
	return i > 0 && med &&
	       t->acts[i].wake - t->acts[i - 1].wake > IMPORT_CP_PAUSE * med;
}

/* Blocks of activations [from, to) by the change-point rule */
static void split_blocks(struct import_task *t, int from, int to)
{
	struct import_phase *p = add_phase(t, from);
	double iv_sum = 0, w_sum = 0, iv, duty;
	int i, n = to < t->nacts ? to : t->nacts - 1;

	for (i = from; i + IMPORT_CP_BLOCK <= n; i += IMPORT_CP_BLOCK) {
		block_stats(t, i, i + IMPORT_CP_BLOCK, &iv, &duty);
		if (i > p->first && iv_sum > 0 &&
		    (differs(iv, iv_sum / (i - p->first), IMPORT_CP_PERIOD, 0) ||
		     differs(duty, w_sum / iv_sum, IMPORT_CP_DUTY, 0.02))) {
			p->n = i - p->first;
			p = add_phase(t, i);
			iv_sum = w_sum = 0;
		}
		iv_sum += iv * IMPORT_CP_BLOCK;
		w_sum += duty * iv * IMPORT_CP_BLOCK;
	}
	p->n = to - p->first;
}

void import_phases(struct import_model *m, struct import_task *t)
{
	uint64_t med = median_interval(t);
	int i, from = 0;

	(void)m;
	t->nphases = 0;
	for (i = 1; i < t->nacts; i++) {
		if (!pause_before(t, i, med))
			continue;
		/* the pause is the end of the phase before: its last sleep */
		split_blocks(t, from, i);
		from = i;
	}
	split_blocks(t, from, t->nacts > from ? t->nacts : from + 1);
	if (t->nacts == 0)
		t->phases[0].n = 0;
}
