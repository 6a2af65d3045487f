// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC's capacity range, tracked for every clamp policy: the clamp
 * core (src/core, through its host src/clamphost) aggregates the RUNNABLE
 * tasks' group ranges per CPU, as the kernel glue does in enqueue_task()
 * and dequeue_task(), and takes the groups' capacity_min/max writes. The
 * range is traced (cap_clamp_cpu) whatever the policy; rfc feeds it to
 * the governor, none and uclamp only keep it. The host's range-changed
 * callback traces a CPU whose range changes and kicks schedutil.
 *
 * The host refuses what the scheduler must never do (an entity enqueued
 * twice: -EBUSY; enqueued under a group it is not in: -EXDEV; a CPU past
 * the end: -ERANGE; a dequeue of an entity not queued: -EALREADY) and
 * leaves the aggregate as it was, which would then be stale with no sign:
 * each such refusal is a model bug, WARNed as the kernel glue would
 * (kcompat counts WARNs, and the tests and fuzzers fail on any).
 */
#include <linux/bug.h>

#include "clamp_policy.h"
#include "sim.h"

void clamp_track_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	int ret = clamp_host_enqueue(&s->host, t->ce, (unsigned int)c->id,
				     t->group);

	WARN_ON_ONCE(ret < 0);
}

void clamp_track_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	int ret = clamp_host_dequeue(&s->host, t->ce);

	(void)c;
	WARN_ON_ONCE(ret < 0);
}

/* sched_move_task(): dequeued and enqueued again, re-reading the group */
void clamp_track_move(struct sim *s, struct sim_task *t, struct host_group *g)
{
	int ret = clamp_host_move(&s->host, t->ce, g);

	WARN_ON_ONCE(ret < 0);
}

/* The core's rules: 0, or -EINVAL and nothing changed */
int clamp_track_group_set(struct sim *s, struct host_group *g, int attr,
			  uint64_t value)
{
	return clamp_host_group_set(&s->host, g, attr, value);
}

/* The group's RUNNABLE entities re-read its range, one at a time */
void clamp_track_group_apply(struct sim *s, struct host_group *g)
{
	clamp_host_group_reposition(&s->host, g);
}
