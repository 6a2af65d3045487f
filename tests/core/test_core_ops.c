/*
 * The clamp core's per-CPU aggregate, entity and read-side rules, one by
 * one: empty defaults, MAX aggregation, cache maintenance, the WARNs of
 * misuse, lockdep ownership checks, snapshot keys, compose and clamping.
 * Every test runs against the aggregator named on the command line:
 *   test_core_ops rbtree|exact [TEST_NAME]
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/sched/cap_clamp.h>
#include "agg_check.h"
#include "backend_main.h"

struct fixture {
	struct cap_clamp_cpu cpu[2];
	raw_spinlock_t lock[2];
	struct mutex glock;
	struct cap_clamp_group root, a, b;
	struct cap_clamp_se se[8];
};

static struct fixture f;
static enum agg_backend backend;

static int setup(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		agg_init(&f.cpu[i], backend);
		raw_spin_lock_init(&f.lock[i]);
	}
	for (i = 0; i < 8; i++)
		cap_clamp_se_init(&f.se[i]);
	mutex_init(&f.glock);
	cap_clamp_group_init_root(&f.root);
	mutex_lock(&f.glock);
	cap_clamp_group_link(&f.a, &f.root, &f.glock);
	cap_clamp_group_link(&f.b, &f.root, &f.glock);
	mutex_unlock(&f.glock);
	kcompat_warn_quiet = true;
	return 0;
}

static int write(struct cap_clamp_group *g, int id, uint64_t v)
{
	int ret;

	mutex_lock(&f.glock);
	ret = cap_clamp_group_write(g, id, v, &f.glock);
	mutex_unlock(&f.glock);
	return ret;
}

static bool enq(int cpu, int se, struct cap_clamp_group *g)
{
	bool changed;

	raw_spin_lock(&f.lock[cpu]);
	changed = cap_clamp_enqueue(&f.cpu[cpu], &f.se[se], g, &f.lock[cpu]);
	raw_spin_unlock(&f.lock[cpu]);
	return changed;
}

static bool deq(int cpu, int se)
{
	bool changed;

	raw_spin_lock(&f.lock[cpu]);
	changed = cap_clamp_dequeue(&f.cpu[cpu], &f.se[se], &f.lock[cpu]);
	raw_spin_unlock(&f.lock[cpu]);
	return changed;
}

static bool upd(int cpu, int se, struct cap_clamp_group *g)
{
	bool changed;

	raw_spin_lock(&f.lock[cpu]);
	changed = cap_clamp_update(&f.cpu[cpu], &f.se[se], g, &f.lock[cpu]);
	raw_spin_unlock(&f.lock[cpu]);
	return changed;
}

static void assert_consistent(int cpu)
{
	const char *why = agg_check(&f.cpu[cpu]);

	if (why)
		fail_msg("cpu%d (%s): %s", cpu, agg_backend_name[backend], why);
}

static void assert_range(int cpu, unsigned int min, unsigned int max)
{
	struct cap_clamp_range r;

	assert_consistent(cpu);
	cap_clamp_cpu_range(&f.cpu[cpu], &r);
	assert_int_equal(r.min, min);
	assert_int_equal(r.max, max);
}

static void empty_cpu_defaults(void **state)
{
	(void)state;
	assert_range(0, 0, 1024);
	assert_int_equal(cap_clamp_cpu_util(&f.cpu[0], 0), 0);
	assert_int_equal(cap_clamp_cpu_util(&f.cpu[0], 1024), 1024);
	assert_int_equal(cap_clamp_rt_util(&f.cpu[0]), 1024);
	assert_false(cap_clamp_se_queued(&f.se[0]));
	assert_true(cap_clamp_cpu_empty(&f.cpu[0]));
	/* The aggregate runs the backend it was initialised with. */
	assert_int_equal(cap_clamp_cpu_exact(&f.cpu[0]), backend == AGG_EXACT);
}

static void max_aggregation(void **state)
{
	(void)state;
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 300), 0);
	assert_int_equal(write(&f.a, CAP_CLAMP_MIN, 100), 0);
	assert_int_equal(write(&f.b, CAP_CLAMP_MIN, 200), 0);
	assert_int_equal(write(&f.b, CAP_CLAMP_MAX, 500), 0);

	assert_true(enq(0, 0, &f.a));
	assert_range(0, 100, 300);
	assert_true(enq(0, 1, &f.b));
	assert_range(0, 200, 500);	/* max of mins, max of maxes */
	assert_false(enq(0, 2, &f.a));	/* a lower entity changes nothing */
	assert_range(0, 200, 500);
	assert_range(1, 0, 1024);	/* other CPUs are independent */

	assert_true(deq(0, 1));		/* cached entity leaves */
	assert_range(0, 100, 300);
	assert_false(deq(0, 0));	/* an equal one remains */
	assert_range(0, 100, 300);
	assert_true(deq(0, 2));
	assert_range(0, 0, 1024);
}

static void equal_keys_and_cache(void **state)
{
	int i;

	(void)state;
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 600), 0);
	for (i = 0; i < 6; i++)
		enq(0, i, &f.a);
	assert_range(0, 0, 600);
	/* Remove in an order that hits the cached node in the middle. */
	for (i = 5; i >= 0; i -= 2)
		deq(0, i);
	assert_range(0, 0, 600);
	for (i = 4; i >= 0; i -= 2)
		deq(0, i);
	assert_range(0, 0, 1024);
	assert_true(cap_clamp_cpu_empty(&f.cpu[0]));
}

static void misuse_warns(void **state)
{
	unsigned long w = kcompat_warn_count;

	(void)state;
	enq(0, 0, &f.a);
	assert_false(enq(0, 0, &f.a));		/* double enqueue */
	assert_int_equal(kcompat_warn_count, w + 1);
	assert_false(enq(1, 0, &f.a));		/* queued elsewhere */
	assert_int_equal(kcompat_warn_count, w + 2);
	assert_false(deq(1, 0));		/* wrong CPU */
	assert_int_equal(kcompat_warn_count, w + 3);
	deq(0, 0);
	assert_false(deq(0, 0));		/* empty node */
	assert_int_equal(kcompat_warn_count, w + 4);
	assert_range(0, 0, 1024);
	assert_range(1, 0, 1024);
}

static void lockdep_ownership(void **state)
{
	unsigned long w = kcompat_warn_count;

	(void)state;
#ifdef CONFIG_LOCKDEP
	/* Without the runqueue lock: lockdep_assert_held() fires. */
	cap_clamp_enqueue(&f.cpu[0], &f.se[0], &f.a, &f.lock[0]);
	assert_int_equal(kcompat_warn_count, w + 1);
	/* Holding another CPU's lock is no better. */
	raw_spin_lock(&f.lock[1]);
	cap_clamp_dequeue(&f.cpu[0], &f.se[0], &f.lock[0]);
	raw_spin_unlock(&f.lock[1]);
	assert_int_equal(kcompat_warn_count, w + 2);
	/* A group write without the group mutex. */
	cap_clamp_group_write(&f.a, CAP_CLAMP_MAX, 10, &f.glock);
	assert_int_equal(kcompat_warn_count, w + 3);
#else
	skip();
#endif
	(void)w;
}

static void snapshot_until_update(void **state)
{
	(void)state;
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 800), 0);
	enq(0, 0, &f.a);
	enq(0, 1, &f.b);		/* b: 0..1024 */
	assert_range(0, 0, 1024);
	deq(0, 1);
	assert_range(0, 0, 800);

	/* The write alone does not touch the queued key ... */
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 900), 0);
	assert_int_equal(f.se[0].key[CAP_CLAMP_MAX], 800);
	assert_range(0, 0, 800);
	/* ... the update does, even though the node cannot move (defect b). */
	assert_true(upd(0, 0, &f.a));
	assert_range(0, 0, 900);
	assert_false(upd(0, 0, &f.a));	/* idempotent */

	/* Not queued: nothing to do, the next enqueue takes the new value. */
	deq(0, 0);
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 700), 0);
	assert_false(upd(0, 0, &f.a));
	enq(0, 0, &f.a);
	assert_range(0, 0, 700);
}

static void update_repositions(void **state)
{
	(void)state;
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 300), 0);
	assert_int_equal(write(&f.b, CAP_CLAMP_MAX, 600), 0);
	enq(0, 0, &f.a);
	enq(0, 1, &f.b);
	enq(0, 2, &f.a);
	assert_range(0, 0, 600);
	/* a rises above b: both a entities must move right of b. */
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 1000), 0);
	assert_true(upd(0, 0, &f.a));
	assert_false(upd(0, 2, &f.a));
	assert_range(0, 0, 1000);
	/* and back below: b is the maximum again. */
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 100), 0);
	upd(0, 0, &f.a);
	upd(0, 2, &f.a);
	assert_range(0, 0, 600);
	deq(0, 1);
	assert_range(0, 0, 100);
}

static void compose_and_clamp(void **state)
{
	struct cap_clamp_range acc = { 100, 300 };
	struct cap_clamp_range j = { 50, 700 };
	struct cap_clamp_range k = { 400, 500 };

	(void)state;
	cap_clamp_compose(&acc, &j);
	assert_int_equal(acc.min, 100);
	assert_int_equal(acc.max, 700);
	cap_clamp_compose(&acc, &k);
	assert_int_equal(acc.min, 400);
	assert_int_equal(acc.max, 700);

	assert_int_equal(cap_clamp_range_util(&k, 0), 400);
	assert_int_equal(cap_clamp_range_util(&k, 450), 450);
	assert_int_equal(cap_clamp_range_util(&k, 2000), 500);

	assert_int_equal(write(&f.a, CAP_CLAMP_MIN, 256), 0);
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 512), 0);
	enq(1, 0, &f.a);
	assert_int_equal(cap_clamp_cpu_util(&f.cpu[1], 10), 256);
	assert_int_equal(cap_clamp_cpu_util(&f.cpu[1], 900), 512);
	/* RT/DL: full scale, clamped by the CPU's range (patch 5). */
	assert_int_equal(cap_clamp_rt_util(&f.cpu[1]), 512);
}

/*
 * The shared-domain rule: the calling CPU's range, then every other CPU
 * that is not idle (patch 4); a CPU with no RUNNABLE entity never counts,
 * not even as the caller (the third seed defect).
 */
static void domain_range(void **state)
{
	struct cap_clamp_range acc;

	(void)state;
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 300), 0);
	assert_int_equal(write(&f.b, CAP_CLAMP_MIN, 200), 0);
	assert_int_equal(write(&f.b, CAP_CLAMP_MAX, 600), 0);
	assert_true(cap_clamp_cpu_empty(&f.cpu[0]));
	enq(0, 0, &f.a);			/* cpu0: 0..300 */
	enq(1, 1, &f.b);			/* cpu1: 200..600 */
	assert_false(cap_clamp_cpu_empty(&f.cpu[0]));

	assert_true(cap_clamp_domain_start(&acc, &f.cpu[0]));
	assert_int_equal(acc.min, 0);
	assert_int_equal(acc.max, 300);
	/* idle: skipped */
	assert_false(cap_clamp_domain_add(&acc, &f.cpu[1], true));
	assert_int_equal(acc.min, 0);
	assert_int_equal(acc.max, 300);
	assert_true(cap_clamp_domain_add(&acc, &f.cpu[1], false));
	assert_int_equal(acc.min, 200);
	assert_int_equal(acc.max, 600);

	/* The caller's last task just slept: it does not uncap cpu1's 600. */
	deq(0, 0);
	assert_false(cap_clamp_domain_start(&acc, &f.cpu[0]));
	assert_true(cap_clamp_domain_add(&acc, &f.cpu[1], false));
	assert_int_equal(acc.min, 200);
	assert_int_equal(acc.max, 600);

	/* Nothing RUNNABLE anywhere: no CPU counts, the host clamps nothing. */
	deq(1, 1);
	assert_false(cap_clamp_domain_start(&acc, &f.cpu[0]));
	assert_false(cap_clamp_domain_add(&acc, &f.cpu[1], false));
}

/* A group under the root with both constraints at @v. */
static void group_at(struct cap_clamp_group *g, unsigned int v)
{
	mutex_lock(&f.glock);
	cap_clamp_group_link(g, &f.root, &f.glock);
	mutex_unlock(&f.glock);
	assert_int_equal(write(g, CAP_CLAMP_MAX, v), 0);
	assert_int_equal(write(g, CAP_CLAMP_MIN, v), 0);
}

/*
 * Values on both sides of every 64-bit word boundary of the exact
 * backend's bitmaps, and the two ends of the scale: as each maximum
 * leaves, the range falls to the next value, wherever it is.
 */
static void value_edges(void **state)
{
	static const unsigned int v[] = {
		0, 1, 31, 32, 63, 64, 65, 127, 128, 511, 512, 960, 1023, 1024,
	};
	enum { N = sizeof(v) / sizeof(v[0]) };
	struct cap_clamp_group g[N];
	struct cap_clamp_se se[N];
	int i;

	(void)state;
	/* enqueued in a scrambled order: 5 is coprime with N */
	for (i = 0; i < N; i++) {
		int k = (i * 5) % N;

		group_at(&g[k], v[k]);
		cap_clamp_se_init(&se[k]);
		raw_spin_lock(&f.lock[0]);
		cap_clamp_enqueue(&f.cpu[0], &se[k], &g[k], &f.lock[0]);
		raw_spin_unlock(&f.lock[0]);
	}
	for (i = N - 1; i >= 0; i--) {
		bool changed;

		assert_range(0, v[i], v[i]);
		raw_spin_lock(&f.lock[0]);
		changed = cap_clamp_dequeue(&f.cpu[0], &se[i], &f.lock[0]);
		raw_spin_unlock(&f.lock[0]);
		assert_true(changed);
	}
	assert_range(0, 0, 1024);
	assert_true(cap_clamp_cpu_empty(&f.cpu[0]));
}

/* Many entities share a value: it stays until the last of them leaves. */
static void shared_value(void **state)
{
	enum { N = 300 };
	static struct cap_clamp_se se[N];
	struct cap_clamp_group g500, g700;
	int i;

	(void)state;
	group_at(&g500, 500);
	group_at(&g700, 700);
	for (i = 0; i < N; i++) {
		cap_clamp_se_init(&se[i]);
		raw_spin_lock(&f.lock[1]);
		cap_clamp_enqueue(&f.cpu[1], &se[i], &g500, &f.lock[1]);
		raw_spin_unlock(&f.lock[1]);
	}
	assert_true(enq(1, 0, &g700));
	assert_range(1, 700, 700);
	assert_true(deq(1, 0));
	assert_range(1, 500, 500);
	for (i = 0; i < N - 1; i++) {
		raw_spin_lock(&f.lock[1]);
		assert_false(cap_clamp_dequeue(&f.cpu[1], &se[i], &f.lock[1]));
		raw_spin_unlock(&f.lock[1]);
	}
	assert_range(1, 500, 500);
	raw_spin_lock(&f.lock[1]);
	assert_true(cap_clamp_dequeue(&f.cpu[1], &se[N - 1], &f.lock[1]));
	raw_spin_unlock(&f.lock[1]);
	assert_range(1, 0, 1024);
}

/* An update moves a key across words, up and down, past other entities. */
static void update_across_words(void **state)
{
	struct cap_clamp_group lo;

	(void)state;
	group_at(&lo, 64);
	enq(0, 1, &lo);
	enq(0, 0, &f.a);			/* a: 0..1024 */
	assert_range(0, 64, 1024);
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 3), 0);
	assert_true(upd(0, 0, &f.a));		/* 1024 -> 3: lo's 64 rules */
	assert_range(0, 64, 64);
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 1000), 0);
	assert_int_equal(write(&f.a, CAP_CLAMP_MIN, 999), 0);
	assert_true(upd(0, 0, &f.a));
	assert_range(0, 999, 1000);
	assert_true(deq(0, 0));
	assert_range(0, 64, 64);
}

static void group_link_inherits(void **state)
{
	struct cap_clamp_group c, d;
	unsigned long w;

	(void)state;
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 700), 0);
	assert_int_equal(write(&f.a, CAP_CLAMP_MIN, 200), 0);
	mutex_lock(&f.glock);
	cap_clamp_group_link(&c, &f.a, &f.glock);
	cap_clamp_group_link(&d, &c, &f.glock);
	mutex_unlock(&f.glock);
	assert_int_equal(c.value[CAP_CLAMP_MIN], 200);
	assert_int_equal(c.value[CAP_CLAMP_MAX], 700);
	assert_int_equal(d.value[CAP_CLAMP_MAX], 700);
	assert_ptr_equal(d.parent, &c);
	/* a's child c now bounds a's writes */
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 600), -EINVAL);
	mutex_lock(&f.glock);
	/* c still has a child: refused with a WARN, nothing unlinked */
	w = kcompat_warn_count;
	cap_clamp_group_unlink(&c, &f.glock);
	assert_int_equal(kcompat_warn_count, w + 1);
	assert_ptr_equal(c.parent, &f.a);
	cap_clamp_group_unlink(&d, &f.glock);
	cap_clamp_group_unlink(&c, &f.glock);
	mutex_unlock(&f.glock);
	assert_int_equal(kcompat_warn_count, w + 1);
	assert_int_equal(write(&f.a, CAP_CLAMP_MAX, 600), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(empty_cpu_defaults, setup),
		cmocka_unit_test_setup(max_aggregation, setup),
		cmocka_unit_test_setup(equal_keys_and_cache, setup),
		cmocka_unit_test_setup(misuse_warns, setup),
		cmocka_unit_test_setup(lockdep_ownership, setup),
		cmocka_unit_test_setup(snapshot_until_update, setup),
		cmocka_unit_test_setup(update_repositions, setup),
		cmocka_unit_test_setup(compose_and_clamp, setup),
		cmocka_unit_test_setup(domain_range, setup),
		cmocka_unit_test_setup(group_link_inherits, setup),
		cmocka_unit_test_setup(value_edges, setup),
		cmocka_unit_test_setup(shared_value, setup),
		cmocka_unit_test_setup(update_across_words, setup),
	};

	return backend_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]),
			    &backend);
}
