/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the capacity clamping aggregators share: the published range each
 * of them maintains in struct cap_clamp_cpu, and the frame of each
 * operation around the aggregator's own steps.
 */
#ifndef _KERNEL_SCHED_CAP_CLAMP_BACKEND_H
#define _KERNEL_SCHED_CAP_CLAMP_BACKEND_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/lockdep.h>
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

static inline bool cap_clamp_range_differs(const struct cap_clamp_cpu *cc,
					   const struct cap_clamp_range *old)
{
	return cc->value[CAP_CLAMP_MIN] != old->min ||
	       cc->value[CAP_CLAMP_MAX] != old->max;
}

/*
 * The frame of each operation, the same for every backend: lockdep, the
 * misuse checks, the snapshot keys, the entity count and the "range
 * changed" answer. A backend's cap_clamp_*_{enqueue,dequeue,update}()
 * pass their per-index steps as constants: the frames are always inlined,
 * so each backend's operation compiles to one function with its steps
 * inlined, without an indirect call.
 *
 * @add accounts se->key[id], which is already set, @remove drops it, and
 * @rekey moves it to @key and stores @key in se->key[id]. They run under
 * the runqueue lock, with cc->nr not yet updated.
 */
typedef void (*cap_clamp_step_t)(struct cap_clamp_cpu *cc,
				 struct cap_clamp_se *se, enum cap_clamp_id id);
typedef void (*cap_clamp_rekey_t)(struct cap_clamp_cpu *cc,
				  struct cap_clamp_se *se, enum cap_clamp_id id,
				  unsigned int key);

static __always_inline bool
cap_clamp_enqueue_frame(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
			const struct cap_clamp_group *grp,
			raw_spinlock_t *lock, cap_clamp_step_t add)
{
	struct cap_clamp_range old;

	lockdep_assert_held(lock);

	if (WARN(cap_clamp_se_queued(se),
		 "cap_clamp: enqueue of a queued entity\n"))
		return false;

	cap_clamp_cpu_range(cc, &old);
	/* one call per index, not a loop: each step's offsets are constants */
	se->key[CAP_CLAMP_MIN] = READ_ONCE(grp->value[CAP_CLAMP_MIN]);
	add(cc, se, CAP_CLAMP_MIN);
	se->key[CAP_CLAMP_MAX] = READ_ONCE(grp->value[CAP_CLAMP_MAX]);
	add(cc, se, CAP_CLAMP_MAX);
	WRITE_ONCE(cc->nr, cc->nr + 1);
	se->cpu = cc;

	return cap_clamp_range_differs(cc, &old);
}

static __always_inline bool
cap_clamp_dequeue_frame(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
			raw_spinlock_t *lock, cap_clamp_step_t remove)
{
	struct cap_clamp_range old;

	lockdep_assert_held(lock);

	if (WARN(!cap_clamp_se_queued(se),
		 "cap_clamp: dequeue of an idle entity\n"))
		return false;
	if (WARN(se->cpu != cc, "cap_clamp: dequeue from another CPU\n"))
		return false;

	cap_clamp_cpu_range(cc, &old);
	remove(cc, se, CAP_CLAMP_MIN);
	remove(cc, se, CAP_CLAMP_MAX);
	WRITE_ONCE(cc->nr, cc->nr - 1);
	se->cpu = NULL;

	return cap_clamp_range_differs(cc, &old);
}

/*
 * Follow @grp's value for @id, if it is not @se's key already. Only this
 * step writes cc->value[id], so comparing it before and after tells
 * whether the range changed for @id; an index the write did not touch
 * costs two loads and a compare.
 */
static __always_inline bool
cap_clamp_update_index(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
		       const struct cap_clamp_group *grp, enum cap_clamp_id id,
		       cap_clamp_rekey_t rekey)
{
	unsigned int v = READ_ONCE(grp->value[id]);
	unsigned int old;

	if (se->key[id] == v)
		return false;
	old = cc->value[id];
	rekey(cc, se, id, v);
	return cc->value[id] != old;
}

/* Not queued is no misuse: the next enqueue reads the group again. */
static __always_inline bool
cap_clamp_update_frame(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
		       const struct cap_clamp_group *grp,
		       raw_spinlock_t *lock, cap_clamp_rekey_t rekey)
{
	bool changed;

	lockdep_assert_held(lock);

	if (!cap_clamp_se_queued(se))
		return false;
	if (WARN(se->cpu != cc, "cap_clamp: update on another CPU\n"))
		return false;

	changed = cap_clamp_update_index(cc, se, grp, CAP_CLAMP_MIN, rekey);
	changed |= cap_clamp_update_index(cc, se, grp, CAP_CLAMP_MAX, rekey);
	return changed;
}

#endif /* _KERNEL_SCHED_CAP_CLAMP_BACKEND_H */
