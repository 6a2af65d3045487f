// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_opts.h"
#include "compare_plot.h"
#include "diag.h"
#include "doc_set.h"
#include "escape.h"
#include "outdir.h"
#include "outmark.h"
#include "platform.h"
#include "procs.h"
#include "run_metrics.h"
#include "safe_write.h"
#include "sweep_jobs.h"
#include "util.h"
#include "whatif.h"
#include "workload.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2

char **whatif_all_policies(void)
{
	char **v = xcalloc(POLICY_END, sizeof(char *));
	enum clamp_policy p;
	int n = 0;

	for_each_clamp_policy(p)
		v[n++] = xstrdup(clamp_policy_name(p));
	return v;
}

char **strv_split(const char *s, const char *what)
{
	char **v = xcalloc(1, sizeof(char *));
	int n = 0;

	for (;;) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (!len) {
			fprintf(stderr, "capsim: %s: an empty item in the list\n",
				what);
			strv_free(v);
			return NULL;
		}
		v = xrealloc(v, (size_t)(n + 2) * sizeof(char *));
		v[n] = xcalloc(len + 1, 1);
		memcpy(v[n++], s, len);
		v[n] = NULL;
		if (!e)
			return v;
		s = e + 1;
	}
}

void strv_free(char **v)
{
	char **p;

	for (p = v; p && *p; p++)
		free(*p);
	free(v);
}

int strv_len(char *const *v)
{
	int n = 0;

	while (v && v[n])
		n++;
	return n;
}

int whatif_check_list(char *const *v, const char *opt, const char *cmd,
		      bool policies)
{
	char names[CLAMP_NAMES_LIST_MAX];
	int i, k;

	for (i = 0; v[i]; i++) {
		if (policies && !clamp_policy_find(v[i])) {
			fprintf(stderr, "capsim: %s: unknown policy \"%.64s\": allowed %s\nsee `capsim %s --help`\n",
				opt, v[i],
				clamp_names_list(CLAMP_NAMES_POLICY, false,
						 names, sizeof(names)),
				cmd);
			return -1;
		}
		for (k = 0; k < i; k++) {
			if (!strcmp(v[k], v[i])) {
				fprintf(stderr, "capsim: %s: \"%.64s\" is listed twice\nsee `capsim %s --help`\n",
					opt, v[i], cmd);
				return -1;
			}
		}
	}
	return 0;
}

static const char usage_compare[] =
"usage: capsim compare WORKLOAD.json [--policies P,P...] [--platform NAME|FILE]\n"
"                      [--duration SEC] [--seed N] [--trace-util] [-j N]\n"
"                      [--set 'PATH=VALUE']... [--plots compare|all|none]\n"
"                      [--png] [--no-plots] [--quiet] [-o DIR]\n"
"\n"
"Runs WORKLOAD under each policy side by side (default: every policy\n"
"this build simulates: %s) and prints one table: energy, per\n"
"domain average frequency and residency, per task wake-up latency and\n"
"response time (p50/p95/p99), deadline misses, time within its clamp band\n"
"and CPU residency. DIR (default out/compare-<workload>/) gets compare.md,\n"
"compare.json (an object keyed by policy), per policy the run\n"
"(DIR/POLICY/trace.txt, summary.json) and compare.svg: energy and\n"
"residency of every policy side by side.\n"
"--plots compare (default): compare.svg only; all: also compare.png and\n"
"each policy's figures (DIR/POLICY/plots/: freq, activity, residency,\n"
"energy, PNG and SVG), which `capsim plot DIR/POLICY` draws later just\n"
"the same; none (--no-plots): no figure.\n"
"--png: compare.png beside compare.svg. Not by default: encoding a PNG\n"
"costs more than a short comparison's runs (docs/performance.md).\n"
"-j N: runs at once, then gnuplot processes drawing the plots (at most one\n"
"per CPU; default 2). The policies (each once), the platform,\n"
"--duration, --seed, --set's paths and values and -o are checked before\n"
"any run (exit status 2); a value out of its field's range is refused by\n"
"the runs themselves (exit status 2, nothing written).\n"
"--set PATH=VALUE edits the workload (or, with platform., the platform)\n"
"before every run, as `capsim sweep --set` does with one value: the same\n"
"PATH syntax (capsim.taskgroups[\"/bg\"].capacity_max, tasks.fg.run,\n"
"platform.domains[*].rate_limit_us) and checks; repeatable, applied in\n"
"order. The edited inputs are kept in DIR/edited/ (WORKLOAD.json and,\n"
"when edited, platform.json), the files every run reads; the table's\n"
"first line names the edits.\n";

struct policy_run {
	const char *name;
	char *dir;
	int status;
	char *error;
	struct run_metrics m;
	bool ok;
};

static void fmt_num(char *b, size_t n, double v, const char *f)
{
	if (isnan(v))
		snprintf(b, n, "-");
	else
		snprintf(b, n, f, v);
}

/* 3 significant digits without an exponent: 0.25, 5.31, 59.1, 1461 */
static void fmt_sig(char *b, size_t n, double v)
{
	snprintf(b, n, fabs(v) >= 100 ? "%.0f" : "%.3g", v);
}

static void fmt_pcts(char *b, size_t n, const double v[3], double scale)
{
	char p[3][32];
	int k;

	if (isnan(v[1])) {
		snprintf(b, n, "-");
		return;
	}
	for (k = 0; k < 3; k++)
		fmt_sig(p[k], sizeof(p[k]), v[k] / scale);
	snprintf(b, n, "%s / %s / %s", p[0], p[1], p[2]);
}

static void fmt_cpu_res(char *b, size_t n, const struct task_metrics *t,
			int ncpus)
{
	size_t len = 0;
	int c;

	b[0] = '\0';
	for (c = 0; c < ncpus && len + 1 < n; c++) {
		if (task_cpu_pct(t, c) < 0.5)
			continue;
		len += (size_t)snprintf(b + len, n - len, "%scpu%d %.0f%%",
					len ? ", " : "", c, task_cpu_pct(t, c));
	}
	if (!len)
		snprintf(b, n, "-");
}

static void fmt_residency(char *b, size_t n, const struct dom_metrics *d)
{
	size_t len = 0;
	int j;

	b[0] = '\0';
	if (d->unknown_pct > 0)
		len += (size_t)snprintf(b, n, "unknown:%.0f%%", d->unknown_pct);
	for (j = 0; j < d->nopps && len + 1 < n; j++)
		len += (size_t)snprintf(b + len, n - len, "%s%u:%.0f%%",
					len ? " " : "", d->khz[j] / 1000,
					d->res_pct[j]);
}

/* "12.5% (75/600)", or "-" */
static void fmt_jank(char *b, size_t n, const struct chain_metrics *c)
{
	if (!c || isnan(c->jank_pct))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.1f%% (%ld/%ld)", c->jank_pct, c->late,
			 c->periods);
}

/* A table with a row per metric and a column per policy, as text and as
 * markdown: the rows are built once, then printed twice. */
struct table {
	int ncols;
	char ***rows;		/* [row][col], col 0 the metric */
	int nrows;
};

static void row_add(struct table *t, char **cells)
{
	t->rows = xrealloc(t->rows, (size_t)(t->nrows + 1) * sizeof(char **));
	t->rows[t->nrows++] = cells;
}

static char **row_new(const struct table *t, const char *label)
{
	char **r = xcalloc((size_t)t->ncols, sizeof(char *));

	r[0] = xstrdup(label);
	return r;
}

static void build_table(struct table *t, struct policy_run *pr, int np)
{
	const struct run_metrics *ref = NULL;
	char buf[512], lab[256];
	int i, k, d;

	t->ncols = np + 1;
	for (i = 0; i < np; i++)
		if (pr[i].ok) {
			ref = &pr[i].m;
			break;
		}
	if (!ref)
		return;
#define EACH(label, fill) do { \
		char **r = row_new(t, label); \
		for (i = 0; i < np; i++) { \
			const struct run_metrics *m = &pr[i].m; \
			(void)m; \
			if (!pr[i].ok) { r[i + 1] = xstrdup("failed"); continue; } \
			fill; \
			r[i + 1] = xstrdup(buf); \
		} \
		row_add(t, r); \
	} while (0)
	EACH("energy (mJ)", fmt_num(buf, sizeof(buf), m->energy_mj, "%.1f"));
	for (d = 0; d < ref->ndoms; d++) {
		snprintf(lab, sizeof(lab), "dom %d (CPUs %s) avg MHz", d,
			 ref->doms[d].cpus);
		EACH(lab, fmt_num(buf, sizeof(buf), d < m->ndoms ?
				  m->doms[d].avg_mhz : NAN, "%.0f"));
		snprintf(lab, sizeof(lab), "dom %d energy (mJ)", d);
		EACH(lab, fmt_num(buf, sizeof(buf), d < m->ndoms ?
				  m->doms[d].energy_mj : NAN, "%.1f"));
		snprintf(lab, sizeof(lab), "dom %d residency (MHz:%%)", d);
		EACH(lab, if (d < m->ndoms) fmt_residency(buf, sizeof(buf),
							  &m->doms[d]);
			  else snprintf(buf, sizeof(buf), "-"));
	}
	/* the chains first: the frame metric a task's row cannot give */
	for (k = 0; k < ref->nchains; k++) {
		const char *cn = ref->chains[k].name;
		const char *how = ref->chains[k].inferred ? " (inferred)" : "";

#define CHAIN (run_metrics_chain(m, cn))
		snprintf(lab, sizeof(lab), "chain %s%s jank %% (late/periods)",
			 cn, how);
		EACH(lab, fmt_jank(buf, sizeof(buf), CHAIN));
		snprintf(lab, sizeof(lab), "chain %s latency p50/p95/p99 (ms)", cn);
		EACH(lab, if (CHAIN) fmt_pcts(buf, sizeof(buf), CHAIN->lat_us, 1e3);
			  else snprintf(buf, sizeof(buf), "-"));
#undef CHAIN
	}
	for (k = 0; k < ref->ntasks; k++) {
		const char *tn = ref->tasks[k].name;

#define TASK (k < m->ntasks ? &m->tasks[k] : NULL)
		snprintf(lab, sizeof(lab), "%s wake-up latency p50/p95/p99 (ms)", tn);
		EACH(lab, if (TASK) fmt_pcts(buf, sizeof(buf), TASK->wlat_us, 1e3);
			  else snprintf(buf, sizeof(buf), "-"));
		snprintf(lab, sizeof(lab), "%s response p50/p95/p99 (ms)", tn);
		EACH(lab, if (TASK) fmt_pcts(buf, sizeof(buf), TASK->resp_us, 1e3);
			  else snprintf(buf, sizeof(buf), "-"));
		snprintf(lab, sizeof(lab), "%s deadline misses", tn);
		EACH(lab, if (TASK && TASK->misses >= 0)
				  snprintf(buf, sizeof(buf), "%ld", TASK->misses);
			  else snprintf(buf, sizeof(buf), "-"));
		snprintf(lab, sizeof(lab), "%s in clamp band", tn);
		EACH(lab, fmt_num(buf, sizeof(buf), TASK ? TASK->in_band_pct : NAN,
				  "%.1f%%"));
		snprintf(lab, sizeof(lab), "%s CPU residency", tn);
		EACH(lab, if (TASK) fmt_cpu_res(buf, sizeof(buf), TASK, m->ncpus);
			  else snprintf(buf, sizeof(buf), "-"));
#undef TASK
	}
#undef EACH
}

static void print_text(FILE *f, const struct table *t, struct policy_run *pr)
{
	int *w = xcalloc((size_t)t->ncols, sizeof(int)), r, c;

	w[0] = 6;
	for (c = 1; c < t->ncols; c++)
		w[c] = (int)strlen(pr[c - 1].name);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if ((int)strlen(t->rows[r][c]) > w[c])
				w[c] = (int)strlen(t->rows[r][c]);
	fprintf(f, "%-*s", w[0], "metric");
	for (c = 1; c < t->ncols; c++)
		fprintf(f, "  %-*s", w[c], pr[c - 1].name);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		fprintf(f, "%-*s", w[0], t->rows[r][0]);
		for (c = 1; c < t->ncols; c++)
			fprintf(f, "  %-*s", w[c], t->rows[r][c]);
		fputc('\n', f);
	}
	free(w);
}

static void print_md(FILE *f, const struct table *t, struct policy_run *pr)
{
	int r, c;

	fputs("| metric |", f);
	for (c = 1; c < t->ncols; c++)
		fprintf(f, " %s |", pr[c - 1].name);
	fputs("\n| --- |", f);
	for (c = 1; c < t->ncols; c++)
		fputs(" --- |", f);
	fputc('\n', f);
	/* a metric's row is named by a task's or chain's name */
	for (r = 0; r < t->nrows; r++) {
		fputs("| ", f);
		md_put_cell(f, t->rows[r][0]);
		fputs(" |", f);
		for (c = 1; c < t->ncols; c++)
			fprintf(f, " %s |", t->rows[r][c]);
		fputc('\n', f);
	}
}

static json_t *jnum_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* p50/p95/p99 of @us (microseconds) in ms, compare's one time unit */
static json_t *pct_json_ms(const double us[3])
{
	json_t *o = json_object();

	json_object_set_new(o, "p50", jnum_or_null(us[0] / 1e3));
	json_object_set_new(o, "p95", jnum_or_null(us[1] / 1e3));
	json_object_set_new(o, "p99", jnum_or_null(us[2] / 1e3));
	return o;
}

static json_t *policy_json(const struct policy_run *p)
{
	const struct run_metrics *m = &p->m;
	json_t *o = json_object(), *a;
	int i, j;

	json_object_set_new(o, "status", json_string(p->ok ? "ok" : "failed"));
	json_object_set_new(o, "run_dir", json_string(p->name));
	if (!p->ok) {
		json_object_set_new(o, "exit_status", json_integer(p->status));
		json_object_set_new(o, "error", json_string(p->error ? p->error : ""));
		return o;
	}
	json_object_set_new(o, "workload", json_string(m->workload));
	json_object_set_new(o, "platform", json_string(m->platform));
	json_object_set_new(o, "simulated_s", json_real(m->sim_s));
	json_object_set_new(o, "energy_mj", jnum_or_null(m->energy_mj));
	a = json_array();
	for (i = 0; i < m->ndoms; i++) {
		const struct dom_metrics *d = &m->doms[i];
		json_t *r = json_object(), *res = json_object();

		json_object_set_new(r, "id", json_integer(d->id));
		json_object_set_new(r, "cpus", json_string(d->cpus));
		json_object_set_new(r, "avg_mhz", jnum_or_null(d->avg_mhz));
		json_object_set_new(r, "energy_mj", jnum_or_null(d->energy_mj));
		for (j = 0; j < d->nopps; j++) {
			char k[32];

			snprintf(k, sizeof(k), "%u", d->khz[j]);
			json_object_set_new(res, k, json_real(d->res_pct[j]));
		}
		json_object_set_new(r, "residency_pct_by_khz", res);
		if (d->unknown_pct > 0)
			json_object_set_new(r, "residency_unknown_pct",
					    json_real(d->unknown_pct));
		json_array_append_new(a, r);
	}
	json_object_set_new(o, "domains", a);
	a = json_array();
	for (i = 0; i < m->ntasks; i++) {
		const struct task_metrics *t = &m->tasks[i];
		json_t *r = json_object(), *cr = json_object();

		json_object_set_new(r, "name", json_string(t->name));
		json_object_set_new(r, "group", t->group ? json_string(t->group) :
				    json_null());
		json_object_set_new(r, "activations", json_integer(t->activations));
		json_object_set_new(r, "deadline_misses", t->misses >= 0 ?
				    json_integer(t->misses) : json_null());
		json_object_set_new(r, "wakeup_latency_ms", pct_json_ms(t->wlat_us));
		json_object_set_new(r, "response_ms", pct_json_ms(t->resp_us));
		json_object_set_new(r, "responses", json_integer(t->nresp));
		json_object_set_new(r, "in_clamp_band_pct", jnum_or_null(t->in_band_pct));
		json_object_set_new(r, "running_s", json_real(t->run_s));
		for (j = 0; j < m->ncpus; j++) {
			char k[16];

			snprintf(k, sizeof(k), "%d", j);
			json_object_set_new(cr, k, json_real(task_cpu_pct(t, j)));
		}
		json_object_set_new(r, "cpu_residency_pct", cr);
		json_array_append_new(a, r);
	}
	json_object_set_new(o, "tasks", a);
	if (m->nchains) {
		json_t *ch = json_object();

		for (i = 0; i < m->nchains; i++) {
			const struct chain_metrics *c = &m->chains[i];
			json_t *r = json_object();

			json_object_set_new(r, "periods", json_integer(c->periods));
			json_object_set_new(r, "late", json_integer(c->late));
			json_object_set_new(r, "dropped", json_integer(c->dropped));
			json_object_set_new(r, "jank_pct", jnum_or_null(c->jank_pct));
			json_object_set_new(r, "latency_ms", pct_json_ms(c->lat_us));
			json_object_set_new(ch, c->name, r);
		}
		json_object_set_new(o, "chains", ch);
	}
	return o;
}

char *whatif_workload_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *n = xstrdup(b ? b + 1 : path);
	size_t len = strlen(n);

	if (len > 5 && !strcmp(n + len - 5, ".json"))
		n[len - 5] = '\0';
	return n;
}

static int write_file_from_table(const char *path, const struct table *t,
				 struct policy_run *pr, const char *head)
{
	FILE *f = safe_fopen(path);

	if (!f) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	fprintf(f, "# %s\n\n", head);
	print_md(f, t, pr);
	fputs("\nLatency: sched_wakeup to running (summary.json). Response: wake-up to\n"
	      "the next sleep, from the trace. In clamp band: the task's running time\n"
	      "at a frequency its group's capacity_min/max allow (tasks in a clamped\n"
	      "group only).\n", f);
	if (!safe_fclose(f))
		return 0;
	fprintf(stderr, "capsim: cannot write %s: %s\n", path, strerror(errno));
	return -1;
}

enum {
	OPT_POLICIES = 256, OPT_PLATFORM, OPT_DURATION, OPT_SEED,
	OPT_TRACE_UTIL, OPT_NO_PLOTS, OPT_QUIET, OPT_SET, OPT_PLOTS,
	OPT_PNG,
};

static const struct option compare_options[] = {
	{ "policies", required_argument, NULL, OPT_POLICIES },
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "trace-util", no_argument, NULL, OPT_TRACE_UTIL },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	{ "plots", required_argument, NULL, OPT_PLOTS },
	{ "png", no_argument, NULL, OPT_PNG },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "set", required_argument, NULL, OPT_SET },
	{ 0 },
};

char *whatif_policy_list(void)
{
	struct strbuf sb;
	enum clamp_policy p;

	sb_init(&sb);
	for_each_clamp_policy(p)
		sb_printf(&sb, "%s%s", p == POLICY_UNSET + 1 ? "" : ",",
			  clamp_policy_name(p));
	return sb.buf;
}

/* The usage with the default list as the code has it */
static void print_compare_usage(void)
{
	char *all = whatif_policy_list();

	printf(usage_compare, all);
	free(all);
}

static const struct cli_cmd compare_cli = {
	.prog = "capsim", .name = "compare", .print_usage = print_compare_usage,
	.shortopts = "o:j:", .longopts = compare_options,
};

/*
 * The figures a compare draws (--plots): a comparison is about the
 * policies side by side, so by default only compare.svg; each policy's
 * own figures on request (or later, by `capsim plot DIR/POLICY`): they
 * were 12 of the 13 PNGs, and PNG encoding is most of a figure's cost,
 * more than a short comparison's runs (docs/performance.md, "compare
 * with plots"), so compare.png is drawn only with --png or all.
 */
enum compare_plots { PLOTS_NONE, PLOTS_COMPARE, PLOTS_ALL };

/* What `capsim compare` was asked; the values each run gets as given */
struct compare_args {
	const char *wfile, *platform, *outdir, *duration, *seed, *policies;
	bool quiet, trace_util, png;
	enum compare_plots plots;
	int parallel;
	char **sets;		/* the --set PATH=VALUE, nsets of them */
	int nsets;
	/* with --set: the edited inputs (platform NULL when not edited),
	 * then the files in DIR/edited/ the runs read instead */
	json_t *set_w, *set_p;
	char *run_wfile, *run_platform;
};

static void compare_args_free(struct compare_args *ca)
{
	free(ca->sets);
	json_decref(ca->set_w);
	json_decref(ca->set_p);
	free(ca->run_wfile);
	free(ca->run_platform);
}

static int compare_opt(void *ctx, int key, const char *arg)
{
	struct compare_args *ca = ctx;

	switch (key) {
	case OPT_QUIET: ca->quiet = true; break;
	case OPT_NO_PLOTS: ca->plots = PLOTS_NONE; break;
	case OPT_PNG: ca->png = true; break;
	case OPT_PLOTS:
		if (!strcmp(arg, "compare"))
			ca->plots = PLOTS_COMPARE;
		else if (!strcmp(arg, "all"))
			ca->plots = PLOTS_ALL;
		else if (!strcmp(arg, "none"))
			ca->plots = PLOTS_NONE;
		else
			return cli_usage_error(&compare_cli, "--plots takes compare, all or none: %.64s",
					       arg);
		break;
	case OPT_TRACE_UTIL: ca->trace_util = true; break;
	case OPT_POLICIES: ca->policies = arg; break;
	case OPT_PLATFORM: ca->platform = arg; break;
	case OPT_DURATION: ca->duration = arg; break;
	case OPT_SEED: ca->seed = arg; break;
	case OPT_SET:
		ca->sets = xrealloc(ca->sets, (size_t)(ca->nsets + 1) *
				    sizeof(char *));
		ca->sets[ca->nsets++] = (char *)arg;
		break;
	case 'o': ca->outdir = arg; break;
	case 'j':
		return cli_parse_int(&compare_cli, "-j", arg, 1, 256,
				     &ca->parallel);
	default:
		if (ca->wfile)
			return cli_usage_error(&compare_cli, "more than one workload: %s",
					       arg);
		ca->wfile = arg;
	}
	return 0;
}

/*
 * What each `capsim run` would refuse, refused once before any run: -o
 * empty or a file, --duration and --seed out of range, an unknown or
 * invalid platform. 0, or 2 (said).
 */
static int compare_check_args(const struct compare_args *ca)
{
	unsigned long long seed;
	struct stat st;
	double sec;

	if (ca->outdir && !*ca->outdir)
		return cli_usage_error(&compare_cli, "-o needs a directory, not an empty path");
	if (ca->outdir && !stat(ca->outdir, &st) && !S_ISDIR(st.st_mode))
		return cli_usage_error(&compare_cli, "-o %s: it exists and is not a directory",
				       ca->outdir);
	if (ca->duration &&
	    cli_parse_double(&compare_cli, "--duration", ca->duration,
			     WL_DURATION_MIN_S, WL_DURATION_MAX_S,
			     "seconds in [1e-06, 1e+06]", &sec))
		return EXIT_USAGE;
	if (ca->seed && cli_parse_u64(&compare_cli, "--seed", ca->seed, 0, 0,
				      ULLONG_MAX, &seed))
		return EXIT_USAGE;
	if (ca->platform) {
		struct diag d;
		struct platform *pl;

		diag_init(&d, false);
		pl = platform_load(ca->platform, &d);
		diag_free(&d);
		if (!pl)
			return EXIT_USAGE;
		platform_free(pl);
	}
	return 0;
}

/* The policies to compare (caller frees with strv_free), or NULL (said) */
static char **compare_policies(const char *policies)
{
	char **pol;

	if (policies) {
		pol = strv_split(policies, "--policies");
		if (!pol || whatif_check_list(pol, "--policies", "compare", true)) {
			strv_free(pol);
			return NULL;
		}
		return pol;
	}
	return whatif_all_policies();
}

/*
 * The options, then everything that can be checked before a run.
 * CLI_CONTINUE with *@pol the policies, or the exit status.
 */
static int parse_compare_args(int argc, char **argv, struct compare_args *ca,
			      char ***pol)
{
	int ret = cli_parse(&compare_cli, argc, argv, compare_opt, ca, NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (!ca->wfile)
		return cli_usage_error(&compare_cli, "compare needs a WORKLOAD.json");
	if (access(ca->wfile, R_OK)) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", ca->wfile,
			strerror(errno));
		return EXIT_USAGE;
	}
	if (compare_check_args(ca))
		return EXIT_USAGE;
	if (ca->nsets && doc_set_apply_each(ca->sets, ca->nsets, ca->wfile,
					    ca->platform, "compare",
					    &ca->set_w, &ca->set_p))
		return EXIT_USAGE;
	*pol = compare_policies(ca->policies);
	return *pol ? CLI_CONTINUE : EXIT_USAGE;
}

/* The `capsim run` of policy @pr into its directory (caller frees) */
static char **policy_run_argv(const struct compare_args *ca,
			      const struct policy_run *pr, const char *self)
{
	char **av = xcalloc(20, sizeof(char *));
	int n = 0;

	av[n++] = xstrdup(self);
	av[n++] = xstrdup("run");
	av[n++] = xstrdup(ca->run_wfile ? ca->run_wfile : ca->wfile);
	av[n++] = xstrdup("--policy");
	av[n++] = xstrdup(pr->name);
	if (ca->run_platform || ca->platform) {
		av[n++] = xstrdup("--platform");
		av[n++] = xstrdup(ca->run_platform ? ca->run_platform :
				  ca->platform);
	}
	if (ca->duration) {
		av[n++] = xstrdup("--duration");
		av[n++] = xstrdup(ca->duration);
	}
	if (ca->seed) {
		av[n++] = xstrdup("--seed");
		av[n++] = xstrdup(ca->seed);
	}
	if (ca->trace_util)
		av[n++] = xstrdup("--trace-util");
	av[n++] = xstrdup("--quiet");
	av[n++] = xstrdup("-o");
	av[n++] = xstrdup(pr->dir);
	return av;
}

/* A comparison under way: its runs, their jobs and the output directory */
struct compare_state {
	struct policy_run *pr;
	struct job *jobs;
	char **pol;
	int np;
	struct outdir od;
	struct table tab;
	char *dir, *head;
};

/* --set's edited inputs into DIR/edited/, the files the runs then
 * read; 0, or -1 (said) */
static int write_edited(struct compare_args *ca, const char *tmp)
{
	char *dir = xasprintf("%s/edited", tmp), *base;

	if (mkdir(dir, 0777)) {
		fprintf(stderr, "capsim: cannot create %s: %s\n", dir,
			strerror(errno));
		free(dir);
		return -1;
	}
	base = whatif_workload_name(ca->wfile);
	ca->run_wfile = xasprintf("%s/%s.json", dir, base);
	free(base);
	if (ca->set_p)
		ca->run_platform = xasprintf("%s/platform.json", dir);
	free(dir);
	return doc_set_write(ca->run_wfile, ca->set_w) ||
	       (ca->set_p && doc_set_write(ca->run_platform, ca->set_p)) ?
	       -1 : 0;
}

/* Each policy's directory (marked: the run's log lands in it before the
 * run) and job; 0, or -1 (said) */
static int prepare_runs(const struct compare_args *ca, struct compare_state *cs)
{
	char *self = procs_self_exe();
	int i;

	cs->pr = xcalloc((size_t)cs->np, sizeof(*cs->pr));
	cs->jobs = xcalloc((size_t)cs->np, sizeof(*cs->jobs));
	for (i = 0; i < cs->np; i++) {
		struct policy_run *pr = &cs->pr[i];

		pr->name = cs->pol[i];
		pr->dir = xasprintf("%s/%s", cs->od.tmp, cs->pol[i]);
		if (mkdir(pr->dir, 0777) || outmark_write(pr->dir)) {
			fprintf(stderr, "capsim: cannot create %s: %s\n",
				pr->dir, strerror(errno));
			free(self);
			return -1;
		}
		cs->jobs[i].argv = policy_run_argv(ca, pr, self);
		cs->jobs[i].log_path = xasprintf("%s/run.log", pr->dir);
	}
	free(self);
	return 0;
}

/* A policy's plot data written, when asked and its run could be read.
 * 0, or -1 (said: no plots for it) */
static int plot_policy_prepare(const struct compare_args *ca,
			       struct policy_run *pr, struct plot_job *pj)
{
	struct plot_opts po = { .to_s = -1, .quiet = ca->quiet,
				.no_done_line = true };
	char *pd;
	int ret = 0;

	if (!pr->ok) {
		fprintf(stderr, "capsim: compare: policy %s failed (exit %d):\n%s\n",
			pr->name, pr->status, pr->error ? pr->error : "");
		return 0;
	}
	if (ca->plots != PLOTS_ALL)
		return 0;
	pd = xasprintf("%s/plots", pr->dir);
	po.outdir = pd;
	if (plot_prepare(pj, pr->dir, &po)) {
		fprintf(stderr, "capsim: compare: no plots for %s\n", pr->name);
		ret = -1;
	}
	free(pd);
	return ret;
}

/*
 * The gnuplot processes that draw a comparison's figures: as many as it
 * runs at once (-j), at most one per CPU, each paying gnuplot's start-up
 * once (bench plot-figures: PNG encoding is most of a figure, so no
 * figure is cheap enough to leave a process idle). A figure goes to the
 * process with the least drawing so far; compare.png, the largest,
 * counts twice when drawn.
 */
struct figure_procs {
	struct gp_figures *g;
	int *load, n;
	bool *ok;
};

static void figure_procs_init(struct figure_procs *fp, const char *dir,
			      int parallel, int nfigs, bool quiet)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int i;

	fp->n = parallel < nfigs ? parallel : nfigs;
	if (cpus > 0 && fp->n > cpus)
		fp->n = (int)cpus;
	if (fp->n < 1)
		fp->n = 1;
	fp->g = xcalloc((size_t)fp->n, sizeof(*fp->g));
	fp->load = xcalloc((size_t)fp->n, sizeof(*fp->load));
	fp->ok = xcalloc((size_t)fp->n, sizeof(*fp->ok));
	for (i = 0; i < fp->n; i++)
		gp_figures_init(&fp->g[i], dir, NULL, quiet);
}

/* the process the next figure of @weight goes to */
static int figure_procs_pick(struct figure_procs *fp, int weight)
{
	int i, k = 0;

	for (i = 1; i < fp->n; i++)
		if (fp->load[i] < fp->load[k])
			k = i;
	fp->load[k] += weight;
	return k;
}

/* start them all, then wait for each: fp->ok[i] when process i drew
 * every figure it had whole (a process given none is not started) */
static void figure_procs_run(struct figure_procs *fp)
{
	int i;

	for (i = 0; i < fp->n; i++) {
		if (!fp->load[i]) {
			gp_figures_free(&fp->g[i]);
			fp->ok[i] = true;
		} else if (gp_figures_start(&fp->g[i])) {
			gp_figures_free(&fp->g[i]);
			fp->load[i] = 0;	/* not started: not waited */
		} else {
			fp->ok[i] = true;
		}
	}
	for (i = 0; i < fp->n; i++)
		if (fp->load[i] && gp_figures_wait(&fp->g[i]))
			fp->ok[i] = false;
}

static void figure_procs_free(struct figure_procs *fp)
{
	free(fp->g);
	free(fp->load);
	free(fp->ok);
}

/* @path inside @dir: the part after "@dir/", or NULL */
static const char *path_in(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/' ? path + n + 1 : NULL;
}

#define MAX_RUN_FIGS ((int)ARRAY_SIZE(((struct plot_job *)0)->figs))

/*
 * Each policy's plots and compare.svg/.png (every policy side by side),
 * their data written, then drawn by the processes of struct figure_procs; how
 * many outputs are left without plots
 */
static int plot_policies(const struct compare_args *ca,
			 struct compare_state *cs)
{
	struct plot_job *pj = xcalloc((size_t)cs->np, sizeof(*pj));
	struct compare_series *cser = xcalloc((size_t)cs->np, sizeof(*cser));
	/* which process draws figure f of policy i; -1: none */
	int *owner = xcalloc((size_t)cs->np * MAX_RUN_FIGS, sizeof(int));
	bool *ready = xcalloc((size_t)cs->np, sizeof(bool));
	struct figure_procs fp;
	int i, f, n = 0, nfigs = 0, unplotted = 0, cmp_owner = -1;

	for (i = 0; i < cs->np; i++) {
		if (plot_policy_prepare(ca, &cs->pr[i], &pj[i]))
			unplotted++;
		else if (ca->plots == PLOTS_ALL && cs->pr[i].ok)
			ready[i] = true;
		nfigs += ready[i] ? pj[i].nfigs : 0;
	}
	for (i = 0; ca->plots != PLOTS_NONE && i < cs->np; i++)
		if (cs->pr[i].ok)
			cser[n++] = (struct compare_series){ cs->pr[i].name,
							     &cs->pr[i].m };
	if (n && compare_plot_write(cs->od.tmp, cser, n))
		unplotted++;
	else if (n)
		nfigs += ca->png || ca->plots == PLOTS_ALL ? 2 : 1;
	figure_procs_init(&fp, cs->od.tmp, ca->parallel, nfigs, ca->quiet);
	if (n && nfigs && fp.n) {
		bool png = ca->png || ca->plots == PLOTS_ALL;

		cmp_owner = figure_procs_pick(&fp, png ? 2 : 1);
		if (compare_plot_add(&fp.g[cmp_owner], png)) {
			unplotted++;
			cmp_owner = -1;
		}
	}
	for (i = 0; i < cs->np; i++) {
		/* the plots' temporary directory, as gnuplot (in the
		 * comparison's) names it */
		const char *rel = ready[i] ? path_in(cs->od.tmp, pj[i].od.tmp) :
			NULL;

		for (f = 0; f < MAX_RUN_FIGS; f++)
			owner[i * MAX_RUN_FIGS + f] = -1;
		if (ready[i] && !rel) {
			/* plot_prepare() made it under cs->od.tmp: never */
			fprintf(stderr, "capsim: compare: no plots for %s: %s is not in %s\n",
				cs->pr[i].name, pj[i].od.tmp, cs->od.tmp);
			plot_abort(&pj[i]);
			ready[i] = false;
			unplotted++;
		}
		for (f = 0; ready[i] && f < pj[i].nfigs; f++) {
			int k = figure_procs_pick(&fp, 1);

			owner[i * MAX_RUN_FIGS + f] = k;
			plot_add_figure(&pj[i], &fp.g[k], rel, f);
		}
	}
	figure_procs_run(&fp);
	if (cmp_owner >= 0 && !fp.ok[cmp_owner]) {
		/* its process failed, maybe on another figure: whatever it
		 * left of this one is not committed as drawn */
		char *png = xasprintf("%s/compare.png", cs->od.tmp);
		char *svg = xasprintf("%s/compare.svg", cs->od.tmp);

		unlink(png);
		unlink(svg);
		free(png);
		free(svg);
		unplotted++;
	}
	for (i = 0; i < cs->np; i++) {
		bool drawn = true;

		if (!ready[i])
			continue;
		for (f = 0; f < pj[i].nfigs; f++)
			drawn &= fp.ok[owner[i * MAX_RUN_FIGS + f]];
		if (plot_finish(&pj[i], drawn)) {
			fprintf(stderr, "capsim: compare: no plots for %s\n",
				cs->pr[i].name);
			unplotted++;
		}
	}
	figure_procs_free(&fp);
	free(ready);
	free(owner);
	free(cser);
	free(pj);
	return unplotted;
}

/*
 * Run them all, read each one's outputs and plot them. The number of
 * failed runs (all of them: said), and in *@unplotted the runs left
 * without plots.
 */
static int run_policies(const struct compare_args *ca, struct compare_state *cs,
			int *unplotted)
{
	struct progress pg;
	int i, failed;

	progress_init(&pg, ca->quiet, "compare", "runs", cs->np);
	failed = procs_run(cs->jobs, cs->np, ca->parallel, &pg);
	progress_end(&pg);
	for (i = 0; i < cs->np; i++) {
		struct policy_run *pr = &cs->pr[i];

		pr->status = cs->jobs[i].status;
		if (pr->status)
			pr->error = procs_log_tail(cs->jobs[i].log_path, 4);
		else
			pr->ok = !run_metrics_load(&pr->m, pr->dir, NULL);
	}
	if (failed == cs->np) {
		/* every run failed the same way: bad input, not a policy issue */
		fprintf(stderr, "%s\n", cs->pr[0].error ? cs->pr[0].error : "");
		return failed;
	}
	*unplotted = plot_policies(ca, cs);
	return failed;
}

/* compare.md and compare.json into the temporary directory; 0 or -1 */
static int write_compare_files(struct compare_state *cs)
{
	char *md = xasprintf("%s/compare.md", cs->od.tmp);
	char *js = xasprintf("%s/compare.json", cs->od.tmp);
	json_t *root = json_object();
	int k, bad;

	for (k = 0; k < cs->np; k++)
		json_object_set_new(root, cs->pr[k].name, policy_json(&cs->pr[k]));
	bad = write_file_from_table(md, &cs->tab, cs->pr, cs->head) ||
	      doc_write_json(js, root, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	json_decref(root);
	free(md);
	free(js);
	return bad ? -1 : 0;
}

/* The table of the runs, written and committed: 0, or -1 (said) */
static int write_comparison(struct compare_state *cs,
			    const struct compare_args *ca)
{
	int i;

	build_table(&cs->tab, cs->pr, cs->np);
	for (i = 0; i < cs->np && !cs->pr[i].ok; i++)
		;
	if (i == cs->np) {
		/* every run ended well, none left outputs that could be read */
		fprintf(stderr, "capsim: compare: no policy's outputs could be read\n");
		return -1;
	}
	cs->head = xasprintf("capsim compare: %s on %s, %.3g s simulated",
			     cs->pr[i].m.workload, cs->pr[i].m.platform,
			     cs->pr[i].m.sim_s);
	/* the edits say what was compared: the table is not the file's */
	for (i = 0; i < ca->nsets; i++) {
		char *h = xasprintf("%s%s%s", cs->head, i ? ", " : "; --set ",
				    ca->sets[i]);

		free(cs->head);
		cs->head = h;
	}
	if (write_compare_files(cs) || outdir_commit(&cs->od))
		return -1;
	return 0;
}

static void compare_state_free(struct compare_state *cs)
{
	int i;

	if (cs->od.tmp)
		outdir_abort(&cs->od);
	for (i = 0; cs->pr && i < cs->np; i++) {
		free(cs->pr[i].dir);
		free(cs->pr[i].error);
		if (cs->pr[i].ok)
			run_metrics_free(&cs->pr[i].m);
		job_free(&cs->jobs[i]);
	}
	for (i = 0; i < cs->tab.nrows; i++) {
		int c;

		for (c = 0; c < cs->tab.ncols; c++)
			free(cs->tab.rows[i][c]);
		free(cs->tab.rows[i]);
	}
	free(cs->tab.rows);
	free(cs->pr);
	free(cs->jobs);
	free(cs->dir);
	free(cs->head);
	strv_free(cs->pol);
}

/* How to draw one policy's figures when they were not drawn: the
 * command, with the first policy that ran as the example, its path
 * quoted for sh when it needs to be (copied as printed, it runs) */
static void print_plot_hint(const struct compare_state *cs)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+,:@%-";
	char *run, *q;
	int i;

	for (i = 0; i < cs->np && !cs->pr[i].ok; i++)
		;
	if (i == cs->np)
		return;
	/* "./" before a directory named like an option, which capsim plot
	 * would read as one */
	run = xasprintf("%s%s/%s", cs->dir[0] == '-' ? "./" : "", cs->dir,
			cs->pr[i].name);
	q = run[strspn(run, plain)] ? shell_quote(run) : xstrdup(run);
	printf("a policy's figures: capsim plot %s (or compare --plots all)\n",
	       q);
	free(q);
	free(run);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args ca = { .plots = PLOTS_COMPARE, .parallel = 2 };
	struct compare_state cs = { 0 };
	int ret, failed, unplotted = 0;
	char *base;

	ret = parse_compare_args(argc, argv, &ca, &cs.pol);
	if (ret != CLI_CONTINUE) {
		compare_args_free(&ca);
		return ret;
	}
	cs.np = strv_len(cs.pol);
	base = whatif_workload_name(ca.wfile);
	cs.dir = ca.outdir ? xstrdup(ca.outdir) : xasprintf("out/compare-%s", base);
	free(base);
	outmark_note_input(ca.wfile);
	if (ca.platform)
		outmark_note_input(ca.platform);
	ret = outdir_begin(&cs.od, cs.dir);
	if (ret)
		goto out;
	ret = EXIT_RUN;
	if ((ca.nsets && write_edited(&ca, cs.od.tmp)) || prepare_runs(&ca, &cs))
		goto out;
	failed = run_policies(&ca, &cs, &unplotted);
	if (failed == cs.np) {
		ret = cs.jobs[0].status == EXIT_USAGE ? EXIT_USAGE : EXIT_RUN;
		goto out;
	}
	if (write_comparison(&cs, &ca))
		goto out;
	if (!ca.quiet) {
		printf("%s\n", cs.head);
		print_text(stdout, &cs.tab, cs.pr);
		printf("outputs: %s/ (compare.md, compare.json%s%s; per policy: trace.txt, summary.json%s)\n",
		       cs.dir, ca.plots != PLOTS_NONE ? ", compare.svg" : "",
		       ca.plots == PLOTS_ALL || (ca.png && ca.plots != PLOTS_NONE) ?
		       ", compare.png" : "",
		       ca.plots == PLOTS_ALL ? ", plots/" : "");
		if (ca.plots != PLOTS_ALL)
			print_plot_hint(&cs);
	}
	/* the table is written either way; a missing plot is an output
	 * that could not be written */
	ret = failed || unplotted ? EXIT_RUN : 0;
out:
	compare_state_free(&cs);
	compare_args_free(&ca);
	return ret;
}
