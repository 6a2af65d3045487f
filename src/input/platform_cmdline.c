// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "platform_cmdline.h"

/* "0,3-5": a sorted CPU list as a kernel cpulist */
static void put_cpulist(struct strbuf *sb, const int *cpus, int n)
{
	int i = 0;

	while (i < n) {
		int j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		sb_printf(sb, "%s%d", i ? "," : "", cpus[i]);
		if (j > i)
			sb_printf(sb, "-%d", cpus[j]);
		i = j + 1;
	}
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

enum field { F_KHZ, F_POWER, F_CAPACITY, F_LATENCY, F_RATE_LIMIT };

/* One driver parameter: a list per domain, the lists separated by ':' */
static void put_param(struct strbuf *sb, const struct platform *p,
		      const char *name, enum field f)
{
	int d, i;

	sb_printf(sb, " capsim_cpufreq.%s=", name);
	for (d = 0; d < p->ndomains; d++) {
		const struct pdomain *dom = &p->domains[d];

		if (d)
			sb_putc(sb, ':');
		switch (f) {
		case F_KHZ:
		case F_POWER:
			for (i = 0; i < dom->nopps; i++)
				sb_printf(sb, "%s%u", i ? "," : "",
					  f == F_KHZ ? dom->opps[i].khz :
					  dom->opps[i].power_mw);
			break;
		case F_CAPACITY:
			sb_printf(sb, "%u", dom->opps[dom->nopps - 1].capacity);
			break;
		case F_LATENCY:
			sb_printf(sb, "%u", dom->transition_latency_us);
			break;
		case F_RATE_LIMIT:
			sb_printf(sb, "%u", dom->rate_limit_us);
			break;
		}
	}
}

int platform_kernel_cmdline(const struct platform *p, struct strbuf *out,
			    char *err, size_t errlen)
{
	int d, i;

	if (p->ncpus > GUEST_MAX_CPUS) {
		snprintf(err, errlen, "%d CPUs: the guest kernel has at most %d (CONFIG_NR_CPUS)",
			 p->ncpus, GUEST_MAX_CPUS);
		return -1;
	}
	for (d = 0; d < p->ndomains; d++) {
		if (!p->domains[d].rate_limit_us) {
			snprintf(err, errlen, "domain %d: rate_limit_us 0 means cpufreq's default to the driver (allowed: 1 to 10000000, or leave it out)",
				 p->domains[d].id);
			return -1;
		}
		if (p->domains[d].up_rate_limit_us != p->domains[d].rate_limit_us ||
		    p->domains[d].down_rate_limit_us != p->domains[d].rate_limit_us) {
			snprintf(err, errlen, "domain %d: up_rate_limit_us and down_rate_limit_us are Android's; the guest kernel (6.12) has one rate_limit_us",
				 p->domains[d].id);
			return -1;
		}
		for (i = 0; i < p->domains[d].nopps; i++)
			if (!p->domains[d].opps[i].power_mw) {
				snprintf(err, errlen, "domain %d, OPP %u kHz: power_mw 0 cannot go into an energy model (allowed: 1 to 1000000)",
					 p->domains[d].id,
					 p->domains[d].opps[i].khz);
				return -1;
			}
	}

	sb_puts(out, "capsim_cpufreq.domains=");
	for (d = 0; d < p->ndomains; d++) {
		const struct pdomain *dom = &p->domains[d];
		int *cpus = xcalloc((size_t)dom->ncpus, sizeof(*cpus));

		for (i = 0; i < dom->ncpus; i++)
			cpus[i] = dom->cpus[i];
		qsort(cpus, (size_t)dom->ncpus, sizeof(*cpus), cmp_int);
		if (d)
			sb_putc(out, ':');
		put_cpulist(out, cpus, dom->ncpus);
		free(cpus);
	}
	put_param(out, p, "freqs", F_KHZ);
	put_param(out, p, "capacity", F_CAPACITY);
	put_param(out, p, "power", F_POWER);
	put_param(out, p, "latency_us", F_LATENCY);
	put_param(out, p, "rate_limit_us", F_RATE_LIMIT);
	return 0;
}
