// SPDX-License-Identifier: GPL-2.0
/*
 * Energy: the accounted busy time of a CPU at each OPP times that OPP's
 * power, plus its idle time in each idle state times that state's power
 * (mW x s = mJ). And the energy model's estimate EAS compares
 * (include/linux/energy_model.h em_cpu_energy(): the lowest OPP whose
 * capacity covers the most utilized CPU, cost = power * scale / capacity,
 * energy = cost * sum_util).
 */
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

uint64_t em_pd_energy(const struct pdomain *pd, unsigned long max_util,
		      unsigned long sum_util, unsigned long scale)
{
	int i;

	if (!sum_util)
		return 0;
	if (max_util > scale)
		max_util = scale;
	for (i = 0; i < pd->nopps - 1 && pd->opps[i].capacity < max_util; i++)
		;
	return (uint64_t)pd->opps[i].power_mw * scale * 1000 /
	       pd->opps[i].capacity * sum_util;
}
