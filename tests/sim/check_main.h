/* SPDX-License-Identifier: GPL-2.0 */
/* The one main() shape of the Check suites: a suite, a case, its tests. */
#ifndef CAPSIM_CHECK_MAIN_H
#define CAPSIM_CHECK_MAIN_H

#include <check.h>
#include <ftw.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

static inline int check_main_unlink(const char *path, const struct stat *st,
				    int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * check_main() run inside a fresh directory under $TMPDIR (or /tmp), for
 * suites whose tests write files by relative names; the directory is
 * removed afterwards, so repeated runs leave nothing behind
 */
static inline int check_main_in_tmpdir(const char *name, int timeout_s,
				       const TTest *const *tests, size_t n)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	int ret;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (snprintf(dir, sizeof(dir), "%s/capsim-%s-XXXXXX", tmp, name) >=
	    (int)sizeof(dir) || !mkdtemp(dir) || chdir(dir)) {
		perror("capsim test: temporary directory");
		return 1;
	}
	ret = check_main(name, timeout_s, tests, n);
	if (chdir("/") ||
	    nftw(dir, check_main_unlink, 16, FTW_DEPTH | FTW_PHYS)) {
		perror(dir);
		return 1;
	}
	return ret;
}

#endif
