// SPDX-License-Identifier: GPL-2.0
/* `capsim import`: the command line, the output's checks, the steps in
 * order (import.h lists them) */
/* POSIX only: <sys/stat.h> must not see kcompat's linux/ */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_opts.h"
#include "import.h"
#include "import_cmd.h"
#include "import_check.h"
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
"  --tasks REGEX     import the tasks whose comm matches (POSIX extended);\n"
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
"Exit status: 0, 1 for I/O errors, 2 for usage errors and bad input\n"
"(FILE:LINE:COL), a trace without sched_switch, or an -o not capsim's.\n";

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

/* The comm a task ends with: a thread renamed by prctl() or a process
 * by exec() is known by its last name (capsim-run's threads take their
 * task's, `sh` becomes the program it ran) */
static const char *last_comm(const struct import_task *t)
{
	return t->st.ncomms ? t->st.comms[t->st.ncomms - 1] : t->st.comm;
}

/* Each task's name in the workload: its last comm with what rt-app and a
 * shell take ([A-Za-z0-9_.-], others '_'), COMM-PID when two tasks
 * would share one or it looks like the background's */
static void name_tasks(struct import_model *m)
{
	int i, j;

	for (i = 0; i < m->ss.ntasks; i++) {
		struct import_task *t = import_task(m, i);
		char *s = xstrdup(last_comm(t)[0] ? last_comm(t) : "task");

		for (j = 0; s[j]; j++)
			if (!isalnum((unsigned char)s[j]) && !strchr("_.-", s[j]))
				s[j] = '_';
		t->name = s;
	}
	for (i = 0; i < m->ss.ntasks; i++) {
		struct import_task *t = import_task(m, i);
		bool shared = !strncmp(t->name, "bg_cpu", 6);

		for (j = 0; j < m->ss.ntasks && !shared; j++)
			shared = j != i && !strcmp(last_comm(import_task(m, j)),
						   last_comm(t));
		if (shared) {
			char *s = xasprintf("%s-%d", t->name, t->st.pid);

			free(t->name);
			t->name = s;
		}
	}
}

/* @s to the end of @b as an ERE that matches it: characters an ERE
 * gives a meaning to become '.', which matches them too (a comm is any
 * 15 bytes; a name is [A-Za-z0-9_.-]) */
static void ere_literal(struct strbuf *b, const char *s)
{
	for (; *s; s++)
		sb_putc(b, strchr(".[]()*+?{}|^$\\", *s) ? '.' : *s);
}

/* What --check needs of the import: the tasks imported as their own
 * (an ERE of their names and comms) and the comm each name stands for */
struct check_tasks {
	char *ere;
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
	free(ct->ere);
}

/*
 * --check compares the tasks imported as tasks of their own, by their
 * names in the workload and their comms in the trace: the folded ones
 * have no counterpart but the per-CPU background, which is left out of
 * the comparison (docs/import.md); with none imported as its own, none
 * is compared ("a^" matches no name)
 */
static void imported_tasks(struct import_model *m, struct check_tasks *ct)
{
	struct strbuf b;
	int i;

	sb_init(&b);
	sb_puts(&b, "^(");
	ct->names = xcalloc((size_t)m->ss.ntasks + 1, sizeof(char *));
	ct->comms = xcalloc((size_t)m->ss.ntasks + 1, sizeof(char *));
	for (i = 0; i < m->ss.ntasks; i++) {
		const struct import_task *t = import_task(m, i);

		if (t->folded || !t->name)
			continue;
		if (ct->n)
			sb_putc(&b, '|');
		ere_literal(&b, t->name);
		sb_putc(&b, '|');
		ere_literal(&b, last_comm(t));
		ct->names[ct->n] = xstrdup(t->name);
		ct->comms[ct->n++] = xstrdup(last_comm(t));
		if (t->uclamp_samples &&
		    (t->uclamp_min > 0 || t->uclamp_max < 1024))
			ct->nuclamp++;
	}
	sb_puts(&b, ")$");
	if (ct->n) {
		ct->ere = b.buf;
	} else {
		sb_free(&b);
		ct->ere = xstrdup("a^");
	}
}

static int run_import(const struct import_opts *o, regex_t *re,
		      struct check_tasks *check_tasks)
{
	struct import_model m = { .o = o };
	int ret, i;

	m.pl = load_platform(o->platform ? o->platform : PLATFORM_DEFAULT);
	if (!m.pl)
		return 2;
	ret = import_read(&m);
	if (!ret) {
		name_tasks(&m);
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
	struct import_check_opts ck = {
		.source_trace = o->trace, .workload = o->out,
		.platform = o->platform, .policy = c->policy,
		.outdir = c->check_dir, .from_s = o->from_s, .to_s = o->to_s,
		.tasks_regex = ct->ere, .plots = !c->no_plots,
		.sim_names = (const char *const *)ct->names,
		.src_comms = (const char *const *)ct->comms,
		.naliases = ct->n,
	};

	/* the child run warns of the keys, but its messages are the
	 * check's; the user asked for this policy or took the default */
	if (ct->nuclamp && (!c->policy || strcmp(c->policy, "uclamp")))
		fprintf(stderr, "capsim: import: note: %d task%s util_min/util_max (from lisa__uclamp_util_se), which only --policy uclamp uses: this check runs %s\n",
			ct->nuclamp, ct->nuclamp > 1 ? "s have" : " has",
			c->policy ? c->policy : "rfc");
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
	if (!o->out)
		return cli_usage_error(&import_cli, "import needs -o WORKLOAD.json");
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
		int r = regcomp(&re, o->tasks, REG_EXTENDED | REG_NOSUB);

		if (r) {
			regerror(r, &re, err, sizeof(err));
			return cli_usage_error(&import_cli, "--tasks: %s: %s",
					       err, o->tasks);
		}
	}
	outmark_note_input(o->trace);
	if (c.check_dir) {
		/* refused before the workload is written */
		char err[PATH_MAX + 128];

		if (outmark_check_dir(c.check_dir, err, sizeof(err))) {
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
