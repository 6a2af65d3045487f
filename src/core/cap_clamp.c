// SPDX-License-Identifier: GPL-2.0
/*
 * Capacity clamping core: see <linux/sched/cap_clamp.h> for the model and
 * the locking rules.
 *
 * What does not depend on the aggregator: the groups and the RFC's rules
 * for writing to them, and the read side, which composes and applies the
 * ranges the aggregators publish (cap_clamp_rbtree.c, cap_clamp_exact.c).
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/cap_clamp.h>

#include "cap_clamp_backend.h"

void cap_clamp_se_init(struct cap_clamp_se *se)
{
	se->key[CAP_CLAMP_MIN] = cap_clamp_empty_value(CAP_CLAMP_MIN);
	se->key[CAP_CLAMP_MAX] = cap_clamp_empty_value(CAP_CLAMP_MAX);
	se->cpu = NULL;
}

void cap_clamp_group_init_root(struct cap_clamp_group *root)
{
	root->parent = NULL;
	INIT_LIST_HEAD(&root->children);
	INIT_LIST_HEAD(&root->sibling);
	root->value[CAP_CLAMP_MIN] = 0;
	root->value[CAP_CLAMP_MAX] = SCHED_CAPACITY_SCALE;
}

/* A new group starts with its parent's constraints, as the RFC does. */
void cap_clamp_group_link(struct cap_clamp_group *grp,
			  struct cap_clamp_group *parent,
			  struct mutex *lock)
{
	lockdep_assert_held(lock);

	grp->parent = parent;
	INIT_LIST_HEAD(&grp->children);
	grp->value[CAP_CLAMP_MIN] = parent->value[CAP_CLAMP_MIN];
	grp->value[CAP_CLAMP_MAX] = parent->value[CAP_CLAMP_MAX];
	list_add_tail(&grp->sibling, &parent->children);
}

void cap_clamp_group_unlink(struct cap_clamp_group *grp, struct mutex *lock)
{
	lockdep_assert_held(lock);

	/* Children would be left pointing at a group no longer linked. */
	if (WARN_ON_ONCE(!list_empty(&grp->children)))
		return;
	list_del_init(&grp->sibling);
	grp->parent = NULL;
}

/*
 * Whether @value may become @grp's constraint @id. The parent and child
 * tests are mirrored between min and max: a group may only narrow its
 * parent's range, and its children must stay within its own.
 */
static __always_inline bool
cap_clamp_fits(const struct cap_clamp_group *grp, enum cap_clamp_id id,
	       unsigned int value)
{
	const struct cap_clamp_group *child;

	if (id == CAP_CLAMP_MIN) {
		if (value > grp->value[CAP_CLAMP_MAX])
			return false;
		if (grp->parent && value < grp->parent->value[CAP_CLAMP_MIN])
			return false;
		list_for_each_entry(child, &grp->children, sibling) {
			if (child->value[CAP_CLAMP_MIN] < value)
				return false;
		}
		return true;
	}

	if (value < grp->value[CAP_CLAMP_MIN])
		return false;
	if (grp->parent && value > grp->parent->value[CAP_CLAMP_MAX])
		return false;
	list_for_each_entry(child, &grp->children, sibling) {
		if (child->value[CAP_CLAMP_MAX] > value)
			return false;
	}
	return true;
}

/*
 * The rules of cap_clamp_group_check(), inlined into it and into
 * cap_clamp_group_write(), so that a write costs no call to its own check.
 */
static __always_inline int cap_clamp_validate(const struct cap_clamp_group *grp,
					      enum cap_clamp_id id, u64 value,
					      unsigned int *clamped)
{
	unsigned int v = min_t(u64, value, SCHED_CAPACITY_SCALE);

	if (id != CAP_CLAMP_MIN && id != CAP_CLAMP_MAX)
		return -EINVAL;

	*clamped = v;

	/* Writing the current value always succeeds, as in the RFC. */
	if (grp->value[id] == v)
		return 0;

	return cap_clamp_fits(grp, id, v) ? 0 : -EINVAL;
}

/**
 * cap_clamp_group_check() - validate a write without applying it
 * @grp: the group written to; the caller keeps the hierarchy stable (the
 *	 host's group mutex, as for cap_clamp_group_write())
 * @id: CAP_CLAMP_MIN or CAP_CLAMP_MAX
 * @value: the value as the user wrote it; above SCHED_CAPACITY_SCALE it is
 *	   clamped to SCHED_CAPACITY_SCALE
 * @clamped: where to store the value that would be applied
 *
 * Return: 0 if the write is allowed, -EINVAL otherwise.
 */
int cap_clamp_group_check(const struct cap_clamp_group *grp,
			  enum cap_clamp_id id, u64 value,
			  unsigned int *clamped)
{
	return cap_clamp_validate(grp, id, value, clamped);
}

/**
 * cap_clamp_group_write() - validate and apply a write to a group
 * @grp: the group written to
 * @id: CAP_CLAMP_MIN or CAP_CLAMP_MAX
 * @value: the value as the user wrote it
 * @lock: the host's group mutex, held by the caller
 *
 * Nothing changes on failure. On success the caller repositions every
 * queued entity of @grp with cap_clamp_update().
 *
 * Return: 0 on success, -EINVAL when the RFC's rules forbid the value.
 */
int cap_clamp_group_write(struct cap_clamp_group *grp, enum cap_clamp_id id,
			  u64 value, struct mutex *lock)
{
	unsigned int v;
	int ret;

	lockdep_assert_held(lock);

	ret = cap_clamp_validate(grp, id, value, &v);
	if (!ret)
		WRITE_ONCE(grp->value[id], v);

	return ret;
}

/* The range of a shared domain: the MAX of the mins and of the maxes. */
void cap_clamp_compose(struct cap_clamp_range *acc,
		       const struct cap_clamp_range *other)
{
	acc->min = max(acc->min, other->min);
	acc->max = max(acc->max, other->max);
}

/**
 * cap_clamp_domain_start() - begin the range of a shared frequency domain
 * @acc: the accumulated range
 * @self: the CPU whose update triggers the frequency selection
 *
 * RFC patch 4 always starts from the calling CPU's range. But patch 3
 * removes a task from the clamp trees before the class dequeue that calls
 * schedutil, so a CPU whose last task just slept asks with its empty range
 * [0, SCHED_CAPACITY_SCALE] and uncaps the whole domain (a third seed
 * defect). Here a CPU with no RUNNABLE entity never counts, caller or not.
 *
 * Return: whether @self counted. When no CPU of the domain counts, nothing
 * is RUNNABLE and the caller applies no clamp, as with no tasks at all.
 */
bool cap_clamp_domain_start(struct cap_clamp_range *acc,
			    const struct cap_clamp_cpu *self)
{
	acc->min = 0;
	acc->max = 0;
	return cap_clamp_domain_add(acc, self, false);
}

/**
 * cap_clamp_domain_add() - account another CPU of a shared domain
 * @acc: the accumulated range
 * @cc: the other CPU
 * @idle: whether that CPU is idle: idle CPUs do not constrain the domain
 *
 * Return: whether @cc counted.
 */
bool cap_clamp_domain_add(struct cap_clamp_range *acc,
			  const struct cap_clamp_cpu *cc, bool idle)
{
	struct cap_clamp_range r;

	if (idle || cap_clamp_cpu_empty(cc))
		return false;
	cap_clamp_cpu_range(cc, &r);
	cap_clamp_compose(acc, &r);
	return true;
}

/*
 * Clamp @util into @range. The max is tested last, so that a (transient)
 * min above max resolves to the cap, the side that bounds the frequency.
 */
unsigned long cap_clamp_range_util(const struct cap_clamp_range *range,
				   unsigned long util)
{
	unsigned long lo = range->min;
	unsigned long hi = range->max;

	if (util < lo)
		util = lo;
	if (util > hi)
		util = hi;
	return util;
}

unsigned long cap_clamp_cpu_util(const struct cap_clamp_cpu *cc,
				 unsigned long util)
{
	struct cap_clamp_range range;

	cap_clamp_cpu_range(cc, &range);
	return cap_clamp_range_util(&range, util);
}

/*
 * RT and DL tasks used to force the top OPP; with clamping they ask for the
 * full scale clamped by the CPU's range (RFC patch 5).
 */
unsigned long cap_clamp_rt_util(const struct cap_clamp_cpu *cc)
{
	return cap_clamp_cpu_util(cc, SCHED_CAPACITY_SCALE);
}
