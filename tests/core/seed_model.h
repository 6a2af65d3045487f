/*
 * A faithful user-space re-implementation of the RFC v3 series' clamp
 * logic (patches 1-3): rbtrees keyed by the *live* group value read through
 * the task's group, and a cached CPU value refreshed only by insert/remove.
 * It exists to demonstrate the two seed defects; it is not used by capsim.
 */
#ifndef CAPSIM_TEST_SEED_MODEL_H
#define CAPSIM_TEST_SEED_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/rbtree.h>

#define SEED_CLAMP_MIN 0
#define SEED_CLAMP_MAX 1

struct seed_group {
	struct seed_group *parent;
	unsigned int cap_clamp[2];
};

struct seed_task {
	struct seed_group *grp;		/* task_group(p) */
	struct seed_cpu *rq;		/* task_rq(p) */
	struct rb_node cap_clamp_node[2];
};

struct seed_clamp_cpu {
	struct rb_root tree;
	struct rb_node *node;
	unsigned int value;
};

struct seed_cpu {
	struct seed_clamp_cpu cap_clamp_cpu[2];
};

/* Off: the RFC as posted. On: defect (b) fixed, (a) left in. */
extern bool seed_fix_stale_cache;

void seed_cpu_init(struct seed_cpu *rq);
void seed_task_init(struct seed_task *p, struct seed_group *grp);
void seed_enqueue_task(struct seed_cpu *rq, struct seed_task *p);
void seed_dequeue_task(struct seed_cpu *rq, struct seed_task *p);
void seed_update_capacity(struct seed_task *p, unsigned int cap_idx);
void seed_cpu_range(const struct seed_cpu *rq, unsigned int *cap_min,
		    unsigned int *cap_max);

#endif

/*
 * sugov_next_freq_shared() of patch 4: start from the calling CPU's range,
 * compose every other CPU that is not idle.
 */
void seed_domain_range(const struct seed_cpu *caller,
		       const struct seed_cpu *const *others,
		       const bool *idle, int nr, unsigned int *cap_min,
		       unsigned int *cap_max);

/*
 * cpu_capacity_{min,max}_write_u64() of patch 1: note min_t(unsigned int)
 * truncates the u64 before clamping, so 2^32 reads as 0. @children lists
 * the group's children (css_for_each_child). Returns 0 or -EINVAL.
 */
int seed_group_write(struct seed_group *grp, unsigned int cap_idx,
		     uint64_t value, struct seed_group *const *children,
		     int nr_children);
