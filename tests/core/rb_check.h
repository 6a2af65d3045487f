/* Red-black invariant checker shared by the core tests. */
#ifndef CAPSIM_TEST_RB_CHECK_H
#define CAPSIM_TEST_RB_CHECK_H

#include <linux/rbtree.h>

/* Key of a node, for the in-order (non-decreasing) test. */
typedef unsigned long (*rb_key_fn)(const struct rb_node *node);

/*
 * Returns the number of nodes, or -1 with *why set when the tree breaks
 * a red-black rule, a parent link, or (if key is not NULL) the order.
 */
long rb_check(const struct rb_root *root, rb_key_fn key, const char **why);

#endif
