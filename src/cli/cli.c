// SPDX-License-Identifier: GPL-2.0
/* POSIX only: with _GNU_SOURCE, <sys/stat.h> pulls <linux/stat.h>, which
 * would find kcompat's <linux/types.h> first. */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_tracedat.h"
#include "governor.h"
#include "outmark.h"
#include "rundir.h"
#include "tracedat.h"
#include "platform.h"
#include "platform_cmdline.h"
#include "sim.h"
#include "spelling.h"
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
"  xcheck WORKLOAD.json         the same workload in the guest kernel and simulated,\n"
"                               compared level by level (docs/xcheck.md)\n"
"  plot RUN_DIR|TRACE            plots of a run or of any trace (docs/traces.md)\n"
"  platforms                     list the embedded platforms\n"
"  platform show NAME            print an embedded platform as a platform file\n"
"  platform cmdline NAME|FILE    the guest kernel's parameters for a platform\n"
"  validate FILE...              check workload and platform files\n"
"  trace-dat IN.txt OUT.dat      ftrace text to trace.dat for trace-cmd\n"
"\n"
"capsim COMMAND --help for each command. Exit status: 0 ok, 1 run error,\n"
"2 bad usage or input.\n";

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
"DIR/summary.json; DIR defaults to out/<workload-name>/. Nothing is written\n"
"when the input is bad or the run fails.\n"
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
"  --hz N                scheduler tick rate (default 250)\n"
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
"\n"
"Lists the embedded platforms, or prints one as a platform file, or prints\n"
"the kernel command line parameters that give the capsim guest's virtual\n"
"cpufreq driver the platform's domains, OPPs, capacities and energy model\n"
"(--smp: the number of CPUs, for qemu -smp).\n";

static bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* One line, then where the usage is: scripts get a short, stable error */
static int bad_usage(const char *msg, const char *arg, const char *cmd)
{
	fprintf(stderr, "capsim: %s%s%s\nsee `capsim%s%s --help`\n", msg,
		arg ? ": " : "", arg ? arg : "", cmd ? " " : "", cmd ? cmd : "");
	return EXIT_USAGE;
}

/* A usage error with a formatted message, and where the usage is */
static int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("capsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee `capsim %s --help`\n", cmd);
	return EXIT_USAGE;
}

/* Neither embedded nor a file: what platform_load() would refuse */
static bool platform_unknown(const char *arg)
{
	return !platform_embedded_find(arg) && !strchr(arg, '/') &&
	       !strstr(arg, ".json") && access(arg, R_OK) != 0;
}

/* "did you mean" among the embedded platforms (caller frees) */
static char *platform_hint(const char *arg)
{
	int i, n = platform_embedded_count();
	const char **names = xcalloc((size_t)n + 1, sizeof(*names));
	const char *near;
	char *hint;

	for (i = 0; i < n; i++)
		names[i] = platform_embedded_name(i);
	near = spelling_suggest(arg, names);
	hint = near ? xasprintf(": did you mean \"%s\"?", near) :
	       xstrdup(" (see `capsim platforms`; a file path needs a '/' or .json)");
	free(names);
	return hint;
}

/*
 * The platform a command will load, named by --platform (@flag) or by the
 * workload: an unknown name is a usage error of @cmd, or an input error
 * at capsim.platform. Returns 0 if known.
 */
static int check_platform_name(const char *flag, struct workload *wl,
			       const char *cmd)
{
	const char *name = flag ? flag : wl && wl->platform ? wl->platform :
			   PLATFORM_DEFAULT;
	char *hint;

	if (!platform_unknown(name))
		return 0;
	hint = platform_hint(name);
	if (flag)
		usage_error(cmd, "unknown platform \"%s\"%s", name, hint);
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

static int cmd_platforms(int argc, char **argv)
{
	int i;

	if (argc > 1 && is_help(argv[1])) {
		fputs(usage_platforms, stdout);
		return 0;
	}
	if (argc > 1)
		return bad_usage("unexpected argument", argv[1], "platforms");
	printf("%-10s %5s %8s  %s\n", "name", "cpus", "domains", "description");
	for (i = 0; i < platform_embedded_count(); i++) {
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
	return 0;
}

static struct platform *load_platform_arg(const char *arg, struct diag *d);

static int cmd_platform_cmdline(int argc, char **argv)
{
	bool smp = argc == 3 && !strcmp(argv[1], "--smp");
	struct platform *p;
	struct strbuf sb;
	struct diag d;
	char err[256];
	int ret = 0;

	if (argc != 2 && !smp)
		return bad_usage("platform cmdline needs one NAME or FILE", NULL,
				 "platform");
	if (check_platform_name(argv[argc - 1], NULL, "platform"))
		return EXIT_USAGE;
	diag_init(&d, false);
	p = load_platform_arg(argv[argc - 1], &d);
	diag_free(&d);
	if (!p)
		return EXIT_USAGE;
	sb_init(&sb);
	if (platform_kernel_cmdline(p, &sb, err, sizeof(err))) {
		fprintf(stderr, "capsim: platform %s: %s\n", p->name, err);
		ret = EXIT_USAGE;
	} else if (smp) {
		printf("%d\n", p->ncpus);
	} else {
		printf("%s\n", sb.buf);
	}
	sb_free(&sb);
	platform_free(p);
	return ret;
}

static int cmd_platform(int argc, char **argv)
{
	const char *text;

	if (argc < 2)
		return bad_usage("platform needs a subcommand: show NAME, cmdline NAME|FILE",
				 NULL, "platform");
	if (is_help(argv[1]) || (argc > 2 && is_help(argv[2]))) {
		fputs(usage_platforms, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "cmdline"))
		return cmd_platform_cmdline(argc - 1, argv + 1);
	if (strcmp(argv[1], "show"))
		return bad_usage("unknown platform subcommand", argv[1],
				 "platform");
	if (argc != 3)
		return bad_usage("platform show needs one NAME", NULL,
				 "platform");
	text = platform_embedded_find(argv[2]);
	if (!text) {
		char *hint = platform_hint(argv[2]);

		usage_error("platform", "unknown platform \"%s\"%s", argv[2],
			    hint);
		free(hint);
		return EXIT_USAGE;
	}
	fputs(text, stdout);
	return 0;
}

static struct platform *load_platform_arg(const char *arg, struct diag *d)
{
	if (!platform_embedded_find(arg) && !strchr(arg, '/') &&
	    access(arg, R_OK) == 0) {
		char *p = xasprintf("./%s", arg);
		struct platform *pl = platform_load(p, d);

		free(p);
		return pl;
	}
	return platform_load(arg, d);
}

/* Whether @path holds a platform file rather than a workload (by keys) */
static bool is_platform_file(const char *path)
{
	struct diag quiet;
	struct jdoc doc;
	bool ret;

	diag_init(&quiet, true);
	ret = !jdoc_load_rtapp_file(&doc, path, &quiet) &&
	      !json_object_get(doc.root, "tasks") &&
	      json_object_get(doc.root, "domains");
	jdoc_free(&doc);
	diag_free(&quiet);
	return ret;
}

static bool validate_workload(const char *file, const char *platform,
			      struct diag *d)
{
	struct workload *wl =
		sim_workload_check(workload_load_all(file, d), d, 0);
	struct sim_opts o = { .hz = 250 };
	struct platform *p = NULL;
	struct sim *s = NULL;
	uint64_t end;
	bool ok, cut;

	if (!wl)
		return false;
	end = run_end(wl, 0, &cut);
	if (end) {
		workload_check_event_times(wl, end, cut);
	} else if (!workload_tasks_end(wl)) {
		/* as `capsim run --duration` would: check the rest */
		diag_report(d, false, file, 0, 0,
			    "the workload never ends (global.duration is -1 and a task loops forever): `capsim run` needs --duration");
		o.duration_ns = NSEC_PER_SEC;
	}
	if (!check_platform_name(platform, wl, "validate"))
		p = load_platform_arg(platform ? platform :
				      wl->platform ? wl->platform :
				      PLATFORM_DEFAULT, d);
	if (p)
		s = sim_create(p, wl, &o, d);
	ok = s && !d->errors;
	if (ok)
		printf("%s: ok: workload %s, %d tasks, on %s, %d warnings\n",
		       file, wl->name, s->ntasks, p->name, d->warnings);
	sim_destroy(s);
	platform_free(p);
	workload_free(wl);
	return ok;
}

static int cmd_validate(int argc, char **argv)
{
	const char *platform = NULL;
	bool strict = false;
	int bad = 0, first, i;

	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			fputs(usage_validate, stdout);
			return 0;
		}
	}
	for (first = 1; first < argc && argv[first][0] == '-'; first++) {
		if (!strcmp(argv[first], "--strict")) {
			strict = true;
		} else if (!strcmp(argv[first], "--platform")) {
			if (first + 1 >= argc)
				return bad_usage("missing value for",
						 "--platform", "validate");
			platform = argv[++first];
			if (check_platform_name(platform, NULL, "validate"))
				return EXIT_USAGE;
		} else {
			return bad_usage("unknown option", argv[first],
					 "validate");
		}
	}
	if (argc <= first)
		return bad_usage("validate needs at least one FILE", NULL,
				 "validate");
	for (i = first; i < argc; i++) {
		struct diag d;

		diag_init(&d, false);
		d.strict = strict;
		if (is_platform_file(argv[i])) {
			struct platform *p = load_platform_arg(argv[i], &d);

			if (p)
				printf("%s: ok: platform %s, %d CPUs, %d domains, %d warnings\n",
				       argv[i], p->name, p->ncpus, p->ndomains,
				       d.warnings);
			else
				bad = 1;
			platform_free(p);
		} else if (!validate_workload(argv[i], platform, &d)) {
			bad = 1;
		}
		diag_free(&d);
	}
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
	else
		fprintf(stderr, "capsim: error writing the trace\n");
	return EXIT_RUN;
}

/*
 * A --no-trace run into a directory that holds an older run's trace:
 * remove it (and its trace.dat), so that no trace sits beside a summary
 * it does not belong to
 */
static void remove_stale_trace(const char *dir)
{
	static const char *const names[] = { "trace.txt", "trace.dat" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		if (unlink(p) && errno != ENOENT)
			fprintf(stderr, "capsim: warning: cannot remove %s: %s\n",
				p, strerror(errno));
		free(p);
	}
}

/* The written trace text at @txt converted into @out (closed here) */
static int trace_dat_from(const char *txt, FILE *out)
{
	FILE *in = fopen(txt, "r");
	char err[512];
	int ret = 0;

	if (!in || tracedat_convert(in, txt, out, err, sizeof(err))) {
		fprintf(stderr, "capsim: trace.dat: %s\n",
			in ? err : strerror(errno));
		ret = -1;
	}
	if (in)
		fclose(in);
	if (fclose(out) && !ret) {
		fprintf(stderr, "capsim: error writing trace.dat: %s\n",
			strerror(errno));
		ret = -1;
	}
	return ret;
}

static int cmd_run(int argc, char **argv)
{
	const char *wfile = NULL, *platform = NULL, *policy = NULL,
		   *outdir = NULL, *order = NULL, *rule = NULL;
	struct sim_opts o = { .policy = POLICY_RFC, .hz = 250,
			       .activations = true };
	uint64_t max_mb = MAX_TRACE_MB_DEFAULT;
	int ret = EXIT_RUN, i;
	struct workload *wl = NULL;
	struct platform *pl = NULL;
	struct rundir od = { 0 };
	struct sim *s = NULL;
	FILE *tf = NULL, *sf = NULL, *df = NULL, *af = NULL;
	char *dir = NULL;
	char err[512];
	bool quiet = false, strict = false, trace_dat = false, cut;
	bool plot = false, no_trace = false;
	struct progress pg;
	uint64_t end;
	struct run_info ri;
	struct diag d;
	double t0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has_val = i + 1 < argc;

		if (is_help(a)) {
			fputs(usage_run, stdout);
			return 0;
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--trace-util")) {
			o.trace_util = true;
		} else if (!strcmp(a, "--trace-signals")) {
			o.trace_signals = true;
		} else if (!strcmp(a, "--strict")) {
			strict = true;
		} else if (!strcmp(a, "--trace-dat")) {
			trace_dat = true;
		} else if (!strcmp(a, "--plot")) {
			plot = true;
		} else if (!strcmp(a, "--no-trace")) {
			no_trace = true;
		} else if (!strcmp(a, "--platform") || !strcmp(a, "--policy") ||
			   !strcmp(a, "--duration") || !strcmp(a, "--seed") ||
			   !strcmp(a, "-o") || !strcmp(a, "--clamp-order") ||
			   !strcmp(a, "--domain-rule") ||
			   !strcmp(a, "--governor") ||
			   !strcmp(a, "--clamp-backend") ||
			   !strcmp(a, "--hz") || !strcmp(a, "--max-trace-mb")) {
			const char *v;
			char *end;

			if (!has_val)
				return bad_usage("missing value for", a, "run");
			v = argv[++i];
			if (!strcmp(a, "--platform")) {
				platform = v;
			} else if (!strcmp(a, "--policy")) {
				policy = v;
			} else if (!strcmp(a, "-o")) {
				if (!*v)
					return bad_usage("-o needs a directory, not an empty path",
							 NULL, "run");
				outdir = v;
			} else if (!strcmp(a, "--clamp-order")) {
				order = v;
			} else if (!strcmp(a, "--domain-rule")) {
				rule = v;
			} else if (!strcmp(a, "--clamp-backend")) {
				if (strcmp(v, "rbtree") && strcmp(v, "exact"))
					return usage_error("run", "unknown clamp backend \"%s\": allowed rbtree, exact",
							   v);
				o.clamp_backend = v;
			} else if (!strcmp(a, "--governor")) {
				const char *why;

				if (governor_parse(v, &o.governor, &why))
					return usage_error("run", "unknown governor \"%s\": %s",
							   v, why);
				o.governor_set = true;
			} else if (!strcmp(a, "--duration")) {
				double sec = strtod(v, &end);

				/* 0 would mean "unset": never round to it */
				if (*end || end == v || !(sec >= WL_DURATION_MIN_S) ||
				    !(sec <= WL_DURATION_MAX_S))
					return bad_usage("--duration needs seconds in [1e-06, 1e+06]",
							 v, "run");
				o.duration_ns = (uint64_t)(sec * 1e9 + 0.5);
			} else if (!strcmp(a, "--seed")) {
				unsigned long long x;

				errno = 0;
				x = strtoull(v, &end, 0);
				if (*end || end == v || errno || v[0] == '-')
					return bad_usage("--seed needs a non-negative integer",
							 v, "run");
				o.seed = x;
			} else if (!strcmp(a, "--max-trace-mb")) {
				errno = 0;
				max_mb = strtoull(v, &end, 10);
				if (*end || end == v || errno || v[0] == '-' ||
				    max_mb < 1 || max_mb > (1ULL << 30))
					return bad_usage("--max-trace-mb needs an integer in [1, 1073741824]",
							 v, "run");
			} else {
				long hz = strtol(v, &end, 10);

				if (*end || end == v || hz < 10 || hz > 10000)
					return bad_usage("--hz needs an integer in [10, 10000]",
							 v, "run");
				o.hz = (unsigned int)hz;
			}
		} else if (a[0] == '-' && a[1]) {
			return bad_usage("unknown option", a, "run");
		} else if (!wfile) {
			wfile = a;
		} else {
			return bad_usage("more than one workload", a, "run");
		}
	}
	if (!wfile)
		return bad_usage("run needs a WORKLOAD.json", NULL, "run");
	if (no_trace && (o.trace_util || o.trace_signals || trace_dat || plot))
		return bad_usage("--no-trace writes no trace; not with",
				 o.trace_util ? "--trace-util" :
				 o.trace_signals ? "--trace-signals" :
				 trace_dat ? "--trace-dat" : "--plot", "run");

	/* the flags first: a usage error before any input error */
	if (policy && policy_parse(policy, &o.policy))
		return usage_error("run", "unknown policy \"%s\": allowed rfc, uclamp, none",
				   policy);
	if (order && clamp_order_parse(order, &o.order))
		return usage_error("run", "unknown clamp order \"%s\": allowed 6.12, 4.10",
				   order);
	if (rule && strcmp(rule, "rfc") && strcmp(rule, "nonidle"))
		return usage_error("run", "unknown domain rule \"%s\": allowed rfc, nonidle",
				   rule);
	if (platform && check_platform_name(platform, NULL, "run"))
		return EXIT_USAGE;

	diag_init(&d, false);
	d.strict = strict;
	ret = EXIT_USAGE;
	wl = sim_workload_check(workload_load_all(wfile, &d), &d, 0);
	if (!wl)
		goto out;
	/* the workload's own choices were checked by its parser */
	if (!policy)
		policy_parse(wl->policy ? wl->policy : "rfc", &o.policy);
	if (!order)
		clamp_order_parse(wl->clamp_order ? wl->clamp_order : "6.12",
				  &o.order);
	if (!rule)
		rule = wl->domain_rule ? wl->domain_rule : "nonidle";
	o.nonidle_rule = !strcmp(rule, "nonidle");
	end = run_end(wl, o.duration_ns, &cut);
	if (end && workload_check_event_times(wl, end, cut))
		goto out;
	if (check_platform_name(platform, wl, "run"))
		goto out;
	pl = load_platform_arg(platform ? platform : wl->platform ? wl->platform :
			       PLATFORM_DEFAULT, &d);
	if (!pl)
		goto out;
	s = sim_create(pl, wl, &o, &d);
	if (!s)
		goto out;

	/* an -o that cannot hold the outputs is a bad argument: status 2 */
	dir = outdir ? xstrdup(outdir) : xasprintf("out/%s", wl->name);
	outmark_note_input(wfile);
	if (platform)
		outmark_note_input(platform);
	if (rundir_open(&od, dir, err, sizeof(err)) ||
	    (!no_trace &&
	     !(tf = rundir_create(&od, "trace.txt", err, sizeof(err)))) ||
	    !(sf = rundir_create(&od, "summary.json", err, sizeof(err))) ||
	    !(af = rundir_create(&od, "activations.csv", err, sizeof(err))) ||
	    (trace_dat &&
	     !(df = rundir_create(&od, "trace.dat", err, sizeof(err))))) {
		fprintf(stderr, "capsim: %s\n", err);
		goto out;
	}
	ret = EXIT_RUN;
	ftw_limit(&s->tr, max_mb << 20, &s->failed);

	t0 = wall_now();
	progress_init(&pg, quiet, "run", "s simulated",
		      s->end == UINT64_MAX ? 0 : (double)s->end / 1e9);
	s->progress = progress_sim_cb;
	s->progress_arg = &pg;
	i = sim_run(s, tf);
	progress_end(&pg);
	if (i || s->failed) {
		ret = run_failed(s, max_mb);
		goto out;
	}
	ri.workload_file = wfile;
	/* the files in creation order: [trace.txt,] summary.json, ... */
	ri.trace_path = tf ? od.fin[0] : NULL;
	ri.summary_path = od.fin[tf ? 1 : 0];
	ri.wall_s = wall_now() - t0;
	if (activations_write(s, af) || fclose(af)) {
		af = NULL;
		fprintf(stderr, "capsim: error writing the activations\n");
		goto out;
	}
	af = NULL;
	if (summary_write(s, &ri, sf) || fclose(sf)) {
		sf = NULL;
		fprintf(stderr, "capsim: error writing the summary\n");
		goto out;
	}
	sf = NULL;
	if (tf && fclose(tf)) {
		tf = NULL;
		fprintf(stderr, "capsim: error writing the trace\n");
		goto out;
	}
	tf = NULL;
	if (df && trace_dat_from(od.tmp[0], df))
		goto out;
	df = NULL;
	if (rundir_commit(&od, err, sizeof(err))) {
		fprintf(stderr, "capsim: %s\n", err);
		goto out;
	}
	if (no_trace)	/* no older trace beside the new summary */
		remove_stale_trace(dir);
	rundir_unlock(&od);
	if (!quiet) {
		summary_print(s, &ri, stdout);
		printf("speed: %.1f simulated s per wall s (%.3f s wall, %lu events)\n",
		       ri.wall_s > 0 ? (double)s->now / 1e9 / ri.wall_s : 0.0,
		       ri.wall_s, (unsigned long)s->nevents);
	}
	ret = 0;
	if (plot) {
		struct plot_opts po = { .to_s = -1, .quiet = quiet };

		ret = plot_run(dir, &po) ? EXIT_RUN : 0;
	}
out:
	if (tf)
		fclose(tf);
	if (sf)
		fclose(sf);
	if (df)
		fclose(df);
	if (af)
		fclose(af);
	rundir_close(&od);
	free(dir);
	sim_destroy(s);
	platform_free(pl);
	workload_free(wl);
	diag_free(&d);
	return ret;
}

int capsim_main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		return bad_usage("missing command (run, platforms, platform, validate)",
				 NULL, NULL);
	cmd = argv[1];
	outmark_set_command(argc, argv);
	outmark_reset_inputs();	/* a test calls capsim_main() again */
	if (is_help(cmd) || !strcmp(cmd, "help")) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("capsim %s\n", CAPSIM_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(cmd, "sweep"))
		return cmd_sweep(argc - 1, argv + 1);
	if (!strcmp(cmd, "xcheck"))
		return cmd_xcheck(argc - 1, argv + 1);
	if (!strcmp(cmd, "plot"))
		return cmd_plot(argc - 1, argv + 1);
	if (!strcmp(cmd, "platforms"))
		return cmd_platforms(argc - 1, argv + 1);
	if (!strcmp(cmd, "platform"))
		return cmd_platform(argc - 1, argv + 1);
	if (!strcmp(cmd, "validate"))
		return cmd_validate(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace-dat"))
		return cmd_trace_dat(argc - 1, argv + 1, rundir_file_mode());
	return bad_usage("unknown command", cmd, NULL);
}
