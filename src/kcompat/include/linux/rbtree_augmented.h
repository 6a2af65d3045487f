/*
 * User-space <linux/rbtree_augmented.h>: red-black trees whose nodes carry
 * a value computed from their subtree (e.g. the minimum vruntime below a
 * CFS entity). The caller supplies the callbacks, with the kernel's
 * contract:
 *  - before rb_insert_augmented(), the caller links the node and brings
 *    the value up to date on the path from the node to the root
 *    (->propagate(parent, NULL));
 *  - ->rotate(old, new): after a rotation where @new took @old's place,
 *    @new's subtree is @old's former one (copy the value) and @old's
 *    must be recomputed;
 *  - ->copy(old, new): @new takes over @old's place and value;
 *  - ->propagate(node, stop): recompute from @node up to, not including,
 *    @stop (NULL: the root); it may stop early once a value is unchanged.
 */
#ifndef KCOMPAT_LINUX_RBTREE_AUGMENTED_H
#define KCOMPAT_LINUX_RBTREE_AUGMENTED_H

#include <linux/rbtree.h>

struct rb_augment_callbacks {
	void (*propagate)(struct rb_node *node, struct rb_node *stop);
	void (*copy)(struct rb_node *old, struct rb_node *new);
	void (*rotate)(struct rb_node *old, struct rb_node *new);
};

void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			 const struct rb_augment_callbacks *augment);
void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
			const struct rb_augment_callbacks *augment);

#endif
