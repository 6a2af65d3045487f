/* SPDX-License-Identifier: GPL-2.0 */
/* The one main() shape of the Check suites: a suite, a case, its tests. */
#ifndef CAPSIM_CHECK_MAIN_H
#define CAPSIM_CHECK_MAIN_H

#include <check.h>
#include <stddef.h>

#define CHECK_TESTS(...) \
	(const TTest *[]){ __VA_ARGS__ }, \
	sizeof((const TTest *[]){ __VA_ARGS__ }) / sizeof(const TTest *)

/* Run @n tests as suite @name; the exit status is 0 when all pass. */
static inline int check_main(const char *name, int timeout_s,
			     const TTest *const *tests, size_t n)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
	SRunner *sr;
	int failed;
	size_t i;

	if (timeout_s)
		tcase_set_timeout(tc, timeout_s);
	for (i = 0; i < n; i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

#endif
