/*
 * main() of the cmocka suites that run against one aggregator, named on
 * the command line:
 *   TEST rbtree|exact [TEST_NAME]
 * Included after <cmocka.h> by the suite's one .c file.
 */
#ifndef CAPSIM_TEST_BACKEND_MAIN_H
#define CAPSIM_TEST_BACKEND_MAIN_H

#include <stdio.h>
#include "agg_check.h"

/* Sets *backend from argv[1], then runs @tests (@n of them); 99 on usage. */
static inline int backend_main(int argc, char **argv,
			       const struct CMUnitTest *tests, size_t n,
			       enum agg_backend *backend)
{
	int b = argc > 1 ? agg_backend_parse(argv[1]) : -1;

	if (b < 0) {
		fprintf(stderr, "usage: %s rbtree|exact [TEST]\n", argv[0]);
		return 99;
	}
	*backend = b;
	if (argc > 2)
		cmocka_set_test_filter(argv[2]);
	return _cmocka_run_group_tests(agg_backend_name[b], tests, n, NULL,
				       NULL);
}

#endif
