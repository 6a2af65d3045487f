/*
 * Bench-only model of mainline uclamp's per-CPU aggregation (v6.12,
 * kernel/sched/core.c and sched.h, CONFIG_UCLAMP_TASK_GROUP): per clamp
 * index, 5 buckets of 205 values, each with a task count and the largest
 * value seen since it was last empty, and the CPU value as the value of
 * the top non-empty bucket. It is lossy: a departed task's value stays in
 * its bucket until the bucket empties. Written from the description in
 * the kernel sources, step for step (effective value from the group at
 * every enqueue, bucket id from the value, bitfield buckets), so that its
 * cost is mainline's; the idle max-clamp retention is left out (an empty
 * CPU reads the unclamped value), which changes no cost on these paths.
 * Static inline, as mainline's are in core.c.
 */
#ifndef CAPSIM_BENCH_UCLAMP_BUCKETS_H
#define CAPSIM_BENCH_UCLAMP_BUCKETS_H

#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/lockdep.h>

#define UCB_BUCKETS 5
#define UCB_SCALE 1024u
#define UCB_DELTA ((UCB_SCALE + UCB_BUCKETS / 2) / UCB_BUCKETS)
#define UCB_VALUE_BITS 11	/* bits_per(SCHED_CAPACITY_SCALE) */

enum { UCB_MIN, UCB_MAX, UCB_CNT };

struct ucb_se {
	unsigned int value : UCB_VALUE_BITS;
	unsigned int bucket_id : 3;
	unsigned int active : 1;
};

struct ucb_bucket {
	unsigned long value : UCB_VALUE_BITS;
	unsigned long tasks : 64 - UCB_VALUE_BITS;
};

struct ucb_rq {
	unsigned int value;
	struct ucb_bucket bucket[UCB_BUCKETS];
};

struct ucb_cpu {
	struct ucb_rq uclamp[UCB_CNT];
	unsigned int flags;		/* UCLAMP_FLAG_IDLE, never set here */
};

struct ucb_group {
	struct ucb_se uclamp[UCB_CNT];	/* effective values */
};

struct ucb_task {
	struct ucb_se uclamp_req[UCB_CNT];	/* the task's own request */
	struct ucb_se uclamp[UCB_CNT];		/* effective, while active */
	const struct ucb_group *grp;
};

static inline unsigned int ucb_none(int id)
{
	return id == UCB_MIN ? 0 : UCB_SCALE;
}

static inline unsigned int ucb_bucket_id(unsigned int value)
{
	unsigned int id = value / UCB_DELTA;

	return id < UCB_BUCKETS - 1 ? id : UCB_BUCKETS - 1;
}

static inline void ucb_se_set(struct ucb_se *se, unsigned int value)
{
	se->value = value;
	se->bucket_id = ucb_bucket_id(value);
}

static inline void ucb_cpu_init(struct ucb_cpu *rq)
{
	int id, b;

	for (id = 0; id < UCB_CNT; id++) {
		rq->uclamp[id].value = ucb_none(id);
		for (b = 0; b < UCB_BUCKETS; b++) {
			rq->uclamp[id].bucket[b].value = 0;
			rq->uclamp[id].bucket[b].tasks = 0;
		}
	}
	rq->flags = 0;
}

static inline void ucb_group_set(struct ucb_group *g, unsigned int min,
				 unsigned int max)
{
	ucb_se_set(&g->uclamp[UCB_MIN], min);
	ucb_se_set(&g->uclamp[UCB_MAX], max);
}

static inline void ucb_task_init(struct ucb_task *p, const struct ucb_group *g)
{
	ucb_se_set(&p->uclamp_req[UCB_MIN], 0);
	ucb_se_set(&p->uclamp_req[UCB_MAX], UCB_SCALE);
	p->uclamp[UCB_MIN].active = 0;
	p->uclamp[UCB_MAX].active = 0;
	p->grp = g;
}

/* uclamp_eff_get(): the request restricted by the group's range */
static inline struct ucb_se ucb_eff_get(const struct ucb_task *p, int id)
{
	struct ucb_se req = p->uclamp_req[id];
	unsigned int lo = p->grp->uclamp[UCB_MIN].value;
	unsigned int hi = p->grp->uclamp[UCB_MAX].value;
	unsigned int v = req.value;

	v = v < lo ? lo : v > hi ? hi : v;
	ucb_se_set(&req, v);
	return req;	/* the system default (1024) restricts nothing */
}

static inline void ucb_inc_id(struct ucb_cpu *rq, struct ucb_task *p, int id,
			      raw_spinlock_t *lock)
{
	struct ucb_rq *uc_rq = &rq->uclamp[id];
	struct ucb_se *uc_se = &p->uclamp[id];
	struct ucb_bucket *bucket;

	lockdep_assert_held(lock);
	p->uclamp[id] = ucb_eff_get(p, id);
	bucket = &uc_rq->bucket[uc_se->bucket_id];
	bucket->tasks++;
	uc_se->active = 1;
	if (rq->flags)				/* uclamp_idle_reset() */
		WRITE_ONCE(uc_rq->value, uc_se->value);
	if (bucket->tasks == 1 || uc_se->value > bucket->value)
		bucket->value = uc_se->value;
	if (uc_se->value > READ_ONCE(uc_rq->value))
		WRITE_ONCE(uc_rq->value, uc_se->value);
}

static inline unsigned int ucb_rq_max_value(const struct ucb_cpu *rq, int id)
{
	const struct ucb_bucket *bucket = rq->uclamp[id].bucket;
	int b;

	for (b = UCB_BUCKETS - 1; b >= 0; b--)
		if (bucket[b].tasks)
			return bucket[b].value;
	return ucb_none(id);
}

static inline void ucb_dec_id(struct ucb_cpu *rq, struct ucb_task *p, int id,
			      raw_spinlock_t *lock)
{
	struct ucb_rq *uc_rq = &rq->uclamp[id];
	struct ucb_se *uc_se = &p->uclamp[id];
	struct ucb_bucket *bucket;

	lockdep_assert_held(lock);
	if (!uc_se->active)
		return;
	bucket = &uc_rq->bucket[uc_se->bucket_id];
	if (bucket->tasks)
		bucket->tasks--;
	uc_se->active = 0;
	if (bucket->tasks)
		return;
	if (bucket->value >= READ_ONCE(uc_rq->value))
		WRITE_ONCE(uc_rq->value, ucb_rq_max_value(rq, id));
}

static inline void ucb_enqueue(struct ucb_cpu *rq, struct ucb_task *p,
			       raw_spinlock_t *lock)
{
	ucb_inc_id(rq, p, UCB_MIN, lock);
	ucb_inc_id(rq, p, UCB_MAX, lock);
}

static inline void ucb_dequeue(struct ucb_cpu *rq, struct ucb_task *p,
			       raw_spinlock_t *lock)
{
	ucb_dec_id(rq, p, UCB_MIN, lock);
	ucb_dec_id(rq, p, UCB_MAX, lock);
}

/* uclamp_update_active(): a RUNNABLE task follows its group's new values */
static inline void ucb_update(struct ucb_cpu *rq, struct ucb_task *p,
			      raw_spinlock_t *lock)
{
	int id;

	for (id = 0; id < UCB_CNT; id++) {
		if (p->uclamp[id].active) {
			ucb_dec_id(rq, p, id, lock);
			ucb_inc_id(rq, p, id, lock);
		}
	}
}

static inline void ucb_cpu_range(const struct ucb_cpu *rq, unsigned int *min,
				 unsigned int *max)
{
	*min = READ_ONCE(rq->uclamp[UCB_MIN].value);
	*max = READ_ONCE(rq->uclamp[UCB_MAX].value);
}

#endif
