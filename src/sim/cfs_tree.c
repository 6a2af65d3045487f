// SPDX-License-Identifier: GPL-2.0
#include <linux/rbtree_augmented.h>

#include "cfs_tree.h"

static struct cfs_node *node_of(struct rb_node *rb)
{
	return rb ? rb_entry(rb, struct cfs_node, rb) : NULL;
}

/* min_vruntime_update(): the node's own vruntime and its children's mins */
static int64_t subtree_min(struct cfs_node *n)
{
	struct cfs_node *l = node_of(n->rb.rb_left);
	struct cfs_node *r = node_of(n->rb.rb_right);
	int64_t m = n->vruntime;

	if (l && l->min_vruntime < m)
		m = l->min_vruntime;
	if (r && r->min_vruntime < m)
		m = r->min_vruntime;
	return m;
}

static void aug_propagate(struct rb_node *rb, struct rb_node *stop)
{
	while (rb != stop) {
		struct cfs_node *n = node_of(rb);
		int64_t m = subtree_min(n);

		if (n->min_vruntime == m)
			break;
		n->min_vruntime = m;
		rb = rb_parent(rb);
	}
}

static void aug_copy(struct rb_node *old, struct rb_node *new)
{
	node_of(new)->min_vruntime = node_of(old)->min_vruntime;
}

static void aug_rotate(struct rb_node *old, struct rb_node *new)
{
	node_of(new)->min_vruntime = node_of(old)->min_vruntime;
	node_of(old)->min_vruntime = subtree_min(node_of(old));
}

static const struct rb_augment_callbacks min_vruntime_cb = {
	aug_propagate, aug_copy, aug_rotate,
};

static bool before(const struct cfs_node *a, const struct cfs_node *b)
{
	if (a->deadline != b->deadline)
		return a->deadline < b->deadline;
	return a->seq < b->seq;
}

void cfs_tree_init(struct cfs_tree *t)
{
	t->root = RB_ROOT;
	t->sum_wv = 0;
	t->load = 0;
	t->seq = 0;
}

/* Link @n by its key; the path down gains its vruntime */
static void link(struct cfs_tree *t, struct cfs_node *n)
{
	struct rb_node **link = &t->root.rb_node, *parent = NULL;

	n->min_vruntime = n->vruntime;
	while (*link) {
		struct cfs_node *p = node_of(*link);

		parent = *link;
		if (n->vruntime < p->min_vruntime)
			p->min_vruntime = n->vruntime;
		link = before(n, p) ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&n->rb, parent, link);
	rb_insert_augmented(&n->rb, &t->root, &min_vruntime_cb);
}

void cfs_tree_insert(struct cfs_tree *t, struct cfs_node *n)
{
	n->seq = ++t->seq;
	link(t, n);
	t->sum_wv += (__int128)n->vruntime * (__int128)n->weight;
	t->load += n->weight;
}

void cfs_tree_erase(struct cfs_tree *t, struct cfs_node *n)
{
	rb_erase_augmented(&n->rb, &t->root, &min_vruntime_cb);
	RB_CLEAR_NODE(&n->rb);
	t->sum_wv -= (__int128)n->vruntime * (__int128)n->weight;
	t->load -= n->weight;
}

void cfs_tree_update(struct cfs_tree *t, struct cfs_node *n,
		     int64_t vruntime, int64_t deadline)
{
	t->sum_wv += (__int128)(vruntime - n->vruntime) *
		     (__int128)n->weight;
	n->vruntime = vruntime;
	if (deadline != n->deadline) {
		/* a new key: move the node, keeping its enqueue order */
		rb_erase_augmented(&n->rb, &t->root, &min_vruntime_cb);
		n->deadline = deadline;
		link(t, n);
	} else {
		n->min_vruntime = subtree_min(n);
		aug_propagate(rb_parent(&n->rb), NULL);
	}
}

int64_t cfs_tree_avg_vruntime(const struct cfs_tree *t)
{
	__int128 s = t->sum_wv, w = (__int128)t->load;

	/* round towards -inf, as the kernel does for negative sums */
	if (s < 0)
		s -= w - 1;
	return (int64_t)(s / w);
}

bool cfs_tree_eligible(const struct cfs_tree *t, int64_t vruntime)
{
	/* sum(w * (v_i - v)) >= 0, exactly */
	return t->sum_wv - (__int128)vruntime * (__int128)t->load >= 0;
}

struct cfs_node *cfs_tree_pick(const struct cfs_tree *t)
{
	struct rb_node *rb = t->root.rb_node;

	while (rb) {
		struct cfs_node *l = node_of(rb->rb_left);
		struct cfs_node *n = node_of(rb);

		/* an eligible node on the left has an earlier deadline */
		if (l && cfs_tree_eligible(t, l->min_vruntime)) {
			rb = rb->rb_left;
			continue;
		}
		if (cfs_tree_eligible(t, n->vruntime))
			return n;
		rb = rb->rb_right;
	}
	return NULL;
}
