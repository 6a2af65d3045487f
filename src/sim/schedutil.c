// SPDX-License-Identifier: GPL-2.0
#include <linux/sched.h>

#include "schedutil.h"

static unsigned long ulmin(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static unsigned long ulmax(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

/* Stock 6.12: effective_cpu_util() + sugov_effective_cpu_perf() per CPU */
static unsigned long perf_none(const struct sugov_input *in,
			       const struct sugov_cpu_input *c,
			       unsigned long *util)
{
	unsigned long scale = in->scale;
	unsigned long u = ulmin(scale, c->util_cfs + c->util_rt + c->util_dl);
	unsigned long lo = c->bw_dl, hi = scale;

	if (c->rt_runnable)
		lo = ulmax(lo, scale);
	*util = u;
	return ulmax(lo, ulmin(map_util_perf(u), hi));
}

unsigned int sugov_next_freq(const struct sugov_input *in,
			     struct sugov_output *out)
{
	unsigned long scale = in->scale, util = 0, floor = 0, perf = 0;
	struct cap_clamp_range r = { 0, 0 };
	int j;

	if (in->policy != POLICY_RFC) {
		for (j = 0; j < in->ncpus; j++) {
			unsigned long u, p = perf_none(in, &in->cpu[j], &u);

			perf = ulmax(perf, p);
			util = ulmax(util, u);
		}
		out->range.min = 0;
		out->range.max = (unsigned int)scale;
		goto done;
	}

	/*
	 * The domain's range: by default the core's rule (a CPU with nothing
	 * RUNNABLE never counts, not even as the caller); --domain-rule rfc
	 * replays RFC patch 4 as posted, where an emptied caller uncaps.
	 */
	if (in->nonidle_rule) {
		bool counted = cap_clamp_domain_start(&r,
						      in->cpu[in->caller].clamp);

		for (j = 0; j < in->ncpus; j++)
			if (j != in->caller)
				counted |= cap_clamp_domain_add(&r,
						in->cpu[j].clamp,
						in->cpu[j].idle);
		/* nothing RUNNABLE in the domain: no clamp, as with no tasks */
		if (!counted) {
			r.min = 0;
			r.max = (unsigned int)SCHED_CAPACITY_SCALE;
		}
	} else {
		cap_clamp_cpu_range(in->cpu[in->caller].clamp, &r);
		for (j = 0; j < in->ncpus; j++) {
			struct cap_clamp_range jr;

			if (j == in->caller || in->cpu[j].idle)
				continue;
			cap_clamp_cpu_range(in->cpu[j].clamp, &jr);
			cap_clamp_compose(&r, &jr);
		}
	}
	out->range = r;

	for (j = 0; j < in->ncpus; j++) {
		const struct sugov_cpu_input *c = &in->cpu[j];
		bool rtdl = c->rt_runnable ||
			    (in->order == CLAMP_ORDER_410 && c->dl_runnable);
		unsigned long u = ulmin(scale, c->util_cfs + c->util_rt +
					c->util_dl);

		util = ulmax(util, u);
		/* RFC patch 5: RT/DL ask for the scale, clamped by their CPU */
		if (rtdl)
			floor = ulmax(floor, ulmin(cap_clamp_rt_util(c->clamp),
						   scale));
		if (in->order == CLAMP_ORDER_612)
			floor = ulmax(floor, c->bw_dl);
	}

	if (in->order == CLAMP_ORDER_612) {
		unsigned long h = map_util_perf(util);

		h = ulmin(h, r.max);
		h = ulmax(h, r.min);
		perf = ulmin(ulmax(h, floor), scale);
	} else {
		unsigned long u = ulmax(util, floor);

		u = cap_clamp_range_util(&r, u);
		perf = map_util_perf(u);
	}
done:
	out->util = util;
	out->perf = perf;
	out->khz = (unsigned int)((unsigned long long)in->max_khz * perf / scale);
	return out->khz;
}
