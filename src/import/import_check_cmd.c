// SPDX-License-Identifier: GPL-2.0
/*
 * `capsim import-check`: the import check as a command of its own, for any
 * workload beside any trace (`capsim import --check` runs it on the
 * workload it just wrote, comparing only the tasks imported as their own).
 */
#include <stdio.h>

#include "cli_opts.h"
#include "import_check.h"

static const char usage_import_check[] =
"usage: capsim import-check SOURCE_TRACE WORKLOAD.json -o DIR\n"
"                           [--platform NAME|FILE] [--policy rfc|uclamp|none]\n"
"                           [--from SEC] [--to SEC] [--tasks REGEX]\n"
"                           [--no-plots] [--quiet]\n"
"\n"
"Runs WORKLOAD.json (made by `capsim import` from SOURCE_TRACE, or any\n"
"rt-app workload) in capsim over the source's window and puts it beside\n"
"the source (any trace `capsim plot` reads): per task (matched by name,\n"
"its first 15 characters; pids of one name are one row) busy time,\n"
"activations, wake-up rate, response time p50/p95; per CPU busy share;\n"
"per domain frequency residency (\"unknown\" before the source's first\n"
"frequency event) and its TVD over the time both traces know.\n"
"Writes DIR/import-check.md (deltas in %, busy beyond 5 % and\n"
"activations beyond 2 % flagged, tasks missing from or extra in the\n"
"simulation named), DIR/import-check.json, DIR/import-check.png/.svg\n"
"(source lanes above simulated lanes, one time axis) and the run in\n"
"DIR/sim/. --platform default sym4, --policy default rfc; --from/--to: a\n"
"window in seconds from the source's first event; --tasks: keep the\n"
"tasks whose name or any comm matches (POSIX extended regex).\n"
"Exit 0 whether or not tasks are flagged (see \"within_tolerance\"),\n"
"1 when the run or a write fails, 2 for a usage error or bad input.\n"
"Rules: docs/import-check.md.\n";

enum { OPT_PLATFORM = 256, OPT_POLICY, OPT_FROM, OPT_TO, OPT_TASKS,
       OPT_NO_PLOTS, OPT_QUIET };

static const struct option import_check_options[] = {
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "tasks", required_argument, NULL, OPT_TASKS },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ 0 },
};

static const struct cli_cmd import_check_cli = {
	.prog = "capsim", .name = "import-check", .usage = usage_import_check,
	.shortopts = "o:", .longopts = import_check_options,
};

static int import_check_opt(void *ctx, int key, const char *arg)
{
	struct import_check_opts *o = ctx;

	switch (key) {
	case OPT_PLATFORM: o->platform = arg; break;
	case OPT_POLICY: o->policy = arg; break;
	case OPT_TASKS: o->tasks_regex = arg; break;
	case OPT_NO_PLOTS: o->plots = false; break;
	case OPT_QUIET: o->quiet = true; break;
	case 'o': o->outdir = arg; break;
	case OPT_FROM:
	case OPT_TO:
		return cli_parse_double(&import_check_cli,
					key == OPT_FROM ? "--from" : "--to",
					arg, 0, 1e9, "seconds in [0, 1e+09]",
					key == OPT_FROM ? &o->from_s : &o->to_s);
	default:
		if (!o->source_trace)
			o->source_trace = arg;
		else if (!o->workload)
			o->workload = arg;
		else
			return cli_usage_error(&import_check_cli,
					       "one SOURCE_TRACE and one WORKLOAD: %s is a third",
					       arg);
	}
	return 0;
}

int cmd_import_check(int argc, char **argv)
{
	struct import_check_opts o = { .from_s = -1, .to_s = -1,
				       .plots = true };
	int ret = cli_parse(&import_check_cli, argc, argv, import_check_opt,
			    &o, NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (!o.source_trace || !o.workload)
		return cli_usage_error(&import_check_cli,
				       "import-check needs a SOURCE_TRACE and a WORKLOAD.json");
	if (!o.outdir)
		return cli_usage_error(&import_check_cli, "import-check needs -o DIR");
	return import_check_run(&o);
}
