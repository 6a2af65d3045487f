// SPDX-License-Identifier: GPL-2.0
/*
 * Each clamp policy's ops (one file each: clamp_rfc.c, clamp_uclamp.c,
 * clamp_none.c) by enum clamp_policy. The only place that names the ops
 * tables: everything else asks the ops. The policies' names and traits
 * are src/input's registry (clamp_names.c); a row there without ops here
 * fails the sim suite (sim-clamp_policy).
 */
#include <stddef.h>

#include "clamp_policy.h"

static const struct clamp_policy_ops *const registry[POLICY_END] = {
	[POLICY_RFC] = &clamp_policy_rfc,
	[POLICY_NONE] = &clamp_policy_none,
	[POLICY_UCLAMP] = &clamp_policy_uclamp,
};

const struct clamp_policy_ops *clamp_policy_ops(enum clamp_policy p)
{
	return p > POLICY_UNSET && p < POLICY_END ? registry[p] : NULL;
}
