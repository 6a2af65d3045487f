/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedutil as pure functions of their inputs: no clock but the @now
 * passed in, no simulator types, so a logged decision can be recomputed
 * (the cross-check) and both faces can share one rule.
 *
 * sugov_next_perf() - the performance level a domain asks for, from each
 *   CPU's signals and the clamp policy's values (6.12:
 *   effective_cpu_util() + sugov_effective_cpu_perf() per CPU, the MAX
 *   over the domain's CPUs):
 *     per CPU: min = max(bw_dl, clamp min, rt_floor if RT runnable),
 *              max = min(scale, clamp max),
 *              perf = max(min, min(util * 1.25, max)).
 *   A policy that clamps the domain as a whole (the RFC: the MAX of the
 *   mins and of the maxes of its CPUs, composed by the core) gives one
 *   domain range instead: perf = min(scale, max(floor, clamp(util *
 *   1.25, range))), util and floor the MAX over the CPUs.
 *   order 4.10 (the RFC on 4.10's get_next_freq(), a what-if): the range
 *   first, then the headroom, and DL treated as RT (4.10's RT_DL flag).
 *   Every one of these is sugov_effective_cpu_perf() of its inputs
 *   (struct sugov_perf_in: actual, min, max): per CPU those of
 *   sugov_effective_cpu_util(), for the RFC's domain those of
 *   sugov_domain_perf_in(); placement (eas_cpu_perf()) and the energy
 *   model (em_cpu_perf_in()) call the same two.
 *
 * sugov_should_update() / sugov_update() - one policy's state across
 *   decisions: the rate limit (sugov_should_update_freq()), the frequency
 *   (get_next_freq(): freq = max_freq * perf / scale, cached_raw_freq),
 *   resolution to the lowest OPP at or above it
 *   (cpufreq_driver_resolve_freq()), need_freq_update when the limits
 *   changed (ignore_dl_rate_limit(): DL bandwidth above the last min
 *   bypasses the rate limit), the hold of a single-CPU policy
 *   that has not been idle (sugov_hold_freq(): not when the CPU is
 *   capped, util_cfs + util_rt >= its clamp max < SCHED_CAPACITY_SCALE,
 *   the rule of uclamp_rq_is_capped() and of the kernel face's
 *   cap_clamp_rq_is_capped()), no change (sugov_update_next_freq()) and
 *   the transition latency.
 *
 * sugov_iowait_boost() / sugov_iowait_apply() - a CPU's I/O-wait boost:
 *   IOWAIT_BOOST_MIN (1024/8) at the first wake-up from I/O, doubled at
 *   each further one (once per decision), halved at each decision
 *   without one, dropped below the minimum or after a tick without an
 *   update; the boost is a floor under the CPU's util.
 */
#ifndef CAPSIM_SCHEDUTIL_H
#define CAPSIM_SCHEDUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "clamp_names.h"

/* A [min, max] constraint in capacity units */
struct sugov_range {
	unsigned long min, max;
};

struct sugov_cpu_input {
	unsigned long util_cfs;
	unsigned long util_rt;
	unsigned long util_dl;
	unsigned long bw_dl;	/* running DEADLINE bandwidth, capacity units */
	bool rt_runnable;
	bool dl_runnable;
	bool idle;		/* nothing runnable */
	/* the clamp policy's per-CPU values */
	struct sugov_range clamp;	/* this CPU's own range */
	unsigned long rt_floor;		/* what a runnable RT class asks */
	unsigned long idle_calls;	/* tick_nohz_get_idle_calls_cpu() */
	unsigned long boost;		/* sugov_iowait_apply()'s, capacity */
	unsigned int headroom_pm;	/* map_util_perf()'s factor, 1/1000
					   (0: the kernel's 1.25) */
};

struct sugov_input {
	enum clamp_order order;
	unsigned long scale;	/* the domain CPUs' capacity */
	unsigned int max_khz;
	int ncpus;
	const struct sugov_cpu_input *cpu;
	/* the policy clamps the domain as one: its range, else per CPU */
	bool domain_clamp;
	struct sugov_range range;
};

struct sugov_output {
	unsigned long util;	/* the aggregated utilization */
	unsigned long perf;	/* the requested performance level */
	struct sugov_range range;	/* the range applied (the domain's,
					   or the caller's per-CPU one) */
	unsigned int khz;	/* raw target, before OPP resolution */
};

/*
 * map_util_perf(): util + util/4, the 1.25 DVFS headroom; a knob
 * (capsim.dvfs_headroom) may set another factor in thousandths. 1250
 * gives the kernel's value exactly: floor(util * 5 / 4).
 */
static inline unsigned long map_util_perf(unsigned long util,
					  unsigned int headroom_pm)
{
	if (!headroom_pm)
		return util + (util >> 2);
	return util * headroom_pm / 1000;
}

/*
 * The inputs of sugov_effective_cpu_perf(), in capacity units: what
 * effective_cpu_util() returns (actual) and sets (*min, *max). Each
 * caller obtains them its way; the rule that turns them into a level is
 * one.
 */
struct sugov_perf_in {
	unsigned long actual;	/* the utilization to run */
	unsigned long min;	/* the level needed at least (DL, RT, clamp) */
	unsigned long max;	/* the level allowed at most */
	unsigned int headroom_pm;	/* the CPU's (sugov_cpu_input) */
};

/*
 * sugov_effective_cpu_perf(): the headroom (map_util_perf()) on actual,
 * no more than max, but at least min (min wins over max). The one rule of
 * the governor (sugov_next_perf()), of placement's eenv_pd_max_util()
 * (balance.c) and of the energy model's estimate (energy.c).
 */
unsigned long sugov_effective_cpu_perf(const struct sugov_perf_in *in);
/*
 * effective_cpu_util() of a CPU's numbers (no IRQ time): actual = util_cfs
 * + util_rt + util_dl at most @scale; min = the MAX of bw_dl, clamp.min
 * and, with RT runnable, rt_floor; max = clamp.max at most @scale. The
 * clamp policy speaks through clamp and rt_floor: rfc (to the governor)
 * the CPU's range and RT's clamped floor, none { 0, 1024 } and the scale,
 * uclamp the rq's clamps and no RT floor.
 */
void sugov_effective_cpu_util(const struct sugov_cpu_input *c,
			      unsigned long scale, struct sugov_perf_in *out);
/*
 * The inputs for a policy that clamps the domain as one range (@in's
 * domain_clamp), under @in's clamp order (see the top of this file).
 */
void sugov_domain_perf_in(const struct sugov_input *in,
			  struct sugov_perf_in *out);

/* The raw target frequency in kHz; @caller's range reported in @out */
unsigned int sugov_next_perf(const struct sugov_input *in, int caller,
			     struct sugov_output *out);

struct sugov_params {
	/*
	 * rate_limit_ns: sugov_should_update_freq()'s, mainline's
	 * rate_limit_us; with Android's separate limits the smaller of the
	 * two (min_rate_limit_ns). up/down_rate_limit_ns: Android's
	 * sugov_up_down_rate_limit(), a change up (down) within that time of
	 * the last one is dropped; 0 adds no limit of its own.
	 */
	uint64_t rate_limit_ns;
	uint64_t up_rate_limit_ns;
	uint64_t down_rate_limit_ns;
	bool iowait_boost_off;		/* SCHED_CPUFREQ_IOWAIT ignored */
	uint64_t tick_ns;		/* TICK_NSEC, the iowait reset */
	uint64_t transition_ns;		/* driver transition latency */
	const unsigned int *opp_khz;	/* ascending */
	int nopps;
};

struct sugov_state {
	bool ever_updated;	/* the first decision always applies */
	uint64_t last_freq_update_ns;
	unsigned int cached_raw_khz;
	int next_opp;		/* next_freq, as an OPP index */
	unsigned long saved_idle_calls;
	bool limits_changed;	/* set by ignore_dl_rate_limit() */
	bool need_freq_update;
};

/* The per-CPU governor state (struct sugov_cpu) */
#define SUGOV_IOWAIT_BOOST_MIN	(1024U / 8)

struct sugov_cpu_state {
	unsigned int iowait_boost;
	bool iowait_boost_pending;
	uint64_t last_update;
	unsigned long bw_min;	/* effective_cpu_util()'s min, last decision */
};

struct sugov_decision {
	struct sugov_output out;
	int opp;
	uint64_t apply_at_ns;	/* when the frequency takes effect */
};

/* sugov_should_update_freq(): a limits change passes, else the rate limit */
bool sugov_should_update(struct sugov_state *st,
			 const struct sugov_params *p, uint64_t now);
/* ignore_dl_rate_limit(): DL bandwidth above the CPU's last min */
void sugov_ignore_dl_rate_limit(struct sugov_state *st,
				const struct sugov_cpu_state *cs,
				unsigned long bw_dl);
/* sugov_iowait_boost(): an update of the CPU at @now, @iowait its flag */
void sugov_iowait_boost(struct sugov_cpu_state *cs,
			const struct sugov_params *p, uint64_t now,
			bool iowait);
/* sugov_iowait_apply(): the boost for this decision, in capacity units */
unsigned long sugov_iowait_apply(struct sugov_cpu_state *cs,
				 const struct sugov_params *p, uint64_t now,
				 unsigned long max_cap);
/* effective_cpu_util()'s *min of CPU @j of @in (bw_min for the next time) */
unsigned long sugov_cpu_min(const struct sugov_input *in, int j);
/*
 * A decision of @caller's update at @now; true when the policy's next
 * frequency changes (@dec filled, @st updated), false when it stays.
 */
bool sugov_update(struct sugov_state *st, const struct sugov_params *p,
		  const struct sugov_input *in, int caller, uint64_t now,
		  struct sugov_decision *dec);
int sugov_resolve_opp(const struct sugov_params *p, unsigned int khz);

#endif
