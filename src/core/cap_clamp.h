/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capacity clamping core: per-group capacity_{min,max} constraints,
 * aggregated per CPU over the RUNNABLE entities as a MAX of the mins and a
 * MAX of the maxes (RFC "Add capacity capping support to the CPU
 * controller", v3).
 *
 * This file is shared, unedited, by the Linux tree and by the capsim
 * user-space simulator. It knows nothing of task_struct, rq or task_group:
 * the host embeds the structures below into its own and passes in the lock
 * that serializes each operation.
 *
 * Two aggregators implement the per-CPU side behind one API:
 *  - rbtree: per clamp index, a red-black tree of the distinct values of
 *    the RUNNABLE entities, the entities at each value on a list with its
 *    node, O(log k) per operation for k distinct values (the RFC's design
 *    had a node per entity: a group write now moves all but two of its
 *    entities in O(1) each);
 *  - exact: per clamp index, a count of the RUNNABLE entities at each of
 *    the SCHED_CAPACITY_SCALE + 1 values and a two-level bitmap of the
 *    counts in use, O(1) per operation.
 * Both give the same ranges and the same "range changed" answers. A kernel
 * builds the one chosen in Kconfig; a host that compares them (capsim)
 * defines CAP_CLAMP_ALL_BACKENDS, builds both and picks one per CPU
 * aggregate at init time.
 *
 * Locking rules (checked with lockdep_assert_held()):
 *  - enqueue, dequeue and update of an entity on a CPU aggregate hold that
 *    CPU's runqueue lock;
 *  - group link, unlink and writes hold the host's group mutex;
 *  - reads of a CPU range are lockless (READ_ONCE of the published
 *    values); min and max are read separately, so a reader racing with an
 *    update may pair an old max with a new min: cap_clamp_range_util() then
 *    resolves to the max.
 */
#ifndef _LINUX_SCHED_CAP_CLAMP_H
#define _LINUX_SCHED_CAP_CLAMP_H

#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>

#if defined(CONFIG_CAP_CLAMP_RBTREE) || defined(CAP_CLAMP_ALL_BACKENDS)
#define CAP_CLAMP_HAVE_RBTREE
#endif
#if defined(CONFIG_CAP_CLAMP_EXACT) || defined(CAP_CLAMP_ALL_BACKENDS)
#define CAP_CLAMP_HAVE_EXACT
#endif

enum cap_clamp_id {
	CAP_CLAMP_MIN = 0,
	CAP_CLAMP_MAX,
	CAP_CLAMP_CNT
};

/*
 * The values a constraint can take, 0..SCHED_CAPACITY_SCALE. Spelled out
 * because <linux/sched.h> includes this header before it defines the
 * scale; cap_clamp_exact.c asserts that the two agree.
 */
#define CAP_CLAMP_NR_VALUES	(1024 + 1)

/* A capacity range, [min, max] in SCHED_CAPACITY_SCALE units */
struct cap_clamp_range {
	unsigned int min;
	unsigned int max;
};

/* The constraints of a group of entities (a cgroup in the kernel) */
struct cap_clamp_group {
	struct cap_clamp_group *parent;
	struct list_head children;
	struct list_head sibling;
	unsigned int value[CAP_CLAMP_CNT];
};

/*
 * An entity as its CPU aggregate sees it. The keys are the group values
 * the entity was accounted with, so the aggregate never depends on a group
 * value that may change while the entity is queued.
 *
 * rbtree: per index, the queued entities with one key are on a ring of
 * @same; one of them, the key's representative, has @node in the tree,
 * the others have it cleared (RB_EMPTY_NODE()).
 */
struct cap_clamp_se {
	unsigned int key[CAP_CLAMP_CNT];
	struct cap_clamp_cpu *cpu;
#ifdef CAP_CLAMP_HAVE_RBTREE
	struct rb_node node[CAP_CLAMP_CNT];
	struct list_head same[CAP_CLAMP_CNT];
#endif
};

/*
 * rbtree: the distinct values of one key over the RUNNABLE entities of a
 * CPU, one node each, and both ends of the order, where a key at or past
 * the current extremes is found without a search (a group write moves its
 * entities to one end, one by one).
 */
struct cap_clamp_tree {
	struct rb_root root;
	struct rb_node *leftmost;
	struct rb_node *rightmost;
};

/*
 * exact: how many RUNNABLE entities of a CPU have each value of one key.
 * Bit v of @used is set while @count[v] is not zero, and bit w of
 * @used_words while word w of @used is not zero, so the largest value in
 * use is two find-last-bit steps away whatever the number of entities.
 */
#define CAP_CLAMP_WORDS		BITS_TO_LONGS(CAP_CLAMP_NR_VALUES)
struct cap_clamp_refs {
	unsigned long used_words[BITS_TO_LONGS(CAP_CLAMP_WORDS)];
	unsigned long used[CAP_CLAMP_WORDS];
	unsigned int count[CAP_CLAMP_NR_VALUES];
};

/*
 * Per-CPU aggregate. @value and @nr are what readers see, the same for
 * every backend: the MAX of each key over the RUNNABLE entities (the
 * unconstrained [0, SCHED_CAPACITY_SCALE] when there are none) and how
 * many there are. The rest is the backend's own bookkeeping.
 */
struct cap_clamp_cpu {
	unsigned int value[CAP_CLAMP_CNT];
	unsigned int nr;
#ifdef CAP_CLAMP_ALL_BACKENDS
	bool exact;
#endif
#ifdef CAP_CLAMP_HAVE_RBTREE
	struct cap_clamp_tree tree[CAP_CLAMP_CNT];
#endif
#ifdef CAP_CLAMP_HAVE_EXACT
	struct cap_clamp_refs refs[CAP_CLAMP_CNT];
#endif
};

void cap_clamp_se_init(struct cap_clamp_se *se);

void cap_clamp_group_init_root(struct cap_clamp_group *root);
void cap_clamp_group_link(struct cap_clamp_group *grp,
			  struct cap_clamp_group *parent, struct mutex *lock);
void cap_clamp_group_unlink(struct cap_clamp_group *grp, struct mutex *lock);
int cap_clamp_group_check(const struct cap_clamp_group *grp,
			  enum cap_clamp_id id, u64 value,
			  unsigned int *clamped);
int cap_clamp_group_write(struct cap_clamp_group *grp, enum cap_clamp_id id,
			  u64 value, struct mutex *lock);

/* The backends; use the cap_clamp_*() names below, which pick one. */
void cap_clamp_rbtree_cpu_init(struct cap_clamp_cpu *cc);
bool cap_clamp_rbtree_enqueue(struct cap_clamp_cpu *cc,
			      struct cap_clamp_se *se,
			      const struct cap_clamp_group *grp,
			      raw_spinlock_t *lock);
bool cap_clamp_rbtree_dequeue(struct cap_clamp_cpu *cc,
			      struct cap_clamp_se *se, raw_spinlock_t *lock);
bool cap_clamp_rbtree_update(struct cap_clamp_cpu *cc,
			     struct cap_clamp_se *se,
			     const struct cap_clamp_group *grp,
			     raw_spinlock_t *lock);

void cap_clamp_exact_cpu_init(struct cap_clamp_cpu *cc);
bool cap_clamp_exact_enqueue(struct cap_clamp_cpu *cc,
			     struct cap_clamp_se *se,
			     const struct cap_clamp_group *grp,
			     raw_spinlock_t *lock);
bool cap_clamp_exact_dequeue(struct cap_clamp_cpu *cc,
			     struct cap_clamp_se *se, raw_spinlock_t *lock);
bool cap_clamp_exact_update(struct cap_clamp_cpu *cc,
			    struct cap_clamp_se *se,
			    const struct cap_clamp_group *grp,
			    raw_spinlock_t *lock);

/*
 * Whether @cc is run by the exact backend. A compile-time constant in a
 * kernel, so the calls below go straight to the one backend built, with
 * no indirect call on the enqueue and dequeue paths.
 */
static inline bool cap_clamp_cpu_exact(const struct cap_clamp_cpu *cc)
{
#if defined(CAP_CLAMP_ALL_BACKENDS)
	return cc->exact;
#elif defined(CONFIG_CAP_CLAMP_EXACT)
	return true;
#else
	return false;
#endif
}

/* Initialise @cc, empty, with the default (the only, in a kernel) backend */
static inline void cap_clamp_cpu_init(struct cap_clamp_cpu *cc)
{
#ifdef CONFIG_CAP_CLAMP_EXACT
	cap_clamp_exact_cpu_init(cc);
#else
	cap_clamp_rbtree_cpu_init(cc);
#endif
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
static inline bool cap_clamp_enqueue(struct cap_clamp_cpu *cc,
				     struct cap_clamp_se *se,
				     const struct cap_clamp_group *grp,
				     raw_spinlock_t *lock)
{
	if (cap_clamp_cpu_exact(cc))
		return cap_clamp_exact_enqueue(cc, se, grp, lock);
	return cap_clamp_rbtree_enqueue(cc, se, grp, lock);
}

/**
 * cap_clamp_dequeue() - stop accounting an entity on its CPU
 * @cc: the CPU aggregate the entity is queued on
 * @se: the entity
 * @lock: the CPU's runqueue lock, held by the caller
 *
 * Return: true if the CPU's range changed.
 */
static inline bool cap_clamp_dequeue(struct cap_clamp_cpu *cc,
				     struct cap_clamp_se *se,
				     raw_spinlock_t *lock)
{
	if (cap_clamp_cpu_exact(cc))
		return cap_clamp_exact_dequeue(cc, se, lock);
	return cap_clamp_rbtree_dequeue(cc, se, lock);
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
static inline bool cap_clamp_update(struct cap_clamp_cpu *cc,
				    struct cap_clamp_se *se,
				    const struct cap_clamp_group *grp,
				    raw_spinlock_t *lock)
{
	if (cap_clamp_cpu_exact(cc))
		return cap_clamp_exact_update(cc, se, grp, lock);
	return cap_clamp_rbtree_update(cc, se, grp, lock);
}

static inline void cap_clamp_cpu_range(const struct cap_clamp_cpu *cc,
				       struct cap_clamp_range *range)
{
	range->min = READ_ONCE(cc->value[CAP_CLAMP_MIN]);
	range->max = READ_ONCE(cc->value[CAP_CLAMP_MAX]);
}

/* Whether no RUNNABLE entity is accounted on @cc (lockless) */
static inline bool cap_clamp_cpu_empty(const struct cap_clamp_cpu *cc)
{
	return !READ_ONCE(cc->nr);
}

static inline bool cap_clamp_se_queued(const struct cap_clamp_se *se)
{
	return se->cpu;
}

void cap_clamp_compose(struct cap_clamp_range *acc,
		       const struct cap_clamp_range *other);
bool cap_clamp_domain_start(struct cap_clamp_range *acc,
			    const struct cap_clamp_cpu *self);
bool cap_clamp_domain_add(struct cap_clamp_range *acc,
			  const struct cap_clamp_cpu *cc, bool idle);
unsigned long cap_clamp_range_util(const struct cap_clamp_range *range,
				   unsigned long util);
unsigned long cap_clamp_cpu_util(const struct cap_clamp_cpu *cc,
				 unsigned long util);
unsigned long cap_clamp_rt_util(const struct cap_clamp_cpu *cc);

#endif /* _LINUX_SCHED_CAP_CLAMP_H */
