/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capsim xcheck: one workload run in the guest kernel and in the
 * simulator on the same platform and policy, compared at four levels
 * (docs/xcheck.md): the clamp ops replayed through src/core, schedutil's
 * decisions recomputed by the pure governor, PELT replayed by the pure
 * signal, and the end-to-end figures. The results and their report.
 */
#ifndef CAPSIM_XCHECK_H
#define CAPSIM_XCHECK_H

#include <stdbool.h>

#include "clamp_replay.h"
#include "decision_replay.h"
#include "e2e.h"
#include "pelt_replay.h"
#include "platform.h"

struct xcheck_limits {
	double tvd;		/* level 4: residency TVD per domain */
	/* level 3 (docs/xcheck.md): uniform intervals with the logged util,
	 * at least this share, the others off by at most uniform_max;
	 * intervals with state changes inside (placed from the trace
	 * clock) off by at most changes_p99 at p99 and changes_max */
	double uniform_util_exact;
	unsigned long uniform_max, changes_p99, changes_max;
};

struct xcheck {
	/* inputs */
	const char *workload;
	const char *policy;
	const struct platform *pl;
	const char *platform_arg;	/* as given: name or file */
	char *guest_trace;	/* paths relative to the output directory */
	char *sim_trace;
	/* the names messages give: the output is built in a partial
	 * directory that is gone once the command fails, so they name the
	 * user's paths (-o as given, --guest-trace's file) */
	const char *outdir;
	char *guest_name, *sim_name;
	struct xcheck_limits lim;
	double duration_s;
	int hz;			/* the simulation's tick rate: the guest's */
	/* results */
	struct clamp_replay_result l1;
	bool l1_ran;
	struct decision_replay_result l2, l2_sim;
	struct pelt_replay_result *l3, *l3_sim;	/* large: on the heap */
	bool kthreads;		/* model the guest's other tasks */
	struct e2e_run guest, sim;
	struct e2e_run simk;	/* the simulation with them */
	bool has_simk;
	int nkthreads;
	double *tvd;		/* per domain: the gate's (with them) */
	double *tvd_plain;	/* ... without them */
	bool pass[5];		/* per level, [0] all */
	char *why;		/* the failed gates, in words */
};

/* Write DIR/xcheck.json and DIR/xcheck.md; 0 or -1 (reported) */
int xcheck_report(const struct xcheck *x, const char *dir);
/* Draw DIR/xcheck-freq.{png,svg} and xcheck-residency.{png,svg} */
int xcheck_plots(const struct xcheck *x, const char *dir, bool quiet);

int cmd_xcheck(int argc, char **argv);

#endif
