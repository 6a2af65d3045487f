// SPDX-License-Identifier: GPL-2.0
/* `capsim import`: the command line, the output's checks, the steps in
 * order (import.h lists them) */
/* POSIX only: <sys/stat.h> must not see kcompat's linux/ */
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clamp_names.h"
#include "cli_opts.h"
#include "import.h"
#include "import_cmd.h"
#include "import_check.h"
#include "import_ere.h"
#include "escape.h"
#include "outmark.h"
#include "whatif.h"
#include "util.h"

/* The first bytes of every file capsim import writes */
#define IMPORT_HEADER "/* capsim import of "

static const char usage_import[] =
"usage: capsim import TRACE -o WORKLOAD.json [--platform NAME|FILE]\n"
"                     [--window A:B] [--tasks REGEX] [--min-busy PCT] [--explain]\n"
"                     [--check DIR [--policy P] [--no-plots]]\n"
"\n"
"Turns a trace (any format capsim plot reads: ftrace text, trace-cmd report\n"
"default/-N/-R, systrace text or HTML, trace.dat, Perfetto protobuf) into an\n"
"rt-app workload that rt-app and capsim run (docs/import.md has every rule):\n"
"each task of the window becomes an rt-app task with its policy and\n"
"priority (from the trace's prio), the CPUs it ran on, and its activity:\n"
"a timer where its wake-ups are regular, one loop of k run/sleep steps\n"
"where k wake-ups repeat per period, else its run/sleep sequence, in\n"
"phases where its period or duty cycle changes; runs are work normalised\n"
"from the observed frequency and CPU capacity to the platform's; a task\n"
"woken mostly by one other becomes suspend/resume on it (two tasks waking\n"
"each other: both ways); loop tasks woken at one step of every pass by\n"
"the last of them to arrive meet at a barrier; cap_clamp groups and\n"
"writes become capsim.taskgroups and capsim.events; LISA's\n"
"lisa__uclamp_util_se gives a task util_min/util_max (the lowest of its\n"
"CPU's clamps while it ran).\n"
"\n"
"  -o WORKLOAD.json  the workload; an existing file is replaced only when\n"
"                    capsim import wrote it (written aside, then renamed)\n"
"  --platform P      the platform whose capacities and OPPs normalise the\n"
"                    work (default sym4); a trace naming more CPUs is refused\n"
"  --window A:B      seconds from the trace's first event (B may be empty:\n"
"                    to the end); an hour at most, the longest an imported\n"
"                    run or sleep may last\n"
"  --tasks REGEX     import the tasks whose comm (cut at the kernel's 15\n"
"                    bytes) matches (POSIX extended, no back-reference);\n"
"                    the others fold into the background\n"
"  --min-busy PCT    tasks busy below PCT % of the window fold into the\n"
"                    background, one periodic load per CPU (default 0.5)\n"
"  --explain         print per task what was inferred and why\n"
"  --check DIR       then run the workload in capsim on the platform and put\n"
"                    it beside the trace, over the same window and tasks:\n"
"                    DIR/import-check.json, .md and .png (docs/import-check.md):\n"
"                    the tasks imported as their own, the folded background\n"
"                    left out\n"
"  --policy P        the check's policy: rfc (default), none or uclamp\n"
"  --no-plots        the check without its plot\n"
"\n"
"The workload is checked as `capsim validate` checks one before it is\n"
"renamed into place: task names unique, group paths ones capsim takes.\n"
"\n"
"Exit status: 0, 1 for I/O errors, 2 for usage errors and bad input\n"
"(FILE:LINE:COL: a group path no cgroup has, among others), a trace\n"
"without sched_switch, or an -o not capsim's.\n";

enum { OPT_PLATFORM = 256, OPT_WINDOW, OPT_TASKS, OPT_MIN_BUSY, OPT_EXPLAIN,
       OPT_CHECK, OPT_POLICY, OPT_NO_PLOTS };

static const struct option import_options[] = {
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "tasks", required_argument, NULL, OPT_TASKS },
	{ "min-busy", required_argument, NULL, OPT_MIN_BUSY },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "check", required_argument, NULL, OPT_CHECK },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	{ 0 },
};

static const struct cli_cmd import_cli = {
	.prog = "capsim", .name = "import", .usage = usage_import,
	.shortopts = "o:", .longopts = import_options,
};

static int parse_window(struct import_opts *o, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char *end;

	if (!colon)
		goto bad;
	o->from_s = strtod(arg, &end);
	if (end != colon || !(o->from_s >= 0) || !(o->from_s <= 1e9))
		goto bad;
	if (!colon[1])
		return 0;
	o->to_s = strtod(colon + 1, &end);
	if (*end || !(o->to_s <= 1e9) || !(o->to_s > o->from_s))
		goto bad;
	return 0;
bad:
	return cli_usage_error(&import_cli, "--window needs A:B, seconds from the trace's start with 0 <= A < B (or A: to the end): %s",
			       arg);
}

/* The command's options: the import's own, and the check run after it */
struct import_cmd_opts {
	struct import_opts imp;
	const char *check_dir;	/* --check DIR, or NULL */
	const char *policy;	/* --policy, only with --check */
	bool no_plots;
};

static int import_opt(void *ctx, int key, const char *arg)
{
	struct import_cmd_opts *c = ctx;
	struct import_opts *o = &c->imp;

	switch (key) {
	case OPT_CHECK: c->check_dir = arg; break;
	case OPT_POLICY: c->policy = arg; break;
	case OPT_NO_PLOTS: c->no_plots = true; break;
	case 'o': o->out = arg; break;
	case OPT_PLATFORM: o->platform = arg; break;
	case OPT_TASKS: o->tasks = arg; break;
	case OPT_EXPLAIN: o->explain = true; break;
	case OPT_WINDOW: return parse_window(o, arg);
	case OPT_MIN_BUSY:
		return cli_parse_double(&import_cli, "--min-busy", arg, 0, 100,
					"a percentage in [0, 100]",
					&o->min_busy_pct);
	default:
		if (o->trace)
			return cli_usage_error(&import_cli, "more than one trace: %s",
					       arg);
		o->trace = arg;
	}
	return 0;
}

/* Whether the regular file @path starts as capsim import's files do */
static bool written_by_import(const char *path)
{
	return outmark_file_starts_with(path, IMPORT_HEADER,
					sizeof(IMPORT_HEADER) - 1);
}

/* May -o be (re)placed? 0, or 2 with the reason said */
static int check_output(const char *out, const char *trace)
{
	struct stat lst, st, in;

	if (lstat(out, &lst)) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "capsim: import: cannot check %s: %s\n", out,
			strerror(errno));
		return 2;
	}
	if (!stat(trace, &in) && !stat(out, &st) && st.st_dev == in.st_dev &&
	    st.st_ino == in.st_ino) {
		fprintf(stderr, "capsim: import: -o %s is the trace %s: choose another WORKLOAD.json\n",
			out, trace);
		return 2;
	}
	if (!S_ISREG(lst.st_mode)) {
		fprintf(stderr, "capsim: import: -o %s exists and is not a regular file: choose another WORKLOAD.json\n",
			out);
		return 2;
	}
	if (!written_by_import(out)) {
		fprintf(stderr, "capsim: import: -o %s exists and was not written by capsim import: choose another WORKLOAD.json or remove it\n",
			out);
		return 2;
	}
	return 0;
}

/* --platform NAME|FILE as the loader and a child capsim run take it: a
 * file here that is no embedded platform's name as ./FILE (caller frees),
 * or NULL: @arg as it is */
static char *platform_file_here(const char *arg)
{
	if (!platform_embedded_find(arg) && !strchr(arg, '/') &&
	    access(arg, R_OK) == 0)
		return xasprintf("./%s", arg);
	return NULL;
}

/*
 * What capsim.platform says for --platform @arg, so that the workload
 * reads back the platform it was made for: an embedded platform's name
 * as it is (NULL: the platform's own name), a file by its absolute path
 * (its `name` may be unknown to capsim, or another embedded platform's).
 * 0, or 2 (said) for a path a JSON string cannot hold.
 */
static int platform_ref(const char *arg, char **ref)
{
	*ref = NULL;
	if (!arg || platform_embedded_find(arg))
		return 0;
	*ref = realpath(arg, NULL);
	if (!*ref)
		*ref = xstrdup(arg);	/* platform_load() says why not */
	if (utf8_valid(*ref))
		return 0;
	fprintf(stderr, "capsim: import: --platform: the file's path is not valid UTF-8, which the workload's capsim.platform cannot hold: rename it\n");
	free(*ref);
	*ref = NULL;
	return 2;
}

/* @path absolute, its last existing ancestor resolved and the rest as
 * written: where a file that does not exist yet would be */
static char *resolved(const char *path)
{
	char *copy = xstrdup(path), *real, *out;
	const char *rest;
	size_t n = strlen(copy);

	for (;;) {
		real = realpath(n ? copy : ".", NULL);
		if (real || !n)
			break;
		while (n && copy[n - 1] != '/')	/* its last name */
			n--;
		while (n > 1 && copy[n - 1] == '/')	/* the '/'s, not the root */
			n--;
		copy[n] = '\0';
	}
	free(copy);
	if (!real)
		return xstrdup(path);
	rest = path + n;
	out = !*rest ? xstrdup(real) :
	      xasprintf("%s%s%s", real, real[strlen(real) - 1] == '/' ||
			*rest == '/' ? "" : "/", rest);
	free(real);
	return out;
}

/*
 * --check DIR against what import writes first: DIR a symbolic link
 * (the check's output directory is never written through one), or DIR
 * that is or holds -o, which the check's directory would replace. 0, or
 * 2 with the reason in @err: found before the workload is written.
 */
static int check_dir_conflict(const char *dir, const char *out, char *err,
			      size_t len)
{
	struct stat st;
	char *d, *o;
	size_t n;
	int ret = 0;

	if (!lstat(dir, &st) && S_ISLNK(st.st_mode)) {
		snprintf(err, len, "%s is a symbolic link: name the directory itself with --check",
			 dir);
		return 2;
	}
	d = resolved(dir);
	o = resolved(out);
	n = strlen(d);
	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	if (!strncmp(o, d, n) && (!o[n] || o[n] == '/' || !strcmp(d, "/"))) {
		snprintf(err, len, "%s would hold the workload -o %s, which the check's directory replaces: choose another --check DIR or -o",
			 dir, out);
		ret = 2;
	}
	free(d);
	free(o);
	return ret;
}

static struct platform *load_platform(const char *arg)
{
	struct platform *pl;
	struct diag d;

	diag_init(&d, false);
	pl = platform_load(arg, &d);
	diag_free(&d);
	return pl;
}

static bool matches(void *arg, const char *comm)
{
	return !regexec(arg, comm, 0, NULL, 0);
}

/* What --check needs of the import: the tasks imported as their own, by
 * their names in the workload and the comm each stands for */
struct check_tasks {
	char **names, **comms;
	int n;
	int nuclamp;	/* of them with util_min/util_max written */
};

static void check_tasks_free(struct check_tasks *ct)
{
	int i;

	for (i = 0; i < ct->n; i++) {
		free(ct->names[i]);
		free(ct->comms[i]);
	}
	free(ct->names);
	free(ct->comms);
}

/*
 * --check compares the tasks imported as tasks of their own, by their
 * names in the workload and their comms in the trace (a set, looked up
 * by hash: no regular expression of 10^5 alternatives): the folded ones
 * have no counterpart but the per-CPU background, which is left out of
 * the comparison (docs/import.md); with none imported as its own, none
 * is compared
 */
static void imported_tasks(struct import_model *m, struct check_tasks *ct)
{
	int i;

	ct->names = xcalloc((size_t)m->ss.ntasks + 1, sizeof(char *));
	ct->comms = xcalloc((size_t)m->ss.ntasks + 1, sizeof(char *));
	for (i = 0; i < m->ss.ntasks; i++) {
		const struct import_task *t = import_task(m, i);

		if (t->folded || !t->name)
			continue;
		ct->names[ct->n] = xstrdup(t->name);
		ct->comms[ct->n++] = xstrdup(import_last_comm(t));
		if (t->uclamp_samples &&
		    (t->uclamp_min > 0 || t->uclamp_max < 1024))
			ct->nuclamp++;
	}
}

static int run_import(struct import_opts *o, regex_t *re,
		      struct check_tasks *check_tasks)
{
	struct import_model m = { .o = o };
	char *ref;
	int ret, i;

	m.pl = load_platform(o->platform ? o->platform : PLATFORM_DEFAULT);
	if (!m.pl)
		return 2;
	ret = platform_ref(o->platform, &ref);
	if (ret) {
		platform_free(m.pl);
		return ret;
	}
	o->platform_ref = ref;
	ret = import_read(&m);
	if (!ret) {
		import_cap_comms(&m);
		import_name_tasks(&m);
		import_fold(&m, re ? matches : NULL, re);
		for (i = 0; i < m.ss.ntasks; i++)
			import_phases(&m, import_task(&m, i));
		import_deps(&m);
		for (i = 0; i < m.ss.ntasks; i++)
			import_loops(&m, import_task(&m, i));
		for (i = 0; i < m.ss.ntasks; i++)
			import_runtime(&m, import_task(&m, i));
		import_barriers(&m);
		for (i = 0; i < m.ss.ntasks; i++)
			import_classify(&m, import_task(&m, i));
		if (o->explain)
			import_explain(&m, stdout);
		ret = import_write_rtapp(&m);
		if (!ret && check_tasks)
			imported_tasks(&m, check_tasks);
	}
	import_model_free(&m);
	platform_free(m.pl);
	o->platform_ref = NULL;
	free(ref);
	return ret;
}

/*
 * --check: the workload just written, run in capsim beside its trace over
 * the window it was made from, comparing the tasks imported as their own
 * (@ct)
 */
static int run_check(const struct import_cmd_opts *c,
		     const struct check_tasks *ct)
{
	const struct import_opts *o = &c->imp;
	/* checked by whatif_check_list(), or the default */
	const char *policy = c->policy ? c->policy :
			     clamp_policy_name(CLAMP_POLICY_DEFAULT);
	const struct clamp_policy_info *pi = clamp_policy_find(policy);
	struct import_check_opts ck = {
		.source_trace = o->trace, .workload = o->out,
		.platform = o->platform, .policy = c->policy,
		.outdir = c->check_dir, .from_s = o->from_s, .to_s = o->to_s,
		.tasks_by_alias = true, .plots = !c->no_plots,
		.sim_names = (const char *const *)ct->names,
		.src_comms = (const char *const *)ct->comms,
		.naliases = ct->n,
	};

	/* the child run warns of the keys, but its messages are the
	 * check's; the user asked for this policy or took the default */
	if (ct->nuclamp && !(pi && pi->uclamp_values))
		fprintf(stderr, "capsim: import: note: %d task%s util_min/util_max (from lisa__uclamp_util_se), which only --policy uclamp uses: this check runs %s\n",
			ct->nuclamp, ct->nuclamp > 1 ? "s have" : " has",
			policy);
	return import_check_run(&ck);
}

int cmd_import(int argc, char **argv)
{
	struct import_cmd_opts c = { .imp = { .to_s = -1,
				.min_busy_pct = IMPORT_MIN_BUSY_PCT } };
	struct import_opts *o = &c.imp;
	struct check_tasks check_tasks = { 0 };
	char *platform_here = NULL;
	regex_t re;
	int ret = cli_parse(&import_cli, argc, argv, import_opt, &c, NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (!o->trace)
		return cli_usage_error(&import_cli, "import needs a TRACE");
	if (!o->out || !*o->out)
		return cli_usage_error(&import_cli, o->out ? "-o is an empty path" :
				       "import needs -o WORKLOAD.json");
	if (!c.check_dir && (c.policy || c.no_plots))
		return cli_usage_error(&import_cli, "%s is an option of --check DIR",
				       c.policy ? "--policy" : "--no-plots");
	if (c.policy) {
		char *pol[2] = { (char *)c.policy, NULL };

		if (whatif_check_list(pol, "--policy", "import", true))
			return 2;
	}
	if (o->tasks) {
		char err[256];

		if (import_ere_compile(&re, o->tasks, err, sizeof(err)))
			return cli_usage_error(&import_cli, "--tasks: %s: %s",
					       err, o->tasks);
	}
	outmark_note_input(o->trace);
	if (c.check_dir) {
		/* refused before the workload is written */
		char err[2 * PATH_MAX + 128];

		if (outmark_check_dir(c.check_dir, err, sizeof(err)) ||
		    check_dir_conflict(c.check_dir, o->out, err, sizeof(err))) {
			fprintf(stderr, "capsim: import: --check: %s\n", err);
			if (o->tasks)
				regfree(&re);
			return 2;
		}
	}
	if (o->platform)
		platform_here = platform_file_here(o->platform);
	if (platform_here)
		o->platform = platform_here;
	ret = check_output(o->out, o->trace);
	if (!ret)
		ret = run_import(o, o->tasks ? &re : NULL,
				 c.check_dir ? &check_tasks : NULL);
	if (o->tasks)
		regfree(&re);
	if (!ret && c.check_dir)
		ret = run_check(&c, &check_tasks);
	check_tasks_free(&check_tasks);
	free(platform_here);
	return ret;
}
