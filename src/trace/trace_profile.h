/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's profile over a time window, the figures a workload that
 * reproduces the trace must match (`capsim import --check` puts two of
 * them side by side): per task its busy time, activations and response
 * times; per CPU its busy time; per frequency domain the time at each
 * OPP and the time its frequency is unknown. It reads the schedule from
 * sched_state.h (any format trace_reader.h reads) and keeps nothing per
 * event but the response-time samples (one per activation).
 *
 * Rules (docs/import-check.md):
 *  - the window is [from, to) in seconds from the origin (the trace's
 *    first event, or a given timestamp); every interval is clipped to it;
 *  - an activation is a sched_wakeup or sched_wakeup_new of the task in
 *    the window; a trace with none counts its sched_waking instead;
 *  - a response is trace_scan.h's: from the task's wake-up (sched_waking,
 *    else sched_wakeup) to its next switch-out in a sleeping state, kept
 *    when the wake-up falls in the window;
 *  - a domain's frequency is the last frequency event of any of its CPUs;
 *    before the domain's first one it is unknown (docs/traces.md): its
 *    own figure, not an OPP. A frequency not in the domain's OPP table is
 *    bad input, as in `capsim plot --platform`.
 */
#ifndef CAPSIM_TRACE_PROFILE_H
#define CAPSIM_TRACE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "freq_residency.h"
#include "platform.h"
#include "sched_state.h"
#include "util.h"

/* A task of the profile: its schedule, then what is measured of it */
struct profile_task {
	struct sched_task st;	/* first: the schedule's task */
	uint64_t busy_ns;	/* running, within the window */
	long wakeups;		/* sched_wakeup(_new) within the window */
	long wakings;		/* sched_waking within the window */
	bool resp_open;
	bool resp_counts;	/* the open response began in the window */
	uint64_t resp_start;
	struct samples resp;	/* ns, responses begun in the window */
};

struct profile_domain {
	unsigned int khz;	/* now; 0 unknown */
	uint64_t since;
	/* the window at each OPP of the platform's table and unknown, and
	 * from tvd_from_ns on (the time the other trace of a comparison
	 * also knows) the part the distance compares */
	struct freq_residency res;
};

struct trace_profile {
	/* inputs */
	const struct platform *pl;	/* CPUs, domains, OPPs: required */
	int64_t origin_ns;		/* < 0: the trace's first event */
	/* to_s < 0, or past the last event of a trace whose origin is its
	 * first event: that last event */
	double from_s, to_s;
	/* to_s holds even past the last event: a simulated run lasted that
	 * long whatever its last event (capsim's run starts at its trace's
	 * first event, so such a run's origin is that event too) */
	bool keep_to;
	/* per domain, ns from the window's start: the residency's cut
	 * (freq_residency.h), the other trace's unknown stretch; NULL: 0 */
	const uint64_t *tvd_from_ns;
	/* each running or runnable stretch of a task in the window,
	 * seconds from the window's start (NULL: none) */
	void (*segment)(void *arg, const struct profile_task *t, double t0,
			double t1, enum sched_task_state state, int cpu);
	/* domain @dom runs at @khz from @t on (seconds from the window's
	 * start; a change before the window is at 0), within the window
	 * (NULL: none) */
	void (*domain_freq)(void *arg, int dom, double t, unsigned int khz);
	void *arg;

	/* results */
	struct sched_state ss;		/* ss.tasks[i] is trace_profile_task() */
	uint64_t win_start, win_end;	/* absolute, ns */
	uint64_t *cpu_busy_ns;		/* per platform CPU */
	struct profile_domain *doms;	/* per platform domain */
	long total_wakeups, total_wakings;
};

/* trace_profile_read's result for bad input (reported, exit 2) */
#define PROFILE_BAD_INPUT (-2)

/*
 * Profile @path. @p's inputs set, the rest zero. 0, or with the reason
 * printed PROFILE_BAD_INPUT (no trace, malformed, a CPU or a frequency
 * the platform lacks, no sched_switch, a window outside the trace) or -1
 * (a read error).
 */
int trace_profile_read(struct trace_profile *p, const char *path);
void trace_profile_free(struct trace_profile *p);

struct profile_task *trace_profile_task(const struct trace_profile *p, int i);
/* The name a task is known by: the last comm its pid had */
const char *profile_task_name(const struct profile_task *t);
/* Its activations by the rule above */
long profile_task_activations(const struct trace_profile *p,
			      const struct profile_task *t);
/* The window's length in seconds */
double trace_profile_window_s(const struct trace_profile *p);

#endif
