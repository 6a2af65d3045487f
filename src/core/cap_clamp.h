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
 * Locking rules (checked with lockdep_assert_held()):
 *  - enqueue, dequeue and update of an entity on a CPU aggregate hold that
 *    CPU's runqueue lock;
 *  - group link, unlink and writes hold the host's group mutex;
 *  - reads of a CPU range are lockless (READ_ONCE of the cached values);
 *    min and max are read separately, so a reader racing with an update
 *    may pair an old max with a new min: cap_clamp_range_util() then
 *    resolves to the max.
 */
#ifndef _LINUX_SCHED_CAP_CLAMP_H
#define _LINUX_SCHED_CAP_CLAMP_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>

enum cap_clamp_id {
	CAP_CLAMP_MIN = 0,
	CAP_CLAMP_MAX,
	CAP_CLAMP_CNT
};

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
 * An entity's nodes in a CPU's two trees. The key each node was inserted
 * with is kept here, so the tree order never depends on a group value that
 * may change while the entity is queued.
 */
struct cap_clamp_se {
	struct rb_node node[CAP_CLAMP_CNT];
	unsigned int key[CAP_CLAMP_CNT];
	struct cap_clamp_cpu *cpu;
};

/* The RUNNABLE entities of a CPU, sorted by one key, and the maximum key */
struct cap_clamp_tree {
	struct rb_root root;
	struct rb_node *rightmost;
	unsigned int value;
};

/* Per-CPU aggregate: one tree for the mins and one for the maxes */
struct cap_clamp_cpu {
	struct cap_clamp_tree tree[CAP_CLAMP_CNT];
};

void cap_clamp_cpu_init(struct cap_clamp_cpu *cc);
void cap_clamp_se_init(struct cap_clamp_se *se);

void cap_clamp_group_init_root(struct cap_clamp_group *root);
void cap_clamp_group_link(struct cap_clamp_group *grp,
			  struct cap_clamp_group *parent,
			  struct mutex *lock);
void cap_clamp_group_unlink(struct cap_clamp_group *grp, struct mutex *lock);
int cap_clamp_group_check(const struct cap_clamp_group *grp,
			  enum cap_clamp_id id, u64 value,
			  unsigned int *clamped);
int cap_clamp_group_write(struct cap_clamp_group *grp, enum cap_clamp_id id,
			  u64 value, struct mutex *lock);

bool cap_clamp_enqueue(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
		       const struct cap_clamp_group *grp,
		       raw_spinlock_t *lock);
bool cap_clamp_dequeue(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
		       raw_spinlock_t *lock);
bool cap_clamp_update(struct cap_clamp_cpu *cc, struct cap_clamp_se *se,
		      const struct cap_clamp_group *grp,
		      raw_spinlock_t *lock);

void cap_clamp_cpu_range(const struct cap_clamp_cpu *cc,
			 struct cap_clamp_range *range);
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

/* Whether no RUNNABLE entity is accounted on @cc (lockless) */
static inline bool cap_clamp_cpu_empty(const struct cap_clamp_cpu *cc)
{
	return !READ_ONCE(cc->tree[CAP_CLAMP_MAX].rightmost);
}

static inline bool cap_clamp_se_queued(const struct cap_clamp_se *se)
{
	return se->cpu;
}

#endif /* _LINUX_SCHED_CAP_CLAMP_H */
