/*
 * User-space <linux/rbtree.h>: an intrusive red-black tree with the kernel's
 * names, layout conventions and semantics. As in the kernel, the caller
 * writes its own search/insert loop and then calls rb_link_node() and
 * rb_insert_color(); there are no comparator callbacks.
 */
#ifndef KCOMPAT_LINUX_RBTREE_H
#define KCOMPAT_LINUX_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/container_of.h>

/* Parent pointer and colour share a word: bit 0 set means black. */
struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_RED 0
#define RB_BLACK 1

#define RB_ROOT ((struct rb_root){ NULL })
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define rb_parent(r) ((struct rb_node *)((r)->__rb_parent_color & ~3UL))
#define rb_color(r) ((r)->__rb_parent_color & 1)
#define rb_is_red(r) (!rb_color(r))
#define rb_is_black(r) rb_color(r)

/* A node that is in no tree points to itself. */
#define RB_EMPTY_NODE(node) \
	((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node) \
	((node)->__rb_parent_color = (unsigned long)(node))

static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = NULL;
	node->rb_right = NULL;
	*rb_link = node;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);
/*
 * @new, not in any tree, takes @victim's place, parent, children and
 * colour: no rebalancing, so the caller must keep the order (@new sorts
 * where @victim did). @victim is left stale, as in the kernel.
 */
void rb_replace_node(struct rb_node *victim, struct rb_node *new,
		     struct rb_root *root);

struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

#endif
