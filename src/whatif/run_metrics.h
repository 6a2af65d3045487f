/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The figures of one run, as compare and sweep report them: summary.json
 * (energy, wake-up latency, misses, domains) joined with what a pass over
 * its trace adds (response time, CPU residency per task, time within the
 * clamp band). A bare trace (a kernel's) gives what the trace alone says.
 */
#ifndef CAPSIM_RUN_METRICS_H
#define CAPSIM_RUN_METRICS_H

#include <jansson.h>
#include <stdbool.h>

#include "trace_scan.h"

struct task_metrics {
	int pid;
	char *name;		/* a kernel trace's: COMM-PID, its last comm */
	char *group;
	char **comms;		/* every comm the pid had (--tasks) */
	int ncomms;
	long activations;	/* -1 unknown (no summary) */
	long misses;		/* -1: no timer (null in the summary) */
	double wlat_us[3];	/* p50, p95, p99; NAN without samples */
	double resp_us[3];
	long nresp;
	double run_s;
	double *cpu_pct;	/* share of its running time per CPU: read it
				 * through task_cpu_pct() */
	int ncpu_pct;		/* entries in cpu_pct (the CPUs after the
				 * last it ran on are left out) */
	double in_band_pct;	/* NAN when its group is never clamped */
};

struct dom_metrics {
	int id;
	char *name;		/* the platform's name for it, or NULL */
	char cpus[64];
	double avg_mhz;
	double energy_mj;	/* NAN without a summary */
	int nopps;
	unsigned int *khz;
	double *res_pct;	/* residency share per OPP */
	double unknown_pct;	/* ... before its first frequency event */
};

/* A chain of the workload (summary.json's "chains", capsim.chains) */
struct chain_metrics {
	char *name;
	long periods, late, dropped;	/* -1 where the summary has none */
	long lost;			/* lost_resumes; -1: an older summary */
	double period_us, deadline_us;
	double jank_pct;		/* NAN where the summary has none */
	double lat_us[3];		/* p50, p95, p99; NAN without samples */
	bool inferred;			/* from resume/suspend, not named */
};

struct run_metrics {
	char *workload;
	char *platform;
	char *policy;
	char *trace_path;
	char *summary_path;	/* the summary.json read, NULL: none */
	/* the CPU ranges the band follows: uclamp's under policy uclamp,
	 * the RFC's under the others, a bare trace's first (struct scan) */
	enum scan_band band;
	double sim_s;
	double energy_mj;	/* NAN without a summary */
	bool has_summary;
	int ncpus;
	int ntasks;
	struct task_metrics *tasks;
	int ndoms;
	struct dom_metrics *doms;
	int nchains;			/* 0 without capsim.chains */
	struct chain_metrics *chains;
};

struct metrics_opts {
	const char *platform;	/* override: NAME or FILE */
	struct scan_hooks hooks;
	bool kernel_all_tasks;	/* keep every task of a bare trace */
	bool sched_only;	/* see struct scan: the domains' figures then
				 * come from the summary alone */
	bool summary_first;	/* a summary with the response times
				 * (response_us) is enough: no trace pass,
				 * so no in-band figure (NAN); a summary
				 * without them (an older capsim's run) is
				 * joined with the scan as before */
	const char *base_dir;	/* a summary's relative workload path is
				 * relative to this (a sweep's directory) */
};

/*
 * @path: a run's directory (summary.json + trace.txt) or a trace file.
 * Returns 0, or with the reason printed SCAN_BAD_INPUT (the trace is no
 * usable trace: bad input) or -1.
 */
int run_metrics_load(struct run_metrics *m, const char *path,
		     const struct metrics_opts *o);
/*
 * The figures of a parsed summary.json alone (no trace pass: no in-band
 * figure); @sum as sweep_summary_check() accepts it (missing fields are
 * NAN or "?", never read out of range).
 */
void run_metrics_from_summary(struct run_metrics *m, json_t *sum);
void run_metrics_free(struct run_metrics *m);

/* Task @t's share (%) of its running time on @cpu; 0 where it never ran */
double task_cpu_pct(const struct task_metrics *t, int cpu);

/* The chain named @name, or NULL (a run without it: failed, or of an
 * edited workload) */
const struct chain_metrics *run_metrics_chain(const struct run_metrics *m,
					      const char *name);

/* The task with the most activations (the interactive one, usually) */
int run_metrics_main_task(const struct run_metrics *m);

#endif
