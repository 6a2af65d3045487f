/*
 * The three defects of the RFC v3 series, each as a scenario that must hold
 * for a correct implementation. meson runs it against the core (must pass)
 * and against the seed model (must fail, through expect_defect, with the
 * defect's own message), which is what shows the defect is real and fixed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "impl_select.h"

static void assert_cpu(int cpu)
{
	unsigned int min, max, bmin, bmax;
	const char *why;

	impl_range(cpu, &min, &max);
	impl_brute_range(cpu, &bmin, &bmax);
	if (min != bmin || max != bmax)
		fail_msg("cpu%d range %u..%u, RUNNABLE tasks say %u..%u",
			 cpu, min, max, bmin, bmax);
	why = impl_check_trees();
	if (why)
		fail_msg("cpu%d tree broken: %s", cpu, why);
}

/*
 * (a) Keys read through the group while queued: when G1's max drops, the
 * seed repositions G1's tasks one at a time, comparing against neighbours
 * whose *live* key already changed. t1 is judged in place, the tree order
 * breaks and the CPU reports 400 while t0 (G2, max 1024) is RUNNABLE.
 */
static void defect_a_live_key(void **state)
{
	int g1, g2;

	(void)state;
	impl_reset(selected_impl, 1);
	g1 = impl_group_new(0);
	g2 = impl_group_new(0);
	impl_enqueue(1, 0, g1);
	impl_enqueue(2, 0, g1);
	impl_enqueue(0, 0, g2);
	assert_cpu(0);
	assert_int_equal(impl_write(g1, 1, 400), 0);
	assert_cpu(0);
}

/*
 * (b) The only RUNNABLE task's group max goes 800 -> 900. Its position
 * cannot change, so the seed returns early and the cached CPU value stays
 * 800.
 */
static void defect_b_stale_cache(void **state)
{
	int g;

	(void)state;
	impl_reset(selected_impl, 1);
	g = impl_group_new(0);
	assert_int_equal(impl_write(g, 1, 800), 0);
	impl_enqueue(0, 0, g);
	assert_cpu(0);
	assert_int_equal(impl_write(g, 1, 900), 0);
	assert_cpu(0);
	/* Same for the min side. */
	assert_int_equal(impl_write(g, 0, 300), 0);
	assert_int_equal(impl_write(g, 0, 500), 0);
	assert_cpu(0);
}

/*
 * (c) The idle caller: patch 3 removes a task from the clamp trees before
 * the class dequeue that runs schedutil, and patch 4 always starts the
 * domain's range from the calling CPU. When cpu1's last task sleeps,
 * cpu1 asks with its empty range [0, 1024] and uncaps cpu0's hog, which
 * is capped at 256.
 */
static void defect_c_idle_caller(void **state)
{
	unsigned int min, max;
	int g;

	(void)state;
	impl_reset(selected_impl, 2);
	g = impl_group_new(0);
	assert_int_equal(impl_write(g, 1, 256), 0);
	impl_enqueue(0, 0, g);			/* the capped hog */
	impl_enqueue(1, 1, 0);			/* an uncapped task ... */
	impl_dequeue(1);			/* ... goes to sleep */
	impl_domain_range(1, &min, &max);
	if (max != 256)
		fail_msg("domain asked by the idle cpu1: max %u, the only RUNNABLE task allows 256",
			 max);
}

/*
 * The seed model must reproduce each defect with the exact wrong answer,
 * so the expect_defect runs (tests/core/meson.build) fail for the right
 * reason; expect_defect itself rejects a crash or another message.
 */
static void seed_model_shows_defects(void **state)
{
	unsigned int min, max;
	int g1, g2;

	(void)state;
	seed_fix_stale_cache = true;		/* (a) alone */
	impl_reset(IMPL_SEED, 1);
	g1 = impl_group_new(0);
	g2 = impl_group_new(0);
	impl_enqueue(1, 0, g1);
	impl_enqueue(2, 0, g1);
	impl_enqueue(0, 0, g2);
	assert_int_equal(impl_write(g1, 1, 400), 0);
	impl_range(0, &min, &max);
	assert_int_equal(max, 400);		/* t0 allows 1024 */
	assert_non_null(impl_check_trees());

	seed_fix_stale_cache = false;		/* (b), the RFC as posted */
	impl_reset(IMPL_SEED, 1);
	g1 = impl_group_new(0);
	assert_int_equal(impl_write(g1, 1, 800), 0);
	impl_enqueue(0, 0, g1);
	assert_int_equal(impl_write(g1, 1, 900), 0);
	impl_range(0, &min, &max);
	assert_int_equal(max, 800);		/* should be 900 */

	impl_reset(IMPL_SEED, 2);		/* (c) */
	g1 = impl_group_new(0);
	assert_int_equal(impl_write(g1, 1, 256), 0);
	impl_enqueue(0, 0, g1);
	impl_enqueue(1, 1, 0);
	impl_dequeue(1);
	impl_domain_range(1, &min, &max);
	assert_int_equal(max, 1024);		/* should be 256 */
	(void)g2;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest all[] = {
		cmocka_unit_test(defect_a_live_key),
		cmocka_unit_test(defect_b_stale_cache),
		cmocka_unit_test(defect_c_idle_caller),
		cmocka_unit_test(seed_model_shows_defects),
	};
	struct CMUnitTest run[4];
	const char *filter;
	size_t i, n = 0;

	/* 99 is meson's hard error: a usage slip never passes as "expected". */
	if (impl_select(argc, argv, &filter))
		return 99;
	for (i = 0; i < 4; i++) {
		/* The demonstration runs once, with the core selection. */
		if (i == 3 && (filter || selected_impl != IMPL_CORE))
			continue;
		if (!filter || !strcmp(filter, all[i].name))
			run[n++] = all[i];
	}
	if (!n) {
		fprintf(stderr, "no test named '%s'\n", filter);
		return 99;
	}
	return _cmocka_run_group_tests("seed_defects", run, n, NULL, NULL);
}
