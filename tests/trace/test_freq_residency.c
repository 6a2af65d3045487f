/*
 * A domain's residency over a window (src/trace/freq_residency.c), the
 * rule plot, import-check and xcheck share: shares of the whole window
 * with `unknown` a row of its own, an OPP inserted where a platform-less
 * trace reveals it, and the TVD over the time both sides know, refused
 * (NAN) where one side counted time the other did not know.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "freq_residency.h"

#define MS 1000000ULL

/* 3 OPPs; unknown [0, 200 ms), OPP 0 to 500 ms, OPP 2 to 1 s */
static void late(struct freq_residency *r, uint64_t cut)
{
	freq_residency_init(r, 3, cut);
	freq_residency_add(r, -1, 0, 200 * MS);
	freq_residency_add(r, 0, 200 * MS, 500 * MS);
	freq_residency_add(r, 2, 500 * MS, 1000 * MS);
}

static void shares_of_the_window(void **state)
{
	struct freq_residency r;

	(void)state;
	late(&r, 0);
	assert_int_equal(freq_residency_window_ns(&r), 1000 * MS);
	assert_true(freq_residency_pct(&r, -1) == 20.0);
	assert_true(freq_residency_pct(&r, 0) == 30.0);
	assert_true(freq_residency_pct(&r, 1) == 0.0);
	assert_true(freq_residency_pct(&r, 2) == 50.0);
	/* an OPP found between the two: the counts move with their OPPs */
	freq_residency_insert_opp(&r, 1);
	assert_int_equal(r.nopps, 4);
	assert_int_equal(r.opp_ns[0], 300 * MS);
	assert_int_equal(r.opp_ns[1], 0);
	assert_int_equal(r.opp_ns[3], 500 * MS);
	assert_int_equal(r.cut_opp_ns[3], 500 * MS);
	freq_residency_free(&r);
	/* an empty window: no share, not a division by 0 */
	freq_residency_init(&r, 2, 0);
	assert_true(freq_residency_pct(&r, -1) == 0.0);
	freq_residency_free(&r);
}

static void tvd_over_the_time_both_know(void **state)
{
	struct freq_residency a, b, early;
	double known;

	(void)state;
	late(&a, 0);
	/* b knows from 0: at OPP 2 for its first 200 ms, then as a. Cut at
	 * a's unknown stretch, the two agree over the 800 ms both know */
	freq_residency_init(&b, 3, a.unknown_ns);
	freq_residency_add(&b, 2, 0, 200 * MS);
	freq_residency_add(&b, 0, 200 * MS, 500 * MS);
	freq_residency_add(&b, 2, 500 * MS, 1000 * MS);
	assert_true(freq_residency_tvd(&a, &b, &known) == 0.0);
	assert_true(known == 0.8);
	/* their shares of the window still differ: unknown is a row */
	assert_true(freq_residency_pct(&b, 2) == 70.0);
	/* read without the cut, b's first 200 ms would count: refused */
	freq_residency_init(&early, 3, 0);
	freq_residency_add(&early, 2, 0, 1000 * MS);
	assert_true(isnan(freq_residency_tvd(&a, &early, &known)));
	freq_residency_free(&early);
	/* nothing known on one side: no distance */
	freq_residency_init(&early, 3, 0);
	freq_residency_add(&early, -1, 0, 1000 * MS);
	assert_true(isnan(freq_residency_tvd(&early, &early, &known)));
	assert_true(known == 0.0);
	freq_residency_free(&early);
	/* disjoint over the known time: 1 */
	freq_residency_free(&b);
	freq_residency_init(&b, 3, a.unknown_ns);
	freq_residency_add(&b, 1, 0, 1000 * MS);
	assert_true(fabs(freq_residency_tvd(&a, &b, &known) - 1.0) < 1e-12);
	freq_residency_free(&b);
	freq_residency_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shares_of_the_window),
		cmocka_unit_test(tvd_over_the_time_both_know),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
