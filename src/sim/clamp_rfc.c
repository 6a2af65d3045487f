// SPDX-License-Identifier: GPL-2.0
/*
 * --policy rfc: the RFC's capacity clamping behind the clamp-policy seam.
 * The clamp core aggregates the RUNNABLE tasks' group ranges per CPU
 * (clamp_track.c, kept for every policy) and this policy bounds the
 * governor by them: a CPU's range, and a runnable RT class asks for the
 * scale clamped by it (RFC patch 5). A shared domain composes its CPUs'
 * ranges by the core's rule (cap_clamp_domain_start()/_add(): a CPU with
 * nothing RUNNABLE does not count), or, with --domain-rule rfc, by RFC
 * patch 4 as posted (the calling CPU always counts, so an emptied caller
 * uncaps the domain).
 */
#include <stdlib.h>

#include <linux/sched.h>

#include "clamp_policy.h"
#include "rfc_domain.h"
#include "sim.h"

static const struct cap_clamp_cpu *core_cpu(struct sim *s,
					    const struct sim_cpu *c)
{
	return &s->host.cpus[c->id].cc;
}

static void rfc_cpu_clamp(struct sim *s, struct sim_cpu *c,
			  struct sugov_cpu_input *in, unsigned long scale)
{
	struct cap_clamp_range r;

	(void)scale;
	cap_clamp_cpu_range(core_cpu(s, c), &r);
	in->clamp.min = r.min;
	in->clamp.max = r.max;
	/* RFC patch 5: RT asks for the scale, clamped by its CPU's range */
	in->rt_floor = cap_clamp_rt_util(core_cpu(s, c));
}

static bool rfc_domain_range(struct sim *s, struct sim_domain *d, int caller,
			     struct sugov_range *out)
{
	const struct pdomain *pd = d->pd;
	const struct cap_clamp_cpu *small[64], **cpus = small;
	bool small_idle[64], *idle = small_idle;
	int j, me = 0;

	if (pd->ncpus > 64) {
		cpus = xcalloc((size_t)pd->ncpus, sizeof(*cpus));
		idle = xcalloc((size_t)pd->ncpus, sizeof(*idle));
	}
	for (j = 0; j < pd->ncpus; j++) {
		struct sim_cpu *x = &s->cpus[pd->cpus[j]];

		cpus[j] = core_cpu(s, x);
		idle[j] = cpu_idle(x);
		if (x->id == caller)
			me = j;
	}
	rfc_domain_compose(cpus, idle, pd->ncpus, me, s->o.domain_rule, out);
	if (cpus != small) {
		free(cpus);
		free(idle);
	}
	return true;
}

const struct clamp_policy_ops clamp_policy_rfc = {
	.enqueue = clamp_track_enqueue,
	.dequeue = clamp_track_dequeue,
	.move = clamp_track_move,
	.group_set = clamp_track_group_set,
	.group_apply = clamp_track_group_apply,
	.cpu_clamp = rfc_cpu_clamp,
	.domain_range = rfc_domain_range,
};
