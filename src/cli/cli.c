// SPDX-License-Identifier: GPL-2.0
/* POSIX only: with _GNU_SOURCE, <sys/stat.h> pulls <linux/stat.h>, which
 * would find kcompat's <linux/types.h> first. */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_tracedat.h"
#include "governor_names.h"
#include "import_cmd.h"
#include "import_check.h"
#include "outmark.h"
#include "rundir.h"
#include "platform.h"
#include "platform_cmdline.h"
#include "platform_infer_cmd.h"
#include "sim.h"
#include "spelling.h"
#include "chains_out.h"
#include "summary.h"
#include "workload.h"
#include "whatif.h"
#include "xcheck.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2

static const char usage_main[] =
"usage: capsim <command> [options]\n"
"\n"
"commands:\n"
"  run WORKLOAD.json [options]   simulate an rt-app workload\n"
"  compare WORKLOAD.json         the same workload under each policy, side by side\n"
"  sweep WORKLOAD.json --set ... a parameter sweep, in parallel, with a Pareto plot\n"
"  xcheck WORKLOAD.json          the same workload in the guest kernel and simulated,\n"
"                                compared level by level (docs/xcheck.md)\n"
"  plot RUN_DIR|TRACE            plots of a run or of any trace (docs/traces.md)\n"
"  import TRACE -o WORKLOAD.json a trace as an rt-app workload (docs/import.md)\n"
"  import-check TRACE W.json     a workload simulated beside its source trace\n"
"                                (docs/import-check.md)\n"
"  platforms                     list the embedded platforms\n"
"  platform show NAME            print an embedded platform as a platform file\n"
"  platform cmdline NAME|FILE    the guest kernel's parameters for a platform\n"
"  validate FILE...              check workload and platform files\n"
"  trace-dat IN.txt OUT.dat      ftrace text to trace.dat for trace-cmd\n"
"\n"
"capsim COMMAND --help for each command; capsim --version. Exit status:\n"
"0 ok, 1 run error, 2 bad usage or input.\n";

static const char usage_run[] =
"usage: capsim run WORKLOAD.json [--platform NAME|FILE] [--policy rfc|uclamp|none]\n"
"                  [--duration SEC] [--seed N] [-o DIR] [--clamp-order 6.12|4.10]\n"
"                  [--domain-rule rfc|nonidle] [--hz N] [--trace-util]\n"
"                  [--trace-signals] [--strict] [--governor G]\n"
"                  [--clamp-backend rbtree|exact]\n"
"                  [--trace-dat] [--plot] [--quiet]\n"
"                  [--max-trace-mb N] [--no-trace]\n"
"\n"
"Simulates WORKLOAD (rt-app JSON, with an optional \"capsim\" object for task\n"
"group clamps and their changes) and writes DIR/trace.txt (ftrace text) and\n"
"DIR/summary.json (and DIR/chains.csv for a workload with capsim.chains);\n"
"DIR defaults to out/<workload-name>/. Nothing is written when the input is\n"
"bad or the run fails. The table printed ends with each task's response\n"
"times and each chain's jank and latency.\n"
"\n"
"  --platform NAME|FILE  embedded platform (see `capsim platforms`) or a\n"
"                        platform file; default: capsim.platform or sym4\n"
"  --clamp-backend B     the clamp core's per-CPU aggregator: rbtree or exact\n"
"                        (the build's default: meson -Dclamp_backend); the\n"
"                        same ranges, so the same run, at another cost\n"
"  --governor G          every domain's cpufreq governor: schedutil (default,\n"
"                        or the platform file's \"governor\" per domain),\n"
"                        performance, powersave or userspace:KHZ (a fixed\n"
"                        OPP; the clamp policies act through schedutil only)\n"
"  --policy P            rfc (the RFC's group capacity clamping, default),\n"
"                        none (no clamping), uclamp (mainline 6.12 uclamp)\n"
"  --duration SEC        simulated seconds (default: global.duration)\n"
"  --seed N              seed of capsim.run_jitter_pct (default 0)\n"
"  -o DIR                output directory\n"
"  --clamp-order O       6.12: headroom then clamp (default); 4.10: clamp\n"
"                        then headroom, as the RFC on 4.10 did\n"
"  --domain-rule R       shared domains: nonidle (default, the core's\n"
"                        rule): a CPU with nothing RUNNABLE never counts;\n"
"                        rfc: RFC patch 4 as posted, the calling CPU\n"
"                        always counts, so an emptied caller uncaps\n"
"  --hz N                scheduler tick rate (default: capsim.hz, else 250)\n"
"  --trace-util          a capsim_util line per busy CPU at every tick\n"
"  --trace-signals       LISA's signal events (lisa__sched_pelt_*, util_est,\n"
"                        uclamp) where 6.12's tracepoints fire, and\n"
"                        capsim_sugov at every decision with its inputs\n"
"                        (capsim_sugov_cpu); see docs/simulator.md\n"
"  --strict              keys rt-app ignores and capsim does not know are\n"
"                        errors, not warnings\n"
"  --trace-dat           also DIR/trace.dat, trace.txt in trace-cmd's binary\n"
"                        format (trace-cmd report, KernelShark)\n"
"  --plot                then plot it into DIR/plots/ (see capsim plot)\n"
"  --quiet               no summary table, no progress line\n"
"  --max-trace-mb N      stop with an error when the trace passes N MiB\n"
"                        (default 2048)\n"
"  --no-trace            write no trace.txt (and remove an older one from\n"
"                        DIR): the summary and activations.csv only, the\n"
"                        same figures, several times faster; not with\n"
"                        --trace-util, --trace-signals, --trace-dat, --plot\n";

static const char usage_validate[] =
"usage: capsim validate [--platform NAME|FILE] [--strict] FILE...\n"
"\n"
"Checks each workload or platform file (told apart by their keys) and\n"
"prints the errors and warnings as file:line:column. Exit status 2 if\n"
"any file has an error.\n"
"\n"
"  --platform NAME|FILE  check the workloads against this platform (CPU\n"
"                        ids, calibration CPU, DL admission); default:\n"
"                        each workload's capsim.platform, else sym4\n"
"  --strict              keys rt-app ignores and capsim does not know are\n"
"                        errors, not warnings\n"
"\n"
"A workload that never ends (a task loops forever, no global.duration)\n"
"is valid: `capsim run` runs it with --duration.\n";

static const char usage_platforms[] =
"usage: capsim platforms\n"
"       capsim platform show NAME\n"
"       capsim platform cmdline [--smp] NAME|FILE\n"
"       capsim platform infer TRACE [-o P.json] [--name NAME]\n"
"\n"
"Lists the embedded platforms, or prints one as a platform file, or prints\n"
"the kernel command line parameters that give the capsim guest's virtual\n"
"cpufreq driver the platform's domains, OPPs, capacities and energy model\n"
"(--smp: the number of CPUs, for qemu -smp).\n";

/* The long options' keys (above any letter a short option has) */
enum {
	OPT_SMP = 256, OPT_PLATFORM, OPT_STRICT, OPT_POLICY, OPT_DURATION,
	OPT_SEED, OPT_CLAMP_ORDER, OPT_DOMAIN_RULE, OPT_HZ, OPT_TRACE_UTIL,
	OPT_TRACE_SIGNALS, OPT_GOVERNOR, OPT_CLAMP_BACKEND, OPT_TRACE_DAT,
	OPT_PLOT, OPT_QUIET, OPT_MAX_TRACE_MB, OPT_NO_TRACE, OPT_VERSION,
};

static const struct option main_options[] = {
	{ "version", no_argument, NULL, OPT_VERSION },
	{ 0 },
};

/* capsim itself: its options, then a command and the command's own */
static const struct cli_cmd main_cli = {
	.prog = "capsim", .usage = usage_main, .longopts = main_options,
	.stop_at_positional = true,
};

static const struct option run_options[] = {
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "clamp-order", required_argument, NULL, OPT_CLAMP_ORDER },
	{ "domain-rule", required_argument, NULL, OPT_DOMAIN_RULE },
	{ "hz", required_argument, NULL, OPT_HZ },
	{ "trace-util", no_argument, NULL, OPT_TRACE_UTIL },
	{ "trace-signals", no_argument, NULL, OPT_TRACE_SIGNALS },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "governor", required_argument, NULL, OPT_GOVERNOR },
	{ "clamp-backend", required_argument, NULL, OPT_CLAMP_BACKEND },
	{ "trace-dat", no_argument, NULL, OPT_TRACE_DAT },
	{ "plot", no_argument, NULL, OPT_PLOT },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "max-trace-mb", required_argument, NULL, OPT_MAX_TRACE_MB },
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	{ 0 },
};

static const struct cli_cmd run_cli = {
	.prog = "capsim", .name = "run", .usage = usage_run,
	.shortopts = "o:", .longopts = run_options,
};

static const struct cli_cmd platforms_cli = {
	.prog = "capsim", .name = "platforms", .usage = usage_platforms,
};

/* `platform` stops at its subcommand, which has its own options */
static const struct cli_cmd platform_cli = {
	.prog = "capsim", .name = "platform", .usage = usage_platforms,
	.stop_at_positional = true,
};

static const struct option platform_cmdline_options[] = {
	{ "smp", no_argument, NULL, OPT_SMP },
	{ 0 },
};

static const struct cli_cmd platform_cmdline_cli = {
	.prog = "capsim", .name = "platform", .usage = usage_platforms,
	.longopts = platform_cmdline_options,
};

static const struct cli_cmd platform_show_cli = {
	.prog = "capsim", .name = "platform", .usage = usage_platforms,
};

static const struct option validate_options[] = {
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ 0 },
};

static const struct cli_cmd validate_cli = {
	.prog = "capsim", .name = "validate", .usage = usage_validate,
	.longopts = validate_options,
};

/* `capsim platforms` takes no arguments: every positional is one too many */
static int platforms_opt(void *ctx, int key, const char *arg)
{
	(void)ctx;
	(void)key;
	return cli_usage_error(&platforms_cli, "unexpected argument: %s", arg);
}

/* Neither embedded nor a file: what platform_load() would refuse */
static bool platform_unknown(const char *arg)
{
	return platform_arg_unknown(arg);
}

/* "did you mean" among the embedded platforms (caller frees) */
static char *platform_hint(const char *arg)
{
	return platform_arg_hint(arg);
}

/*
 * The platform a command will load, named by --platform (@flag) or by the
 * workload: an unknown name is a usage error of @cmd, or an input error
 * at capsim.platform. Returns 0 if known.
 */
static int check_platform_name(const char *flag, struct workload *wl,
			       const struct cli_cmd *cmd)
{
	const char *name = flag ? flag : wl && wl->platform ? wl->platform :
			   PLATFORM_DEFAULT;
	char *hint;

	if (!platform_unknown(name))
		return 0;
	hint = platform_hint(name);
	if (flag)
		cli_usage_error(cmd, "unknown platform \"%s\"%s", name, hint);
	else
		jdoc_error(&wl->doc, "/capsim/platform",
			   "unknown platform \"%s\"%s", name, hint);
	free(hint);
	return EXIT_USAGE;
}

/*
 * When the run ends, in ns, if it is known before it starts (0: when every
 * task has ended); *cut: --duration decides it
 */
static uint64_t run_end(const struct workload *wl, uint64_t duration_ns,
			bool *cut)
{
	*cut = duration_ns != 0;
	if (duration_ns)
		return duration_ns;
	return wl->duration_s > 0 ? (uint64_t)(wl->duration_s * 1e9) : 0;
}

/* One line of `capsim platforms`: the embedded platform @i */
static void print_platform_line(int i)
{
	struct diag d;
	struct platform *p;

	diag_init(&d, true);
	p = platform_load(platform_embedded_name(i), &d);
	if (p) {
		const char *desc = strstr(platform_embedded_text(i),
					  "\"description\": \"");
		const char *end;

		printf("%-10s %5d %8d  ", p->name, p->ncpus, p->ndomains);
		if (desc) {
			desc += strlen("\"description\": \"");
			end = strchr(desc, '"');
			printf("%.*s", (int)(end - desc), desc);
		}
		printf("%s\n", strcmp(p->name, PLATFORM_DEFAULT) ? "" :
		       " (default)");
	}
	platform_free(p);
	diag_free(&d);
}

static int cmd_platforms(int argc, char **argv)
{
	int i = cli_parse(&platforms_cli, argc, argv, platforms_opt, NULL,
			  NULL);

	if (i != CLI_CONTINUE)
		return i;
	printf("%-10s %5s %8s  %s\n", "name", "cpus", "domains", "description");
	for (i = 0; i < platform_embedded_count(); i++)
		print_platform_line(i);
	return 0;
}

static struct platform *load_platform_arg(const char *arg, struct diag *d);

/* platform show's or cmdline's arguments */
struct platform_cmdline_args {
	const char *name;	/* NAME or FILE: the first positional */
	int nargs;
	bool smp;
};

static int platform_cmdline_opt(void *ctx, int key, const char *arg)
{
	struct platform_cmdline_args *pa = ctx;

	if (key == OPT_SMP)
		pa->smp = true;
	else if (pa->nargs++ == 0)
		pa->name = arg;
	return 0;
}

static int cmd_platform_cmdline(int argc, char **argv)
{
	struct platform_cmdline_args pa = { 0 };
	struct platform *p;
	struct strbuf sb;
	struct diag d;
	char err[256];
	int ret = cli_parse(&platform_cmdline_cli, argc, argv,
			    platform_cmdline_opt, &pa, NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (pa.nargs != 1)
		return cli_usage_error(&platform_cmdline_cli,
				       "platform cmdline needs one NAME or FILE");
	if (check_platform_name(pa.name, NULL, &platform_cmdline_cli))
		return EXIT_USAGE;
	diag_init(&d, false);
	p = load_platform_arg(pa.name, &d);
	diag_free(&d);
	if (!p)
		return EXIT_USAGE;
	ret = 0;
	sb_init(&sb);
	if (platform_kernel_cmdline(p, &sb, err, sizeof(err))) {
		fprintf(stderr, "capsim: platform %s: %s\n", p->name, err);
		ret = EXIT_USAGE;
	} else if (pa.smp) {
		printf("%d\n", p->ncpus);
	} else {
		printf("%s\n", sb.buf);
	}
	sb_free(&sb);
	platform_free(p);
	return ret;
}

/* capsim platform show NAME */
static int cmd_platform_show(int argc, char **argv)
{
	struct platform_cmdline_args pa = { 0 };
	const char *text;
	int ret = cli_parse(&platform_show_cli, argc, argv,
			    platform_cmdline_opt, &pa, NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (pa.nargs != 1)
		return cli_usage_error(&platform_show_cli,
				       "platform show needs one NAME");
	text = platform_embedded_find(pa.name);
	if (!text) {
		char *hint = platform_hint(pa.name);

		cli_usage_error(&platform_show_cli, "unknown platform \"%s\"%s",
				pa.name, hint);
		free(hint);
		return EXIT_USAGE;
	}
	fputs(text, stdout);
	return 0;
}

static int cmd_platform(int argc, char **argv)
{
	int rest, ret = cli_parse(&platform_cli, argc, argv, NULL, NULL,
				  &rest);

	if (ret != CLI_CONTINUE)
		return ret;
	if (rest >= argc)
		return cli_usage_error(&platform_cli,
				       "platform needs a subcommand: show NAME, cmdline NAME|FILE, infer TRACE");
	if (!strcmp(argv[rest], "cmdline"))
		return cmd_platform_cmdline(argc - rest, argv + rest);
	if (!strcmp(argv[rest], "show"))
		return cmd_platform_show(argc - rest, argv + rest);
	if (!strcmp(argv[rest], "infer"))
		return cmd_platform_infer(argc - rest, argv + rest);
	return cli_usage_error(&platform_cli, "unknown platform subcommand: %s",
			       argv[rest]);
}

static struct platform *load_platform_arg(const char *arg, struct diag *d)
{
	return platform_load_arg(arg, d);
}

/* Whether @doc is a platform file rather than a workload (by keys) */
static bool is_platform_doc(const struct jdoc *doc)
{
	return !json_object_get(doc->root, "tasks") &&
	       json_object_get(doc->root, "domains");
}

/* @doc: @file already loaded, or NULL to load it here (src/sim's
 * sim_validate(), which capsim import runs on its own output too) */
static bool validate_workload(const char *file, struct jdoc *doc,
			      const char *platform, struct diag *d)
{
	return sim_validate(file, doc, platform, d, stdout);
}

struct validate_args {
	const char *platform;
	bool strict;
	const char **files;	/* nfiles of them, in order */
	int nfiles;
};

static int validate_opt(void *ctx, int key, const char *arg)
{
	struct validate_args *va = ctx;

	switch (key) {
	case OPT_STRICT:
		va->strict = true;
		return 0;
	case OPT_PLATFORM:
		va->platform = arg;
		return check_platform_name(arg, NULL, &validate_cli);
	default:
		va->files[va->nfiles++] = arg;
		return 0;
	}
}

/* Check the workload or platform file @file; whether it is valid */
static bool validate_file(const char *file, const struct validate_args *va)
{
	struct diag d, quiet;
	struct jdoc doc;
	bool ok = true, loaded;

	diag_init(&d, false);
	d.strict = va->strict;
	/*
	 * Read once, silently, to tell a platform by its keys; a workload
	 * that loaded without a message is parsed from the same document
	 * (100 000 tasks are megabytes of JSON), anything else is loaded
	 * again where its messages are reported.
	 */
	diag_init(&quiet, true);
	loaded = !jdoc_load_rtapp_file(&doc, file, &quiet);
	if (loaded && is_platform_doc(&doc)) {
		struct platform *p = load_platform_arg(file, &d);

		if (p)
			printf("%s: ok: platform %s, %d CPUs, %d domains, %d warnings\n",
			       file, p->name, p->ncpus, p->ndomains, d.warnings);
		ok = p != NULL;
		platform_free(p);
	} else {
		bool silent = loaded && !quiet.errors && !quiet.warnings &&
			      !quiet.notes;

		ok = validate_workload(file, silent ? &doc : NULL,
				       va->platform, &d);
	}
	jdoc_free(&doc);
	diag_free(&quiet);
	diag_free(&d);
	return ok;
}

static int cmd_validate(int argc, char **argv)
{
	struct validate_args va = { 0 };
	int bad = 0, i, ret;

	va.files = xcalloc((size_t)argc, sizeof(*va.files));
	ret = cli_parse(&validate_cli, argc, argv, validate_opt, &va, NULL);
	if (ret == CLI_CONTINUE && !va.nfiles)
		ret = cli_usage_error(&validate_cli,
				      "validate needs at least one FILE");
	for (i = 0; ret == CLI_CONTINUE && i < va.nfiles; i++)
		if (!validate_file(va.files[i], &va))
			bad = 1;
	free(va.files);
	if (ret != CLI_CONTINUE)
		return ret;
	return bad ? EXIT_USAGE : 0;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The trace's default size limit */
#define MAX_TRACE_MB_DEFAULT 2048

/* A run error after the outputs were prepared; the caller cleans up */
static int run_failed(const struct sim *s, uint64_t max_mb)
{
	if (s->tr.over_limit)
		fprintf(stderr, "capsim: the trace passed the %llu MiB limit at %.6f s simulated: shorten --duration or raise --max-trace-mb\n",
			(unsigned long long)max_mb, (double)s->now / 1e9);
	else if (s->failed)
		fprintf(stderr, "capsim: the run failed\n");
	else if (s->tr.dat_failed)
		fprintf(stderr, "capsim: error writing trace.dat\n");
	else
		fprintf(stderr, "capsim: error writing the trace\n");
	return EXIT_RUN;
}

/*
 * Files of an older run in the directory that this run does not write
 * (@n of @names): removed, so that none sits beside a summary it does not
 * belong to. A --no-trace run removes trace.txt and trace.dat, a run of a
 * workload without chains chains.csv.
 */
static void remove_stale(const char *dir, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		if (unlink(p) && errno != ENOENT)
			fprintf(stderr, "capsim: warning: cannot remove %s: %s\n",
				p, strerror(errno));
		free(p);
	}
}

/* What `capsim run` was asked */
struct run_args {
	const char *wfile, *platform, *policy, *outdir, *order, *rule;
	struct sim_opts o;
	uint64_t max_mb;
	bool quiet, strict, trace_dat, plot, no_trace;
};

static int run_value_opt(struct run_args *ra, int key, const char *arg)
{
	unsigned long long x;
	double sec;
	int hz;

	switch (key) {
	case OPT_CLAMP_BACKEND:
		if (strcmp(arg, "rbtree") && strcmp(arg, "exact"))
			return cli_usage_error(&run_cli, "unknown clamp backend \"%s\": allowed rbtree, exact",
					       arg);
		ra->o.clamp_backend = arg;
		return 0;
	case OPT_DURATION:
		/* 0 would mean "unset": never round to it */
		if (cli_parse_double(&run_cli, "--duration", arg,
				     WL_DURATION_MIN_S, WL_DURATION_MAX_S,
				     "seconds in [1e-06, 1e+06]", &sec))
			return EXIT_USAGE;
		ra->o.duration_ns = (uint64_t)(sec * 1e9 + 0.5);
		return 0;
	case OPT_SEED:
		if (cli_parse_u64(&run_cli, "--seed", arg, 0, 0, ULLONG_MAX, &x))
			return EXIT_USAGE;
		ra->o.seed = x;
		return 0;
	case OPT_MAX_TRACE_MB:
		if (cli_parse_u64(&run_cli, "--max-trace-mb", arg, 10, 1,
				  1ULL << 30, &x))
			return EXIT_USAGE;
		ra->max_mb = x;
		return 0;
	default:	/* OPT_HZ */
		if (cli_parse_int(&run_cli, "--hz", arg, WL_HZ_MIN, WL_HZ_MAX,
				  &hz))
			return EXIT_USAGE;
		ra->o.hz = (unsigned int)hz;
		return 0;
	}
}

static int run_opt(void *ctx, int key, const char *arg)
{
	struct run_args *ra = ctx;
	const char *why;

	switch (key) {
	case OPT_QUIET: ra->quiet = true; break;
	case OPT_TRACE_UTIL: ra->o.trace_util = true; break;
	case OPT_TRACE_SIGNALS: ra->o.trace_signals = true; break;
	case OPT_STRICT: ra->strict = true; break;
	case OPT_TRACE_DAT: ra->trace_dat = true; break;
	case OPT_PLOT: ra->plot = true; break;
	case OPT_NO_TRACE: ra->no_trace = true; break;
	case OPT_PLATFORM: ra->platform = arg; break;
	case OPT_POLICY: ra->policy = arg; break;
	case OPT_CLAMP_ORDER: ra->order = arg; break;
	case OPT_DOMAIN_RULE: ra->rule = arg; break;
	case 'o':
		if (!*arg)
			return cli_usage_error(&run_cli, "-o needs a directory, not an empty path");
		ra->outdir = arg;
		break;
	case OPT_GOVERNOR:
		if (governor_parse(arg, &ra->o.governor, &why))
			return cli_usage_error(&run_cli, "unknown governor \"%s\": %s",
					       arg, why);
		ra->o.governor_set = true;
		break;
	case CLI_POSITIONAL:
		if (ra->wfile)
			return cli_usage_error(&run_cli, "more than one workload: %s",
					       arg);
		ra->wfile = arg;
		break;
	default:
		return run_value_opt(ra, key, arg);
	}
	return 0;
}

/*
 * The options alone, then the names they give: a usage error before any
 * input error. CLI_CONTINUE, or the exit status (--help: 0).
 */
static int parse_run_args(int argc, char **argv, struct run_args *ra)
{
	int ret = cli_parse(&run_cli, argc, argv, run_opt, ra, NULL);
	char names[CLAMP_NAMES_LIST_MAX];

	if (ret != CLI_CONTINUE)
		return ret;
	if (!ra->wfile)
		return cli_usage_error(&run_cli, "run needs a WORKLOAD.json");
	if (ra->no_trace && (ra->o.trace_util || ra->o.trace_signals ||
			     ra->trace_dat || ra->plot))
		return cli_usage_error(&run_cli, "--no-trace writes no trace; not with: %s",
				       ra->o.trace_util ? "--trace-util" :
				       ra->o.trace_signals ? "--trace-signals" :
				       ra->trace_dat ? "--trace-dat" : "--plot");
	if (ra->policy && clamp_policy_parse(ra->policy, &ra->o.clamp_policy))
		return cli_usage_error(&run_cli, "unknown policy \"%s\": allowed %s",
				       ra->policy,
				       clamp_names_list(CLAMP_NAMES_POLICY, false,
							names, sizeof(names)));
	if (ra->order && clamp_order_parse(ra->order, &ra->o.order))
		return cli_usage_error(&run_cli, "unknown clamp order \"%s\": allowed %s",
				       ra->order,
				       clamp_names_list(CLAMP_NAMES_ORDER, false,
							names, sizeof(names)));
	if (ra->rule && domain_rule_parse(ra->rule, &ra->o.domain_rule))
		return cli_usage_error(&run_cli, "unknown domain rule \"%s\": allowed %s",
				       ra->rule,
				       clamp_names_list(CLAMP_NAMES_RULE, false,
							names, sizeof(names)));
	if (ra->platform && check_platform_name(ra->platform, NULL, &run_cli))
		return EXIT_USAGE;
	return CLI_CONTINUE;
}

/* A run's inputs, model and outputs, freed by run_state_free() */
struct run_state {
	struct diag d;
	struct workload *wl;
	struct platform *pl;
	struct sim *s;
	struct rundir od;
	FILE *tf, *sf, *df, *af;	/* trace, summary, trace.dat, activations */
	FILE *cf;			/* chains.csv, if the workload has chains */
	char *dir;
};

static void run_state_free(struct run_state *rs)
{
	if (rs->tf)
		fclose(rs->tf);
	if (rs->sf)
		fclose(rs->sf);
	if (rs->df)
		fclose(rs->df);
	if (rs->af)
		fclose(rs->af);
	if (rs->cf)
		fclose(rs->cf);
	rundir_close(&rs->od);
	free(rs->dir);
	sim_destroy(rs->s);
	platform_free(rs->pl);
	workload_free(rs->wl);
	diag_free(&rs->d);
}

/*
 * The workload, its platform and the model, with the workload's own
 * choices where no option made them. 0, or -1 (said: bad input).
 */
static int run_load(struct run_args *ra, struct run_state *rs)
{
	struct workload *wl;
	uint64_t end;
	bool cut;

	wl = rs->wl = sim_workload_check(workload_load_all(ra->wfile, &rs->d),
					 &rs->d, 0, ra->o.clamp_policy);
	if (!wl)
		return -1;
	/* what no option chose: the workload's choices, else the defaults */
	sim_opts_resolve(&ra->o, wl);
	end = run_end(wl, ra->o.duration_ns, &cut);
	if (end && workload_check_event_times(wl, end, cut))
		return -1;
	if (check_platform_name(ra->platform, wl, &run_cli))
		return -1;
	rs->pl = load_platform_arg(ra->platform ? ra->platform :
				   wl->platform ? wl->platform :
				   PLATFORM_DEFAULT, &rs->d);
	if (!rs->pl)
		return -1;
	rs->s = sim_create(rs->pl, wl, &ra->o, &rs->d);
	return rs->s ? 0 : -1;
}

/* The output files, created in the run directory's temporary copy;
 * an -o that cannot hold them is a bad argument. 0, or -1 (said). */
static int run_open_outputs(const struct run_args *ra, struct run_state *rs)
{
	struct rundir *od = &rs->od;
	char err[512];

	rs->dir = ra->outdir ? xstrdup(ra->outdir) :
		  xasprintf("out/%s", rs->wl->name);
	outmark_note_input(ra->wfile);
	if (ra->platform)
		outmark_note_input(ra->platform);
	if (rundir_open(od, rs->dir, err, sizeof(err)) ||
	    (!ra->no_trace &&
	     !(rs->tf = rundir_create(od, "trace.txt", err, sizeof(err)))) ||
	    !(rs->sf = rundir_create(od, "summary.json", err, sizeof(err))) ||
	    !(rs->af = rundir_create(od, "activations.csv", err, sizeof(err))) ||
	    (ra->trace_dat &&
	     !(rs->df = rundir_create(od, "trace.dat", err, sizeof(err)))) ||
	    (rs->wl->nchains &&
	     !(rs->cf = rundir_create(od, "chains.csv", err, sizeof(err))))) {
		fprintf(stderr, "capsim: %s\n", err);
		return -1;
	}
	return 0;
}

/* fclose(*@f), said as an error writing @what if it fails; 0 or -1 */
static int close_output(FILE **f, const char *what)
{
	int bad = fclose(*f);

	*f = NULL;
	if (bad)
		fprintf(stderr, "capsim: error writing the %s\n", what);
	return bad ? -1 : 0;
}

/* The finished run's outputs written and committed: 0, or -1 (said) */
static int run_write_outputs(const struct run_args *ra, struct run_state *rs,
			     struct run_info *ri)
{
	char err[512];

	/* the files in creation order: [trace.txt,] summary.json, ... */
	ri->trace_path = rs->tf ? rs->od.fin[0] : NULL;
	ri->summary_path = rs->od.fin[rs->tf ? 1 : 0];
	if (activations_write(rs->s, rs->af)) {
		fprintf(stderr, "capsim: error writing the activations\n");
		return -1;
	}
	if (close_output(&rs->af, "activations"))
		return -1;
	if (rs->cf && chains_csv_write(rs->s, rs->cf)) {
		fprintf(stderr, "capsim: error writing the chains\n");
		return -1;
	}
	if (rs->cf && close_output(&rs->cf, "chains"))
		return -1;
	if (summary_write(rs->s, ri, rs->sf)) {
		fprintf(stderr, "capsim: error writing the summary\n");
		return -1;
	}
	if (close_output(&rs->sf, "summary") ||
	    (rs->tf && close_output(&rs->tf, "trace")))
		return -1;
	/* trace.dat was written by the run, from its events */
	if (rs->df && close_output(&rs->df, "trace.dat"))
		return -1;
	if (rundir_commit(&rs->od, err, sizeof(err))) {
		fprintf(stderr, "capsim: %s\n", err);
		return -1;
	}
	if (ra->no_trace) {
		static const char *const traces[] = { "trace.txt", "trace.dat" };

		remove_stale(rs->dir, traces, ARRAY_SIZE(traces));
	}
	if (!rs->wl->nchains) {
		static const char *const chains[] = { "chains.csv" };

		remove_stale(rs->dir, chains, ARRAY_SIZE(chains));
	}
	rundir_unlock(&rs->od);
	return 0;
}

/* Simulate and write the outputs: 0, or EXIT_RUN (said) */
static int run_simulate(const struct run_args *ra, struct run_state *rs,
			struct run_info *ri)
{
	struct sim *s = rs->s;
	struct progress pg;
	double t0;
	int bad;

	ftrace_writer_limit(&s->tr, ra->max_mb << 20, &s->failed);
	if (rs->df)
		ftrace_writer_dat(&s->tr, rs->df);
	t0 = wall_now();
	progress_init(&pg, ra->quiet, "run", "s simulated",
		      s->end == UINT64_MAX ? 0 : (double)s->end / 1e9);
	s->progress = progress_sim_cb;
	s->progress_arg = &pg;
	bad = sim_run(s, rs->tf);
	progress_end(&pg);
	if (bad || s->failed)
		return run_failed(s, ra->max_mb);
	ri->workload_file = ra->wfile;
	ri->wall_s = wall_now() - t0;
	return run_write_outputs(ra, rs, ri) ? EXIT_RUN : 0;
}

static int cmd_run(int argc, char **argv)
{
	struct run_args ra = {
		/* the choices no option makes stay unset: run_load()'s
		 * sim_opts_resolve() completes them */
		.o = { .activations = true },
		.max_mb = MAX_TRACE_MB_DEFAULT,
	};
	struct run_state rs = { 0 };
	struct run_info ri = { 0 };
	int ret = parse_run_args(argc, argv, &ra);

	if (ret != CLI_CONTINUE)
		return ret;
	diag_init(&rs.d, false);
	rs.d.strict = ra.strict;
	ret = EXIT_USAGE;
	if (!run_load(&ra, &rs) && !run_open_outputs(&ra, &rs))
		ret = run_simulate(&ra, &rs, &ri);
	if (!ret && !ra.quiet) {
		summary_print(rs.s, &ri, stdout);
		summary_print_response(rs.s, stdout);
		chains_print(rs.s, stdout);
		printf("speed: %.1f simulated s per wall s (%.3f s wall, %lu events)\n",
		       ri.wall_s > 0 ? (double)rs.s->now / 1e9 / ri.wall_s : 0.0,
		       ri.wall_s, (unsigned long)rs.s->nevents);
	}
	if (!ret && ra.plot) {
		struct plot_opts po = { .to_s = -1, .quiet = ra.quiet };

		ret = plot_run(rs.dir, &po) ? EXIT_RUN : 0;
	}
	run_state_free(&rs);
	return ret;
}

static int cmd_trace_dat_here(int argc, char **argv)
{
	return cmd_trace_dat(argc, argv, rundir_file_mode());
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "run", cmd_run },
	{ "compare", cmd_compare },
	{ "sweep", cmd_sweep },
	{ "xcheck", cmd_xcheck },
	{ "plot", cmd_plot },
	{ "import", cmd_import },
	{ "import-check", cmd_import_check },
	{ "platforms", cmd_platforms },
	{ "platform", cmd_platform },
	{ "validate", cmd_validate },
	{ "trace-dat", cmd_trace_dat_here },
};

/* --version: the only option of capsim itself (--help aside) */
static int main_opt(void *ctx, int key, const char *arg)
{
	(void)key;
	(void)arg;
	*(bool *)ctx = true;
	return 0;
}

int capsim_main(int argc, char **argv)
{
	struct strbuf names;
	const char *cmd;
	size_t i;
	bool version = false;
	int rest, ret;

	outmark_set_command(argc, argv);
	outmark_reset_inputs();	/* a test calls capsim_main() again */
	ret = cli_parse(&main_cli, argc, argv, main_opt, &version, &rest);
	if (ret != CLI_CONTINUE)
		return ret;
	if (version) {
		printf("capsim %s\n", CAPSIM_VERSION);
		return 0;
	}
	if (rest >= argc) {
		sb_init(&names);
		for (i = 0; i < ARRAY_SIZE(commands); i++)
			sb_printf(&names, "%s%s", i ? ", " : "", commands[i].name);
		ret = cli_usage_error(&main_cli, "missing command (%s)", names.buf);
		sb_free(&names);
		return ret;
	}
	cmd = argv[rest];
	if (!strcmp(cmd, "help")) {
		fputs(usage_main, stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].run(argc - rest, argv + rest);
	return cli_usage_error(&main_cli, "unknown command: %s", cmd);
}
