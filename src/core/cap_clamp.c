// SPDX-License-Identifier: GPL-2.0
/*
 * Capacity clamping core: see <linux/sched/cap_clamp.h> for the model and
 * the locking rules.
 *
 * Each CPU keeps, per clamp index, an rbtree of its RUNNABLE entities keyed
 * by the capacity value each one was inserted with. The CPU's constraint is
 * the largest key, cached with its node so the read side is O(1).
 *
 * Two departures from the RFC v3 series, both deliberate:
 *  - keys are snapshots kept in the entity, not read through its group on
 *    every comparison: a group write can no longer change the key of a
 *    queued node behind the tree's back;
 *  - an update that changes the rightmost key without moving the node
 *    still refreshes the cached value, which the RFC left stale.
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/cap_clamp.h>

static const unsigned int cap_clamp_empty[CAP_CLAMP_CNT] = {
	[CAP_CLAMP_MIN] = 0,
	[CAP_CLAMP_MAX] = SCHED_CAPACITY_SCALE,
};

static inline unsigned int cap_clamp_node_key(struct rb_node *node,
					      enum cap_clamp_id id)
{
	struct cap_clamp_se *se = rb_entry(node, struct cap_clamp_se,
					   node[id]);

	return se->key[id];
}

static void cap_clamp_tree_init(struct cap_clamp_tree *t,
				enum cap_clamp_id id)
{
	t->root = RB_ROOT;
	t->rightmost = NULL;
	t->value = cap_clamp_empty[id];
}

void cap_clamp_cpu_init(struct cap_clamp_cpu *cc)
{
	cap_clamp_tree_init(&cc->tree[CAP_CLAMP_MIN], CAP_CLAMP_MIN);
	cap_clamp_tree_init(&cc->tree[CAP_CLAMP_MAX], CAP_CLAMP_MAX);
}

void cap_clamp_se_init(struct cap_clamp_se *se)
{
	RB_CLEAR_NODE(&se->node[CAP_CLAMP_MIN]);
	RB_CLEAR_NODE(&se->node[CAP_CLAMP_MAX]);
	se->key[CAP_CLAMP_MIN] = cap_clamp_empty[CAP_CLAMP_MIN];
	se->key[CAP_CLAMP_MAX] = cap_clamp_empty[CAP_CLAMP_MAX];
	se->cpu = NULL;
}

/*
 * Insert @se's node for @id with its snapshot key. Equal keys go left, so
 * the cached rightmost node only changes for a strictly larger key.
 */
static void cap_clamp_insert(struct cap_clamp_tree *t,
			     struct cap_clamp_se *se, enum cap_clamp_id id)
{
	struct rb_node **link = &t->root.rb_node;
	struct rb_node *node = &se->node[id];
	struct rb_node *parent = NULL;
	bool rightmost = true;

	while (*link) {
		parent = *link;
		if (se->key[id] <= cap_clamp_node_key(parent, id)) {
			link = &parent->rb_left;
			rightmost = false;
		} else {
			link = &parent->rb_right;
		}
	}

	rb_link_node(node, parent, link);
	rb_insert_color(node, &t->root);

	if (rightmost) {
		WRITE_ONCE(t->rightmost, node);
		WRITE_ONCE(t->value, se->key[id]);
	}
}

static void cap_clamp_remove(struct cap_clamp_tree *t,
			     struct cap_clamp_se *se, enum cap_clamp_id id)
{
	struct rb_node *node = &se->node[id];

	if (node == t->rightmost) {
		struct rb_node *prev = rb_prev(node);

		WRITE_ONCE(t->rightmost, prev);
		WRITE_ONCE(t->value, prev ? cap_clamp_node_key(prev, id) :
			   cap_clamp_empty[id]);
	}

	rb_erase(node, &t->root);
	RB_CLEAR_NODE(node);
}

/*
 * Give @se's queued node for @id the new key @key. The node stays where it
 * is while its neighbours still bracket the key; otherwise it is moved.
 * Either way the cached CPU value reflects the new maximum on return.
 */
static void cap_clamp_rekey(struct cap_clamp_tree *t,
			    struct cap_clamp_se *se, enum cap_clamp_id id,
			    unsigned int key)
{
	struct rb_node *node = &se->node[id];
	struct rb_node *prev = rb_prev(node);
	struct rb_node *next = rb_next(node);

	if ((!prev || cap_clamp_node_key(prev, id) <= key) &&
	    (!next || cap_clamp_node_key(next, id) >= key)) {
		se->key[id] = key;
		if (node == t->rightmost)
			WRITE_ONCE(t->value, key);
		return;
	}

	cap_clamp_remove(t, se, id);
	se->key[id] = key;
	cap_clamp_insert(t, se, id);
}

static inline bool cap_clamp_range_differs(const struct cap_clamp_cpu *cc,
					   const struct cap_clamp_range *old)
{
	return cc->tree[CAP_CLAMP_MIN].value != old->min ||
	       cc->tree[CAP_CLAMP_MAX].value != old->max;
}

/**
 * cap_clamp_enqueue() - account a RUNNABLE entity on a CPU
 * @cc: the CPU aggregate
 * @se: the entity, not queued anywhere
 * @grp: the entity's group, whose values become the entity's keys
 * @lock: the CPU's runqueue lock, held by the caller
 *
 * Return: true if the CPU's range changed.
 */
bool cap_clamp_enqueue(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
		       const struct cap_clamp_group *grp,
		       raw_spinlock_t *lock)
{
	struct cap_clamp_range old;
	int id;

	lockdep_assert_held(lock);

	if (WARN(cap_clamp_se_queued(se),
		 "cap_clamp: enqueue of a queued entity\n"))
		return false;

	cap_clamp_cpu_range(cc, &old);
	for (id = 0; id < CAP_CLAMP_CNT; id++) {
		se->key[id] = READ_ONCE(grp->value[id]);
		cap_clamp_insert(&cc->tree[id], se, id);
	}
	se->cpu = cc;

	return cap_clamp_range_differs(cc, &old);
}

/**
 * cap_clamp_dequeue() - stop accounting an entity on its CPU
 * @cc: the CPU aggregate the entity is queued on
 * @se: the entity
 * @lock: the CPU's runqueue lock, held by the caller
 *
 * Return: true if the CPU's range changed.
 */
bool cap_clamp_dequeue(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
		       raw_spinlock_t *lock)
{
	struct cap_clamp_range old;
	int id;

	lockdep_assert_held(lock);

	if (WARN(!cap_clamp_se_queued(se),
		 "cap_clamp: dequeue of an idle entity\n"))
		return false;
	if (WARN(se->cpu != cc, "cap_clamp: dequeue from another CPU\n"))
		return false;

	cap_clamp_cpu_range(cc, &old);
	for (id = 0; id < CAP_CLAMP_CNT; id++)
		cap_clamp_remove(&cc->tree[id], se, id);
	se->cpu = NULL;

	return cap_clamp_range_differs(cc, &old);
}

/**
 * cap_clamp_update() - follow a change of an entity's group values
 * @cc: the CPU aggregate the entity would be queued on
 * @se: the entity
 * @grp: the entity's group, after the change
 * @lock: the CPU's runqueue lock, held by the caller
 *
 * An entity that is not queued picks up its group's values at its next
 * enqueue, so only queued entities are touched.
 *
 * Return: true if the CPU's range changed.
 */
bool cap_clamp_update(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
		      const struct cap_clamp_group *grp,
		      raw_spinlock_t *lock)
{
	struct cap_clamp_range old;
	int id;

	lockdep_assert_held(lock);

	if (!cap_clamp_se_queued(se))
		return false;
	if (WARN(se->cpu != cc, "cap_clamp: update on another CPU\n"))
		return false;

	cap_clamp_cpu_range(cc, &old);
	for (id = 0; id < CAP_CLAMP_CNT; id++) {
		unsigned int v = READ_ONCE(grp->value[id]);

		if (se->key[id] != v)
			cap_clamp_rekey(&cc->tree[id], se, id, v);
	}

	return cap_clamp_range_differs(cc, &old);
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
static bool cap_clamp_fits(const struct cap_clamp_group *grp,
			   enum cap_clamp_id id, unsigned int value)
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

	ret = cap_clamp_group_check(grp, id, value, &v);
	if (!ret)
		WRITE_ONCE(grp->value[id], v);

	return ret;
}

void cap_clamp_cpu_range(const struct cap_clamp_cpu *cc,
			 struct cap_clamp_range *range)
{
	range->min = READ_ONCE(cc->tree[CAP_CLAMP_MIN].value);
	range->max = READ_ONCE(cc->tree[CAP_CLAMP_MAX].value);
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
