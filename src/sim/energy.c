// SPDX-License-Identifier: GPL-2.0
/*
 * Energy: the accounted busy time of a CPU at each OPP times that OPP's
 * power, plus its idle time in each idle state times that state's power
 * (mW x s = mJ). And the energy model's estimate EAS compares, as
 * 6.12's include/linux/energy_model.h computes it: em_cpu_energy() takes
 * the lowest OPP whose performance covers the most utilized CPU
 * (em_pd_get_efficient_state()) and returns that OPP's cost times the
 * domain's summed utilization, cost = power (uW) * 10 / performance
 * (em_compute_costs() in kernel/power/energy_model.c; performance is the
 * OPP's capacity). The cost divides by the OPP's own capacity, so two
 * domains of different capacity compare on one scale: cost * sum_util / 10
 * is the OPP's power times the busy fraction sum_util / performance.
 * Integrated over the run (em_sample()), it is the energy the scheduler
 * believes the run spent, beside the measured busy x power one.
 */
#include <linux/sched.h>

#include "sim.h"

double cpu_energy_mj(const struct sim *s, const struct sim_cpu *c)
{
	const struct pdomain *pd = c->dom->pd;
	double e = 0;
	int i;

	(void)s;
	for (i = 0; i < pd->nopps; i++)
		e += (double)c->busy_ns[i] * pd->opps[i].power_mw / 1e9;
	for (i = 0; i < pd->nidle; i++)
		e += (double)c->idle_ns[i] * pd->idle[i].power_mw / 1e9;
	return e;
}

/* em_compute_costs(): the platform's power is in mW, the EM's in uW */
static unsigned long em_cost(const struct opp *o)
{
	return (unsigned long)o->power_mw * 1000 * 10 / o->capacity;
}

/*
 * em_pd_get_efficient_state(): the first OPP whose performance reaches
 * @max_util, else the top. (EM_PERF_DOMAIN_SKIP_INEFFICIENCIES is not
 * modelled: schedutil here does not skip inefficient OPPs either, and in
 * the embedded platforms every OPP's cost is below the next one's.)
 */
int em_pd_efficient_state(const struct pdomain *pd, unsigned long max_util)
{
	int i;

	for (i = 0; i < pd->nopps; i++)
		if (pd->opps[i].capacity >= max_util)
			return i;
	return pd->nopps - 1;
}

/* em_cpu_energy() */
uint64_t em_cpu_energy(const struct pdomain *pd, unsigned long max_util,
		       unsigned long sum_util, unsigned long allowed_cpu_cap)
{
	if (!sum_util)
		return 0;
	if (max_util > allowed_cpu_cap)
		max_util = allowed_cpu_cap;
	return (uint64_t)em_cost(&pd->opps[em_pd_efficient_state(pd, max_util)]) *
	       sum_util;
}

void em_cpu_clamp(struct sim *s, struct sim_cpu *c, unsigned long scale,
		  struct sugov_cpu_input *in)
{
	s->clamp->cpu_clamp(s, c, in, scale);
	if (!s->clamp->uclamp_used)
		in->clamp = (struct sugov_range){ 0, SCHED_CAPACITY_SCALE };
}

void sim_cpu_util_input(const struct sim_cpu *c, unsigned long util_cfs,
			struct sugov_cpu_input *in)
{
	in->util_cfs = util_cfs;
	in->util_rt = c->rt.avg.util_avg;
	in->util_dl = c->dl.avg.util_avg;
	in->bw_dl = c->dl.running_bw;
	in->rt_runnable = c->rt.nr > 0;
	in->headroom_pm = c->dom->headroom_pm;
}

unsigned long em_cpu_perf_in(const struct sugov_cpu_input *in,
			     unsigned long scale)
{
	struct sugov_perf_in p;

	sugov_effective_cpu_util(in, scale, &p);
	return sugov_effective_cpu_perf(&p);
}

/* the EM's level of @c with no task placed (eenv_pd_max_util(), dst -1) */
static unsigned long em_cpu_perf(struct sim *s, struct sim_cpu *c,
				 unsigned long scale)
{
	struct sugov_cpu_input in = { 0 };

	em_cpu_clamp(s, c, scale, &in);
	sim_cpu_util_input(c, cpu_util_cfs_boost(c), &in);
	return em_cpu_perf_in(&in, scale);
}

/*
 * The domain's estimate now, as compute_energy() with no task:
 * eenv_pd_busy_time() (each CPU's cpu_util() + RT + DL, capped at its
 * capacity, the sum at the domain's) and eenv_pd_max_util(); in uW.
 */
static double em_pd_power_uw(struct sim *s, struct sim_domain *d)
{
	const struct pdomain *pd = d->pd;
	unsigned long scale = s->cpus[pd->cpus[0]].capacity;
	unsigned long sum = 0, max_util = 0;
	int i;

	for (i = 0; i < pd->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[pd->cpus[i]];
		unsigned long u = cpu_util(s, c), perf = em_cpu_perf(s, c, scale);

		sum += u < scale ? u : scale;
		if (perf > max_util)
			max_util = perf;
	}
	if (sum > scale * (unsigned long)pd->ncpus)
		sum = scale * (unsigned long)pd->ncpus;
	return (double)em_cpu_energy(pd, max_util, sum, scale) / 10;
}

/*
 * Integrate the estimate: the power estimated at the last sample holds
 * until this one. Sampled where the simulator already gathers a domain's
 * utilization, cpufreq_update_util() (sim_cpufreq_update_flags(): each
 * enqueue, dequeue, tick and migration of a CPU of the domain), before
 * the governor's rate limit, so the estimate follows every change of the
 * signals schedutil could see; and at the end of the run.
 */
void em_sample(struct sim *s, struct sim_domain *d)
{
	d->em_uw_ns += d->em_uw * (double)(s->now - d->em_since);
	d->em_since = s->now;
	d->em_uw = em_pd_power_uw(s, d);
}

double em_energy_mj(const struct sim_domain *d)
{
	return d->em_uw_ns / 1e12;	/* uW x ns = 1e-15 J */
}
