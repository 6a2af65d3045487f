/*
 * Red-black tree for the kcompat layer. Insert and erase rebalance with the
 * textbook case analysis (recolour, then at most two rotations on insert and
 * three on erase); NULL children count as black leaves.
 *
 * The augmented variants (<linux/rbtree_augmented.h>) keep a per-subtree
 * value up to date through the caller's callbacks, with the kernel's
 * contract: the caller propagates along the insertion path before
 * rb_insert_augmented(); each rotation calls ->rotate(old top, new top);
 * erase copies the node's value to its successor and propagates from
 * where the tree changed.
 */
#include <linux/rbtree_augmented.h>

static inline bool node_red(const struct rb_node *n)
{
	return n && rb_is_red(n);
}

static inline void set_black(struct rb_node *n)
{
	n->__rb_parent_color |= RB_BLACK;
}

static inline void set_red(struct rb_node *n)
{
	n->__rb_parent_color &= ~(unsigned long)RB_BLACK;
}

static inline void set_parent(struct rb_node *n, struct rb_node *p)
{
	n->__rb_parent_color = (unsigned long)p | rb_color(n);
}

static inline void set_parent_color(struct rb_node *n, struct rb_node *p,
				    unsigned long color)
{
	n->__rb_parent_color = (unsigned long)p | color;
}

/* Make @new take @old's place under @parent (or at the root). */
static inline void replace_child(struct rb_node *parent, struct rb_node *old,
				 struct rb_node *new, struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

/* @x's right child becomes its parent; colours are left to the caller. */
static void rotate_left(struct rb_node *x, struct rb_root *root,
			const struct rb_augment_callbacks *aug)
{
	struct rb_node *y = x->rb_right;
	struct rb_node *p = rb_parent(x);

	x->rb_right = y->rb_left;
	if (y->rb_left)
		set_parent(y->rb_left, x);
	set_parent(y, p);
	replace_child(p, x, y, root);
	y->rb_left = x;
	set_parent(x, y);
	if (aug)
		aug->rotate(x, y);
}

static void rotate_right(struct rb_node *x, struct rb_root *root,
			 const struct rb_augment_callbacks *aug)
{
	struct rb_node *y = x->rb_left;
	struct rb_node *p = rb_parent(x);

	x->rb_left = y->rb_right;
	if (y->rb_right)
		set_parent(y->rb_right, x);
	set_parent(y, p);
	replace_child(p, x, y, root);
	y->rb_right = x;
	set_parent(x, y);
	if (aug)
		aug->rotate(x, y);
}

static void insert_fixup(struct rb_node *node, struct rb_root *root,
			 const struct rb_augment_callbacks *aug)
{
	struct rb_node *parent, *gparent, *uncle, *tmp;

	while ((parent = rb_parent(node)) && rb_is_red(parent)) {
		/* A red parent is never the root, so the grandparent exists. */
		gparent = rb_parent(parent);
		if (parent == gparent->rb_left) {
			uncle = gparent->rb_right;
			if (node_red(uncle)) {
				set_black(uncle);
				set_black(parent);
				set_red(gparent);
				node = gparent;
				continue;
			}
			if (node == parent->rb_right) {
				rotate_left(parent, root, aug);
				tmp = parent;
				parent = node;
				node = tmp;
			}
			set_black(parent);
			set_red(gparent);
			rotate_right(gparent, root, aug);
		} else {
			uncle = gparent->rb_left;
			if (node_red(uncle)) {
				set_black(uncle);
				set_black(parent);
				set_red(gparent);
				node = gparent;
				continue;
			}
			if (node == parent->rb_left) {
				rotate_right(parent, root, aug);
				tmp = parent;
				parent = node;
				node = tmp;
			}
			set_black(parent);
			set_red(gparent);
			rotate_left(gparent, root, aug);
		}
	}
	set_black(root->rb_node);
}

/*
 * Restore the black height after a black node was removed above @node
 * (which may be a NULL leaf, hence the explicit @parent).
 */
static void erase_fixup(struct rb_node *node, struct rb_node *parent,
			struct rb_root *root,
			const struct rb_augment_callbacks *aug)
{
	struct rb_node *sib;

	while (!node_red(node) && node != root->rb_node) {
		if (node == parent->rb_left) {
			sib = parent->rb_right;
			if (node_red(sib)) {
				set_black(sib);
				set_red(parent);
				rotate_left(parent, root, aug);
				sib = parent->rb_right;
			}
			if (!node_red(sib->rb_left) && !node_red(sib->rb_right)) {
				set_red(sib);
				node = parent;
				parent = rb_parent(node);
				continue;
			}
			if (!node_red(sib->rb_right)) {
				set_black(sib->rb_left);
				set_red(sib);
				rotate_right(sib, root, aug);
				sib = parent->rb_right;
			}
			set_parent_color(sib, rb_parent(sib), rb_color(parent));
			set_black(parent);
			set_black(sib->rb_right);
			rotate_left(parent, root, aug);
		} else {
			sib = parent->rb_left;
			if (node_red(sib)) {
				set_black(sib);
				set_red(parent);
				rotate_right(parent, root, aug);
				sib = parent->rb_left;
			}
			if (!node_red(sib->rb_left) && !node_red(sib->rb_right)) {
				set_red(sib);
				node = parent;
				parent = rb_parent(node);
				continue;
			}
			if (!node_red(sib->rb_left)) {
				set_black(sib->rb_right);
				set_red(sib);
				rotate_left(sib, root, aug);
				sib = parent->rb_left;
			}
			set_parent_color(sib, rb_parent(sib), rb_color(parent));
			set_black(parent);
			set_black(sib->rb_left);
			rotate_right(parent, root, aug);
		}
		node = root->rb_node;
		break;
	}
	if (node)
		set_black(node);
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	insert_fixup(node, root, NULL);
}

void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			 const struct rb_augment_callbacks *augment)
{
	insert_fixup(node, root, augment);
}

static void erase(struct rb_node *node, struct rb_root *root,
		  const struct rb_augment_callbacks *aug)
{
	struct rb_node *child, *parent, *succ;
	unsigned long color;

	if (node->rb_left && node->rb_right) {
		/*
		 * Two children: the in-order successor (leftmost of the right
		 * subtree) takes the node's place and colour; the fixup runs
		 * where the successor was unlinked.
		 */
		succ = node->rb_right;
		while (succ->rb_left)
			succ = succ->rb_left;

		child = succ->rb_right;
		parent = rb_parent(succ);
		color = rb_color(succ);

		if (parent == node) {
			parent = succ;
		} else {
			if (child)
				set_parent(child, parent);
			parent->rb_left = child;
			succ->rb_right = node->rb_right;
			set_parent(node->rb_right, succ);
		}

		replace_child(rb_parent(node), node, succ, root);
		succ->__rb_parent_color = node->__rb_parent_color;
		succ->rb_left = node->rb_left;
		set_parent(node->rb_left, succ);
		if (aug) {
			/* succ stands for node's subtree, less succ itself */
			aug->copy(node, succ);
			if (parent != succ)
				aug->propagate(parent, succ);
			aug->propagate(succ, NULL);
		}
	} else {
		child = node->rb_left ? node->rb_left : node->rb_right;
		parent = rb_parent(node);
		color = rb_color(node);
		if (child)
			set_parent(child, parent);
		replace_child(parent, node, child, root);
		if (aug && parent)
			aug->propagate(parent, NULL);
	}

	if (color == RB_BLACK)
		erase_fixup(child, parent, root, aug);
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	erase(node, root, NULL);
}

void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
			const struct rb_augment_callbacks *augment)
{
	erase(node, root, augment);
}

void rb_replace_node(struct rb_node *victim, struct rb_node *new,
		     struct rb_root *root)
{
	struct rb_node *parent = rb_parent(victim);

	*new = *victim;
	if (victim->rb_left)
		set_parent(victim->rb_left, new);
	if (victim->rb_right)
		set_parent(victim->rb_right, new);
	replace_child(parent, victim, new, root);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->rb_left)
		n = n->rb_left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->rb_right)
		n = n->rb_right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_right) {
		node = node->rb_right;
		while (node->rb_left)
			node = node->rb_left;
		return (struct rb_node *)node;
	}
	while ((parent = rb_parent(node)) && node == parent->rb_right)
		node = parent;
	return parent;
}

struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_left) {
		node = node->rb_left;
		while (node->rb_right)
			node = node->rb_right;
		return (struct rb_node *)node;
	}
	while ((parent = rb_parent(node)) && node == parent->rb_left)
		node = parent;
	return parent;
}
