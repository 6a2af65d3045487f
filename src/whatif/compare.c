// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "outdir.h"
#include "outmark.h"
#include "platform.h"
#include "procs.h"
#include "run_metrics.h"
#include "util.h"
#include "whatif.h"
#include "workload.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2

/* Enabling a policy for comparisons and sweeps is one line here */
const char *const whatif_default_policies[] = {
	"rfc",
	"none",
	"uclamp",
	NULL,
};

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
	const char *const *allowed = whatif_default_policies;
	int i, k;

	for (i = 0; v[i]; i++) {
		for (k = 0; policies && allowed[k] && strcmp(allowed[k], v[i]); k++)
			;
		if (policies && !allowed[k]) {
			struct strbuf sb;

			sb_init(&sb);
			for (k = 0; allowed[k]; k++)
				sb_printf(&sb, "%s%s", k ? ", " : "", allowed[k]);
			fprintf(stderr, "capsim: %s: unknown policy \"%.64s\": allowed %s\nsee `capsim %s --help`\n",
				opt, v[i], sb.buf, cmd);
			sb_free(&sb);
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
"                      [--no-plots] [--quiet] [-o DIR]\n"
"\n"
"Runs WORKLOAD under each policy side by side (default: every policy\n"
"this build simulates: %s) and prints one table: energy, per\n"
"domain average frequency and residency, per task wake-up latency and\n"
"response time (p50/p95/p99), deadline misses, time within its clamp band\n"
"and CPU residency. DIR (default out/compare-<workload>/) gets compare.md,\n"
"compare.json (an object keyed by policy), and per policy the run\n"
"(DIR/POLICY/trace.txt, summary.json) and its plots (DIR/POLICY/plots/).\n"
"-j N: runs at once (default 2). The policies (each once), the platform,\n"
"--duration, --seed and -o are checked before any run (exit status 2).\n";

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
	for (k = 0; k < ref->ntasks; k++) {
		const char *tn = ref->tasks[k].name;

#define TASK (k < m->ntasks ? &m->tasks[k] : NULL)
		snprintf(lab, sizeof(lab), "%s wake-up latency p50/p95/p99 (us)", tn);
		EACH(lab, if (TASK) fmt_pcts(buf, sizeof(buf), TASK->wlat_us, 1);
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
	for (r = 0; r < t->nrows; r++) {
		fprintf(f, "| %s |", t->rows[r][0]);
		for (c = 1; c < t->ncols; c++)
			fprintf(f, " %s |", t->rows[r][c]);
		fputc('\n', f);
	}
}

static json_t *jnum_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *pct_json(const double v[3])
{
	json_t *o = json_object();

	json_object_set_new(o, "p50", jnum_or_null(v[0]));
	json_object_set_new(o, "p95", jnum_or_null(v[1]));
	json_object_set_new(o, "p99", jnum_or_null(v[2]));
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
		json_object_set_new(r, "wakeup_latency_us", pct_json(t->wlat_us));
		{
			double ms[3] = { t->resp_us[0], t->resp_us[1], t->resp_us[2] };

			json_object_set_new(r, "response_us", pct_json(ms));
		}
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
	FILE *f = fopen(path, "w");

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
	      "group only). Plots: POLICY/plots/.\n", f);
	return fclose(f) ? -1 : 0;
}

/*
 * What each `capsim run` would refuse, refused once before any run: -o
 * empty or a file, --duration and --seed out of range, an unknown or
 * invalid platform. 0, or -1 (said).
 */
static int compare_check_args(const char *outdir, const char *duration,
			      const char *seed, const char *platform)
{
	struct stat st;
	char *end;

	if (outdir && !*outdir) {
		fprintf(stderr, "capsim: -o needs a directory, not an empty path\nsee `capsim compare --help`\n");
		return -1;
	}
	if (outdir && !stat(outdir, &st) && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "capsim: -o %s: it exists and is not a directory\nsee `capsim compare --help`\n",
			outdir);
		return -1;
	}
	if (duration) {
		double sec = strtod(duration, &end);

		if (*end || end == duration || !(sec >= WL_DURATION_MIN_S) ||
		    !(sec <= WL_DURATION_MAX_S)) {
			fprintf(stderr, "capsim: --duration needs seconds in [1e-06, 1e+06]: %s\nsee `capsim compare --help`\n",
				duration);
			return -1;
		}
	}
	if (seed) {
		errno = 0;
		(void)strtoull(seed, &end, 0);
		if (*end || end == seed || errno || seed[0] == '-') {
			fprintf(stderr, "capsim: --seed needs a non-negative integer: %s\nsee `capsim compare --help`\n",
				seed);
			return -1;
		}
	}
	if (platform) {
		struct diag d;
		struct platform *pl;

		diag_init(&d, false);
		pl = platform_load(platform, &d);
		diag_free(&d);
		if (!pl)
			return -1;
		platform_free(pl);
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	const char *wfile = NULL, *platform = NULL, *outdir = NULL,
		   *duration = NULL, *seed = NULL, *policies = NULL;
	bool quiet = false, plots = true, trace_util = false;
	struct policy_run *pr = NULL;
	struct job *jobs = NULL;
	struct progress pg;
	struct outdir od = { 0 };
	struct table tab = { 0 };
	char **pol = NULL, *self = NULL, *dir = NULL, *head = NULL;
	int np, i, ret = EXIT_USAGE, parallel = 2, failed, unplotted = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			char *all = NULL;
			int k;

			/* the default list as the code has it */
			for (k = 0; whatif_default_policies[k]; k++) {
				char *n = xasprintf("%s%s%s", all ? all : "",
						    k ? "," : "",
						    whatif_default_policies[k]);

				free(all);
				all = n;
			}
			printf(usage_compare, all);
			free(all);
			return 0;
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--no-plots")) {
			plots = false;
		} else if (!strcmp(a, "--trace-util")) {
			trace_util = true;
		} else if (!strcmp(a, "--policies") || !strcmp(a, "--platform") ||
			   !strcmp(a, "-o") || !strcmp(a, "--duration") ||
			   !strcmp(a, "--seed") || !strcmp(a, "-j")) {
			const char *v;

			if (i + 1 >= argc) {
				fprintf(stderr, "capsim: missing value for: %s\nsee `capsim compare --help`\n", a);
				return EXIT_USAGE;
			}
			v = argv[++i];
			if (!strcmp(a, "--policies"))
				policies = v;
			else if (!strcmp(a, "--platform"))
				platform = v;
			else if (!strcmp(a, "-o"))
				outdir = v;
			else if (!strcmp(a, "--duration"))
				duration = v;
			else if (!strcmp(a, "--seed"))
				seed = v;
			else {
				char *end;
				long j = strtol(v, &end, 10);

				if (*end || end == v || j < 1 || j > 256) {
					fprintf(stderr, "capsim: -j needs an integer in [1, 256]: %s\nsee `capsim compare --help`\n", v);
					return EXIT_USAGE;
				}
				parallel = (int)j;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "capsim: unknown option: %s\nsee `capsim compare --help`\n", a);
			return EXIT_USAGE;
		} else if (!wfile) {
			wfile = a;
		} else {
			fprintf(stderr, "capsim: more than one workload: %s\nsee `capsim compare --help`\n", a);
			return EXIT_USAGE;
		}
	}
	if (!wfile) {
		fprintf(stderr, "capsim: compare needs a WORKLOAD.json\nsee `capsim compare --help`\n");
		return EXIT_USAGE;
	}
	if (access(wfile, R_OK)) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", wfile, strerror(errno));
		return EXIT_USAGE;
	}
	if (compare_check_args(outdir, duration, seed, platform))
		return EXIT_USAGE;
	if (policies) {
		pol = strv_split(policies, "--policies");
		if (!pol || whatif_check_list(pol, "--policies", "compare", true)) {
			strv_free(pol);
			return EXIT_USAGE;
		}
	} else {
		pol = xcalloc((size_t)strv_len((char *const *)
			      whatif_default_policies) + 1, sizeof(char *));
		for (i = 0; whatif_default_policies[i]; i++)
			pol[i] = xstrdup(whatif_default_policies[i]);
	}
	np = strv_len(pol);
	{
		char *base = whatif_workload_name(wfile);

		dir = outdir ? xstrdup(outdir) : xasprintf("out/compare-%s", base);
		free(base);
	}
	outmark_note_input(wfile);
	if (platform)
		outmark_note_input(platform);
	ret = outdir_begin(&od, dir);
	if (ret)
		goto out;
	ret = EXIT_RUN;
	self = procs_self_exe();
	pr = xcalloc((size_t)np, sizeof(*pr));
	jobs = xcalloc((size_t)np, sizeof(*jobs));
	for (i = 0; i < np; i++) {
		char **av = xcalloc(20, sizeof(char *));
		int n = 0;

		pr[i].name = pol[i];
		pr[i].dir = xasprintf("%s/%s", od.tmp, pol[i]);
		/* marked: the run's log lands in it before the run */
		if (mkdir(pr[i].dir, 0777) || outmark_write(pr[i].dir)) {
			fprintf(stderr, "capsim: cannot create %s: %s\n",
				pr[i].dir, strerror(errno));
			ret = EXIT_RUN;
			goto out;
		}
		av[n++] = xstrdup(self);
		av[n++] = xstrdup("run");
		av[n++] = xstrdup(wfile);
		av[n++] = xstrdup("--policy");
		av[n++] = xstrdup(pol[i]);
		if (platform) {
			av[n++] = xstrdup("--platform");
			av[n++] = xstrdup(platform);
		}
		if (duration) {
			av[n++] = xstrdup("--duration");
			av[n++] = xstrdup(duration);
		}
		if (seed) {
			av[n++] = xstrdup("--seed");
			av[n++] = xstrdup(seed);
		}
		if (trace_util)
			av[n++] = xstrdup("--trace-util");
		av[n++] = xstrdup("--quiet");
		av[n++] = xstrdup("-o");
		av[n++] = xstrdup(pr[i].dir);
		jobs[i].argv = av;
		jobs[i].log_path = xasprintf("%s/run.log", pr[i].dir);
	}
	progress_init(&pg, quiet, "compare", "runs", np);
	failed = procs_run(jobs, np, parallel, &pg);
	progress_end(&pg);
	for (i = 0; i < np; i++) {
		pr[i].status = jobs[i].status;
		if (jobs[i].status) {
			pr[i].error = procs_log_tail(jobs[i].log_path, 4);
			continue;
		}
		pr[i].ok = !run_metrics_load(&pr[i].m, pr[i].dir, NULL);
	}
	if (failed == np) {
		/* every run failed the same way: bad input, not a policy issue */
		fprintf(stderr, "%s\n", pr[0].error ? pr[0].error : "");
		ret = jobs[0].status == EXIT_USAGE ? EXIT_USAGE : EXIT_RUN;
		goto out;
	}
	for (i = 0; i < np; i++) {
		if (!pr[i].ok) {
			fprintf(stderr, "capsim: compare: policy %s failed (exit %d):\n%s\n",
				pr[i].name, pr[i].status,
				pr[i].error ? pr[i].error : "");
			continue;
		}
		if (plots) {
			struct plot_opts po = { .to_s = -1, .quiet = quiet,
						.no_done_line = true };
			char *pd = xasprintf("%s/plots", pr[i].dir);

			po.outdir = pd;
			if (plot_run(pr[i].dir, &po)) {
				fprintf(stderr, "capsim: compare: no plots for %s\n",
					pr[i].name);
				unplotted++;
			}
			free(pd);
		}
	}
	build_table(&tab, pr, np);
	for (i = 0; i < np && !pr[i].ok; i++)
		;
	if (i == np) {
		/* every run ended well, none left outputs that could be read */
		fprintf(stderr, "capsim: compare: no policy's outputs could be read\n");
		ret = EXIT_RUN;
		goto out;
	}
	head = xasprintf("capsim compare: %s on %s, %.3g s simulated", pr[i].m.workload,
			 pr[i].m.platform, pr[i].m.sim_s);
	{
		char *md = xasprintf("%s/compare.md", od.tmp);
		char *js = xasprintf("%s/compare.json", od.tmp);
		json_t *root = json_object();
		int k, bad;

		for (k = 0; k < np; k++)
			json_object_set_new(root, pr[k].name, policy_json(&pr[k]));
		bad = write_file_from_table(md, &tab, pr, head) ||
		      json_dump_file(root, js, JSON_INDENT(2) |
				     JSON_REAL_PRECISION(9));
		json_decref(root);
		free(md);
		free(js);
		if (bad) {
			ret = EXIT_RUN;
			goto out;
		}
	}
	if (outdir_commit(&od)) {
		ret = EXIT_RUN;
		goto out;
	}
	if (!quiet) {
		printf("%s\n", head);
		print_text(stdout, &tab, pr);
		printf("outputs: %s/ (compare.md, compare.json; per policy: trace.txt, summary.json%s)\n",
		       dir, plots ? ", plots/" : "");
	}
	/* the table is written either way; a missing plot is an output
	 * that could not be written */
	ret = failed || unplotted ? EXIT_RUN : 0;
out:
	if (od.tmp)
		outdir_abort(&od);
	for (i = 0; pr && i < np; i++) {
		free(pr[i].dir);
		free(pr[i].error);
		if (pr[i].ok)
			run_metrics_free(&pr[i].m);
		job_free(&jobs[i]);
	}
	for (i = 0; i < tab.nrows; i++) {
		int c;

		for (c = 0; c < tab.ncols; c++)
			free(tab.rows[i][c]);
		free(tab.rows[i]);
	}
	free(tab.rows);
	free(pr);
	free(jobs);
	free(self);
	free(dir);
	free(head);
	strv_free(pol);
	return ret;
}
