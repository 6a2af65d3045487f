/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_main() inside a fresh temporary directory, for suites whose tests
 * write files by relative names; needs src/outputs (remove_tree)
 */
#ifndef CAPSIM_CHECK_MAIN_TMPDIR_H
#define CAPSIM_CHECK_MAIN_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check_main.h"
#include "outdir.h"

/*
 * Run the suite in $TMPDIR (or /tmp)/capsim-@name-XXXXXX and remove the
 * directory afterwards, so repeated runs leave nothing behind
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
	if (chdir("/") || remove_tree(dir)) {
		perror(dir);
		return 1;
	}
	return ret;
}

#endif
