// SPDX-License-Identifier: GPL-2.0
/*
 * capsim xcheck: run (or take) the guest's trace, run the simulator on
 * the same workload, platform and policy, compare level by level and
 * write the report. The guest side is kernel/run-workload.sh from the
 * source tree; both sides run as child processes (src/outputs/procs.c),
 * so a failed boot or run is reported with its log's tail.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli_opts.h"
#include "outdir.h"
#include "outmark.h"
#include "procs.h"
#include "safe_write.h"
#include "kthreads.h"
#include "trace_file.h"
#include "trace_reader.h"
#include "xcheck.h"

#define EXIT_USAGE 2
/* kernel/config/capsim.config leaves tinyconfig's HZ_1000 */
#define CAPSIM_GUEST_HZ 1000

static const char usage_xcheck[] =
"usage: capsim xcheck WORKLOAD.json [options]\n"
"Run WORKLOAD in the capsim guest kernel (QEMU) and in the simulator, on\n"
"the same platform and policy, and compare them at five levels: the clamp\n"
"ops replayed through the clamp core, schedutil's decisions recomputed,\n"
"PELT replayed, end to end (frequency residency, clamp respect,\n"
"wake-up latency, energy), and the same figures against the guest's own\n"
"trace imported (capsim import) and simulated. Writes DIR/xcheck.json, DIR/xcheck.md and\n"
"the plots; exits 1 when a level misses its gate (docs/xcheck.md).\n"
"  --platform NAME|FILE   platform (default sym4)\n"
"  --policy rfc|uclamp|none  clamp policy of both runs (default rfc)\n"
"  -o DIR                 output directory (default xcheck-out)\n"
"  --guest-trace FILE     take the guest's trace from FILE, no boot\n"
"  --tvd X                level 4 gate: residency TVD per domain (default 0.05)\n"
"  --tvd-trace X          level 5 gate: the same TVD to the run of the guest's\n"
"                         own trace imported (default 0.9; not gated under\n"
"                         uclamp, docs/xcheck.md)\n"
"  --no-trace-driven      skip level 5 (the guest trace imported and run)\n"
"  --hz N                 the simulation's tick rate (default: CONFIG_HZ of\n"
"                         the guest kernel's build, else 1000)\n"
"  --no-kthreads          compare with the plain simulation only, not with\n"
"                         the one that adds the guest's other tasks\n"
"                         (kernel threads) at their measured rates\n"
"  --no-plots             skip the plots\n"
"  --quiet                no progress lines\n"
"env: CAPSIM_KBUILD (the kernel build, default build/kernel of the source\n"
"tree), CAPSIM_ICOUNT, CAPSIM_TIMEOUT (passed to kernel/run-workload.sh)\n";

/*
 * Copy the guest trace @in (the user's @from, a regular file) to @to,
 * which messages call @to_name. Line by line, each at most
 * TRACE_LINE_MAX: the readers of the copy (getline) then never hold more.
 * Stops at the first write error (a full disk). 0, or the exit status:
 * 2 for a line too long, 1 for a read or write error (reported).
 */
static int copy_guest_trace(FILE *in, const char *from, const char *to,
			    const char *to_name)
{
	FILE *out = safe_fopen(to);
	struct trace_lines lines;
	char *line;
	int r, ret = 0;

	if (!out) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", to_name,
			strerror(errno));
		return 1;
	}
	trace_lines_init(&lines, in);
	while ((r = trace_lines_next(&lines, &line)) > 0)
		if (fputs(line, out) == EOF || putc('\n', out) == EOF)
			break;
	if (r < 0) {
		if (r == TRACE_FILE_BAD)
			fprintf(stderr, "%s:%ld:1: error: %s\n", from,
				lines.lineno, lines.err);
		else
			fprintf(stderr, "capsim: error reading %s: %s\n",
				from, lines.err);
		ret = r == TRACE_FILE_BAD ? 2 : 1;
		safe_fdiscard(out);
	} else {
		/* r > 0: a write failed; else the buffered rest may */
		int e = r > 0 ? errno : 0;

		if (r > 0)
			safe_fdiscard(out);
		else if (safe_fclose(out))
			e = errno;
		if (r > 0 || e) {
			fprintf(stderr, "capsim: cannot copy %s to %s: %s\n",
				from, to_name, strerror(e ? e : EIO));
			ret = 1;
		}
	}
	trace_lines_free(&lines);
	return ret;
}

/*
 * Copy the guest's trace.dat or Perfetto trace @in (the user's @from) to
 * @to, named @to_name in messages, byte for byte: the replays read it
 * through libtracecmd or protobuf-c.
 * 0, or 1 for a read or write error (said).
 */
static int copy_guest_dat(FILE *in, const char *from, const char *to,
			  const char *to_name)
{
	FILE *out = safe_fopen(to);
	char buf[1 << 16];
	size_t n;
	int e = 0;

	if (!out) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", to_name,
			strerror(errno));
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			e = errno;
			break;
		}
	if (ferror(in)) {
		fprintf(stderr, "capsim: error reading %s: %s\n", from,
			strerror(errno));
		safe_fdiscard(out);
		return 1;
	}
	if (e)
		safe_fdiscard(out);
	else if (safe_fclose(out))
		e = errno;
	if (e) {
		fprintf(stderr, "capsim: cannot copy %s to %s: %s\n", from,
			to_name, strerror(e));
		return 1;
	}
	return 0;
}

/* One child job to completion; its log's tail on failure: 0, or -1, or
 * EXIT_USAGE when the child said the input is bad */
int xcheck_run_job(char **argv, const char *log, const char *what)
{
	struct job j = { .argv = argv, .log_path = (char *)log };

	if (!procs_run(&j, 1, 1, NULL))
		return 0;
	{
		char *tail = procs_log_tail(log, 15);

		/* the log is in the partial output, removed on the way
		 * out: its tail, not its path */
		fprintf(stderr, "capsim: xcheck: %s failed (exit %d); the end of its log:\n%s%s",
			what, j.status, tail ? tail : "",
			tail && *tail && tail[strlen(tail) - 1] != '\n' ?
			"\n" : "");
		free(tail);
	}
	return j.status == EXIT_USAGE ? EXIT_USAGE : -1;
}

/* The workload's task comms and run length, from the simulator's summary */
static int read_summary(const char *path, const char *name, char ***comms,
			int *n, double *dur)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err), *tasks, *t;
	size_t i;

	if (!root) {
		fprintf(stderr, "capsim: %s:%d:%d: %s\n", name, err.line,
			err.column, err.text);
		return -1;
	}
	tasks = json_object_get(root, "tasks");
	*dur = json_number_value(json_object_get(root, "simulated_s"));
	*n = 0;
	*comms = xcalloc(json_array_size(tasks) + 1, sizeof(char *));
	json_array_foreach(tasks, i, t) {
		const char *c = json_string_value(json_object_get(t, "comm"));

		if (c)
			(*comms)[(*n)++] = xstrdup(c);
	}
	json_decref(root);
	if (!*n || *dur <= 0) {
		fprintf(stderr, "capsim: %s: no tasks or no duration\n", name);
		return -1;
	}
	return 0;
}

static char *src_path(const char *rel)
{
	const char *top = getenv("CAPSIM_SRCDIR");

	return xasprintf("%s/%s", top && *top ? top : CAPSIM_SRCDIR, rel);
}

/* @rel in the guest kernel's build: $CAPSIM_KBUILD, else build/kernel */
static char *kbuild_path(const char *rel)
{
	const char *kb = getenv("CAPSIM_KBUILD");
	char *top, *p;

	if (kb && *kb)
		return xasprintf("%s/%s", kb, rel);
	top = src_path("build/kernel");
	p = xasprintf("%s/%s", top, rel);
	free(top);
	return p;
}

/* kernel/build.sh when the guest kernel is not built yet */
static int build_guest(const char *dir, bool quiet)
{
	char *bz = kbuild_path("obj/arch/x86/boot/bzImage");
	char *script = src_path("kernel/build.sh");
	char *log = xasprintf("%s/kernel-build.log", dir);
	char *argv[] = { (char *)"/bin/bash", script, NULL };
	int ret = 0;

	if (access(bz, R_OK)) {
		if (!quiet)
			fprintf(stderr, "capsim: xcheck: building the guest kernel (kernel/build.sh, minutes), log %s\n",
				log);
		ret = xcheck_run_job(argv, log, "the guest kernel build");
	}
	free(bz);
	free(script);
	free(log);
	return ret;
}

/* The guest side: kernel/run-workload.sh into @dir/guest */
static int run_guest(const char *dir, const char *wfile, const char *platform,
		     const char *policy, bool quiet)
{
	char *script, *gdir, *log, *cmdline;
	int ret;

	if (build_guest(dir, quiet))
		return -1;
	script = src_path("kernel/run-workload.sh");
	gdir = xasprintf("%s/guest", dir);
	log = xasprintf("%s/guest.log", dir);
	cmdline = xasprintf("capsim.policy=%s", policy);
	setenv("CAPSIM_PLATFORM", platform, 1);
	setenv("CAPSIM_EVENTS", "xcheck", 1);
	setenv("CAPSIM_CMDLINE", cmdline, 1);
	if (!quiet)
		fprintf(stderr, "capsim: xcheck: booting the guest (%s, %s), log %s\n",
			platform, policy, log);
	{
		char *argv[] = { (char *)"/bin/bash", script, gdir,
				 (char *)wfile, NULL };

		ret = xcheck_run_job(argv, log, "the guest run");
	}
	free(script);
	free(gdir);
	free(log);
	free(cmdline);
	return ret;
}

/*
 * The guest kernel's tick rate (CONFIG_HZ of its build), which the
 * simulated run takes: the tick is one of schedutil's update points
 */
static int guest_hz(void)
{
	char *cfg = kbuild_path("obj/.config");
	FILE *f = fopen(cfg, "r");
	char line[256];
	int hz = CAPSIM_GUEST_HZ;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CONFIG_HZ=%d", &hz) == 1)
			break;
	if (f)
		fclose(f);
	free(cfg);
	return hz;
}

int xcheck_run_sim(const char *dir, const char *sub, const char *wfile,
		   const char *platform, const char *policy, int hz)
{
	char *self = procs_self_exe();
	char *sdir = xasprintf("%s/%s", dir, sub);
	char *log = xasprintf("%s/%s.log", dir, sub);
	char *wpath = child_path_arg(wfile);
	char hzs[16];
	char *argv[] = { self, (char *)"run", wpath,
			 (char *)"--platform", (char *)platform,
			 (char *)"--policy", (char *)policy,
			 (char *)"--hz", hzs,
			 (char *)"--trace-signals", (char *)"--quiet",
			 (char *)"-o", sdir, NULL };
	int ret;

	snprintf(hzs, sizeof(hzs), "%d", hz);
	ret = xcheck_run_job(argv, log, "the simulator run");
	free(self);
	free(wpath);
	free(sdir);
	free(log);
	return ret;
}

static void gate(struct xcheck *x, int level, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void gate(struct xcheck *x, int level, bool ok, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (ok)
		return;
	x->pass[level] = false;
	x->pass[0] = false;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (x->why) {
		char *both = xasprintf("%s; %s", x->why, buf);

		free(x->why);
		x->why = both;
	} else {
		x->why = xstrdup(buf);
	}
}

/* Level 4's pass over one side, its timeline to DIR/plot-SIDE.dat */
int xcheck_scan_side(const char *trace, const char *name,
		     const struct xcheck *x, char **comms, int ncomms,
		     const uint64_t *offset, uint64_t dur, struct e2e_run *r,
		     const char *dir, const char *side)
{
	char *path = xasprintf("%s/plot-%s.dat", dir, side);
	FILE *tl = safe_fopen(path);
	uint64_t *cut = NULL;
	int ret;

	if (!tl) {
		fprintf(stderr, "capsim: cannot write %s/plot-%s.dat: %s\n",
			x->outdir, side, strerror(errno));
		free(path);
		return -1;
	}
	if (r != &x->guest)
		cut = e2e_unknown_ns(&x->guest, x->pl);
	ret = e2e_scan_timeline(trace, name, x->pl, comms, ncomms, offset,
				dur, cut, r, tl);
	free(cut);
	if (safe_fclose(tl)) {
		if (!ret)
			fprintf(stderr, "capsim: cannot write %s/plot-%s.dat: %s\n",
				x->outdir, side, strerror(errno));
		ret = -1;
	}
	free(path);
	return ret;
}

/*
 * Level 4's causes: a CPU busy above its capacity_max is explained by the
 * decision that chose the frequency (an uncapped task RUNNABLE in the
 * domain, or a domain with none RUNNABLE). Allowed unexplained: 1 % of
 * that time or 1 ms, for the unlocked remote reads level 2 also allows
 * (0 in every kept guest trace since decisions count their caller field).
 * Not gated where the causes are not kept (platforms above 64 CPUs).
 */
static void cause_gate(struct xcheck *x, const struct e2e_run *r,
		       const char *side)
{
	uint64_t allowed = r->above_ns / 100;
	int g, most = 0;

	if (!r->causes_kept)
		return;
	if (allowed < 1000000)
		allowed = 1000000;
	for (g = 1; g < E2E_GAPS; g++)
		if (r->gap_ns[g] > r->gap_ns[most])
			most = g;
	gate(x, 4, r->unexplained_ns <= allowed,
	     "level 4: %s: %.4f s busy above a CPU's capacity_max that no range of its decision allowed (of %.3f s above; most: %s, %.4f s from %.6f s)",
	     side, (double)r->unexplained_ns / 1e9,
	     (double)r->above_ns / 1e9, e2e_gap_name(most),
	     (double)r->gap_ns[most] / 1e9,
	     (double)r->gap_first[most] / 1e9);
}

static void l3_gate(struct xcheck *x, const struct pelt_replay_result *r,
		    const char *side)
{
	const struct pelt_replay_stats *a = &r->cls[PELT_REPLAY_UNIFORM];
	const struct pelt_replay_stats *b = &r->cls[PELT_REPLAY_CHANGES];

	gate(x, 3, a->n > 0, "level 3: no PELT events in the %s trace", side);
	gate(x, 3, !a->n || (double)a->util_exact >=
			     x->lim.uniform_util_exact * (double)a->n,
	     "level 3: %s: %lu of %lu uniform intervals with the logged util",
	     side, a->util_exact, a->n);
	gate(x, 3, a->max_util_diff <= x->lim.uniform_max,
	     "level 3: %s: a uniform interval's util off by %lu", side,
	     a->max_util_diff);
	gate(x, 3, b->p99_util_diff <= x->lim.changes_p99 &&
		   b->max_util_diff <= x->lim.changes_max,
	     "level 3: %s: intervals with changes off by %lu at p99, %lu at most",
	     side, b->p99_util_diff, b->max_util_diff);
}

/*
 * Level 3 on both traces: the guest's (6.12's delayed dequeue searched,
 * the tick's times unknown) and the simulator's (its ticks known)
 */
static int level3(struct xcheck *x, const char *g, const char *s)
{
	struct pelt_replay_opts og = {
		.platform = x->pl, .split_search = true,
		.delay_dequeue = true,
	};
	struct pelt_replay_opts os = {
		.platform = x->pl, .split_search = true,
		.tick_ns = 1000000000ULL / (uint64_t)x->hz,
	};

	x->l3 = xcalloc(1, sizeof(*x->l3));
	x->l3_sim = xcalloc(1, sizeof(*x->l3_sim));
	if (pelt_replay_named(g, x->guest_name, &og, x->l3) ||
	    pelt_replay_named(s, x->sim_name, &os, x->l3_sim))
		return -1;
	l3_gate(x, x->l3, "guest");
	l3_gate(x, x->l3_sim, "simulator");
	return 0;
}

/* The levels on the two traces in @dir; level 5 adds a run of its own,
 * the guest trace imported */
static int compare(struct xcheck *x, const char *dir, char **comms,
		   int ncomms)
{
	char *g = xasprintf("%s/%s", dir, x->guest_trace);
	char *s = xasprintf("%s/%s", dir, x->sim_trace);
	struct decision_replay_opts dro = {
		.pl = x->pl, .domain_clamp = x->pol->capacity_range,
	};
	uint64_t dur = (uint64_t)(x->duration_s * 1e9);
	struct kthreads kt = { 0 };
	int ret = -1;

	for (int i = 0; i < 6; i++)
		x->pass[i] = true;
	/* level 1: the guest's clamp ops through src/core */
	if (clamp_replay_named(g, x->guest_name, stderr, &x->l1))
		goto out;
	x->l1_ran = true;
	/*
	 * Only rfc writes cpu.capacity_* (the policy bounded by the RFC's
	 * range): under uclamp and none the kernel's static key keeps the
	 * hooks off, and a trace without clamp ops is the expected one
	 * (older kernels traced them all the same).
	 */
	gate(x, 1, x->l1.ops > 0 || !x->pol->capacity_range,
	     "level 1: no clamp ops in the guest trace");
	/*
	 * Tracing starts while CPUs have tasks: each CPU's ops before it
	 * first empties cannot be checked (reported, not a failure); every
	 * CPU must resync and every range compared after must match.
	 */
	gate(x, 1, !x->l1.mismatches && x->l1.matched == x->l1.compared,
	     "level 1: %ld of %ld compared ranges differ",
	     x->l1.compared - x->l1.matched, x->l1.compared);
	gate(x, 1, !x->l1.unsynced_end,
	     "level 1: %ld CPUs never resynced after a gap",
	     x->l1.unsynced_end);
	gate(x, 1, x->l1.writes_matched == x->l1.writes,
	     "level 1: %ld of %ld group writes differ from the core's",
	     x->l1.writes - x->l1.writes_matched, x->l1.writes);
	/* level 2: both traces' decisions recomputed */
	if (decision_replay_named(g, x->guest_name, &dro, stderr, &x->l2) ||
	    decision_replay_named(s, x->sim_name, &dro, stderr, &x->l2_sim))
		goto out;
	gate(x, 2, x->l2.recomputed > 0,
	     "level 2: no decision events in the guest trace");
	/* a remote read race is the trace's, not the governor's: counted,
	 * reported, allowed up to 1 in 1000 */
	gate(x, 2, x->l2.matched + x->l2.remote_race == x->l2.recomputed,
	     "level 2: %ld of %ld guest decisions differ",
	     x->l2.recomputed - x->l2.matched - x->l2.remote_race,
	     x->l2.recomputed);
	gate(x, 2, x->l2.remote_race * 1000 <= x->l2.recomputed,
	     "level 2: %ld of %ld guest decisions read a remote CPU that moved",
	     x->l2.remote_race, x->l2.recomputed);
	gate(x, 2, x->l2_sim.matched == x->l2_sim.recomputed,
	     "level 2: %ld of %ld simulated decisions differ",
	     x->l2_sim.recomputed - x->l2_sim.matched, x->l2_sim.recomputed);
	/* level 3: PELT replayed from the logged sums, both traces */
	if (level3(x, g, s))
		goto out;
	/* level 4: the same figures from both traces */
	if (xcheck_scan_side(g, x->guest_name, x, comms, ncomms, NULL, dur,
			     &x->guest, dir, "guest") ||
	    xcheck_scan_side(s, x->sim_name, x, comms, ncomms, NULL, dur,
			     &x->sim, dir, "sim"))
		goto out;
	/* the guest's other tasks (kernel threads) modelled from its
	 * schedule, then compared */
	if (x->kthreads && kthreads_scan(g, x->guest_name, x->pl, comms,
					 ncomms, x->guest.t0, x->guest.t1,
					 &kt))
		goto out;
	if (kt.n) {
		char *w = xasprintf("%s/sim-kthreads.json", dir);
		char *wn = xasprintf("%s/sim-kthreads.json", x->outdir);
		char *t = xasprintf("%s/sim-kthreads/trace.txt", dir);
		char *tn = xasprintf("%s/sim-kthreads/trace.txt", x->outdir);

		x->nkthreads = kthreads_workload(x->workload, &kt,
						 x->duration_s, x->pl->ncpus,
						 w, wn);
		if (x->nkthreads < 0 ||
		    xcheck_run_sim(dir, "sim-kthreads", w, x->platform_arg,
				   x->policy, x->hz) ||
		    xcheck_scan_side(t, tn, x, comms, ncomms, NULL, dur,
				     &x->simk, dir, "simk")) {
			free(w);
			free(wn);
			free(t);
			free(tn);
			goto out;
		}
		x->has_simk = true;
		free(w);
		free(wn);
		free(t);
		free(tn);
	}
	x->tvd = xcalloc((size_t)x->pl->ndomains, sizeof(double));
	x->tvd_plain = xcalloc((size_t)x->pl->ndomains, sizeof(double));
	for (int d = 0; d < x->pl->ndomains; d++) {
		x->tvd_plain[d] = e2e_tvd(&x->guest, &x->sim, d, NULL);
		x->tvd[d] = x->has_simk ?
			    e2e_tvd(&x->guest, &x->simk, d, NULL) :
			    x->tvd_plain[d];
		gate(x, 4, x->tvd[d] <= x->lim.tvd,
		     "level 4: domain %d residency TVD %.3f above %.3f", d,
		     x->tvd[d], x->lim.tvd);
	}
	/* the RFC's rule in each run: causes, where residency varies */
	if (x->pol->capacity_range) {
		cause_gate(x, &x->guest, "guest");
		cause_gate(x, &x->sim, "simulator");
		if (x->has_simk)
			cause_gate(x, &x->simk, "simulator + other tasks");
	}
	/* level 5: the guest's own trace imported and run; its own gate,
	 * none of the levels above depends on it. Not gated under uclamp:
	 * the guest trace shows no uclamp value, so the imported tasks run
	 * unclamped (docs/xcheck.md, level 5) */
	if (x->trace_driven) {
		if (xcheck_trace_driven(x, dir, comms, ncomms, dur))
			goto out;
		for (int d = 0; x->has_simi && !x->pol->uclamp_values &&
		     d < x->pl->ndomains; d++)
			gate(x, 5, x->tvd_trace[d] <= x->lim.tvd_trace,
			     "level 5: domain %d residency TVD %.3f to the imported run above %.3f",
			     d, x->tvd_trace[d], x->lim.tvd_trace);
	}
	ret = 0;
out:
	kthreads_free(&kt);
	free(g);
	free(s);
	return ret;
}

enum {
	OPT_PLATFORM = 256, OPT_POLICY, OPT_GUEST_TRACE, OPT_TVD, OPT_HZ,
	OPT_NO_KTHREADS, OPT_NO_PLOTS, OPT_QUIET, OPT_TVD_TRACE,
	OPT_NO_TRACE_DRIVEN,
};

static const struct option xcheck_options[] = {
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "guest-trace", required_argument, NULL, OPT_GUEST_TRACE },
	{ "tvd", required_argument, NULL, OPT_TVD },
	{ "tvd-trace", required_argument, NULL, OPT_TVD_TRACE },
	{ "no-trace-driven", no_argument, NULL, OPT_NO_TRACE_DRIVEN },
	{ "hz", required_argument, NULL, OPT_HZ },
	{ "no-kthreads", no_argument, NULL, OPT_NO_KTHREADS },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ 0 },
};

static const struct cli_cmd xcheck_cli = {
	.prog = "capsim", .name = "xcheck", .usage = usage_xcheck,
	.shortopts = "o:", .longopts = xcheck_options,
};

/* What `capsim xcheck` was asked, beyond what struct xcheck keeps */
struct xcheck_args {
	struct xcheck *x;
	const char *wfile, *platform, *policy, *outdir, *gtrace;
	bool plots, quiet;
};

static int xcheck_opt(void *ctx, int key, const char *arg)
{
	struct xcheck_args *xa = ctx;

	switch (key) {
	case OPT_NO_PLOTS: xa->plots = false; break;
	case OPT_QUIET: xa->quiet = true; break;
	case OPT_NO_KTHREADS: xa->x->kthreads = false; break;
	case OPT_NO_TRACE_DRIVEN: xa->x->trace_driven = false; break;
	case OPT_PLATFORM: xa->platform = arg; break;
	case OPT_POLICY: xa->policy = arg; break;
	case 'o': xa->outdir = arg; break;
	case OPT_GUEST_TRACE: xa->gtrace = arg; break;
	case OPT_HZ:
		return cli_parse_int(&xcheck_cli, "--hz", arg, 100, 1000,
				     &xa->x->hz);
	case OPT_TVD:
		return cli_parse_double(&xcheck_cli, "--tvd", arg, 0, 1,
					"a number in [0, 1]", &xa->x->lim.tvd);
	case OPT_TVD_TRACE:
		return cli_parse_double(&xcheck_cli, "--tvd-trace", arg, 0, 1,
					"a number in [0, 1]",
					&xa->x->lim.tvd_trace);
	default:
		if (xa->wfile)
			return cli_usage_error(&xcheck_cli, "xcheck takes one workload: %s",
					       arg);
		xa->wfile = arg;
	}
	return 0;
}

/* The options, and the inputs they name: CLI_CONTINUE with the guest
 * trace open in *@gin (if any), or the exit status */
static int parse_xcheck_args(int argc, char **argv, struct xcheck_args *xa,
			     FILE **gin)
{
	enum trace_file_err ferr;
	int ret = cli_parse(&xcheck_cli, argc, argv, xcheck_opt, xa, NULL);
	char names[CLAMP_NAMES_LIST_MAX];

	if (ret != CLI_CONTINUE)
		return ret;
	if (!xa->wfile)
		return cli_usage_error(&xcheck_cli, "xcheck needs a WORKLOAD.json");
	if (!clamp_policy_find(xa->policy))
		return cli_usage_error(&xcheck_cli, "unknown policy \"%s\": allowed %s",
				       xa->policy,
				       clamp_names_list(CLAMP_NAMES_POLICY,
							false, names,
							sizeof(names)));
	if (access(xa->wfile, R_OK)) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", xa->wfile,
			strerror(errno));
		return EXIT_USAGE;
	}
	/* a regular file: /dev/zero was copied until the disk was full */
	if (xa->gtrace) {
		*gin = trace_file_open(xa->gtrace, &ferr);
		if (!*gin)
			return ferr == TRACE_FILE_IO ? 1 : EXIT_USAGE;
	}
	return CLI_CONTINUE;
}

/*
 * The guest's trace, copied from --guest-trace's @gin into the temporary
 * @dir as x->guest_trace: a text (any face trace_reader.h reads) as
 * guest/trace.txt, a trace.dat as guest/trace.dat, a Perfetto protobuf as
 * guest/trace.perfetto-trace (both copied byte for byte). 0, or the exit
 * status (said).
 */
static int take_guest_trace(const struct xcheck_args *xa, struct xcheck *x,
			    FILE *gin, const char *dir)
{
	bool pf = trace_reader_is_perfetto(gin);
	bool dat = pf || trace_reader_is_dat(gin);
	char *gd = xasprintf("%s/guest", dir), *to, *to_name;
	int r;

	if (dat) {
		free(x->guest_trace);
		x->guest_trace = xstrdup(pf ? "guest/trace.perfetto-trace" :
					 "guest/trace.dat");
	}
	to = xasprintf("%s/%s", dir, x->guest_trace);
	to_name = xasprintf("%s/%s", xa->outdir, x->guest_trace);
	if (make_dirs(gd)) {
		fprintf(stderr, "capsim: cannot create %s/guest: %s\n",
			xa->outdir, strerror(errno));
		r = 1;
	} else if (dat) {
		r = copy_guest_dat(gin, xa->gtrace, to, to_name);
	} else {
		r = copy_guest_trace(gin, xa->gtrace, to, to_name);
	}
	free(gd);
	free(to);
	free(to_name);
	return r;
}

/*
 * Both sides into the temporary @dir, compared and reported: 0 (the
 * report is written, pass or fail), or the exit status (said).
 */
static int xcheck_sides(const struct xcheck_args *xa, struct xcheck *x,
			FILE *gin, const char *dir)
{
	char **comms = NULL, *p, *pn;
	int ncomms = 0, ret = 1, i;

	/* the simulator first: it checks the workload's grammar in seconds */
	if (!x->hz)
		x->hz = guest_hz();
	i = xcheck_run_sim(dir, "sim", xa->wfile, xa->platform, xa->policy,
			   x->hz);
	if (i)	/* the simulator refused the workload: bad input */
		return i == EXIT_USAGE ? EXIT_USAGE : 1;
	p = xasprintf("%s/sim/summary.json", dir);
	pn = xasprintf("%s/sim/summary.json", xa->outdir);
	if (read_summary(p, pn, &comms, &ncomms, &x->duration_s))
		goto out;
	if (xa->gtrace) {
		i = take_guest_trace(xa, x, gin, dir);
		if (i) {
			ret = i;
			goto out;
		}
	} else if (run_guest(dir, xa->wfile, xa->platform, xa->policy,
			     xa->quiet)) {
		goto out;
	}
	if (compare(x, dir, comms, ncomms)) {
		/* a saved trace that is no trace of this workload: bad input */
		if (xa->gtrace)
			ret = EXIT_USAGE;
		goto out;
	}
	if (!xcheck_report(x, dir) &&
	    !(xa->plots && xcheck_plots(x, dir, xa->quiet)))
		ret = 0;
out:
	for (i = 0; i < ncomms; i++)
		free(comms[i]);
	free(comms);
	free(p);
	free(pn);
	return ret;
}

static void xcheck_free(struct xcheck *x)
{
	free(x->guest_name);
	free(x->sim_name);
	e2e_free(&x->guest, x->pl);
	e2e_free(&x->sim, x->pl);
	e2e_free(&x->simk, x->pl);
	e2e_free(&x->simi, x->pl);
	free(x->simi_why);
	free(x->tvd_trace);
	free(x->tvd);
	free(x->tvd_plain);
	free(x->l3);
	free(x->l3_sim);
	free(x->why);
	free(x->guest_trace);
	free(x->sim_trace);
}

int cmd_xcheck(int argc, char **argv)
{
	struct xcheck x = {
		/* level 3: 22 = 1024 x (1 - y), the most one PELT period
		 * (1024 us) of running misattributed moves util; a state
		 * change placed from the trace clock may be off by two */
		.lim = { .tvd = 0.05, .tvd_trace = XCHECK_TVD_TRACE,
			 .uniform_util_exact = 0.99,
			 .uniform_max = 22, .changes_p99 = 16,
			 .changes_max = 44 },
		.kthreads = true,
		.trace_driven = true,
	};
	struct xcheck_args xa = {
		.x = &x, .platform = "sym4",
		.policy = clamp_policy_name(CLAMP_POLICY_DEFAULT),
		.outdir = "xcheck-out", .plots = true,
	};
	struct outdir od = { 0 };
	struct diag dg = { 0 };
	struct platform *pl = NULL;
	FILE *gin = NULL;
	int ret = parse_xcheck_args(argc, argv, &xa, &gin);

	if (ret != CLI_CONTINUE)
		return ret;
	diag_init(&dg, false);
	pl = platform_load(xa.platform, &dg);
	diag_free(&dg);
	ret = EXIT_USAGE;
	if (!pl)
		goto out;
	x.outdir = xa.outdir;
	x.guest_name = xa.gtrace ? xstrdup(xa.gtrace) :
		       xasprintf("%s/guest/trace.txt", xa.outdir);
	x.sim_name = xasprintf("%s/sim/trace.txt", xa.outdir);
	x.workload = xa.wfile;
	x.policy = xa.policy;
	x.pol = clamp_policy_find(xa.policy);
	x.pl = pl;
	x.platform_arg = xa.platform;
	x.guest_trace = xstrdup("guest/trace.txt");
	x.sim_trace = xstrdup("sim/trace.txt");
	outmark_note_input(xa.wfile);
	outmark_note_input(xa.platform);
	if (xa.gtrace)
		outmark_note_input(xa.gtrace);
	ret = outdir_begin(&od, xa.outdir);
	if (ret)
		goto out;
	ret = xcheck_sides(&xa, &x, gin, od.tmp);
	if (ret) {
		outdir_abort(&od);
	} else if (outdir_commit(&od)) {
		ret = 1;
	} else {
		printf("xcheck: %s on %s, policy %s: %s\n", xa.wfile, pl->name,
		       xa.policy, x.pass[0] ? "pass" : "FAIL");
		if (!x.pass[0])
			printf("xcheck: %s\n", x.why);
		printf("xcheck: report %s/xcheck.md\n", xa.outdir);
		ret = x.pass[0] ? 0 : 1;
	}
out:
	if (gin)
		fclose(gin);
	xcheck_free(&x);
	platform_free(pl);
	return ret;
}
