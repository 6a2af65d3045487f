/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capsim xcheck: one workload run in the guest kernel and in the
 * simulator on the same platform and policy, compared at four levels
 * (docs/xcheck.md): the clamp ops replayed through src/core, schedutil's
 * decisions recomputed by the pure governor, PELT replayed by the pure
 * signal, and the end-to-end figures; and a fifth, trace-driven: the
 * guest's own trace imported (`capsim import`) and simulated, compared
 * with the guest as level 4 compares. The results and their report.
 */
#ifndef CAPSIM_XCHECK_H
#define CAPSIM_XCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "clamp_names.h"
#include "clamp_replay.h"
#include "decision_replay.h"
#include "e2e.h"
#include "pelt_replay.h"
#include "platform.h"

/* Level 5's default gate, residency TVD per domain to the run of the
 * guest's trace imported: the largest measured under rfc and none, 0.787
 * (juno-eas, LITTLE), plus about 0.1 - it catches a broken import or
 * window, not the model's differences (docs/xcheck.md, level 5) */
#define XCHECK_TVD_TRACE 0.9

struct xcheck_limits {
	double tvd;		/* level 4: residency TVD per domain */
	double tvd_trace;	/* level 5: the same, to the imported run */
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
	/* its traits: what each level expects of the guest and gates */
	const struct clamp_policy_info *pol;
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
	/* level 5 (trace_driven.c): the guest's trace imported and run */
	bool trace_driven;	/* asked for (--no-trace-driven: not) */
	bool has_simi;		/* it ran: simi and tvd_trace hold it */
	char *simi_why;		/* ... else why not, for the report */
	struct e2e_run simi;
	double *tvd_trace;	/* per domain, the guest to the imported run */
	bool pass[6];		/* per level, [0] all */
	char *why;		/* the failed gates, in words */
};

/* Write DIR/xcheck.json and DIR/xcheck.md; 0 or -1 (reported) */
int xcheck_report(const struct xcheck *x, const char *dir);
/* Draw DIR/xcheck-freq.{png,svg} and xcheck-residency.{png,svg} */
int xcheck_plots(const struct xcheck *x, const char *dir, bool quiet);

int cmd_xcheck(int argc, char **argv);

/* xcheck_cmd.c's steps that level 5 takes as well */
/* Run @argv to completion, logging to @log: 0, -1 (its log's tail said),
 * or 2 when the child said its input is bad */
int xcheck_run_job(char **argv, const char *log, const char *what);
/* `capsim run @wfile` into @dir/@sub, log @dir/@sub.log, as xcheck_run_job */
int xcheck_run_sim(const char *dir, const char *sub, const char *wfile,
		   const char *platform, const char *policy, int hz);
/* Level 4's figures of one trace over the window (e2e_scan_timeline(),
 * @offset as there), its timeline to @dir/plot-@side.dat: 0 or -1 (said).
 * Every run but the guest's (@r == &x->guest, scanned first) is compared
 * with the guest, so its residency is cut at the guest's unknown stretch
 * (the distance over the time both know: freq_residency.h) */
int xcheck_scan_side(const char *trace, const char *name,
		     const struct xcheck *x, char **comms, int ncomms,
		     const uint64_t *offset, uint64_t dur, struct e2e_run *r,
		     const char *dir, const char *side);
/*
 * trace_driven.c, level 5: the guest trace in @dir imported into
 * @dir/sim-imported.json, run into @dir/sim-imported/ and compared with
 * the guest's level-4 figures. Leaves has_simi false with simi_why set
 * when the import or its run fails (said; not a gate: it depends on the
 * importer's rules, not the model); -1 only when the scan of a run that
 * ran fails.
 */
int xcheck_trace_driven(struct xcheck *x, const char *dir, char **comms,
			int ncomms, uint64_t dur);

#endif
