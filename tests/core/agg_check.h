/*
 * Internal consistency of a CPU aggregate, whichever backend runs it: the
 * backend's own bookkeeping, the published range and the entity count
 * must all tell the same story. Shared by the core tests.
 */
#ifndef CAPSIM_TEST_AGG_CHECK_H
#define CAPSIM_TEST_AGG_CHECK_H

#include <linux/sched/cap_clamp.h>

/* NULL when consistent, else what is wrong. */
const char *agg_check(const struct cap_clamp_cpu *cc);

/* The backend names the tests take on their command line. */
enum agg_backend { AGG_RBTREE, AGG_EXACT };
extern const char *const agg_backend_name[2];

/* Initialise @cc with @b; the test then checks that @cc reports @b. */
void agg_init(struct cap_clamp_cpu *cc, enum agg_backend b);

/* Parse "rbtree" or "exact"; -1 for anything else. */
int agg_backend_parse(const char *name);

#endif
