// SPDX-License-Identifier: GPL-2.0
/*
 * Capacity clamping, rbtree aggregator: each CPU keeps, per clamp index,
 * an rbtree of the DISTINCT capacity values its RUNNABLE entities were
 * inserted with. The first entity with a value is that value's node in
 * the tree (its representative); the others with the same value are on a
 * ring of list_heads with it, their own node cleared. The CPU's constraint
 * is the largest key; the nodes at both ends are cached, so that removing
 * any other node costs no search for the maximum and a key past either end
 * is inserted without a search.
 *
 * One node per value, not per entity, because a group write moves all the
 * group's entities from one value to another, one update at a time: each
 * leaves its old value's ring and joins the new value's in O(1), and only
 * the first and the last of them touch the tree (a representative that
 * leaves with others still at its value hands its place in the tree to one
 * of them, rb_replace_node(), without rebalancing).
 *
 * Two departures from the RFC v3 series, both deliberate:
 *  - keys are snapshots kept in the entity, not read through its group on
 *    every comparison: a group write can no longer change the key of a
 *    queued node behind the tree's back;
 *  - an update that changes the rightmost key without moving the node
 *    still refreshes the published value, which the RFC left stale.
 */
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/sched/cap_clamp.h>

#include "cap_clamp_backend.h"

static inline struct cap_clamp_se *cap_clamp_node_se(struct rb_node *node,
						     enum cap_clamp_id id)
{
	return rb_entry(node, struct cap_clamp_se, node[id]);
}

static inline unsigned int cap_clamp_node_key(struct rb_node *node,
					      enum cap_clamp_id id)
{
	return cap_clamp_node_se(node, id)->key[id];
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

/* @se's key for @id is already in the tree, at @rep: join its ring. */
static __always_inline void cap_clamp_join(struct cap_clamp_se *se,
					   struct rb_node *rep,
					   enum cap_clamp_id id)
{
	list_add_tail(&se->same[id], &cap_clamp_node_se(rep, id)->same[id]);
	RB_CLEAR_NODE(&se->node[id]);
}

/*
 * Account @se for @id with its snapshot key: join the ring of the node
 * with that key, or insert a node for it. A key at or past either end is
 * found without a search; a new key past the largest becomes the
 * published value.
 */
static __always_inline void cap_clamp_insert(struct cap_clamp_cpu *cc,
					     struct cap_clamp_se *se,
					     enum cap_clamp_id id)
{
	struct cap_clamp_tree *t = &cc->tree[id];
	struct rb_node *node = &se->node[id];
	unsigned int key = se->key[id];
	struct rb_node **link, *parent;
	unsigned int end;

	if (!t->rightmost) {
		parent = NULL;
		link = &t->root.rb_node;
		t->leftmost = node;
		t->rightmost = node;
		WRITE_ONCE(cc->value[id], key);
		goto link;
	}

	end = cap_clamp_node_key(t->rightmost, id);
	if (key >= end) {
		if (key == end) {
			cap_clamp_join(se, t->rightmost, id);
			return;
		}
		parent = t->rightmost;
		link = &parent->rb_right;
		t->rightmost = node;
		WRITE_ONCE(cc->value[id], key);
		goto link;
	}

	end = cap_clamp_node_key(t->leftmost, id);
	if (key <= end) {
		if (key == end) {
			cap_clamp_join(se, t->leftmost, id);
			return;
		}
		parent = t->leftmost;
		link = &parent->rb_left;
		t->leftmost = node;
		goto link;
	}

	/* strictly inside: neither end changes */
	link = &t->root.rb_node;
	do {
		parent = *link;
		end = cap_clamp_node_key(parent, id);
		if (key < end) {
			link = &parent->rb_left;
		} else if (key > end) {
			link = &parent->rb_right;
		} else {
			cap_clamp_join(se, parent, id);
			return;
		}
	} while (*link);

link:
	INIT_LIST_HEAD(&se->same[id]);
	rb_link_node(node, parent, link);
	rb_insert_color(node, &t->root);
}

/*
 * Stop accounting @se for @id. Only the last entity with a key takes the
 * node out of the tree, and only then can the published value move.
 */
static __always_inline void cap_clamp_remove(struct cap_clamp_cpu *cc,
					     struct cap_clamp_se *se,
					     enum cap_clamp_id id)
{
	struct cap_clamp_tree *t = &cc->tree[id];
	struct rb_node *node = &se->node[id];
	struct rb_node *heir;

	if (RB_EMPTY_NODE(node)) {
		/* not the representative: the tree does not change */
		list_del_init(&se->same[id]);
		return;
	}

	if (!list_empty(&se->same[id])) {
		/*
		 * Another entity with the same key takes the node's place:
		 * the one that joined last, as a group write that visits the
		 * entities in the order they joined comes to it last.
		 */
		heir = &list_last_entry(&se->same[id], struct cap_clamp_se,
					same[id])->node[id];
		list_del_init(&se->same[id]);
		rb_replace_node(node, heir, &t->root);
		if (node == t->rightmost)
			t->rightmost = heir;
		if (node == t->leftmost)
			t->leftmost = heir;
		RB_CLEAR_NODE(node);
		return;
	}

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
 * The general case of a key change: out of line, so that the paths a
 * group write takes for all but one or two of its entities stay small.
 */
static noinline void cap_clamp_move(struct cap_clamp_cpu *cc,
				    struct cap_clamp_se *se,
				    enum cap_clamp_id id, unsigned int key)
{
	cap_clamp_remove(cc, se, id);
	se->key[id] = key;
	cap_clamp_insert(cc, se, id);
}

/*
 * Give @se's queued @id the new key @key. An entity that is not its key's
 * representative leaves its ring, in O(1), and joins that of @key at
 * either end of the tree, where a group write takes its entities, without
 * a search. A node of its own keeps its place while its neighbours still
 * bound the new key strictly: a key that grows can only reach its
 * successor, one that shrinks its predecessor. Either way the published
 * value is the maximum on return.
 */
static __always_inline void cap_clamp_rekey(struct cap_clamp_cpu *cc,
					    struct cap_clamp_se *se,
					    enum cap_clamp_id id,
					    unsigned int key)
{
	struct cap_clamp_tree *t = &cc->tree[id];
	struct rb_node *node = &se->node[id];
	struct rb_node *next;

	if (RB_EMPTY_NODE(node)) {
		/* an end with @key is another node: @key is not the old key */
		next = t->rightmost;
		if (cap_clamp_node_key(next, id) != key) {
			next = t->leftmost;
			if (cap_clamp_node_key(next, id) != key)
				goto move;
		}
		list_move_tail(&se->same[id],
			       &cap_clamp_node_se(next, id)->same[id]);
		se->key[id] = key;
		return;
	}
	if (!list_empty(&se->same[id]))
		goto move;

	if (key > se->key[id]) {
		next = node == t->rightmost ? NULL : rb_next(node);
		if (next && cap_clamp_node_key(next, id) <= key)
			goto move;
	} else {
		next = node == t->leftmost ? NULL : rb_prev(node);
		if (next && cap_clamp_node_key(next, id) >= key)
			goto move;
	}

	se->key[id] = key;
	if (node == t->rightmost)
		WRITE_ONCE(cc->value[id], key);
	return;

move:
	cap_clamp_move(cc, se, id, key);
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
