/*
 * Command line of the tests that run against either implementation:
 *   TEST [core|rbtree|exact|seed|seed-fixed-b] [TEST_NAME]
 * "core" is the core with its default aggregator, "rbtree" and "exact" the
 * core with that one; "seed" is the RFC as posted; "seed-fixed-b" repairs
 * only defect (b).
 */
#ifndef CAPSIM_TEST_IMPL_SELECT_H
#define CAPSIM_TEST_IMPL_SELECT_H

#include <stdio.h>
#include <string.h>
#include "agg_check.h"
#include "clamp_impl.h"
#include "seed_model.h"

static enum impl_kind selected_impl = IMPL_CORE;

static inline int impl_select(int argc, char **argv, const char **filter)
{
	*filter = argc > 2 ? argv[2] : NULL;
	if (argc < 2 || !strcmp(argv[1], "core"))
		selected_impl = IMPL_CORE;
	else if (agg_backend_parse(argv[1]) >= 0)
		selected_impl = IMPL_CORE,
		impl_core_backend = agg_backend_parse(argv[1]);
	else if (!strcmp(argv[1], "seed"))
		selected_impl = IMPL_SEED;
	else if (!strcmp(argv[1], "seed-fixed-b"))
		selected_impl = IMPL_SEED, seed_fix_stale_cache = true;
	else {
		fprintf(stderr, "usage: %s [core|rbtree|exact|seed|seed-fixed-b] [TEST]\n",
			argv[0]);
		return -1;
	}
	return 0;
}

#endif
