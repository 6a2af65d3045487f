/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The import check: a workload (made by `capsim import` from a trace, or
 * any rt-app workload) run in capsim and put beside its source trace,
 * task by task, CPU by CPU and domain by domain, to say how closely the
 * workload reproduces the trace (docs/import-check.md). Both traces are
 * profiled the same way (src/trace/trace_profile.h); the run is a child
 * `capsim run`, as compare's are.
 *
 * Outputs, into an -o directory (src/outputs/outdir.h): import-check.json,
 * import-check.md, the simulated run in sim/, and with plots
 * import-check.png/.svg (source lanes above simulated lanes, one time
 * axis).
 */
#ifndef CAPSIM_IMPORT_CHECK_H
#define CAPSIM_IMPORT_CHECK_H

#include <stdbool.h>

/* The round-trip tolerances a task is flagged beyond (issue 25) */
#define IMPORT_CHECK_BUSY_TOL_PCT 5.0
#define IMPORT_CHECK_ACT_TOL_PCT 2.0

struct import_check_opts {
	const char *source_trace;	/* any format trace_reader.h reads */
	const char *workload;		/* rt-app JSON */
	const char *platform;		/* NAME or FILE; NULL: sym4 */
	const char *policy;		/* NULL: CLAMP_POLICY_DEFAULT, rfc */
	const char *outdir;		/* required */
	/* the source's window, seconds from its first event; <0: whole
	 * (from_s < 0 is 0, to_s < 0 its last event) */
	double from_s, to_s;
	const char *tasks_regex;	/* POSIX ERE on task names, or NULL */
	/* a simulated task named sim_names[i] is the source's task of comm
	 * src_comms[i] (capsim import names two pids of one comm COMM-PID,
	 * and a comm rt-app would not take with '_'); none when 0 */
	const char *const *sim_names, *const *src_comms;
	int naliases;
	/* compare only the tasks the aliases name (import --check: the
	 * tasks imported as their own, by hash, whatever their number),
	 * with tasks_regex NULL; none when naliases is 0 */
	bool tasks_by_alias;
	bool plots;
	bool quiet;
};

/* 0 ok (whether or not tasks are flagged), 1 I/O or a failed run, 2 a
 * usage error or bad input (said, naming the option or file) */
int import_check_run(const struct import_check_opts *o);

/* capsim import-check SOURCE WORKLOAD ...; exit status */
int cmd_import_check(int argc, char **argv);

#endif
