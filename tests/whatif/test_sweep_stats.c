// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of a sweep's repeats (src/whatif/sweep_stats.c): mean,
 * sample standard deviation and the 95 % interval with Student's t, a
 * NaN run left out, equal runs giving sd 0 exactly, t interpolated
 * between the table's rows past 30 degrees of freedom.
 */
#include <check.h>
#include <math.h>

#include "sweep_stats.h"

START_TEST(mean_sd_ci)
{
	const double v[] = { 1, 2, 3, 4, 5 };
	struct sample_stats st = sample_stats(v, 5);

	ck_assert_int_eq(st.n, 5);
	ck_assert_double_eq_tol(st.mean, 3, 1e-12);
	ck_assert_double_eq_tol(st.sd, sqrt(2.5), 1e-12);
	/* t(0.975, 4) = 2.776 */
	ck_assert_double_eq_tol(st.ci95, 2.776 * sqrt(2.5) / sqrt(5), 1e-12);
}
END_TEST

START_TEST(nan_runs_left_out)
{
	const double v[] = { NAN, 10, 14, NAN };
	const double none[] = { NAN, NAN };
	struct sample_stats st = sample_stats(v, 4);

	ck_assert_int_eq(st.n, 2);
	ck_assert_double_eq_tol(st.mean, 12, 1e-12);
	ck_assert_double_eq_tol(st.sd, sqrt(8), 1e-12);
	ck_assert_double_eq_tol(st.ci95, 12.706 * sqrt(8) / sqrt(2), 1e-9);
	st = sample_stats(v, 2);	/* one value: a mean, no spread */
	ck_assert_int_eq(st.n, 1);
	ck_assert_double_eq(st.mean, 10);
	ck_assert(isnan(st.sd) && isnan(st.ci95));
	st = sample_stats(none, 2);
	ck_assert_int_eq(st.n, 0);
	ck_assert(isnan(st.mean));
}
END_TEST

START_TEST(equal_runs_exact)
{
	const double v[] = { 11.3, 11.3, 11.3 };
	struct sample_stats st = sample_stats(v, 3);

	ck_assert_double_eq(st.mean, 11.3);
	ck_assert_double_eq(st.sd, 0);
	ck_assert_double_eq(st.ci95, 0);
}
END_TEST

START_TEST(student_t)
{
	ck_assert_double_eq(student_t975(1), 12.706);
	ck_assert_double_eq(student_t975(4), 2.776);
	ck_assert_double_eq(student_t975(30), 2.042);
	ck_assert_double_eq_tol(student_t975(40), 2.021, 1e-12);
	/* the exact quantile at 45 is 2.0141 */
	ck_assert_double_eq_tol(student_t975(45), 2.0141, 5e-4);
	ck_assert_double_eq_tol(student_t975(1000000), 1.960, 1e-4);
	ck_assert(isnan(student_t975(0)));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sweep_stats");
	TCase *tc = tcase_create("sweep_stats");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, mean_sd_ci);
	tcase_add_test(tc, nan_runs_left_out);
	tcase_add_test(tc, equal_runs_exact);
	tcase_add_test(tc, student_t);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
