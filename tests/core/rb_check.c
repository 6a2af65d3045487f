#include <stddef.h>

#include "rb_check.h"

struct walk {
	rb_key_fn key;
	const char *why;
	const struct rb_node *prev;
	long count;
};

/* Returns the black height of the subtree, or -1 on a violation. */
static int check_node(const struct rb_node *n, const struct rb_node *parent,
		      struct walk *w)
{
	int lh, rh;

	if (!n)
		return 1;
	if (rb_parent(n) != parent) {
		w->why = "parent link mismatch";
		return -1;
	}
	if (rb_is_red(n) && parent && rb_is_red(parent)) {
		w->why = "red node with a red parent";
		return -1;
	}
	lh = check_node(n->rb_left, n, w);
	if (lh < 0)
		return -1;
	if (w->key && w->prev && w->key(w->prev) > w->key(n)) {
		w->why = "in-order keys decrease";
		return -1;
	}
	w->prev = n;
	w->count++;
	rh = check_node(n->rb_right, n, w);
	if (rh < 0)
		return -1;
	if (lh != rh) {
		w->why = "unequal black heights";
		return -1;
	}
	return lh + (rb_is_black(n) ? 1 : 0);
}

long rb_check(const struct rb_root *root, rb_key_fn key, const char **why)
{
	struct walk w = { key, NULL, NULL, 0 };
	const struct rb_node *n;
	long fwd = 0;

	if (root->rb_node && rb_is_red(root->rb_node)) {
		*why = "red root";
		return -1;
	}
	if (check_node(root->rb_node, NULL, &w) < 0) {
		*why = w.why;
		return -1;
	}
	/* rb_next() from rb_first() must visit exactly the same nodes. */
	for (n = rb_first(root); n; n = rb_next(n))
		fwd++;
	if (fwd != w.count) {
		*why = "rb_next walk disagrees with the tree";
		return -1;
	}
	fwd = 0;
	for (n = rb_last(root); n; n = rb_prev(n))
		fwd++;
	if (fwd != w.count) {
		*why = "rb_prev walk disagrees with the tree";
		return -1;
	}
	return w.count;
}
