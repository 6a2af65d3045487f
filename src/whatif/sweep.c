// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_opts.h"
#include "diag.h"
#include "doc_set.h"
#include "docpath.h"
#include "interrupt.h"
#include "jsondoc.h"
#include "outdir.h"
#include "outmark.h"
#include "platform.h"
#include "procs.h"
#include "sweep.h"
#include "sweep_internal.h"
#include "sweep_jobs.h"
#include "util.h"
#include "whatif.h"
#include "workload.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2

static const char usage_sweep[] =
"usage: capsim sweep WORKLOAD.json --set 'PATH=SPEC' [--set ...] [--link]\n"
"                    [--drop PATH]...\n"
"                    [--policies P,P...] [--platforms NAME|FILE,...] [--seed N]\n"
"                    [--duration SEC] [--repeat N] [--unpaired]\n"
"                    [--metric METRIC] [-j N] [--keep-traces]\n"
"                    [--quiet] -o DIR [--emit-jobs FILE | --resume]\n"
"       capsim sweep --resume -o DIR [--metric METRIC] [-j N] [--quiet]\n"
"       capsim sweep --collect DIR [--metric METRIC] [--quiet]\n"
"       capsim sweep --trace DIR N [--quiet]\n"
"\n"
"Runs the cartesian product of the --set values x platforms x policies\n"
"(--policies default: every policy this build simulates, %s;\n"
"--platforms default: the workload's capsim.platform, else " PLATFORM_DEFAULT ")\n"
"(with --link, as GNU parallel's: the --set values zipped instead, the\n"
"first values of every --set together, then the second ...: every SPEC\n"
"must then give as many values, or exit status 2),\n"
"each point a `capsim run` in a worker process (-j N at once, default 2),\n"
"and writes DIR/sweep.csv (a row per point: its parameters, policy,\n"
"platform, seed, status, energy_mj, per task wake-up latency\n"
"TASK.wlat_p95_ms/_p99_ms, response time TASK.resp_p95_ms/_p99_ms and\n"
"TASK.misses, per domain domN.avg_mhz, per chain (capsim.chains, or\n"
"inferred from resume/suspend without it) chain.NAME.jank_pct and\n"
"latency chain.NAME.lat_p50/p95/p99_ms; every\n"
"time in ms), DIR/sweep.columns.json (every column: its --set path or\n"
"what it measures, its unit) and DIR/pareto.png/.svg (energy against\n"
"--metric, one panel per platform). A parameter's column is named from\n"
"its path, [a-z0-9_] only: capsim.taskgroups[\"/bg\"].capacity_max is\n"
"bg_capacity_max, platform.domains[*].rate_limit_us domains_rate_limit_us\n"
"(docs/outputs.md has the rule). TASK is the workload's task name.\n"
"Without --metric the workload must have one candidate: its one chain\n"
"(chain.NAME.jank_pct) when it has chains, else its one task that\n"
"wakes up (a timer, sleep or suspend; each instance counts:\n"
"TASK.resp_p95_ms); with several, exit status 2 listing them.\n"
"METRIC is a sweep.csv column (energy_mj, domN.avg_mhz, TASK.resp_p95_ms,\n"
"chain.NAME.jank_pct, ...) or an expression over columns: numbers,\n"
"+ - * /, unary minus and parentheses, e.g. 'energy_mj/1000' or\n"
"'(ui.resp_p95_ms + render.resp_p95_ms) / 2'; no functions. A division\n"
"by zero, a missing value or a result beyond a double's range is NaN,\n"
"and a point whose metric is NaN is left off the plot. A minus right\n"
"after a name and before digits and a dot reads as a task instance\n"
"(bg-2.misses): write a subtraction of such a number with spaces. The\n"
"microsecond names of earlier capsims (TASK.resp_p95_us, ..._us) are\n"
"an error naming the ms column: an old notebook must not read a column\n"
"that changed unit.\n"
"\n"
"PATH is written as capsim's error messages print it, e.g.\n"
"  capsim.taskgroups[\"/bg\"].capacity_max   (or capsim.taskgroups./bg.capacity_max)\n"
"  tasks.fg.run   global.duration   platform.domains[0].opps[4].power_mw\n"
"(platform. addresses the platform). An index [*] sets every element of\n"
"the array there: platform.domains[*].rate_limit_us (an empty or missing\n"
"array is an error). SPEC: LO:HI:STEP (finite numbers),\n"
"a list V1,V2,... of numbers or of booleans (capsim.util_est=false,true;\n"
"0,1 over a boolean are false,true), or one JSON value\n"
"(--set 'capsim.events=[]' removes the\n"
"timed events; --drop capsim.events too). No two values of a SPEC may be\n"
"equal, and a sweep has at most 100000 points in all (--set values x\n"
"platforms x policies). Comments and trailing commas in the inputs are\n"
"fine: the parsed documents are edited.\n"
"Seeds are paired (common random numbers): every point runs with the\n"
"same seeds, whatever its parameters, policy or platform, so two values\n"
"of a knob compare on the same random draws and their difference is\n"
"the knob's, not the draws'. --repeat N (1 to 1000, default 1) runs\n"
"each point N times, the runs one after another in point order, with\n"
"seeds S1, S2, ... SN: the first N outputs of splitmix64 started from\n"
"--seed, each shifted right by 11 bits (S1 is the seed of every point\n"
"without --repeat; a sweep run again gives them again). --unpaired:\n"
"splitmix64 started from --seed xor the FNV-1a hash of the point's\n"
"parameter values instead (an earlier capsim's seeds: each value its\n"
"own draws, the same across policies and platforms).\n"
"sweep.csv then has a row per run with its repeat (1..N), and\n"
"DIR/sweep-summary.csv a row per point: for every number column of\n"
"sweep.csv COLUMN_mean, COLUMN_sd (sample standard deviation) and\n"
"COLUMN_ci95 (half-width of the 95 %% confidence interval of the mean,\n"
"Student's t with n - 1 degrees of freedom, n the runs that have the\n"
"value); for a share (chain.NAME.jank_pct, 0..100) and for --metric\n"
"(metric_*) also _median, _ci_lo/_ci_hi (mean -+ ci95 clipped to what\n"
"the column can hold) and _boot_lo/_boot_hi (the percentile bootstrap\n"
"95 %% interval of the mean, 2000 resamples from a fixed seed:\n"
"docs/outputs.md); the Pareto plot shows each point's means with their\n"
"clipped 95 %% intervals as error bars.\n"
"The options, policies, platforms and --metric (each name it uses) are\n"
"checked before any point runs or any job is emitted (exit status 2,\n"
"listing the names the metric may use), and so is every --set value\n"
"against its field's type and range, by the parser `capsim run` uses\n"
"(each value with the other parameters at their first: exit status 2\n"
"naming the --set, the value and the range). A rule linking two fields\n"
"(capacity_min above capacity_max) fails only the points that break\n"
"it: a failed point is reported and the others go on (exit status 1).\n"
"DIR is made (an older DIR of capsim's replaced) before the points\n"
"run, each point's directory as it starts, and sweep.csv's rows are\n"
"written as the points end, in point order. A sweep stopped by a signal\n"
"keeps its finished points in DIR: --resume with the same arguments\n"
"(checked against DIR/sweep.json: exit 2 naming what differs; the\n"
"workload file too, by its SHA-256), or -o DIR alone (every argument\n"
"from DIR/sweep.json, from any directory), runs the points that have no\n"
"valid summary, then collects them all. Without --metric it plots the\n"
"sweep's; another --metric is said and plotted.\n"
"On a terminal a progress bar shows the points done, their rate and\n"
"the time left (not with --quiet).\n"
"Each point keeps its summary.json, activations.csv and run.log;\n"
"--keep-traces also keeps its trace.txt (`capsim plot DIR/points/N/run`),\n"
"which --collect does not need. --trace DIR N runs point N (sweep.csv's\n"
"point: with --repeat a run's) again with its trace, from the files the\n"
"sweep wrote in its directory, its policy and seed, into\n"
"DIR/points/N/traced (never over the run --collect reads; its energy\n"
"compared with the point's, a difference said), for `capsim plot\n"
"DIR/points/N/traced`.\n"
"\n"
"--emit-jobs FILE: prepare DIR, run nothing; FILE gets one self-contained\n"
"shell command per point (`parallel < FILE`, or across hosts with\n"
"--sshlogin when DIR is on a shared filesystem) and FILE.slurm a Slurm\n"
"array script; then `capsim sweep --collect DIR`. No path or value of a\n"
"job line may hold a control character (a newline would split it).\n"
"Each array task runs line CAPSIM_JOBS_OFFSET + SLURM_ARRAY_TASK_ID of\n"
"FILE (CAPSIM_JOBS_OFFSET: 0 unless exported; each must be a decimal\n"
"number, else the task exits 2): a sweep longer than the\n"
"cluster's MaxArraySize goes in chunks, e.g. lines 1001-2000 with\n"
"  sbatch --array=1-1000 --export=ALL,CAPSIM_JOBS_OFFSET=1000 FILE.slurm\n"
"An existing FILE and FILE.slurm are replaced only when each is one an\n"
"earlier --emit-jobs wrote (exit status 2 otherwise).\n"
"\n"
"--collect DIR plots the metric the sweep was made with (its --metric,\n"
"else the workload's one candidate, kept in DIR/sweep.json with every\n"
"other setting): no argument is repeated. --metric there plots another\n"
"(said on stderr; sweep.json keeps the sweep's). It checks every file\n"
"it reads (sweep.json, each point.json\n"
"and summary.json: exit status 2 naming the file and field); a point\n"
"whose run failed, or whose directory is missing, is named and gets a\n"
"row with status failed or missing (exit status 1).\n";

enum {
	OPT_SET = 256, OPT_DROP, OPT_POLICIES, OPT_PLATFORMS, OPT_SEED,
	OPT_DURATION, OPT_METRIC, OPT_KEEP_TRACES, OPT_QUIET, OPT_EMIT_JOBS,
	OPT_COLLECT, OPT_RESUME, OPT_LINK, OPT_REPEAT, OPT_UNPAIRED, OPT_TRACE,
};

static const struct option sweep_options[] = {
	{ "set", required_argument, NULL, OPT_SET },
	{ "drop", required_argument, NULL, OPT_DROP },
	{ "policies", required_argument, NULL, OPT_POLICIES },
	{ "platforms", required_argument, NULL, OPT_PLATFORMS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "keep-traces", no_argument, NULL, OPT_KEEP_TRACES },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "emit-jobs", required_argument, NULL, OPT_EMIT_JOBS },
	{ "collect", required_argument, NULL, OPT_COLLECT },
	{ "resume", no_argument, NULL, OPT_RESUME },
	{ "link", no_argument, NULL, OPT_LINK },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "unpaired", no_argument, NULL, OPT_UNPAIRED },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ 0 },
};

/* The usage with the default policies as the code has them */
static void print_sweep_usage(void)
{
	char *all = whatif_policy_list();

	printf(usage_sweep, all);
	free(all);
}

static const struct cli_cmd sweep_cli = {
	.prog = "capsim", .name = "sweep", .print_usage = print_sweep_usage,
	.shortopts = "o:j:", .longopts = sweep_options,
};

/* SPEC -> values for @sp's path, whose document holds @cur there */
static int parse_spec(struct sweep_param *sp, const char *spec, json_t *cur)
{
	struct sweep_values sv;

	if (doc_set_values(&sp->path, spec, cur, "sweep", &sv))
		return -1;
	sp->vals = sv.v;
	sp->nvals = sv.n;
	return 0;
}

/* A trial edit of @sp's first value on a copy of @root */
static int check_target(json_t *root, const struct sweep_param *sp,
			const char *docname)
{
	return doc_set_check(root, &sp->path, sp->vals[0], docname);
}

static void sweep_free(struct sweep *sw)
{
	int i, k;

	for (i = 0; i < sw->nparams; i++) {
		for (k = 0; k < sw->params[i].nvals; k++)
			json_decref(sw->params[i].vals[k]);
		free(sw->params[i].vals);
		dpath_free(&sw->params[i].path);
	}
	free(sw->params);
	for (i = 0; i < sw->ndrops; i++)
		dpath_free(&sw->drops[i]);
	free(sw->drops);
	for (i = 0; sw->pdocs && sw->platforms && sw->platforms[i]; i++)
		json_decref(sw->pdocs[i]);
	free(sw->pdocs);
	strv_free(sw->policies);
	strv_free(sw->platforms);
	free(sw->wname);
	free(sw->wpath);
	free(sw->metric);
	if (sw->wdoc.root || sw->wdoc.text)
		jdoc_free(&sw->wdoc);
}

/* Resolve the abs path DIR will have once committed (it does not exist
 * yet; its temporary sibling does) */
static char *final_abs_path(const struct outdir *od)
{
	char rp[PATH_MAX], *slash;
	const char *base = strrchr(od->final, '/');

	if (!realpath(od->tmp, rp))
		return xstrdup(od->final);
	slash = strrchr(rp, '/');
	*slash = '\0';
	return xasprintf("%s/%s", rp, base ? base + 1 : od->final);
}

/*
 * With --emit-jobs every argument may end up in a job line (the workload's
 * name, -o, the platforms, ...), and so may the current directory (the
 * absolute -o) and capsim's own path: none may hold a control character.
 */
static int check_job_values(int argc, char **argv, const char *self)
{
	char cwd[PATH_MAX];
	int i;

	for (i = 1; i < argc; i++) {
		char *what;
		bool bad;

		if (!control_char_in(argv[i]))
			continue;
		what = i > 1 && cli_takes_next_value(&sweep_cli, argv[i - 1]) ?
		       xasprintf("the %s value", argv[i - 1]) :
		       xasprintf("the argument %d", i);
		bad = job_value_refused(what, argv[i]);
		free(what);
		if (bad)
			return -1;
	}
	if (getcwd(cwd, sizeof(cwd)) &&
	    job_value_refused("the current directory", cwd))
		return -1;
	return job_value_refused("capsim's executable path", self) ? -1 : 0;
}

/* Every platform loads (an unknown name or a bad file is said, as `capsim
 * run` would say it); the most domains any has, in *ndoms */
static int check_platforms(char **names, int *ndoms)
{
	struct diag d;
	int i, ret = 0;

	*ndoms = 0;
	diag_init(&d, false);
	for (i = 0; names[i] && !ret; i++) {
		struct platform *pl = platform_load(names[i], &d);

		if (!pl) {
			ret = -1;
			break;
		}
		if (pl->ndomains > *ndoms)
			*ndoms = pl->ndomains;
		platform_free(pl);
	}
	diag_free(&d);
	return ret;
}

/* -o DIR can become the sweep's directory: not empty, not a file */
static int check_outdir(const char *dir)
{
	struct stat st;

	if (!*dir)
		return cli_usage_error(&sweep_cli, "-o needs a directory, not an empty path");
	if (!stat(dir, &st) && !S_ISDIR(st.st_mode))
		return cli_usage_error(&sweep_cli, "-o %s: it exists and is not a directory",
				       dir);
	/* a parent that is a file: DIR can never be created */
	{
		char *p = xstrdup(dir), *slash;
		int ret = 0;

		while ((slash = strrchr(p, '/')) && slash != p) {
			*slash = '\0';
			if (!stat(p, &st)) {
				if (!S_ISDIR(st.st_mode)) {
					ret = cli_usage_error(&sweep_cli, "-o %s: %s is not a directory",
							      dir, p);
				}
				break;
			}
		}
		free(p);
		return ret;
	}
}

static int sweep_value_opt(struct sweep_args *sa, int key, const char *arg)
{
	struct sweep *sw = sa->sw;
	double sec;
	struct dpath p;
	char err[512];

	switch (key) {
	case OPT_DROP:
		if (dpath_parse(arg, &p, err, sizeof(err)))
			return cli_usage_error(&sweep_cli, "%s", err);
		sw->drops = xrealloc(sw->drops, (size_t)(sw->ndrops + 1) *
				     sizeof(*sw->drops));
		sw->drops[sw->ndrops++] = p;
		return 0;
	case OPT_DURATION:
		/* capsim run's bounds, said before any point */
		if (cli_parse_double(&sweep_cli, "--duration", arg,
				     WL_DURATION_MIN_S, WL_DURATION_MAX_S,
				     "seconds in [1e-06, 1e+06]", &sec))
			return EXIT_USAGE;
		sw->duration = arg;
		return 0;
	case OPT_SEED:
		return cli_parse_u64(&sweep_cli, "--seed", arg, 10, 0,
				     ULLONG_MAX, &sw->seed);
	case OPT_REPEAT:
		return cli_parse_int(&sweep_cli, "--repeat", arg, 1,
				     SWEEP_MAX_REPEAT, &sw->repeat);
	default:	/* -j */
		return cli_parse_int(&sweep_cli, "-j", arg, 1, 256,
				     &sa->parallel);
	}
}

static int sweep_opt(void *ctx, int key, const char *arg)
{
	struct sweep_args *sa = ctx;

	/* what the sweep is made of: a --resume without any of it takes
	 * all of it from the plan */
	switch (key) {
	case OPT_SET: case OPT_DROP: case OPT_POLICIES: case OPT_PLATFORMS:
	case OPT_SEED: case OPT_DURATION: case OPT_KEEP_TRACES: case OPT_LINK:
	case OPT_REPEAT: case OPT_UNPAIRED: case CLI_POSITIONAL:
		sa->defines = true;
		break;
	default:
		break;
	}
	switch (key) {
	case OPT_QUIET: sa->quiet = true; break;
	case OPT_KEEP_TRACES: sa->sw->keep_traces = true; break;
	case OPT_LINK: sa->sw->link = true; break;
	case OPT_UNPAIRED: sa->sw->unpaired = true; break;
	case OPT_POLICIES: sa->policies = arg; break;
	case OPT_PLATFORMS: sa->platforms = arg; break;
	case OPT_METRIC: sa->metric = arg; break;
	case OPT_EMIT_JOBS: sa->emit = arg; break;
	case OPT_COLLECT: sa->collect = arg; break;
	case OPT_TRACE: sa->trace = arg; break;
	case OPT_RESUME: sa->resume = true; break;
	case 'o': sa->outdir = arg; break;
	case OPT_SET:
		sa->sets = xrealloc(sa->sets, (size_t)(sa->nsets + 1) *
				    sizeof(char *));
		sa->sets[sa->nsets++] = (char *)arg;
		break;
	case CLI_POSITIONAL:
		if (sa->sw->wfile)
			return cli_usage_error(&sweep_cli, "more than one workload: %s",
					       arg);
		sa->sw->wfile = arg;
		break;
	default:
		return sweep_value_opt(sa, key, arg);
	}
	return 0;
}

/* capsim sweep --collect DIR: exit status */
static int collect_only(const struct sweep_args *sa)
{
	const struct sweep *sw = sa->sw;
	int r;

	if (sw->wfile || sa->nsets || sa->outdir || sa->emit || sw->ndrops ||
	    sa->policies || sa->platforms || sw->keep_traces || sa->resume ||
	    sw->link || sw->repeat > 1 || sw->unpaired)
		return cli_usage_error(&sweep_cli, "--collect DIR takes only --metric and --quiet");
	/* it writes sweep.csv and the plots into DIR: capsim's only */
	if (!outmark_present(sa->collect)) {
		fprintf(stderr, "capsim: %s was not written by capsim sweep (no %s in it)\n",
			sa->collect, OUTMARK_NAME);
		return EXIT_USAGE;
	}
	r = sweep_collect(sa->collect, sa->metric, sa->quiet);
	return r == SWEEP_COLLECT_BAD_INPUT ? EXIT_USAGE : r ? EXIT_RUN : 0;
}

/* capsim sweep --trace DIR N: exit status */
static int trace_only(const struct sweep_args *sa)
{
	const struct sweep *sw = sa->sw;
	char *self;
	int r;

	if (sa->collect || sa->nsets || sa->outdir || sa->emit || sw->ndrops ||
	    sa->policies || sa->platforms || sw->keep_traces || sa->resume ||
	    sw->link || sw->repeat > 1 || sw->unpaired || sa->metric ||
	    sw->seed || sw->duration)
		return cli_usage_error(&sweep_cli, "--trace DIR N takes only --quiet");
	if (!sw->wfile)
		return cli_usage_error(&sweep_cli, "--trace DIR N: which point (N, sweep.csv's point)?");
	self = procs_self_exe();
	r = sweep_trace(sa->trace, sw->wfile, sa->quiet, self);
	free(self);
	return r;
}

/* The options, then a --collect or a --trace, or what a sweep needs at
 * least: CLI_CONTINUE, or the exit status */
static int parse_sweep_args(int argc, char **argv, struct sweep_args *sa)
{
	int ret = cli_parse(&sweep_cli, argc, argv, sweep_opt, sa, NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (sa->trace)
		return trace_only(sa);
	if (sa->collect)
		return collect_only(sa);
	if (!sa->outdir)
		return cli_usage_error(&sweep_cli, "sweep needs -o DIR");
	/* --resume -o DIR alone: the workload and the rest from DIR */
	if (!sa->sw->wfile && !(sa->resume && !sa->defines))
		return cli_usage_error(&sweep_cli, "sweep needs a WORKLOAD.json");
	if (sa->resume && sa->emit)
		return cli_usage_error(&sweep_cli, "--resume runs the points here: not with --emit-jobs (re-run the failed lines of its jobs file instead)");
	ret = check_outdir(sa->outdir);
	return ret ? ret : CLI_CONTINUE;
}

/* The policies and platforms of the sweep, checked; 0 or -1 (said) */
static int sweep_lists(const struct sweep_args *sa, struct sweep *sw,
		       int *ndoms)
{
	if (sa->policies) {
		sw->policies = strv_split(sa->policies, "--policies");
	} else {
		sw->policies = whatif_all_policies();
	}
	if (sa->platforms) {
		sw->platforms = strv_split(sa->platforms, "--platforms");
	} else {
		json_t *p = json_object_get(json_object_get(sw->wdoc.root, "capsim"),
					    "platform");

		sw->platforms = strv_split(json_is_string(p) ? json_string_value(p) :
					   PLATFORM_DEFAULT, "platform");
	}
	if (!sw->policies || !sw->platforms ||
	    whatif_check_list(sw->policies, "--policies", "sweep", true) ||
	    whatif_check_list(sw->platforms, "--platforms", "sweep", false) ||
	    check_platforms(sw->platforms, ndoms))
		return -1;
	sw->pdocs = xcalloc((size_t)strv_len(sw->platforms) + 1, sizeof(json_t *));
	return 0;
}

/*
 * A parameter of a plan, {path, values}, into @sp: its path parsed, its
 * values those the sweep made; 0, or -1 said (a plan edited by hand)
 */
static int plan_param(struct sweep_param *sp, json_t *pp)
{
	const char *path = json_string_value(json_object_get(pp, "path"));
	json_t *vals = json_object_get(pp, "values"), *v;
	char err[512];
	size_t k;

	if (!path || dpath_parse(path, &sp->path, err, sizeof(err)) ||
	    !json_array_size(vals)) {
		fprintf(stderr, "capsim: --resume: sweep.json: the parameter %.200s: %s\n",
			path ? path : "(no path)", !path ? "no path" :
			json_array_size(vals) ? err : "no values");
		return -1;
	}
	sp->vals = xcalloc(json_array_size(vals), sizeof(json_t *));
	json_array_foreach(vals, k, v)
		sp->vals[sp->nvals++] = json_incref(v);
	return 0;
}

/*
 * --set PATH=SPEC (@set), or the plan's parameter @pp, as the sweep's
 * next parameter, its values checked against each document it edits;
 * 0 or -1 (said)
 */
static int add_param(struct sweep *sw, const char *set, json_t *pp)
{
	struct sweep_param *sp;
	const char *spec = NULL;
	int pl;

	sw->params = xrealloc(sw->params, (size_t)(sw->nparams + 1) *
			      sizeof(*sw->params));
	sp = &sw->params[sw->nparams];
	memset(sp, 0, sizeof(*sp));
	if (pp ? plan_param(sp, pp) :
	    doc_set_split(set, "sweep", &sp->path, &spec)) {
		dpath_free(&sp->path);
		return -1;
	}
	sw->nparams++;
	if (!sp->path.platform)
		return (spec && parse_spec(sp, spec, dpath_get(sw->wdoc.root,
							       &sp->path))) ||
		       check_target(sw->wdoc.root, sp, "workload") ? -1 : 0;
	sw->edits_platform = true;
	for (pl = 0; sw->platforms[pl]; pl++) {
		if (!sw->pdocs[pl])
			sw->pdocs[pl] = doc_set_platform(sw->platforms[pl]);
		if (!sw->pdocs[pl])
			return -1;
	}
	if (spec && parse_spec(sp, spec, dpath_get(sw->pdocs[0], &sp->path)))
		return -1;
	for (pl = 0; sw->platforms[pl]; pl++)
		if (check_target(sw->pdocs[pl], sp, "platform"))
			return -1;
	return 0;
}

/* Each --drop applies to the workload; 0 or -1 (said) */
static int check_drops(const struct sweep *sw)
{
	int i;

	for (i = 0; i < sw->ndrops; i++) {
		json_t *copy = json_deep_copy(sw->wdoc.root);
		char err[512];
		int r = dpath_drop(copy, &sw->drops[i], err, sizeof(err));

		json_decref(copy);
		if (r) {
			fprintf(stderr, "capsim: --drop %s\n", err);
			return -1;
		}
	}
	return 0;
}

/* --link: every --set gives as many values; 0, or -1 (said) */
static int check_link(const struct sweep *sw)
{
	int i;

	if (sw->nparams < 2) {
		cli_usage_error(&sweep_cli, "--link zips two --set or more: %d given",
				sw->nparams);
		return -1;
	}
	for (i = 1; i < sw->nparams; i++) {
		if (sw->params[i].nvals == sw->params[0].nvals)
			continue;
		cli_usage_error(&sweep_cli, "--link: --set %s gives %d values, --set %s %d: linked parameters need as many values each",
				sw->params[0].path.text, sw->params[0].nvals,
				sw->params[i].path.text, sw->params[i].nvals);
		return -1;
	}
	return 0;
}

/* The number of points and the width of their numbers; 0, or -1 (said:
 * too many) */
static int count_points(struct sweep *sw)
{
	double n = (double)strv_len(sw->policies) * strv_len(sw->platforms) *
		   sw->repeat;
	int i;

	if (sw->link)
		n *= sw->params[0].nvals;
	for (i = 0; i < sw->nparams && !sw->link; i++)
		n *= sw->params[i].nvals;
	if (n > SWEEP_MAX_POINTS) {
		fprintf(stderr, "capsim: the sweep has %.0f points (--set values x platforms x policies x repeats): at most %d\nsee `capsim sweep --help`\n",
			n, SWEEP_MAX_POINTS);
		return -1;
	}
	sw->npoints = (int)n;
	for (sw->width = 1, i = sw->npoints; i >= 10; i /= 10)
		sw->width++;
	if (sw->width < 4)
		sw->width = 4;
	return 0;
}

/*
 * Everything a sweep is made of, read and checked before any point:
 * the workload, the lists, the parameters, the drops, the metric and
 * the number of points. 0, or -1 (said: bad input).
 */
static int sweep_define(const struct sweep_args *sa, struct sweep *sw,
			struct diag *d)
{
	int i, ndoms;

	char rp[PATH_MAX];
	size_t k;

	if (jdoc_load_file(&sw->wdoc, sw->wfile, d))
		return -1;
	sw->wname = whatif_workload_name(sw->wfile);
	sw->wpath = realpath(sw->wfile, rp) ? xstrdup(rp) : NULL;
	if (sweep_lists(sa, sw, &ndoms))
		return -1;
	for (i = 0; i < sa->nsets; i++)
		if (add_param(sw, sa->sets[i], NULL))
			return -1;
	for (k = 0; k < json_array_size(sa->plan_params); k++)
		if (add_param(sw, NULL, json_array_get(sa->plan_params, k)))
			return -1;
	if (check_drops(sw) ||
	    sweep_check_values(sw, sa->plan_params ? NULL : sa->sets))
		return -1;
	if (sa->metric && sweep_metric_check(sa->metric, sw->wdoc.root,
					      sw->edits_platform, ndoms))
		return -1;
	if (!sa->metric && sweep_default_metric(sw->wdoc.root, sw->wfile,
						&sw->metric))
		return -1;
	if (sw->link && check_link(sw))
		return -1;
	return count_points(sw);
}

/*
 * --emit-jobs: DIR committed first: the jobs may live inside it (-o sw
 * --emit-jobs sw/jobs), where the swap would take them away with the
 * older DIR. Jobs that cannot be written then leave a DIR that nothing
 * runs: exit 1, said.
 */
static int emit_jobs(const struct sweep_args *sa, struct outdir *od,
		     char **cmds)
{
	if (outdir_commit(od))
		return EXIT_RUN;
	if (jobs_write(sa->emit, cmds, sa->sw->npoints)) {
		fprintf(stderr, "capsim: %s/ is prepared, but no jobs were written to run it\n",
			sa->outdir);
		return EXIT_RUN;
	}
	if (!sa->quiet)
		printf("sweep: %d points prepared in %s/\n"
		       "run them: parallel < %s   (or sbatch %s.slurm)\n"
		       "then:     capsim sweep --collect %s\n",
		       sa->sw->npoints, sa->outdir, sa->emit, sa->emit,
		       sa->outdir);
	return 0;
}

/* Tell an interrupted sweep's user what is kept and how to go on */
static void note_resumable(const char *dir)
{
	char *note = xasprintf("capsim: sweep interrupted: the finished points are kept in %s; `capsim sweep --resume -o %s` (or the same command with --resume) runs the others\n",
			       dir, dir);

	interrupt_set_note(note);
	free(note);
}

/*
 * The plan in DIR's temporary copy, then the points emitted (each
 * prepared first) or run (DIR committed first, each point prepared as it
 * is about to run, so an interrupted sweep keeps its finished points in
 * DIR): exit status
 */
static int sweep_points(const struct sweep_args *sa, struct outdir *od,
			const char *self)
{
	struct sweep *sw = sa->sw;
	char **cmds = NULL;
	char *fabs_dir = final_abs_path(od);
	int ret = EXIT_RUN, i;

	if (sa->emit && job_value_refused("the absolute -o path", fabs_dir)) {
		ret = EXIT_USAGE;
	} else if (sweep_plan_write(sw, sa->metric ? sa->metric : sw->metric,
				    od->tmp)) {
		ret = EXIT_RUN;
	} else if (sa->emit) {
		cmds = xcalloc((size_t)sw->npoints, sizeof(char *));
		if (!sweep_prepare_points(sw, od->tmp, fabs_dir, self, cmds))
			ret = emit_jobs(sa, od, cmds);
	} else if (!outdir_commit(od)) {
		note_resumable(sa->outdir);
		ret = sweep_run_points(sa, sa->outdir, fabs_dir, self);
		interrupt_set_note(NULL);
	}
	for (i = 0; cmds && i < sw->npoints; i++)
		free(cmds[i]);
	free(cmds);
	free(fabs_dir);
	return ret;
}

/*
 * --resume -o DIR: DIR is a sweep capsim started, with the same
 * arguments or none (its plan, loaded); its finished points are kept,
 * the others run, then all are collected. Exit status.
 */
static int resume_points(const struct sweep_args *sa, const char *self)
{
	const char *metric = sa->metric ? sa->metric : sa->sw->metric;
	char rp[PATH_MAX];
	int ret;

	if (sweep_plan_compare(sa, metric) ||
	    sweep_resume_check(sa->sw, sa->outdir, sa->plan, sa->planf))
		return EXIT_USAGE;
	note_resumable(sa->outdir);
	ret = sweep_run_points(sa, sa->outdir, realpath(sa->outdir, rp) ? rp :
			 sa->outdir, self);
	interrupt_set_note(NULL);
	return ret;
}

/*
 * --resume: DIR's plan, and from it the sweep's arguments when none is
 * given, else its metric when --metric is not (the metric the sweep
 * was made with, not the workload's candidates judged again); 0 or -1
 * said
 */
static int resume_plan(struct sweep_args *sa)
{
	json_t *m;

	if (sweep_plan_load(sa))
		return -1;
	if (!sa->defines)
		return sweep_plan_args(sa);
	m = json_object_get(sa->plan, "metric");
	if (!sa->metric && json_is_string(m))
		sa->metric = json_string_value(m);
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep sw = { .repeat = 1 };
	struct sweep_args sa = { .sw = &sw, .parallel = 2 };
	struct outdir od = { 0 };
	char *self = NULL;
	struct diag d;
	int i, ret;

	diag_init(&d, false);
	ret = parse_sweep_args(argc, argv, &sa);
	if (ret != CLI_CONTINUE)
		goto out;
	ret = EXIT_USAGE;
	self = procs_self_exe();
	sw.emit = sa.emit;
	sw.resume = sa.resume;
	if (sa.emit && (check_job_values(argc, argv, self) ||
			jobs_path_check(sa.emit)))
		goto out;
	if (sa.resume && resume_plan(&sa))
		goto out;
	if (sweep_define(&sa, &sw, &d))
		goto out;
	outmark_note_input(sw.wfile);
	for (i = 0; sw.platforms[i]; i++)
		outmark_note_input(sw.platforms[i]);
	if (sa.resume) {
		ret = resume_points(&sa, self);
		goto out;
	}
	sweep_new_id(sw.id);
	ret = outdir_begin(&od, sa.outdir);
	if (!ret)
		ret = sweep_points(&sa, &od, self);
out:
	if (od.tmp)
		outdir_abort(&od);
	free(self);
	free(sa.sets);
	free(sa.planf);
	json_decref(sa.plan);
	free(sa.lists[0]);
	free(sa.lists[1]);
	sweep_free(&sw);
	diag_free(&d);
	return ret;
}
