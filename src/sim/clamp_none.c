// SPDX-License-Identifier: GPL-2.0
/*
 * --policy none: stock 6.12 schedutil behind the clamp-policy seam. The
 * RFC's range is tracked and traced (clamp_track.c), the groups' writes
 * are the core's to accept or refuse, and the governor ignores the range.
 */
#include <linux/sched.h>

#include "clamp_policy.h"
#include "sim.h"

static void none_cpu_clamp(struct sim *s, struct sim_cpu *c,
			   struct sugov_cpu_input *in, unsigned long scale)
{
	(void)s;
	(void)c;
	in->clamp.min = 0;
	in->clamp.max = SCHED_CAPACITY_SCALE;
	/* effective_cpu_util(): a runnable RT class runs at the top */
	in->rt_floor = scale;
}

const struct clamp_policy_ops clamp_policy_none = {
	.enqueue = clamp_track_enqueue,
	.dequeue = clamp_track_dequeue,
	.move = clamp_track_move,
	.group_set = clamp_track_group_set,
	.group_apply = clamp_track_group_apply,
	.cpu_clamp = none_cpu_clamp,
};
