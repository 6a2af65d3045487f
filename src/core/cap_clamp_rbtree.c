// SPDX-License-Identifier: GPL-2.0
/*
 * Capacity clamping, rbtree aggregator: each CPU keeps, per clamp index,
 * an rbtree of its RUNNABLE entities keyed by the capacity value each one
 * was inserted with. The CPU's constraint is the largest key; the nodes at
 * both ends are cached, so that removing any other node costs no search
 * for the maximum and a key past either end is inserted without a search.
 *
 * Two departures from the RFC v3 series, both deliberate:
 *  - keys are snapshots kept in the entity, not read through its group on
 *    every comparison: a group write can no longer change the key of a
 *    queued node behind the tree's back;
 *  - an update that changes the rightmost key without moving the node
 *    still refreshes the published value, which the RFC left stale.
 */
#include <linux/compiler.h>
#include <linux/rbtree.h>
#include <linux/sched/cap_clamp.h>

#include "cap_clamp_backend.h"

static inline unsigned int cap_clamp_node_key(struct rb_node *node,
					      enum cap_clamp_id id)
{
	struct cap_clamp_se *se = rb_entry(node, struct cap_clamp_se,
					   node[id]);

	return se->key[id];
}

void cap_clamp_rbtree_cpu_init(struct cap_clamp_cpu *cc)
{
	int id;

	cap_clamp_cpu_init_published(cc, false);
	for (id = 0; id < CAP_CLAMP_CNT; id++) {
		cc->tree[id].root = RB_ROOT;
		cc->tree[id].leftmost = NULL;
		cc->tree[id].rightmost = NULL;
	}
}

/*
 * Insert @se's node for @id with its snapshot key. A key at or above the
 * largest one becomes the new rightmost node, one at or below the smallest
 * the new leftmost, both without a search; the order among equal keys is
 * of no consequence.
 */
static __always_inline void cap_clamp_insert(struct cap_clamp_cpu *cc,
					     struct cap_clamp_se *se,
					     enum cap_clamp_id id)
{
	struct cap_clamp_tree *t = &cc->tree[id];
	struct rb_node *node = &se->node[id];
	unsigned int key = se->key[id];
	struct rb_node **link, *parent;

	if (!t->rightmost) {
		parent = NULL;
		link = &t->root.rb_node;
		t->leftmost = node;
		t->rightmost = node;
		WRITE_ONCE(cc->value[id], key);
	} else if (key >= cap_clamp_node_key(t->rightmost, id)) {
		parent = t->rightmost;
		link = &parent->rb_right;
		t->rightmost = node;
		WRITE_ONCE(cc->value[id], key);
	} else if (key <= cap_clamp_node_key(t->leftmost, id)) {
		parent = t->leftmost;
		link = &parent->rb_left;
		t->leftmost = node;
	} else {
		/* strictly inside: neither end changes */
		link = &t->root.rb_node;
		do {
			parent = *link;
			if (key < cap_clamp_node_key(parent, id))
				link = &parent->rb_left;
			else
				link = &parent->rb_right;
		} while (*link);
	}

	rb_link_node(node, parent, link);
	rb_insert_color(node, &t->root);
}

static __always_inline void cap_clamp_remove(struct cap_clamp_cpu *cc,
					     struct cap_clamp_se *se,
					     enum cap_clamp_id id)
{
	struct cap_clamp_tree *t = &cc->tree[id];
	struct rb_node *node = &se->node[id];

	if (node == t->rightmost) {
		struct rb_node *prev = rb_prev(node);

		t->rightmost = prev;
		WRITE_ONCE(cc->value[id], prev ? cap_clamp_node_key(prev, id) :
			   cap_clamp_empty_value(id));
	}
	if (node == t->leftmost)
		t->leftmost = rb_next(node);

	rb_erase(node, &t->root);
	RB_CLEAR_NODE(node);
}

/*
 * Give @se's queued node for @id the new key @key. A key that grows can
 * only pass its successor, one that shrinks its predecessor: while that
 * neighbour still bounds it, the node stays where it is; otherwise it is
 * moved. Either way the published value is the maximum on return.
 */
static __always_inline void cap_clamp_rekey(struct cap_clamp_cpu *cc,
					    struct cap_clamp_se *se,
					    enum cap_clamp_id id,
					    unsigned int key)
{
	struct cap_clamp_tree *t = &cc->tree[id];
	struct rb_node *node = &se->node[id];
	struct rb_node *next;

	if (key > se->key[id]) {
		next = node == t->rightmost ? NULL : rb_next(node);
		if (next && cap_clamp_node_key(next, id) < key)
			goto move;
	} else {
		next = node == t->leftmost ? NULL : rb_prev(node);
		if (next && cap_clamp_node_key(next, id) > key)
			goto move;
	}

	se->key[id] = key;
	if (node == t->rightmost)
		WRITE_ONCE(cc->value[id], key);
	return;

move:
	cap_clamp_remove(cc, se, id);
	se->key[id] = key;
	cap_clamp_insert(cc, se, id);
}

bool cap_clamp_rbtree_enqueue(struct cap_clamp_cpu *cc,
			      struct cap_clamp_se *se,
			      const struct cap_clamp_group *grp,
			      raw_spinlock_t *lock)
{
	return cap_clamp_enqueue_frame(cc, se, grp, lock, cap_clamp_insert);
}

bool cap_clamp_rbtree_dequeue(struct cap_clamp_cpu *cc,
			      struct cap_clamp_se *se, raw_spinlock_t *lock)
{
	return cap_clamp_dequeue_frame(cc, se, lock, cap_clamp_remove);
}

bool cap_clamp_rbtree_update(struct cap_clamp_cpu *cc,
			     struct cap_clamp_se *se,
			     const struct cap_clamp_group *grp,
			     raw_spinlock_t *lock)
{
	return cap_clamp_update_frame(cc, se, grp, lock, cap_clamp_rekey);
}
