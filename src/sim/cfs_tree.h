/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The EEVDF runqueue as 6.12 keeps it (kernel/sched/fair.c): entities in a
 * red-black tree ordered by virtual deadline, each node augmented with
 * the smallest vruntime of its subtree, and the sums behind the weighted
 * average vruntime kept up to date at every change, so that
 * avg_vruntime(), entity_eligible() and pick_eevdf() cost O(1), O(1) and
 * O(log n).
 *
 * Equal deadlines are ordered by enqueue sequence, so the pick among
 * them is the earliest enqueued. The sums are exact: sum(w * v) in 128
 * bits (v need not be rebased against min_vruntime as the kernel does to
 * stay within 64 bits), so the average is the floor of the true weighted
 * mean, whatever the order of updates.
 */
#ifndef CAPSIM_CFS_TREE_H
#define CAPSIM_CFS_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/rbtree.h>

struct cfs_node {
	struct rb_node rb;
	int64_t vruntime, deadline;
	unsigned long weight;
	uint64_t seq;			/* enqueue order, breaks deadline ties */
	int64_t min_vruntime;		/* of the subtree */
};

struct cfs_tree {
	struct rb_root root;
	__int128 sum_wv;		/* sum of weight * vruntime */
	uint64_t load;			/* sum of weights */
	uint64_t seq;
};

void cfs_tree_init(struct cfs_tree *t);
void cfs_tree_insert(struct cfs_tree *t, struct cfs_node *n);
void cfs_tree_erase(struct cfs_tree *t, struct cfs_node *n);
/* A queued node's vruntime and deadline change (update_curr, yield) */
void cfs_tree_update(struct cfs_tree *t, struct cfs_node *n,
		     int64_t vruntime, int64_t deadline);
/* avg_vruntime(): floor of the weighted mean; the tree must not be empty */
int64_t cfs_tree_avg_vruntime(const struct cfs_tree *t);
/* vruntime_eligible(): @vruntime at or below the weighted mean */
bool cfs_tree_eligible(const struct cfs_tree *t, int64_t vruntime);
/* __pick_eevdf(): the earliest-deadline eligible node (NULL if empty) */
struct cfs_node *cfs_tree_pick(const struct cfs_tree *t);

#endif
