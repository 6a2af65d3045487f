// SPDX-License-Identifier: GPL-2.0
/*
 * The clamp policies' registry: each policy's ops (one file each,
 * clamp_rfc.c, clamp_uclamp.c, clamp_none.c) by enum clamp_policy, and
 * by the name --policy and a workload's "policy" give. The only place
 * that names the three ops tables: everything else asks the ops.
 */
#include <stddef.h>
#include <string.h>

#include "clamp_policy.h"

static const struct clamp_policy_ops *const registry[] = {
	[POLICY_RFC] = &clamp_policy_rfc,
	[POLICY_UCLAMP] = &clamp_policy_uclamp,
	[POLICY_NONE] = &clamp_policy_none,
};

#define NR_CLAMP_POLICIES (sizeof(registry) / sizeof(registry[0]))

const struct clamp_policy_ops *clamp_policy_ops(enum clamp_policy p)
{
	return (size_t)p < NR_CLAMP_POLICIES ? registry[p] : NULL;
}

int policy_parse(const char *s, enum clamp_policy *out)
{
	for (size_t i = 0; i < NR_CLAMP_POLICIES; i++) {
		if (!strcmp(s, registry[i]->name)) {
			*out = (enum clamp_policy)i;
			return 0;
		}
	}
	return -1;
}

/* "none" for a value that names no policy, as the summary has always said */
const char *policy_name(enum clamp_policy p)
{
	const struct clamp_policy_ops *ops = clamp_policy_ops(p);

	return ops ? ops->name : "none";
}

int clamp_order_parse(const char *s, enum clamp_order *out)
{
	if (!strcmp(s, "6.12"))
		*out = CLAMP_ORDER_612;
	else if (!strcmp(s, "4.10"))
		*out = CLAMP_ORDER_410;
	else
		return -1;
	return 0;
}

const char *clamp_order_name(enum clamp_order o)
{
	return o == CLAMP_ORDER_410 ? "4.10" : "6.12";
}
