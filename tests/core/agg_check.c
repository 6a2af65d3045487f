#include <string.h>

#include "agg_check.h"
#include "rb_check.h"

const char *const agg_backend_name[2] = { "rbtree", "exact" };

void agg_init(struct cap_clamp_cpu *cc, enum agg_backend b)
{
	if (b == AGG_EXACT)
		cap_clamp_exact_cpu_init(cc);
	else
		cap_clamp_rbtree_cpu_init(cc);
}

int agg_backend_parse(const char *name)
{
	int b;

	for (b = 0; b < 2; b++)
		if (!strcmp(name, agg_backend_name[b]))
			return b;
	return -1;
}

static unsigned int empty_value(int id)
{
	return id == CAP_CLAMP_MIN ? 0 : 1024;
}

static int key_id;

static unsigned long node_key(const struct rb_node *n)
{
	return rb_entry(n, struct cap_clamp_se, node[key_id])->key[key_id];
}

/*
 * The entities on the ring of representative @rep, @rep included: each
 * with @rep's key and its own node cleared. Returns how many, or -1.
 */
static long ring_size(struct cap_clamp_se *rep, int id, const char **why)
{
	struct cap_clamp_se *se;
	long n = 1;

	list_for_each_entry(se, &rep->same[id], same[id]) {
		if (se->key[id] != rep->key[id]) {
			*why = "an entity on a ring has another key";
			return -1;
		}
		if (!RB_EMPTY_NODE(&se->node[id])) {
			*why = "two nodes in the tree for one key";
			return -1;
		}
		n++;
	}
	return n;
}

static const char *check_rbtree(const struct cap_clamp_cpu *cc, int id)
{
	const struct cap_clamp_tree *t = &cc->tree[id];
	struct rb_node *last, *node, *prev = NULL;
	const char *why;
	long n, entities = 0;

	key_id = id;
	n = rb_check(&t->root, node_key, &why);
	if (n < 0)
		return why;
	for (node = rb_first(&t->root); node; prev = node, node = rb_next(node)) {
		long ring;

		if (prev && node_key(prev) == node_key(node))
			return "two nodes with one key";
		ring = ring_size(rb_entry(node, struct cap_clamp_se,
					  node[id]), id, &why);
		if (ring < 0)
			return why;
		entities += ring;
	}
	if (entities != (long)cc->nr)
		return "the rings do not add up to the entity count";
	last = rb_last(&t->root);
	if (t->rightmost != last)
		return "cached node is not the rightmost";
	if (t->leftmost != rb_first(&t->root))
		return "cached node is not the leftmost";
	if (cc->value[id] != (last ? node_key(last) : empty_value(id)))
		return "published value is not the largest key";
	return NULL;
}

static int bit(const unsigned long *map, unsigned int i)
{
	return (map[i / BITS_PER_LONG] >> (i % BITS_PER_LONG)) & 1;
}

static const char *check_exact(const struct cap_clamp_cpu *cc, int id)
{
	const struct cap_clamp_refs *r = &cc->refs[id];
	unsigned long total = 0;
	unsigned int v, w, top = 0;
	bool any = false;

	for (v = 0; v < CAP_CLAMP_WORDS * BITS_PER_LONG; v++) {
		bool counted = v < CAP_CLAMP_NR_VALUES && r->count[v];

		if (bit(r->used, v) != counted)
			return "value bitmap differs from the counts";
		if (counted) {
			total += r->count[v];
			top = v;
			any = true;
		}
	}
	for (w = 0; w < sizeof(r->used_words) * 8; w++)
		if (bit(r->used_words, w) != (w < CAP_CLAMP_WORDS && r->used[w]))
			return "word bitmap differs from the value bitmap";
	if (total != cc->nr)
		return "counts do not add up to the entity count";
	if (cc->value[id] != (any ? top : empty_value(id)))
		return "published value is not the largest counted value";
	return NULL;
}

const char *agg_check(const struct cap_clamp_cpu *cc)
{
	const char *why;
	int id;

	for (id = 0; id < CAP_CLAMP_CNT; id++) {
		why = cap_clamp_cpu_exact(cc) ? check_exact(cc, id) :
		      check_rbtree(cc, id);
		if (why)
			return why;
	}
	return NULL;
}
