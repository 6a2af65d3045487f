/*
 * The seed's algorithm, step for step (cap_clamp_insert_capacity,
 * cap_clamp_remove_capacity, cap_clamp_update_capacity and
 * cap_clamp_cpu_range of RFC v3 patches 2-4), on the kcompat rbtree.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/sched.h>

#include "seed_model.h"

bool seed_fix_stale_cache;

static unsigned int live_key(struct rb_node *node, unsigned int idx)
{
	struct seed_task *entry = rb_entry(node, struct seed_task,
					   cap_clamp_node[idx]);

	return entry->grp->cap_clamp[idx];
}

void seed_cpu_init(struct seed_cpu *rq)
{
	int i;

	for (i = 0; i < 2; i++) {
		rq->cap_clamp_cpu[i].tree = RB_ROOT;
		rq->cap_clamp_cpu[i].node = NULL;
		rq->cap_clamp_cpu[i].value = i == SEED_CLAMP_MIN ? 0 :
					     SCHED_CAPACITY_SCALE;
	}
}

void seed_task_init(struct seed_task *p, struct seed_group *grp)
{
	p->grp = grp;
	p->rq = NULL;
	RB_CLEAR_NODE(&p->cap_clamp_node[0]);
	RB_CLEAR_NODE(&p->cap_clamp_node[1]);
}

static void insert_capacity(struct seed_cpu *rq, struct seed_task *p,
			    unsigned int cap_idx)
{
	struct seed_clamp_cpu *cgc = &rq->cap_clamp_cpu[cap_idx];
	struct rb_node *node = &p->cap_clamp_node[cap_idx];
	struct rb_node *parent = NULL, **link;
	int update_cache = 1;
	unsigned int capacity_new;

	if (!RB_EMPTY_NODE(node)) {
		WARN(1, "cap_clamp_insert_capacity() on non empty node\n");
		return;
	}
	capacity_new = p->grp->cap_clamp[cap_idx];
	link = &cgc->tree.rb_node;
	while (*link) {
		parent = *link;
		if (capacity_new <= live_key(parent, cap_idx)) {
			link = &parent->rb_left;
			update_cache = 0;
		} else {
			link = &parent->rb_right;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, &cgc->tree);
	if (!update_cache)
		return;
	cgc->value = capacity_new;
	cgc->node = node;
}

static void remove_capacity(struct seed_cpu *rq, struct seed_task *p,
			    unsigned int cap_idx)
{
	struct seed_clamp_cpu *cgc = &rq->cap_clamp_cpu[cap_idx];
	struct rb_node *node = &p->cap_clamp_node[cap_idx];

	if (RB_EMPTY_NODE(node)) {
		WARN(1, "cap_clamp_remove_capacity on empty node\n");
		return;
	}
	if (node == cgc->node) {
		struct rb_node *prev_node = rb_prev(node);

		cgc->value = cap_idx == SEED_CLAMP_MIN ? 0 :
			     SCHED_CAPACITY_SCALE;
		cgc->node = prev_node;
		if (cgc->node)
			cgc->value = live_key(cgc->node, cap_idx);
	}
	rb_erase(node, &cgc->tree);
	RB_CLEAR_NODE(node);
}

void seed_enqueue_task(struct seed_cpu *rq, struct seed_task *p)
{
	insert_capacity(rq, p, SEED_CLAMP_MIN);
	insert_capacity(rq, p, SEED_CLAMP_MAX);
	p->rq = rq;
}

void seed_dequeue_task(struct seed_cpu *rq, struct seed_task *p)
{
	remove_capacity(rq, p, SEED_CLAMP_MIN);
	remove_capacity(rq, p, SEED_CLAMP_MAX);
}

void seed_update_capacity(struct seed_task *p, unsigned int cap_idx)
{
	unsigned int next_cap = SCHED_CAPACITY_SCALE, prev_cap = 0;
	unsigned int value = p->grp->cap_clamp[cap_idx];
	struct rb_node *node;

	if (RB_EMPTY_NODE(&p->cap_clamp_node[cap_idx]))
		return;
	node = rb_next(&p->cap_clamp_node[cap_idx]);
	if (node)
		next_cap = live_key(node, cap_idx);
	node = rb_prev(&p->cap_clamp_node[cap_idx]);
	if (node)
		prev_cap = live_key(node, cap_idx);
	if (prev_cap <= value && next_cap >= value) {
		/* Not in the RFC: the fix for defect (b) alone, to isolate (a). */
		if (seed_fix_stale_cache &&
		    p->rq->cap_clamp_cpu[cap_idx].node ==
		    &p->cap_clamp_node[cap_idx])
			p->rq->cap_clamp_cpu[cap_idx].value = value;
		return;
	}
	remove_capacity(p->rq, p, cap_idx);
	insert_capacity(p->rq, p, cap_idx);
}

/* cap_clamp_cpu_range() of patch 4: defaults unless a node is cached. */
void seed_cpu_range(const struct seed_cpu *rq, unsigned int *cap_min,
		    unsigned int *cap_max)
{
	const struct seed_clamp_cpu *cgc;

	*cap_min = 0;
	cgc = &rq->cap_clamp_cpu[SEED_CLAMP_MIN];
	if (cgc->node)
		*cap_min = cgc->value;
	*cap_max = SCHED_CAPACITY_SCALE;
	cgc = &rq->cap_clamp_cpu[SEED_CLAMP_MAX];
	if (cgc->node)
		*cap_max = cgc->value;
}

int seed_group_write(struct seed_group *grp, unsigned int cap_idx,
		     uint64_t value, struct seed_group *const *children,
		     int nr_children)
{
	unsigned int v = (unsigned int)value;	/* min_t(unsigned int, ...) */
	int i;

	if (v > SCHED_CAPACITY_SCALE)
		v = SCHED_CAPACITY_SCALE;
	if (grp->cap_clamp[cap_idx] == v)
		return 0;
	if (cap_idx == SEED_CLAMP_MIN) {
		if (grp->cap_clamp[SEED_CLAMP_MAX] < v)
			return -EINVAL;
		if (grp->parent && grp->parent->cap_clamp[SEED_CLAMP_MIN] > v)
			return -EINVAL;
		for (i = 0; i < nr_children; i++)
			if (children[i]->cap_clamp[SEED_CLAMP_MIN] < v)
				return -EINVAL;
	} else {
		if (grp->cap_clamp[SEED_CLAMP_MIN] > v)
			return -EINVAL;
		if (grp->parent && grp->parent->cap_clamp[SEED_CLAMP_MAX] < v)
			return -EINVAL;
		for (i = 0; i < nr_children; i++)
			if (children[i]->cap_clamp[SEED_CLAMP_MAX] > v)
				return -EINVAL;
	}
	grp->cap_clamp[cap_idx] = v;
	return 0;
}

void seed_domain_range(const struct seed_cpu *caller,
		       const struct seed_cpu *const *others,
		       const bool *idle, int nr, unsigned int *cap_min,
		       unsigned int *cap_max)
{
	unsigned int j_min, j_max;
	int j;

	seed_cpu_range(caller, cap_min, cap_max);
	for (j = 0; j < nr; j++) {
		if (idle[j])
			continue;
		seed_cpu_range(others[j], &j_min, &j_max);
		*cap_min = *cap_min > j_min ? *cap_min : j_min;
		*cap_max = *cap_max > j_max ? *cap_max : j_max;
	}
}
