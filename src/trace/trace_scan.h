/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One pass over a trace (any format trace_reader.h reads) whose schedule
 * sched_state.h rebuilds (what each task was doing: running on which CPU,
 * runnable, sleeping): on top of it each domain's frequency and clamp
 * band, each CPU's utilization. It measures what the
 * summary does not carry (per-task response time, CPU residency, time
 * within its clamp band) and hands the timelines to the plots through
 * hooks.
 *
 * Definitions (docs/whatif.md):
 *  - response time: from a task's wake-up (sched_waking, else
 *    sched_wakeup) to its next switch-out in a sleeping state (S, D, X),
 *    preemptions in between included;
 *  - wake-up latency: sched_wakeup to sched_switch in;
 *  - a domain's clamp band: the MAX of the mins and the MAX of the maxes of
 *    its CPUs that are not idle (the core's nonidle rule); held while the
 *    whole domain is idle. The CPUs' ranges are the RFC's (cap_clamp_cpu)
 *    or uclamp's (lisa__uclamp_util_cfs: rq->uclamp[].value, what
 *    schedutil reads; its per-domain frequency, the MAX over the CPUs of
 *    each one's clamped util, lies within the same MAX of mins and MAX
 *    of maxes), as scan.band says;
 *  - in band: a task's running time at a frequency within the OPPs its
 *    group's capacity_min/max allow (the lowest OPP at or above
 *    fmax * clamp / capacity, as schedutil resolves it).
 */
#ifndef CAPSIM_TRACE_SCAN_H
#define CAPSIM_TRACE_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "sched_state.h"
#include "trace_reader.h"
#include "domain_infer.h"
#include "freq_residency.h"
#include "platform.h"
#include "util.h"

/* The most CPUs a trace may name without a platform (a platform bounds
 * them to its own count) */
#define SCAN_CPU_MAX SCHED_CPU_MAX
/* The most distinct frequencies one domain may show: a real OPP table
 * holds a few dozen */
#define SCAN_OPP_MAX 256

/* A lane's states: the schedule's own */
enum lane_state {
	LANE_SLEEPING = SCHED_SLEEPING,
	LANE_RUNNABLE = SCHED_RUNNABLE,
	LANE_RUNNING = SCHED_RUNNING,
	LANE_DEAD = SCHED_DEAD,
};

/* Which CPU range the band and the util hook's cmin/cmax follow */
enum scan_band {
	SCAN_BAND_RFC,		/* cap_clamp_cpu: the RFC's range */
	SCAN_BAND_UCLAMP,	/* lisa__uclamp_util_cfs: uclamp's rq clamps */
	SCAN_BAND_AUTO,		/* whichever of the two the trace shows
				 * first (a bare trace: no summary names
				 * the policy) */
};

/* A group's clamp over time, for the in-band measure */
struct scan_group_write {
	uint64_t at_ns;		/* from the run's start: the trace's first event */
	char *group;
	int attr;		/* 0 min, 1 max */
	unsigned int value;
};

struct scan_group {
	char *path;
	unsigned int min, max;
};

/* A task: its schedule (pid, comms - --tasks matches any of them -,
 * state) in st, and what the analysis measures of it */
struct scan_task {
	struct sched_task st;	/* first: the schedule's task */
	char *name;		/* the summary's name when known, else comm */
	char *group;		/* the summary's group, or NULL */
	bool resp_open;
	uint64_t resp_start;
	bool wlat_open;
	uint64_t woken;
	struct samples resp;	/* ns */
	struct samples wlat;	/* ns */
	/* running time per CPU it ran on, by CPU: a task's share of the
	 * CPUs it ran on, not of every CPU the trace names (100 000 tasks
	 * times 4 096 CPUs is 3.2 GB) */
	struct scan_cpu_time {
		int cpu;
		uint64_t ns;
	} *cpu_time;
	int ncpu_time;
	uint64_t run_ns;
	uint64_t clamped_ns;	/* running time while its group is clamped */
	uint64_t in_band_ns;	/* ... at a frequency the band allows */
	int gidx;		/* index in scan.groups, or -1 */
};

struct scan_hooks {
	void *arg;
	/* a task's lane segment [t0, t1): state and, running, the CPU */
	void (*segment)(void *arg, const struct scan_task *t, uint64_t t0,
			uint64_t t1, int state, int cpu);
	/* a domain's frequency and clamp band (as the OPPs it allows, kHz)
	 * from @t on */
	void (*domain)(void *arg, int dom, uint64_t t, unsigned int khz,
		       unsigned int band_min_khz, unsigned int band_max_khz,
		       bool has_band);
	/* a CPU's utilization sample (capsim_util) and its own range */
	void (*util)(void *arg, int cpu, uint64_t t, unsigned int util,
		     unsigned int cmin, unsigned int cmax);
};

struct scan_domain {
	int ncpus;
	int *cpus;
	int nopps;
	unsigned int *khz;	/* ascending */
	unsigned int capacity;	/* of each of its CPUs at the top OPP */
	/* state */
	unsigned int cur_khz;
	int cur_opp;		/* cur_khz's index in khz */
	unsigned int band_min, band_max;
	bool has_band;
	bool dirty;
	/* the trace at each OPP, and unknown: from the trace's start to the
	 * domain's first frequency event (cpu_frequency, or devlib's
	 * marker), no OPP assumed for it (freq_residency.h) */
	struct freq_residency res;
	uint64_t known_from;
	uint64_t last;
};

struct scan {
	/* inputs */
	const struct platform *pl;	/* NULL: the domains of @guess, or
					 * one per CPU */
	const struct domain_guess *guess;	/* without a platform: the
						 * CPUs' domains (NULL:
						 * each CPU its own) */
	bool order_410;			/* clamp then headroom */
	enum scan_band band;		/* the ranges the band is made of */
	struct scan_group *groups;
	int ngroups;
	struct scan_group_write *writes;	/* sorted by time */
	int nwrites;
	struct scan_hooks hooks;
	uint64_t end_ns;		/* the run's end if later than the last
					 * event (a simulated run's duration) */
	bool sched_only;		/* read only the sched_* lines: tasks'
					 * response, latency, CPU residency;
					 * no frequency, band or util (a
					 * sweep's collection of points whose
					 * summaries lack response_us, an
					 * older capsim's: 3x faster) */

	/* results */
	int ncpus;
	struct scan_domain *doms;
	int ndoms;
	int *cpu_dom;
	/* the schedule: its tasks (ss.tasks[i] is scan_task_at(sc, i)),
	 * CPUs, sched_switch count */
	struct sched_state ss;
	uint64_t t_first, t_last;
	long lines, events;
	long lost;			/* events the trace says it lost */
	bool has_clamp_lines, has_util_lines;
	bool has_uclamp_lines;		/* lisa__uclamp_util_cfs seen */
	enum scan_band band_used;	/* band, AUTO resolved (AUTO: the
					 * trace shows neither) */

	/* private */
	/* what advance() accounts at each event: the CPUs running a task
	 * and the domains with a frequency, not all 4 096 of a wide trace */
	int *busy, nbusy;
	int *busy_pos;			/* by CPU: its index in busy, or -1 */
	int *freq_doms, nfreq_doms;
	bool *cpu_idle;
	unsigned int *cpu_min, *cpu_max;
	int next_write;
	uint64_t now;
};

/* scan_trace's failure for an input that is no usable trace (exit 2) */
#define SCAN_BAD_INPUT (-2)

/*
 * Scan @path. @sc's inputs must be set (the rest zero). Returns 0, or
 * with a message printed: SCAN_BAD_INPUT for a path that is no trace (not
 * a regular file, unreadable, a line too long, malformed as
 * file:line:column, a pid above FTRACE_PID_MAX, a CPU beyond the platform
 * or SCAN_CPU_MAX, more than SCAN_OPP_MAX frequencies in a domain, no
 * events), -1 for a read error.
 */
int scan_trace(struct scan *sc, const char *path);
void scan_free(struct scan *sc);

/*
 * Name a task before the scan (from a summary): its full name and group,
 * whose clamp (sc->groups, set first) the in-band measure then follows
 */
void scan_add_task(struct scan *sc, int pid, const char *comm,
		   const char *name, const char *group);

/* The task with that pid, or NULL */
struct scan_task *scan_task_by_pid(const struct scan *sc, int pid);
/* Task @i of sc->ss.ntasks */
struct scan_task *scan_task_at(const struct scan *sc, int i);
/* Its running time on @cpu */
uint64_t scan_task_cpu_ns(const struct scan_task *t, int cpu);
/* The highest CPU it ran on, or -1 */
int scan_task_last_cpu(const struct scan_task *t);

/* The OPP (kHz) schedutil resolves a clamp value to, in domain @d */
unsigned int scan_clamp_khz(const struct scan *sc, const struct scan_domain *d,
			    unsigned int cap);

#endif
