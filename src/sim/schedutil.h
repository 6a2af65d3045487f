/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedutil as a pure function: given the per-CPU inputs of one frequency
 * domain, the target frequency. No state, no clock: the caller owns the
 * rate limit and the transition (see sim.c), so a decision can be replayed
 * from logged inputs.
 *
 * 6.12 (kernel/sched/cpufreq_schedutil.c, fair.c effective_cpu_util()):
 *   util = cfs + rt + dl (<= scale);  min = dl_bw, = scale if RT runnable;
 *   perf = max(min, min(util * 1.25, max));  shared: max over the CPUs;
 *   freq = max_freq * perf / scale, resolved to the lowest OPP >= freq.
 * rfc policy, seed RFC v3 patches 4-5: the range is the CPU's
 *   cap_clamp range (single) or, shared, the compose (MAX of mins, MAX of
 *   maxes) built by the core's cap_clamp_domain_start()/_add(): the
 *   calling CPU always counts (even idle: its empty range [0, 1024] lifts
 *   the cap, as in the RFC), the others only when not idle; the nonidle
 *   domain rule (a what-if) drops an idle caller too. An RT CPU asks for
 *   the full scale clamped by its own range (cap_clamp_rt_util()) instead
 *   of forcing the top OPP.
 *   order 6.12: headroom first, then the range (a cap of 256 asks 0.25 fmax)
 *   order 4.10: the range first, then the headroom (256 asks 0.3125 fmax),
 *               and DL is treated as RT, as the 4.10 RT_DL flag did.
 */
#ifndef CAPSIM_SCHEDUTIL_H
#define CAPSIM_SCHEDUTIL_H

#include <stdbool.h>

#include <linux/sched/cap_clamp.h>

#include "policy.h"

struct sugov_cpu_input {
	unsigned long util_cfs;
	unsigned long util_rt;
	unsigned long util_dl;
	unsigned long bw_dl;	/* running DEADLINE bandwidth, capacity units */
	bool rt_runnable;
	bool dl_runnable;
	bool idle;		/* nothing runnable */
	const struct cap_clamp_cpu *clamp;	/* the core's aggregate */
};

struct sugov_input {
	enum clamp_policy policy;
	enum clamp_order order;
	bool nonidle_rule;	/* an idle caller does not count either */
	int caller;		/* index of the CPU whose update this is */
	unsigned long scale;	/* the domain CPUs' capacity */
	unsigned int max_khz;
	int ncpus;
	const struct sugov_cpu_input *cpu;
};

struct sugov_output {
	unsigned long util;	/* the aggregated utilization */
	unsigned long perf;	/* the requested performance level */
	struct cap_clamp_range range;	/* the range applied */
	unsigned int khz;	/* raw target, before OPP resolution */
};

static inline unsigned long map_util_perf(unsigned long util)
{
	return util + (util >> 2);
}

unsigned int sugov_next_freq(const struct sugov_input *in,
			     struct sugov_output *out);

#endif
