/*
 * kcompat red-black tree: random insert/erase, and rb_replace_node(), with
 * the full invariant check after every step (the shape of the kernel's
 * lib/rbtree_test.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include <linux/rbtree.h>
#include <linux/rbtree_augmented.h>
#include "rb_check.h"
#include "test_rand.h"

struct item {
	struct rb_node node;
	unsigned long key;
	int in_tree;
	/* augmented: the largest @weight in the subtree */
	unsigned long weight, subtree_max;
};

static unsigned long item_key(const struct rb_node *n)
{
	return rb_entry(n, struct item, node)->key;
}

static void insert(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (it->key < item_key(parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_color(&it->node, root);
	it->in_tree = 1;
}

static void check_or_fail(const struct rb_root *root, long expect,
			  uint64_t seed, long step)
{
	const char *why = NULL;
	long n = rb_check(root, item_key, &why);

	if (n != expect)
		fail_msg("seed %llu step %ld: %s (count %ld, expected %ld)",
			 (unsigned long long)seed, step,
			 why ? why : "wrong node count", n, expect);
}

static void test_empty_tree(void **state)
{
	struct rb_root root = RB_ROOT;
	struct item a = { .key = 1 };

	(void)state;
	assert_null(root.rb_node);
	assert_null(rb_first(&root));
	assert_null(rb_last(&root));
	RB_CLEAR_NODE(&a.node);
	assert_true(RB_EMPTY_NODE(&a.node));
	assert_null(rb_next(&a.node));
	assert_null(rb_prev(&a.node));
	insert(&root, &a);
	assert_false(RB_EMPTY_NODE(&a.node));
	assert_ptr_equal(rb_first(&root), &a.node);
	assert_ptr_equal(rb_last(&root), &a.node);
	rb_erase(&a.node, &root);
	assert_null(root.rb_node);
}

static void test_sorted_walk(void **state)
{
	enum { N = 1000 };
	static struct item items[N];
	struct rb_root root = RB_ROOT;
	struct rb_node *n;
	unsigned long expect = 0;
	int i;

	(void)state;
	/* Ascending, descending and interleaved keys stress all rotations. */
	for (i = 0; i < N; i++) {
		items[i].key = (i % 3 == 0) ? (unsigned long)i :
			       (i % 3 == 1) ? (unsigned long)(3 * N - i) :
			       (unsigned long)(N + (i * 7919) % N);
		insert(&root, &items[i]);
		check_or_fail(&root, i + 1, 0, i);
	}
	for (n = rb_first(&root); n; n = rb_next(n)) {
		assert_true(item_key(n) >= expect);
		expect = item_key(n);
	}
	for (i = 0; i < N; i += 2) {
		rb_erase(&items[i].node, &root);
		check_or_fail(&root, N - i / 2 - 1, 0, i);
	}
}

/*
 * rb_replace_node(): a node outside the tree takes an in-tree node's place
 * (same key), the root's and the ends' included; the tree stays valid and
 * the replaced node is gone from every walk.
 */
static void test_replace_node(void **state)
{
	enum { N = 200, STEPS = 2000 };
	static struct item items[2 * N];
	struct rb_root root = RB_ROOT;
	uint64_t seed = test_seed();
	struct test_rand r;
	struct rb_node *n;
	long step;
	int i;

	(void)state;
	test_rand_init(&r, seed);
	for (i = 0; i < N; i++) {
		items[i].key = (unsigned long)i * 3;
		insert(&root, &items[i]);
	}
	for (step = 0; step < STEPS; step++) {
		struct item *old = &items[test_rand_below(&r, 2 * N)];
		struct item *new;
		bool was_root;

		if (!old->in_tree)
			continue;
		/* the spare at the same index in the other half */
		new = &items[(old - items + N) % (2 * N)];
		assert_false(new->in_tree);
		new->key = old->key;
		was_root = root.rb_node == &old->node;
		rb_replace_node(&old->node, &new->node, &root);
		old->in_tree = 0;
		new->in_tree = 1;
		if (was_root)
			assert_ptr_equal(root.rb_node, &new->node);
		check_or_fail(&root, N, seed, step);
		for (n = rb_first(&root); n; n = rb_next(n))
			assert_ptr_not_equal(n, &old->node);
	}
}

static void test_random_ops(void **state)
{
	enum { N = 256, STEPS = 100000 };
	static struct item items[N];
	struct rb_root root = RB_ROOT;
	uint64_t seed = test_seed();
	struct test_rand r;
	long count = 0, step;

	(void)state;
	test_rand_init(&r, seed);
	for (step = 0; step < STEPS; step++) {
		struct item *it = &items[test_rand_below(&r, N)];

		if (it->in_tree) {
			rb_erase(&it->node, &root);
			RB_CLEAR_NODE(&it->node);
			it->in_tree = 0;
			count--;
		} else {
			/* Few distinct keys, so duplicates are common. */
			it->key = test_rand_below(&r, 64);
			insert(&root, it);
			count++;
		}
		check_or_fail(&root, count, seed, step);
	}
	check_or_fail(&root, count, seed, STEPS);
}

/* ---- augmented trees: a subtree maximum kept through the callbacks ---- */

static struct item *node_item(struct rb_node *n)
{
	return n ? rb_entry(n, struct item, node) : NULL;
}

static unsigned long compute_max(struct item *it)
{
	unsigned long m = it->weight;
	struct item *l = node_item(it->node.rb_left);
	struct item *r = node_item(it->node.rb_right);

	if (l && l->subtree_max > m)
		m = l->subtree_max;
	if (r && r->subtree_max > m)
		m = r->subtree_max;
	return m;
}

static void aug_propagate(struct rb_node *n, struct rb_node *stop)
{
	while (n != stop) {
		struct item *it = node_item(n);
		unsigned long m = compute_max(it);

		if (it->subtree_max == m)
			break;
		it->subtree_max = m;
		n = rb_parent(n);
	}
}

static void aug_copy(struct rb_node *old, struct rb_node *new)
{
	node_item(new)->subtree_max = node_item(old)->subtree_max;
}

static void aug_rotate(struct rb_node *old, struct rb_node *new)
{
	node_item(new)->subtree_max = node_item(old)->subtree_max;
	node_item(old)->subtree_max = compute_max(node_item(old));
}

static const struct rb_augment_callbacks aug_cb = {
	aug_propagate, aug_copy, aug_rotate,
};

static void insert_aug(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	it->subtree_max = it->weight;
	while (*link) {
		parent = *link;
		/* the path to the new leaf gains its weight */
		if (node_item(parent)->subtree_max < it->weight)
			node_item(parent)->subtree_max = it->weight;
		if (it->key < item_key(parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_augmented(&it->node, root, &aug_cb);
	it->in_tree = 1;
}

/* Every node's value against a recomputation from scratch */
static unsigned long check_aug(struct rb_node *n, uint64_t seed, long step)
{
	struct item *it = node_item(n);
	unsigned long m, l, r;

	if (!n)
		return 0;
	l = check_aug(n->rb_left, seed, step);
	r = check_aug(n->rb_right, seed, step);
	m = it->weight;
	if (l > m)
		m = l;
	if (r > m)
		m = r;
	if (it->subtree_max != m)
		fail_msg("seed %llu step %ld: key %lu holds %lu, subtree max %lu",
			 (unsigned long long)seed, step, it->key,
			 it->subtree_max, m);
	return m;
}

static void test_augmented_random_ops(void **state)
{
	enum { N = 256, STEPS = 100000 };
	static struct item items[N];
	struct rb_root root = RB_ROOT;
	uint64_t seed = test_seed();
	struct test_rand r;
	long count = 0, step;

	(void)state;
	test_rand_init(&r, seed);
	for (step = 0; step < STEPS; step++) {
		struct item *it = &items[test_rand_below(&r, N)];

		if (it->in_tree) {
			rb_erase_augmented(&it->node, &root, &aug_cb);
			RB_CLEAR_NODE(&it->node);
			it->in_tree = 0;
			count--;
		} else {
			it->key = test_rand_below(&r, 64);
			it->weight = test_rand_below(&r, 1000000);
			insert_aug(&root, it);
			count++;
		}
		check_or_fail(&root, count, seed, step);
		check_aug(root.rb_node, seed, step);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_sorted_walk),
		cmocka_unit_test(test_random_ops),
		cmocka_unit_test(test_replace_node),
		cmocka_unit_test(test_augmented_random_ops),
	};

	return cmocka_run_group_tests_name("kcompat_rbtree", tests, NULL, NULL);
}
