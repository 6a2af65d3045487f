// SPDX-License-Identifier: GPL-2.0
/* uclamp's per-CPU buckets and value rules (see uclamp_rq.h) */
#include <string.h>

#include "uclamp_rq.h"

static unsigned int umin(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

static unsigned int umax(unsigned int a, unsigned int b)
{
	return a > b ? a : b;
}

/* uclamp_none(): what no clamp means for each clamp */
static unsigned int uclamp_none(enum uclamp_id id)
{
	return id == UCLAMP_MIN ? 0 : UCLAMP_SCALE;
}

void uclamp_cpu_init(struct uclamp_cpu *c, unsigned int nbuckets)
{
	memset(c, 0, sizeof(*c));
	c->nbuckets = nbuckets;
	c->uc[UCLAMP_MIN].value = uclamp_none(UCLAMP_MIN);
	c->uc[UCLAMP_MAX].value = uclamp_none(UCLAMP_MAX);
	c->idle = true;
}

unsigned int uclamp_bucket_id(unsigned int value, unsigned int nbuckets)
{
	/* UCLAMP_BUCKET_DELTA = DIV_ROUND_CLOSEST(1024, UCLAMP_BUCKETS) */
	unsigned int delta = (UCLAMP_SCALE + nbuckets / 2) / nbuckets;

	return umin(value / delta, nbuckets - 1);
}

/* uclamp_rq_inc_id() */
static void inc_id(struct uclamp_cpu *c, enum uclamp_id id, unsigned int v)
{
	struct uclamp_rq *uc = &c->uc[id];
	struct uclamp_bucket *b = &uc->bucket[uclamp_bucket_id(v, c->nbuckets)];

	b->tasks++;
	/* uclamp_idle_reset(): the first task after idle ends the hold */
	if (c->idle)
		uc->value = v;
	if (b->tasks == 1 || v > b->value)
		b->value = v;
	if (v > uc->value)
		uc->value = v;
}

/*
 * uclamp_rq_max_value(): the highest non-empty bucket's value; none left:
 * uclamp_idle_value(), the max clamp holds the last task's value (and
 * the CPU is flagged idle), the min clamp drops to 0.
 */
static unsigned int max_value(struct uclamp_cpu *c, enum uclamp_id id,
			      unsigned int last)
{
	for (int b = (int)c->nbuckets - 1; b >= 0; b--)
		if (c->uc[id].bucket[b].tasks)
			return c->uc[id].bucket[b].value;
	if (id == UCLAMP_MAX) {
		c->idle = true;
		return last;
	}
	return uclamp_none(UCLAMP_MIN);
}

/*
 * uclamp_rq_dec_id(): only an emptied bucket can lower the CPU's clamp;
 * a bucket that still has tasks keeps its (possibly larger) value.
 */
static void dec_id(struct uclamp_cpu *c, enum uclamp_id id, unsigned int v)
{
	struct uclamp_rq *uc = &c->uc[id];
	struct uclamp_bucket *b = &uc->bucket[uclamp_bucket_id(v, c->nbuckets)];

	if (b->tasks)
		b->tasks--;
	if (b->tasks)
		return;
	if (b->value >= uc->value)
		uc->value = max_value(c, id, v);
}

void uclamp_cpu_inc(struct uclamp_cpu *c, const unsigned int eff[UCLAMP_CNT])
{
	inc_id(c, UCLAMP_MIN, eff[UCLAMP_MIN]);
	inc_id(c, UCLAMP_MAX, eff[UCLAMP_MAX]);
	c->idle = false;
}

void uclamp_cpu_dec(struct uclamp_cpu *c, const unsigned int eff[UCLAMP_CNT])
{
	dec_id(c, UCLAMP_MIN, eff[UCLAMP_MIN]);
	dec_id(c, UCLAMP_MAX, eff[UCLAMP_MAX]);
}

unsigned long uclamp_rq_util_with(const struct uclamp_cpu *c,
				  unsigned long util,
				  const unsigned int *task_eff)
{
	unsigned long lo = 0, hi = 0;

	if (task_eff) {
		lo = task_eff[UCLAMP_MIN];
		hi = task_eff[UCLAMP_MAX];
		/* an idle CPU's held max is reset by this task's enqueue */
		if (c->idle)
			goto out;
	}
	if (c->uc[UCLAMP_MIN].value > lo)
		lo = c->uc[UCLAMP_MIN].value;
	if (c->uc[UCLAMP_MAX].value > hi)
		hi = c->uc[UCLAMP_MAX].value;
out:
	if (lo >= hi)
		return lo;
	return util < lo ? lo : util > hi ? hi : util;
}

void uclamp_task_effective(const unsigned int req[UCLAMP_CNT],
			   const unsigned int *tg_eff,
			   const unsigned int sys[UCLAMP_CNT],
			   unsigned int out[UCLAMP_CNT])
{
	for (int id = 0; id < UCLAMP_CNT; id++) {
		unsigned int v = req[id];

		if (tg_eff)	/* clamp(value, tg_min, tg_max) */
			v = umin(umax(v, tg_eff[UCLAMP_MIN]), tg_eff[UCLAMP_MAX]);
		/* the system default is an upper bound for both clamps */
		out[id] = umin(v, sys[id]);
	}
}

void uclamp_group_effective(const unsigned int req[UCLAMP_CNT],
			    const unsigned int *parent_eff,
			    unsigned int out[UCLAMP_CNT])
{
	for (int id = 0; id < UCLAMP_CNT; id++)
		out[id] = parent_eff ? umin(req[id], parent_eff[id]) : req[id];
	out[UCLAMP_MIN] = umin(out[UCLAMP_MIN], out[UCLAMP_MAX]);
}

int uclamp_util_fits_cpu(unsigned long util, unsigned long uclamp_min,
			 unsigned long uclamp_max, unsigned long capacity,
			 unsigned long capacity_orig, unsigned long actual)
{
	/* fits_capacity(): with the 20 % margin */
	bool fits = util * 1280 < capacity * 1024;
	bool max_fits = !(capacity_orig == UCLAMP_SCALE &&
			  uclamp_max == UCLAMP_SCALE) &&
			uclamp_max <= capacity_orig;

	fits = fits || max_fits;
	if (uclamp_min > uclamp_max)
		uclamp_min = uclamp_max;
	if (fits && util < uclamp_min && uclamp_min > actual)
		return -1;
	return fits;
}
