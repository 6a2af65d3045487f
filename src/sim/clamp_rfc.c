// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC's capacity clamping behind the clamp-policy seam: the clamp core
 * (src/core, through its host src/clamphost) aggregates the RUNNABLE
 * tasks' group ranges per CPU, as the kernel glue does in enqueue_task()
 * and dequeue_task(); a shared domain composes its CPUs' ranges by the core's
 * rule (cap_clamp_domain_start()/_add(): a CPU with nothing RUNNABLE does
 * not count), or, with --domain-rule rfc, by RFC patch 4 as posted (the
 * calling CPU always counts, so an emptied caller uncaps the domain).
 */
#include <stdlib.h>

#include <linux/sched.h>

#include "clamp_policy.h"
#include "rfc_domain.h"
#include "sim.h"

void rfc_track_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	clamp_host_enqueue(&s->host, t->ce, (unsigned int)c->id, t->group);
}

void rfc_track_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	(void)c;
	clamp_host_dequeue(&s->host, t->ce);
}

/* sched_move_task(): dequeued and enqueued again, re-reading the group */
void rfc_track_move(struct sim *s, struct sim_task *t, struct host_group *g)
{
	clamp_host_move(&s->host, t->ce, g);
}

static int rfc_group_set(struct sim *s, struct host_group *g, int attr,
			 uint64_t value)
{
	return clamp_host_group_set(&s->host, g, attr, value);
}

static void rfc_group_apply(struct sim *s, struct host_group *g)
{
	clamp_host_group_reposition(&s->host, g);
}

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
	rfc_domain_compose(cpus, idle, pd->ncpus, me, s->o.nonidle_rule, out);
	if (cpus != small) {
		free(cpus);
		free(idle);
	}
	return true;
}

const struct clamp_policy_ops clamp_policy_rfc = {
	.name = "rfc",
	.enqueue = rfc_track_enqueue,
	.dequeue = rfc_track_dequeue,
	.move = rfc_track_move,
	.group_set = rfc_group_set,
	.group_apply = rfc_group_apply,
	.cpu_clamp = rfc_cpu_clamp,
	.domain_range = rfc_domain_range,
};

/* Stock 6.12: the range is tracked and traced, the governor ignores it */
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
	.name = "none",
	.enqueue = rfc_track_enqueue,
	.dequeue = rfc_track_dequeue,
	.move = rfc_track_move,
	.group_set = rfc_group_set,
	.group_apply = rfc_group_apply,
	.cpu_clamp = none_cpu_clamp,
};

const struct clamp_policy_ops *clamp_policy_ops(enum clamp_policy p)
{
	switch (p) {
	case POLICY_RFC: return &clamp_policy_rfc;
	case POLICY_NONE: return &clamp_policy_none;
	case POLICY_UCLAMP: return &clamp_policy_uclamp;
	default: return NULL;
	}
}
