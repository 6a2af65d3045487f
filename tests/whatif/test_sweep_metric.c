// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's metric, in process:
 *  - the --metric expressions (src/whatif/metric_expr.c): the arithmetic
 *    and its precedence, NaN for a division by zero, a missing column or
 *    an overflow, the whole text as one column when it is known as such,
 *    and every malformed or unsafe text refused with its reason;
 *  - the statistics of --repeat (src/whatif/sweep_stats.c): mean, sample
 *    standard deviation and the 95 % interval with Student's t, a NaN run
 *    left out, equal runs giving sd 0 exactly, t interpolated between the
 *    table's rows past 30 degrees of freedom; for a bounded or bimodal
 *    figure the median, the interval clipped to its range and the
 *    bootstrap's, deterministic and inside the values.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metric_expr.h"
#include "sweep_stats.h"

/* The known columns and their values in the row evaluated */
static const struct {
	const char *name;
	double v;
} cols[] = {
	{ "energy_mj", 2500 }, { "ui.resp_p95_ms", 4000 },
	{ "bg-2.misses", 3 }, { "a-b.misses", 7 }, { "my task.misses", 9 },
	{ "dom0.avg_mhz", 0 }, { "chain.frame.jank_pct", NAN },
};

static bool known(void *ctx, const char *name)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (!strcmp(cols[i].name, name))
			return true;
	return false;
}

static double value(void *ctx, const char *name)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (!strcmp(cols[i].name, name))
			return cols[i].v;
	return NAN;
}

static char err[256];

/* @text's value; it must parse */
static double eval(const char *text)
{
	const char *unknown;
	struct metric_expr *e = metric_expr_parse(text, known, NULL, err,
						  sizeof(err), &unknown);
	double v;

	ck_assert_msg(e != NULL, "%s: %s", text, err);
	v = metric_expr_eval(e, value, NULL);
	metric_expr_free(e);
	return v;
}

/* @text is refused with @why in the reason */
static void refused(const char *text, const char *why)
{
	const char *unknown;
	struct metric_expr *e = metric_expr_parse(text, known, NULL, err,
						  sizeof(err), &unknown);

	ck_assert_msg(e == NULL, "%s was accepted", text);
	ck_assert_msg(strstr(err, why) != NULL, "%s: \"%s\", expected \"%s\"",
		      text, err, why);
}

START_TEST(arithmetic_and_precedence)
{
	ck_assert_double_eq(eval("energy_mj/1000"), 2.5);
	ck_assert_double_eq(eval("1 + 2 * 3"), 7);
	ck_assert_double_eq(eval("(1 + 2) * 3"), 9);
	ck_assert_double_eq(eval("10 - 4 - 3"), 3);	/* left to right */
	ck_assert_double_eq(eval("8 / 4 / 2"), 1);
	ck_assert_double_eq(eval("-ui.resp_p95_ms / -1000"), 4);
	ck_assert_double_eq(eval("--2"), 2);
	ck_assert_double_eq(eval(".5e1 + 1.5E+1"), 20);
	ck_assert_double_eq(eval("energy_mj - 500"), 2000);
	ck_assert_double_eq(eval("energy_mj-500"), 2000);
	ck_assert_double_eq(eval("bg-2.misses * 2"), 6);
	ck_assert_double_eq(eval("\tenergy_mj / ( ui.resp_p95_ms/1000 ) "), 625);
}
END_TEST

START_TEST(nan_not_infinity)
{
	ck_assert(isnan(eval("energy_mj / dom0.avg_mhz")));
	ck_assert(isnan(eval("1 / 0")));
	ck_assert(isnan(eval("0 / 0")));
	ck_assert(isnan(eval("chain.frame.jank_pct + 1")));
	ck_assert(isnan(eval("1e300 * 1e300")));
	ck_assert(isnan(eval("-1e300 * 1e300")));
}
END_TEST

START_TEST(one_column)
{
	const char *unknown;
	struct metric_expr *e;

	/* a lone name, and a known column whose name reads as an
	 * expression, are that column */
	e = metric_expr_parse("ui.resp_p95_ms", known, NULL, err, sizeof(err),
			      &unknown);
	ck_assert_str_eq(metric_expr_column(e), "ui.resp_p95_ms");
	metric_expr_free(e);
	e = metric_expr_parse("a-b.misses", known, NULL, err, sizeof(err),
			      &unknown);
	ck_assert_str_eq(metric_expr_column(e), "a-b.misses");
	ck_assert_double_eq(metric_expr_eval(e, value, NULL), 7);
	metric_expr_free(e);
	ck_assert_double_eq(eval("my task.misses"), 9);
	e = metric_expr_parse("energy_mj/2", known, NULL, err, sizeof(err),
			      &unknown);
	ck_assert_ptr_null(metric_expr_column(e));
	metric_expr_free(e);
}
END_TEST

START_TEST(refused_with_reason)
{
	const char *text = "energy_mj + nosuch.misses", *unknown;
	static char longtext[METRIC_EXPR_MAX_LEN + 2];
	char deep[2 * METRIC_EXPR_MAX_DEPTH + 8];
	int i;

	ck_assert_ptr_null(metric_expr_parse(text, known, NULL, err,
					     sizeof(err), &unknown));
	ck_assert_str_eq(err, "unknown name nosuch.misses");
	ck_assert_ptr_eq(unknown, text + 12);
	refused("", "expected a number, a name or '('");
	refused("energy_mj +", "at the end");
	refused("energy_mj energy_mj", "expected an operator");
	refused("(energy_mj", "expected ')'");
	refused("energy_mj)", "expected an operator");
	refused("exp(energy_mj)", "no function calls");
	refused("system (\"rm\")", "no function calls");
	refused("energy_mj; 1", "expected an operator");
	refused("`id`", "expected a number");
	refused("$HOME", "expected a number");
	refused("0x10", "a malformed number");
	refused("1e999", "a number out of range");
	refused("inf", "unknown name inf");
	refused("nan", "unknown name nan");
	refused("energy_mj ^ 2", "expected an operator");
	memset(longtext, '1', METRIC_EXPR_MAX_LEN + 1);
	refused(longtext, "longer than");
	for (i = 0; i <= METRIC_EXPR_MAX_DEPTH; i++)
		deep[i] = '(';
	strcpy(deep + i, "1");
	refused(deep, "nested too deep");
}
END_TEST

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

/* a jank % of 0 0 0 0 100: the mean 20 +- 55.5 leaves 0..100; the
 * median says most runs had none, the clipped interval stays in range,
 * the bootstrap's is inside the values and the same every time */
START_TEST(bounded_bimodal)
{
	const double v[] = { 0, 0, 0, 0, 100 };
	struct sample_stats st = sample_stats(v, 5);
	struct sample_robust r = sample_robust(v, 5, 0, 100), r2;

	ck_assert(st.mean - st.ci95 < 0);
	ck_assert_double_eq(r.median, 0);
	ck_assert_double_eq(r.ci_lo, 0);
	ck_assert_double_eq_tol(r.ci_hi, 20 + st.ci95, 1e-9);
	/* resample means are multiples of 20 between 0 and 100 */
	ck_assert_double_eq(r.boot_lo, 0);
	ck_assert(r.boot_hi >= 40 && r.boot_hi <= 80);
	ck_assert_double_eq(fmod(r.boot_hi, 20), 0);
	r2 = sample_robust(v, 5, 0, 100);
	ck_assert(r2.boot_lo == r.boot_lo && r2.boot_hi == r.boot_hi);
	/* the upper end clipped too */
	r = sample_robust((const double[]){ 100, 100, 100, 100, 0 }, 5, 0, 100);
	ck_assert_double_eq(r.ci_hi, 100);
	ck_assert_double_eq(r.median, 100);
	/* unbounded: the t-interval as it is */
	r = sample_robust(v, 5, -INFINITY, INFINITY);
	ck_assert_double_eq_tol(r.ci_lo, 20 - st.ci95, 1e-9);
}
END_TEST

START_TEST(robust_few_values)
{
	const double v[] = { NAN, 7, NAN, 3 };
	struct sample_robust r = sample_robust(v, 4, 0, 100);

	ck_assert_double_eq(r.median, 5);	/* of 3 and 7 */
	ck_assert(r.boot_lo >= 3 && r.boot_hi <= 7 && r.boot_lo <= r.boot_hi);
	r = sample_robust(v, 2, 0, 100);	/* one value: no interval */
	ck_assert_double_eq(r.median, 7);
	ck_assert(isnan(r.ci_lo) && isnan(r.boot_lo) && isnan(r.boot_hi));
	r = sample_robust(v, 1, 0, 100);
	ck_assert(isnan(r.median));
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
	Suite *s = suite_create("sweep_metric");
	TCase *tc = tcase_create("metric_expr"), *ts = tcase_create("stats");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, arithmetic_and_precedence);
	tcase_add_test(tc, nan_not_infinity);
	tcase_add_test(tc, one_column);
	tcase_add_test(tc, refused_with_reason);
	tcase_add_test(ts, mean_sd_ci);
	tcase_add_test(ts, nan_runs_left_out);
	tcase_add_test(ts, equal_runs_exact);
	tcase_add_test(ts, student_t);
	tcase_add_test(ts, bounded_bimodal);
	tcase_add_test(ts, robust_few_values);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, ts);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
