/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xcheck level 4: the figures of one run read from its ftrace text (the
 * simulator's or the guest's: the same events), over the workload's
 * window (from the first event of a workload task, for the workload's
 * duration), so that the two runs compare on the same definitions:
 *  - each domain's frequency residency (time per OPP, from cpu_frequency,
 *    or, until one comes, the first decision's frequency; unknown before
 *    either),
 *    by src/trace/freq_residency.h's rule: shares of the window, the
 *    distance over the time both runs know;
 *  - clamp respect: busy time of a CPU (a task other than idle running on
 *    it) at a frequency above the OPP its own capacity_max allows, or
 *    below the one its capacity_min asks (cap_clamp_cpu gives the range;
 *    an OPP "allowed" is schedutil's resolution, scan_clamp_khz());
 *  - per workload task: wake-up latency (sched_wakeup to its switch-in);
 *  - energy: busy time x the platform's power at the domain's OPP;
 *  - who lifts a domain: from the clamp ops (cap_clamp_enqueue/dequeue,
 *    with comm), the time each task that is not the workload's (kernel
 *    threads) was RUNNABLE with a capacity_max above every workload
 *    task's in its domain - the RFC's MAX-of-maxes rule counts it;
 *  - why a CPU was busy above its capacity_max: each schedutil decision
 *    (capsim_sugov with its capsim_sugov_cpu lines) names the CPU whose
 *    range let the frequency through (the counted CPU - RUNNABLE and not
 *    idle, or the decision's caller - with the highest clamp_max) and
 *    the CPU whose demand set it (the highest util, or
 *    rt_floor while RT is runnable), each by its RUNNABLE task with the
 *    highest capacity_max; the busy time above a CPU's capacity_max is
 *    charged to the pair of the decision that chose the frequency, or
 *    to "unexplained", by reason (enum e2e_gap): no decision in the
 *    trace chose the frequency, the decision lacked a CPU's line, or no
 *    CPU of it had a range above the CPU's capacity_max (the RFC's rule
 *    broken, or an unlocked remote read the lines did not see). Kept
 *    for platforms of at most 64 CPUs.
 */
#ifndef CAPSIM_XCHECK_E2E_H
#define CAPSIM_XCHECK_E2E_H

#include <stdbool.h>
#include <stdint.h>

#include "freq_residency.h"
#include "platform.h"
#include "util.h"

#define E2E_MAX_DOMS 8

struct e2e_task {
	char *comm;
	long wakeups;
	struct samples wlat;	/* ns */
	uint64_t run_ns;
	uint64_t dom_run_ns[E2E_MAX_DOMS];	/* where it ran (EAS) */
};

/* a task outside the workload seen in the clamp ops */
struct e2e_other {
	char *comm;		/* ksoftirqd/1 -> kept whole */
	long enqueues;
	uint64_t runnable_ns;	/* RUNNABLE inside the window */
	uint64_t lift_ns;	/* ... while its max lifted its domain */
	uint64_t run_ns;
};

/* A task named as a cause: its comm (NULL: nothing RUNNABLE) and CPU */
struct e2e_who {
	const char *comm;	/* owned by the run's tasks/others */
	int cpu;
};

/* Busy time above a CPU's capacity_max, by the decision's causes */
struct e2e_cause {
	struct e2e_who lifter;	/* whose range let the frequency through */
	struct e2e_who demand;	/* whose utilization asked for it */
	uint64_t ns;
};

/*
 * Why busy time above a CPU's capacity_max went unexplained: what the
 * decision behind the frequency in force lacked
 */
enum e2e_gap {
	E2E_GAP_UNCHOSEN,	/* no decision in the trace chose the frequency */
	E2E_GAP_LINES,		/* a CPU's capsim_sugov_cpu line missing */
	E2E_GAP_RANGE,		/* its range did not allow the frequency */
	E2E_GAPS
};

struct e2e_run {
	uint64_t t0, t1;		/* the window, trace clock */
	uint64_t first_ts;		/* the trace's first event */
	struct freq_residency *res;	/* per domain */
	uint64_t busy_ns, above_ns, below_ns;
	double energy_mj;
	struct e2e_task *tasks;		/* the workload's, by comm */
	int ntasks;
	struct e2e_other *others;
	int nothers;
	uint64_t lifted_ns;		/* any domain, any other task */
	bool has_ops;			/* cap_clamp_enqueue lines present */
	long freq_changes;
	bool causes_kept;		/* platforms of at most 64 CPUs */
	struct e2e_cause *causes;	/* of above_ns, largest first */
	int ncauses;
	uint64_t unexplained_ns;	/* ... of above_ns, no range above */
	uint64_t gap_ns[E2E_GAPS];	/* ... of it, by what was missing */
	uint64_t gap_first[E2E_GAPS];	/* its first instant, trace clock */
};

/* What @g says, for reports: "no decision chose the frequency" ... */
const char *e2e_gap_name(enum e2e_gap g);

/*
 * Scan @trace over the window of @duration_ns starting at the first
 * event of a task named in @comms. 0, or -1 (message printed).
 */
int e2e_scan(const char *trace, const struct platform *pl,
	     char *const *comms, int ncomms, uint64_t duration_ns,
	     struct e2e_run *r);
/*
 * The same pass writing the plots' timelines to @tl (may be NULL), times
 * in s from the window's start: "f DOM T KHZ" at each frequency change,
 * "b CPU T MIN_KHZ MAX_KHZ" at each change of a CPU's range (as the
 * OPPs schedutil resolves them to); @name is the trace's name in
 * messages (the user's path for a copy). With @offset the window starts
 * *@offset ns after the trace's first event instead (level 5: a run
 * whose clock starts where the guest trace starts, its tasks named from
 * the start where the guest's were renamed later). @cut (per domain, ns
 * from the window's start; NULL: 0) is the residency's cut: the unknown
 * stretch of the run this one is compared with, read first
 * (freq_residency.h)
 */
int e2e_scan_timeline(const char *trace, const char *name,
		      const struct platform *pl, char *const *comms,
		      int ncomms, const uint64_t *offset, uint64_t duration_ns,
		      const uint64_t *cut, struct e2e_run *r, FILE *tl);
void e2e_free(struct e2e_run *r, const struct platform *pl);

/*
 * Total-variation distance of domain @d's residency between two runs over
 * the time both know (@b read with @a's unknown stretch as its cut), its
 * length in *@known_s (may be NULL); 1 when there is none
 */
double e2e_tvd(const struct e2e_run *a, const struct e2e_run *b, int d,
	       double *known_s);
/* Every domain's unknown stretch of @r (ns), the cut of the runs compared
 * with it; the caller frees it */
uint64_t *e2e_unknown_ns(const struct e2e_run *r, const struct platform *pl);
/* The task named @comm, or NULL */
struct e2e_task *e2e_task(const struct e2e_run *r, const char *comm);

#endif
