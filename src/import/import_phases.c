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
 * does not cut it.
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

void import_phases(struct import_model *m, struct import_task *t)
{
	struct import_phase *p;
	double iv_sum = 0, w_sum = 0, iv, duty;
	int i, n = t->nacts - 1;	/* activations with a next wake-up */

	(void)m;
	t->nphases = 0;
	p = add_phase(t, 0);
	for (i = 0; i + IMPORT_CP_BLOCK <= n; i += IMPORT_CP_BLOCK) {
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
	p->n = t->nacts - p->first;
}
