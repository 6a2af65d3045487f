// SPDX-License-Identifier: GPL-2.0
#include <linux/sched.h>
#include <linux/sched/cap_clamp.h>

#include "rfc_domain.h"

void rfc_domain_compose(const struct cap_clamp_cpu *const *cpus,
			const bool *idle, int n, int caller, enum domain_rule rule,
			struct sugov_range *out)
{
	struct cap_clamp_range r = { 0, 0 };
	int j;

	if (rule == DOMAIN_RULE_NONIDLE) {
		bool counted = cap_clamp_domain_start(&r, cpus[caller]);

		for (j = 0; j < n; j++)
			if (j != caller)
				counted |= cap_clamp_domain_add(&r, cpus[j],
								idle[j]);
		/* nothing RUNNABLE in the domain: no clamp, as with no tasks */
		if (!counted) {
			r.min = 0;
			r.max = (unsigned int)SCHED_CAPACITY_SCALE;
		}
	} else {
		cap_clamp_cpu_range(cpus[caller], &r);
		for (j = 0; j < n; j++) {
			struct cap_clamp_range jr;

			if (j == caller || idle[j])
				continue;
			cap_clamp_cpu_range(cpus[j], &jr);
			cap_clamp_compose(&r, &jr);
		}
	}
	out->min = r.min;
	out->max = r.max;
}
