/*
 * Many RUNNABLE entities at one key, and group writes that move them from
 * one key to another: the cases the rbtree aggregator handles with one
 * tree node per distinct key and a ring of the entities at that key (a
 * representative leaving with others at its key, a lone node changing its
 * key in place or onto a neighbour's, a group write of many equal keys,
 * groups interleaved on one CPU). Every step is checked against a model of
 * the snapshot keys (the CPU's range is the MAX of the keys of its
 * RUNNABLE entities, "changed" says whether it moved) and with agg_check(),
 * which for the rbtree checks the rings. Where a test means to hit one of
 * those cases, it asserts on the rbtree that it did. Runs against the
 * aggregator named on the command line:
 *   test_shared_keys rbtree|exact [TEST_NAME]
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <linux/sched/cap_clamp.h>
#include "agg_check.h"
#include "backend_main.h"

enum { NR_SE = 96, NR_GROUPS = 3 };

static struct {
	struct cap_clamp_cpu cpu;
	raw_spinlock_t lock;
	struct mutex glock;
	struct cap_clamp_group root, grp[NR_GROUPS];
	struct cap_clamp_se se[NR_SE];
	/* the model: which entities are RUNNABLE, with which keys */
	bool queued[NR_SE];
	unsigned int key[NR_SE][CAP_CLAMP_CNT];
} w;

static enum agg_backend backend;

static int setup(void **state)
{
	int i;

	(void)state;
	agg_init(&w.cpu, backend);
	raw_spin_lock_init(&w.lock);
	mutex_init(&w.glock);
	cap_clamp_group_init_root(&w.root);
	mutex_lock(&w.glock);
	for (i = 0; i < NR_GROUPS; i++)
		cap_clamp_group_link(&w.grp[i], &w.root, &w.glock);
	mutex_unlock(&w.glock);
	for (i = 0; i < NR_SE; i++) {
		cap_clamp_se_init(&w.se[i]);
		w.queued[i] = false;
	}
	return 0;
}

/* The range the model expects: MAX of the keys of the RUNNABLE ones. */
static struct cap_clamp_range model_range(void)
{
	struct cap_clamp_range r = { 0, 0 };
	bool any = false;
	int i;

	for (i = 0; i < NR_SE; i++) {
		if (!w.queued[i])
			continue;
		if (!any || w.key[i][CAP_CLAMP_MIN] > r.min)
			r.min = w.key[i][CAP_CLAMP_MIN];
		if (!any || w.key[i][CAP_CLAMP_MAX] > r.max)
			r.max = w.key[i][CAP_CLAMP_MAX];
		any = true;
	}
	if (!any)
		r.max = 1024;
	return r;
}

/*
 * Check the CPU after an operation that returned @changed, the model's
 * range having been @before.
 */
static void check(const char *op, int i, bool changed,
		  struct cap_clamp_range before)
{
	struct cap_clamp_range want = model_range(), got;
	const char *why = agg_check(&w.cpu);

	if (why)
		fail_msg("%s of entity %d (%s): %s", op, i,
			 agg_backend_name[backend], why);
	cap_clamp_cpu_range(&w.cpu, &got);
	if (got.min != want.min || got.max != want.max)
		fail_msg("%s of entity %d: range %u..%u, RUNNABLE keys say %u..%u",
			 op, i, got.min, got.max, want.min, want.max);
	if (changed != (want.min != before.min || want.max != before.max))
		fail_msg("%s of entity %d: changed=%d, the range went %u..%u -> %u..%u",
			 op, i, changed, before.min, before.max, want.min,
			 want.max);
}

enum op { ENQUEUE, DEQUEUE, UPDATE };
static const char *const op_name[] = { "enqueue", "dequeue", "update" };

/* @op on entity @i of group @g, then the model follows and checks. */
static void apply(enum op op, int i, int g)
{
	struct cap_clamp_range before = model_range();
	struct cap_clamp_se *se = &w.se[i];
	bool changed;

	raw_spin_lock(&w.lock);
	if (op == ENQUEUE)
		changed = cap_clamp_enqueue(&w.cpu, se, &w.grp[g], &w.lock);
	else if (op == DEQUEUE)
		changed = cap_clamp_dequeue(&w.cpu, se, &w.lock);
	else
		changed = cap_clamp_update(&w.cpu, se, &w.grp[g], &w.lock);
	raw_spin_unlock(&w.lock);
	if (op != UPDATE)
		w.queued[i] = op == ENQUEUE;
	/* an idle entity's update changes nothing: its enqueue reads */
	if (op != DEQUEUE && w.queued[i]) {
		w.key[i][CAP_CLAMP_MIN] = w.grp[g].value[CAP_CLAMP_MIN];
		w.key[i][CAP_CLAMP_MAX] = w.grp[g].value[CAP_CLAMP_MAX];
	}
	check(op_name[op], i, changed, before);
}

static void enq(int i, int g)
{
	apply(ENQUEUE, i, g);
}

static void deq(int i)
{
	apply(DEQUEUE, i, i % NR_GROUPS);
}

static void upd(int i, int g)
{
	apply(UPDATE, i, g);
}

static void set(int g, unsigned int min, unsigned int max)
{
	mutex_lock(&w.glock);
	/* min first to 0, so that any new max is accepted */
	assert_int_equal(cap_clamp_group_write(&w.grp[g], CAP_CLAMP_MIN, 0,
					       &w.glock), 0);
	assert_int_equal(cap_clamp_group_write(&w.grp[g], CAP_CLAMP_MAX, max,
					       &w.glock), 0);
	assert_int_equal(cap_clamp_group_write(&w.grp[g], CAP_CLAMP_MIN, min,
					       &w.glock), 0);
	mutex_unlock(&w.glock);
}

/* On the rbtree: whether entity @i holds its key's node in the tree. */
static bool is_node(int i, enum cap_clamp_id id)
{
	return !RB_EMPTY_NODE(&w.se[i].node[id]);
}

static bool rbtree(void)
{
	return backend == AGG_RBTREE;
}

/*
 * The entity that holds a key's node leaves, by dequeue and by update,
 * while others are at that key: one of them takes the node, at the
 * rightmost end, the leftmost end and in the middle.
 */
static void node_leaves_with_others(void **state)
{
	int i;

	(void)state;
	set(0, 100, 300);
	set(1, 200, 500);
	set(2, 300, 700);
	for (i = 0; i < 12; i++)
		enq(i, i % 3);
	/* entities 0, 1, 2 hold the nodes of their groups' keys */
	for (i = 0; i < 3 && rbtree(); i++)
		assert_true(is_node(i, CAP_CLAMP_MAX));
	deq(2);				/* rightmost, others at 700 */
	deq(0);				/* leftmost, others at 300 */
	deq(1);				/* middle, others at 500 */
	for (i = 3; i < 12 && rbtree(); i++)
		if (is_node(i, CAP_CLAMP_MAX))
			break;
	assert_true(!rbtree() || i < 12);
	/* the new holders leave by update, the others still at their key */
	set(2, 300, 650);
	set(0, 100, 350);
	for (i = 3; i < 12; i++)
		if (!rbtree() || is_node(i, CAP_CLAMP_MAX))
			upd(i, i % 3);
	for (i = 3; i < 12; i++)
		upd(i, i % 3);
	for (i = 11; i >= 3; i--)
		deq(i);
}

/*
 * A node of its own changes its key in place while its neighbours bound
 * the new key strictly, and joins a neighbour whose key the new one
 * equals.
 */
static void lone_node_changes_key(void **state)
{
	struct rb_node *node = &w.se[1].node[CAP_CLAMP_MAX];
	struct cap_clamp_tree *t = &w.cpu.tree[CAP_CLAMP_MAX];
	struct rb_node *root;

	(void)state;
	set(0, 100, 300);
	set(1, 200, 500);
	set(2, 300, 700);
	enq(0, 0);
	enq(1, 1);
	enq(2, 2);
	root = t->root.rb_node;
	set(1, 200, 600);		/* 300 < 600 < 700: in place */
	upd(1, 1);
	set(1, 200, 400);		/* 300 < 400 < 700: in place */
	upd(1, 1);
	set(2, 300, 900);		/* the rightmost grows: in place */
	upd(2, 2);
	set(0, 0, 200);			/* the leftmost shrinks: in place */
	upd(0, 0);
	if (rbtree()) {
		assert_true(is_node(1, CAP_CLAMP_MAX));
		assert_ptr_equal(t->root.rb_node, root);
		assert_ptr_equal(rb_prev(node), &w.se[0].node[CAP_CLAMP_MAX]);
		assert_ptr_equal(rb_next(node), &w.se[2].node[CAP_CLAMP_MAX]);
	}
	set(1, 200, 200);		/* onto the predecessor's key */
	upd(1, 1);
	assert_true(!rbtree() || !is_node(1, CAP_CLAMP_MAX));
	set(1, 200, 900);		/* a ring member to the other end */
	upd(1, 1);
	set(1, 200, 600);		/* and to a new key between */
	upd(1, 1);
	assert_true(!rbtree() || is_node(1, CAP_CLAMP_MAX));
	set(1, 200, 900);		/* a lone node onto its successor's */
	upd(1, 1);
	assert_true(!rbtree() || !is_node(1, CAP_CLAMP_MAX));
	deq(2);
	deq(1);
	deq(0);
}

/*
 * The bench's group write: many RUNNABLE entities of one group at one
 * key, the group's max written up and down, each entity following in
 * turn, then in the reverse order, with another group's entities at a
 * key between.
 */
static void group_write_of_equal_keys(void **state)
{
	enum { N = 80 };
	static const unsigned int max[] = { 900, 300, 1024, 0, 450, 460 };
	unsigned int k;
	int i;

	(void)state;
	set(0, 100, 300);
	set(1, 200, 450);
	for (i = 0; i < N; i++)
		enq(i, 0);
	for (i = N; i < NR_SE; i++)
		enq(i, 1);
	for (k = 0; k < sizeof(max) / sizeof(max[0]); k++) {
		set(0, k & 1 ? 0 : 100, max[k]);
		for (i = 0; i < N; i++)
			upd(k & 1 ? N - 1 - i : i, 0);
	}
	for (i = 0; i < NR_SE; i++)
		deq((i * 37) % NR_SE);
}

/*
 * Three groups' entities interleaved on one CPU, writes that make one
 * group's keys meet another's, updates interleaved with enqueues and
 * dequeues of the same groups.
 */
static void enq_idle(int i)
{
	if (!w.queued[i])
		enq(i, i % NR_GROUPS);
}

static void deq_queued(int i)
{
	if (w.queued[i])
		deq(i);
}

static void interleaved_groups(void **state)
{
	static const unsigned int max[NR_GROUPS][4] = {
		{ 300, 500, 700, 300 },
		{ 500, 700, 300, 500 },
		{ 700, 300, 500, 500 },
	};
	int g, i, round;

	(void)state;
	for (g = 0; g < NR_GROUPS; g++)
		set(g, 100 * g, max[g][0]);
	for (i = 0; i < 60; i++)
		enq(i, i % NR_GROUPS);
	for (round = 1; round < 4; round++) {
		for (g = 0; g < NR_GROUPS; g++)
			set(g, 100 * ((g + round) % NR_GROUPS), max[g][round]);
		for (i = 0; i < 60; i++) {
			if (w.queued[i])
				upd(i, i % NR_GROUPS);
			if (i % 7 == 0) {
				deq_queued(i);
				enq_idle(60 + (i + round) % 36);
			}
			if (i % 11 == 0)
				deq_queued(60 + i % 36);
			if (i % 5 == 0)
				enq_idle(i / 5 * 3 % 60);
		}
		/* the late ones follow the write too */
		for (i = 60; i < NR_SE; i++)
			if (w.queued[i])
				upd(i, i % NR_GROUPS);
	}
	for (i = 0; i < NR_SE; i++)
		deq_queued(i);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(node_leaves_with_others, setup),
		cmocka_unit_test_setup(lone_node_changes_key, setup),
		cmocka_unit_test_setup(group_write_of_equal_keys, setup),
		cmocka_unit_test_setup(interleaved_groups, setup),
	};

	return backend_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]),
			    &backend);
}
