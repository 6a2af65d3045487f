/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the capacity clamping aggregators share: the published range each
 * of them maintains in struct cap_clamp_cpu, and how an operation tells
 * whether it changed that range.
 */
#ifndef _KERNEL_SCHED_CAP_CLAMP_BACKEND_H
#define _KERNEL_SCHED_CAP_CLAMP_BACKEND_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/sched/cap_clamp.h>

/* The value of an index on a CPU with nothing RUNNABLE: unconstrained */
static inline unsigned int cap_clamp_empty_value(enum cap_clamp_id id)
{
	return id == CAP_CLAMP_MIN ? 0 : SCHED_CAPACITY_SCALE;
}

/* Publish an empty range and record which backend runs @cc. */
static inline void cap_clamp_cpu_init_published(struct cap_clamp_cpu *cc,
						bool exact)
{
	cc->value[CAP_CLAMP_MIN] = cap_clamp_empty_value(CAP_CLAMP_MIN);
	cc->value[CAP_CLAMP_MAX] = cap_clamp_empty_value(CAP_CLAMP_MAX);
	cc->nr = 0;
#ifdef CAP_CLAMP_ALL_BACKENDS
	cc->exact = exact;
#endif
}

/* The misuse checks of each operation: false (after a WARN) to refuse it */
static inline bool cap_clamp_may_enqueue(const struct cap_clamp_se *se)
{
	return !WARN(cap_clamp_se_queued(se),
		     "cap_clamp: enqueue of a queued entity\n");
}

static inline bool cap_clamp_may_dequeue(const struct cap_clamp_cpu *cc,
					 const struct cap_clamp_se *se)
{
	if (WARN(!cap_clamp_se_queued(se),
		 "cap_clamp: dequeue of an idle entity\n"))
		return false;
	return !WARN(se->cpu != cc, "cap_clamp: dequeue from another CPU\n");
}

/* Not queued is no misuse: the next enqueue reads the group again. */
static inline bool cap_clamp_may_update(const struct cap_clamp_cpu *cc,
					const struct cap_clamp_se *se)
{
	if (!cap_clamp_se_queued(se))
		return false;
	return !WARN(se->cpu != cc, "cap_clamp: update on another CPU\n");
}

/* Count @se in (@in) or out of the RUNNABLE entities of @cc. */
static inline void cap_clamp_cpu_account(struct cap_clamp_cpu *cc,
					 struct cap_clamp_se *se, bool in)
{
	WRITE_ONCE(cc->nr, in ? cc->nr + 1 : cc->nr - 1);
	se->cpu = in ? cc : NULL;
}

static inline bool cap_clamp_range_differs(const struct cap_clamp_cpu *cc,
					   const struct cap_clamp_range *old)
{
	return cc->value[CAP_CLAMP_MIN] != old->min ||
	       cc->value[CAP_CLAMP_MAX] != old->max;
}

#endif /* _KERNEL_SCHED_CAP_CLAMP_BACKEND_H */
