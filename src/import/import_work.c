// SPDX-License-Identifier: GPL-2.0
/*
 * Wall time on a CPU at a frequency, as work: capsim's `run` is work
 * calibrated at capacity 1024 (src/sim/sim.c takes delta x the OPP's
 * capacity from a task's work), so a trace's running time d on CPU c at
 * frequency f is d x capacity(c, f) / 1024 ns of `run`. On another OPP
 * or another CPU type the simulator stretches it again, as the device
 * would.
 *
 * capacity(c, f), on the platform given (--platform, else sym4):
 *   - f is one of c's domain's OPPs: that OPP's capacity;
 *   - another f: c's capacity x f / its top OPP's frequency (linear, as
 *     the kernel's arch_scale_freq_capacity()), at most c's capacity;
 *   - f unknown (before the CPU's first frequency event): c's capacity,
 *     the top OPP; --explain says how much of a task's time that was.
 */
#include "import.h"

unsigned int import_capacity(const struct import_model *m, int cpu,
			     unsigned int khz)
{
	const struct pcpu *c;
	const struct pdomain *d;
	unsigned long long cap;
	int i;

	if (cpu < 0 || cpu >= m->pl->ncpus)
		return 1024;
	c = &m->pl->cpus[cpu];
	d = &m->pl->domains[c->domain];
	if (!khz || !d->nopps)
		return c->capacity;
	for (i = 0; i < d->nopps; i++)
		if (d->opps[i].khz == khz)
			return d->opps[i].capacity;
	cap = (unsigned long long)c->capacity * khz /
	      d->opps[d->nopps - 1].khz;
	return cap > c->capacity ? c->capacity : (unsigned int)cap;
}
