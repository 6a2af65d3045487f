/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mainline utilization clamping's per-CPU aggregation as 6.12 does it
 * (kernel/sched/core.c: uclamp_rq_inc_id(), uclamp_rq_dec_id(),
 * uclamp_rq_max_value(), the idle hold), and its value rules
 * (uclamp_tg_restrict(), uclamp_eff_get(), capacity_from_percent(),
 * uclamp_rq_util_with()), as pure functions: no simulator type.
 *
 * The clamp values of the RUNNABLE tasks of a CPU are counted in
 * UCLAMP_BUCKETS buckets per clamp (min, max); a bucket remembers the
 * largest value it has held since it was last empty, and the CPU's
 * clamp is the value of its highest non-empty bucket (a MAX
 * aggregation, approximate within a bucket: the kernel's documented
 * over-boost). With no task left, the max clamp holds the last task's
 * value until a task is enqueued again (UCLAMP_FLAG_IDLE).
 */
#ifndef CAPSIM_UCLAMP_RQ_H
#define CAPSIM_UCLAMP_RQ_H

#include <stdbool.h>
#include <stdint.h>

enum uclamp_id { UCLAMP_MIN, UCLAMP_MAX, UCLAMP_CNT };

#define UCLAMP_SCALE		1024U	/* SCHED_CAPACITY_SCALE */
#define UCLAMP_BUCKETS_DEFAULT	5	/* CONFIG_UCLAMP_BUCKETS_COUNT */
#define UCLAMP_BUCKETS_MIN	5
#define UCLAMP_BUCKETS_MAX	20

struct uclamp_bucket {
	unsigned int value;	/* the largest clamp seen since empty */
	unsigned int tasks;
};

struct uclamp_rq {
	unsigned int value;	/* the CPU's clamp */
	struct uclamp_bucket bucket[UCLAMP_BUCKETS_MAX];
};

struct uclamp_cpu {
	struct uclamp_rq uc[UCLAMP_CNT];
	unsigned int nbuckets;
	bool idle;		/* UCLAMP_FLAG_IDLE: no task since the last */
};

/* init_uclamp_rq(): no clamp (0 .. 1024), idle */
void uclamp_cpu_init(struct uclamp_cpu *c, unsigned int nbuckets);

/* uclamp_bucket_id(): value / DIV_ROUND_CLOSEST(1024, buckets), capped */
unsigned int uclamp_bucket_id(unsigned int value, unsigned int nbuckets);

/*
 * uclamp_rq_inc() / uclamp_rq_dec() of a task whose effective clamps
 * are @eff[UCLAMP_MIN], @eff[UCLAMP_MAX] (the same values at the dec as
 * at the inc: the task's active clamps).
 */
void uclamp_cpu_inc(struct uclamp_cpu *c, const unsigned int eff[UCLAMP_CNT]);
void uclamp_cpu_dec(struct uclamp_cpu *c, const unsigned int eff[UCLAMP_CNT]);

static inline unsigned int uclamp_cpu_value(const struct uclamp_cpu *c,
					    enum uclamp_id id)
{
	return c->uc[id].value;
}

/*
 * uclamp_rq_util_with(): @util clamped by the CPU's clamps, and by the
 * task's @task_eff (or NULL) as if it were enqueued there too.
 */
unsigned long uclamp_rq_util_with(const struct uclamp_cpu *c,
				  unsigned long util,
				  const unsigned int *task_eff);

/*
 * The effective clamps of a task: its request (@req, the RT default for
 * an RT task's unset min), restricted to its group's effective range
 * unless it is in the root group (uclamp_tg_restrict()), then to the
 * system defaults @sys (uclamp_eff_get()).
 */
void uclamp_task_effective(const unsigned int req[UCLAMP_CNT],
			   const unsigned int *tg_eff,
			   const unsigned int sys[UCLAMP_CNT],
			   unsigned int out[UCLAMP_CNT]);

/*
 * A group's effective clamps from its requests and its parent's effective
 * ones (NULL: the root): each no wider than the parent's, the min no
 * above the max (cpu_util_update_eff()).
 */
void uclamp_group_effective(const unsigned int req[UCLAMP_CNT],
			    const unsigned int *parent_eff,
			    unsigned int out[UCLAMP_CNT]);

/*
 * util_fits_cpu(): does @util fit a CPU of @capacity (capacity_of()),
 * @capacity_orig (arch_scale_cpu_capacity()) given the clamps? 1: it
 * fits; -1: it fits, but its uclamp_min boost does not (the CPU's
 * @actual capacity is below it); 0: it does not. A uclamp_max at or
 * below the CPU's capacity makes the task fit there whatever its util
 * (the point of capping it), except the uncapped 1024 on a 1024 CPU.
 */
int uclamp_util_fits_cpu(unsigned long util, unsigned long uclamp_min,
			 unsigned long uclamp_max, unsigned long capacity,
			 unsigned long capacity_orig, unsigned long actual);

#endif
