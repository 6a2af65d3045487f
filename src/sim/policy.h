/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clamping policies: which constraints bound the frequency request.
 *  rfc    - the seed RFC's per-group capacity_min/max, aggregated per CPU by
 *           the core (src/core) and composed over a shared domain;
 *  uclamp - mainline utilization clamping as 6.12 has it
 *           (clamp_uclamp.c);
 *  none   - no clamping: stock 6.12 schedutil.
 * And where the clamp lands relative to the 1.25 headroom.
 */
#ifndef CAPSIM_POLICY_H
#define CAPSIM_POLICY_H

#include <stdbool.h>

enum clamp_policy {
	POLICY_RFC,
	POLICY_UCLAMP,
	POLICY_NONE,
};

enum clamp_order {
	CLAMP_ORDER_612,	/* sugov_effective_cpu_perf(): headroom, then min/max */
	CLAMP_ORDER_410,	/* RFC on 4.10 get_next_freq(): clamp, then headroom */
};

int policy_parse(const char *s, enum clamp_policy *out);
const char *policy_name(enum clamp_policy p);
int clamp_order_parse(const char *s, enum clamp_order *out);
const char *clamp_order_name(enum clamp_order o);

#endif
