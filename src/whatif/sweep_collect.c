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

#include "gnuplot.h"
#include "outdir.h"
#include "procs.h"
#include "run_metrics.h"
#include "sweep.h"
#include "util.h"

/* Per task and per domain columns, in this order */
static const char *const task_cols[] = {
	"wlat_p95_us", "wlat_p99_us", "resp_p95_us", "resp_p99_us", "misses",
};

bool sweep_is_task_column(const char *suffix)
{
	size_t c;

	for (c = 0; c < ARRAY_SIZE(task_cols); c++)
		if (!strcmp(suffix, task_cols[c]))
			return true;
	return false;
}

/* Per chain columns (chain.NAME.COLUMN), in this order */
static const char *const chain_cols[] = {
	"jank_pct", "lat_p50_us", "lat_p95_us", "lat_p99_us",
};

/* Column @c of chain @name in @m, NAN if @m has no such chain */
static double chain_col(const struct run_metrics *m, const char *name, int c)
{
	const struct chain_metrics *cm = run_metrics_chain(m, name);

	if (!cm)
		return NAN;
	return c ? cm->lat_us[c - 1] : cm->jank_pct;
}

/* The index of chain.@name.COLUMN's COLUMN in @col, or -1 */
static int chain_col_of(const char *col, const char *name)
{
	size_t n = strlen(name);
	int c;

	if (strncmp(col, "chain.", 6) || strncmp(col + 6, name, n) ||
	    col[6 + n] != '.')
		return -1;
	for (c = 0; c < (int)ARRAY_SIZE(chain_cols); c++)
		if (!strcmp(col + 7 + n, chain_cols[c]))
			return c;
	return -1;
}

bool sweep_is_chain_metric(json_t *chains, const char *metric)
{
	const char *name;
	json_t *v;

	json_object_foreach(chains, name, v)
		if (chain_col_of(metric, name) >= 0)
			return true;
	return false;
}

struct point {
	char *name;		/* points/NNNN */
	json_t *pj;		/* point.json */
	bool ok;
	const char *status;	/* sweep.csv's: ok, failed or missing */
	struct run_metrics m;
};

/* CSV field: quoted when it holds a comma, a quote or a newline */
static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.6g", v);
}

static double task_col(const struct task_metrics *t, int c)
{
	switch (c) {
	case 0: return t->wlat_us[1];
	case 1: return t->wlat_us[2];
	case 2: return t->resp_us[1];
	case 3: return t->resp_us[2];
	default: return t->misses >= 0 ? (double)t->misses : NAN;
	}
}

static const struct task_metrics *find_task(const struct run_metrics *m,
					    const char *name)
{
	int i;

	for (i = 0; i < m->ntasks; i++)
		if (!strcmp(m->tasks[i].name, name))
			return &m->tasks[i];
	return NULL;
}

struct table {
	char **tasks;
	int ntasks;
	char **chains;		/* the chains of any point, first seen first */
	int nchains;
	int ndoms;
	json_t *params;		/* the plan's params array */
};

/* The value of sweep.csv column @col for point @p (NAN if none/text) */
static double column_value(const struct table *tb, const struct point *p,
			   const char *col)
{
	int k, c;

	if (!p->ok)
		return NAN;
	if (!strcmp(col, "energy_mj"))
		return p->m.energy_mj;
	for (k = 0; k < tb->ntasks; k++) {
		size_t n = strlen(tb->tasks[k]);

		if (strncmp(col, tb->tasks[k], n) || col[n] != '.')
			continue;
		for (c = 0; c < (int)ARRAY_SIZE(task_cols); c++) {
			const struct task_metrics *t;

			if (strcmp(col + n + 1, task_cols[c]))
				continue;
			t = find_task(&p->m, tb->tasks[k]);
			return t ? task_col(t, c) : NAN;
		}
	}
	for (k = 0; k < tb->nchains; k++)
		if ((c = chain_col_of(col, tb->chains[k])) >= 0)
			return chain_col(&p->m, tb->chains[k], c);
	if (sscanf(col, "dom%d.avg_mhz", &k) == 1)
		return k < p->m.ndoms ? p->m.doms[k].avg_mhz : NAN;
	return NAN;
}

static bool column_exists(const struct table *tb, const char *col)
{
	int k, c;

	if (!strcmp(col, "energy_mj"))
		return true;
	for (k = 0; k < tb->ntasks; k++)
		for (c = 0; c < (int)ARRAY_SIZE(task_cols); c++) {
			char *n = xasprintf("%s.%s", tb->tasks[k], task_cols[c]);
			bool eq = !strcmp(n, col);

			free(n);
			if (eq)
				return true;
		}
	for (k = 0; k < tb->nchains; k++)
		if (chain_col_of(col, tb->chains[k]) >= 0)
			return true;
	return sscanf(col, "dom%d.avg_mhz", &k) == 1 && k >= 0 && k < tb->ndoms;
}

static int write_csv(const char *dir, const struct table *tb,
		     struct point *pts, int n)
{
	char *tmp = xasprintf("%s/.sweep.csv.tmp", dir);
	char *fin = xasprintf("%s/sweep.csv", dir);
	FILE *f = fopen(tmp, "w");
	size_t np = json_array_size(tb->params), k;
	int i, t, c, ret = -1;

	if (!f)
		goto out;
	fputs("point", f);
	for (k = 0; k < np; k++) {
		fputc(',', f);
		csv_str(f, json_string_value(json_object_get(
			json_array_get(tb->params, k), "path")));
	}
	fputs(",policy,platform,seed,status,energy_mj", f);
	for (t = 0; t < tb->ntasks; t++)
		for (c = 0; c < (int)ARRAY_SIZE(task_cols); c++) {
			char *h = xasprintf("%s.%s", tb->tasks[t], task_cols[c]);

			fputc(',', f);
			csv_str(f, h);
			free(h);
		}
	for (i = 0; i < tb->ndoms; i++)
		fprintf(f, ",dom%d.avg_mhz", i);
	for (t = 0; t < tb->nchains; t++)
		for (c = 0; c < (int)ARRAY_SIZE(chain_cols); c++)
			fprintf(f, ",chain.%s.%s", tb->chains[t], chain_cols[c]);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		json_t *pj = pts[i].pj, *params = json_object_get(pj, "params");

		fprintf(f, "%d", (int)json_integer_value(json_object_get(pj, "id")));
		for (k = 0; k < np; k++) {
			const char *path = json_string_value(json_object_get(
				json_array_get(tb->params, k), "path"));
			char *v = json_dumps(json_object_get(params, path),
					     JSON_ENCODE_ANY | JSON_COMPACT);

			fputc(',', f);
			csv_str(f, v ? v : "");
			free(v);
		}
		fputc(',', f);
		csv_str(f, json_string_value(json_object_get(pj, "policy")));
		fputc(',', f);
		csv_str(f, json_string_value(json_object_get(pj, "platform")));
		fprintf(f, ",%lld,%s,", (long long)json_integer_value(
			json_object_get(pj, "seed")), pts[i].status);
		if (pts[i].ok)
			csv_num(f, pts[i].m.energy_mj);
		for (t = 0; t < tb->ntasks; t++) {
			const struct task_metrics *tm = pts[i].ok ?
				find_task(&pts[i].m, tb->tasks[t]) : NULL;

			for (c = 0; c < (int)ARRAY_SIZE(task_cols); c++) {
				fputc(',', f);
				if (tm)
					csv_num(f, task_col(tm, c));
			}
		}
		for (t = 0; t < tb->ndoms; t++) {
			fputc(',', f);
			if (pts[i].ok && t < pts[i].m.ndoms)
				csv_num(f, pts[i].m.doms[t].avg_mhz);
		}
		for (t = 0; t < tb->nchains; t++)
			for (c = 0; c < (int)ARRAY_SIZE(chain_cols); c++) {
				fputc(',', f);
				if (pts[i].ok)
					csv_num(f, chain_col(&pts[i].m,
							     tb->chains[t], c));
			}
		fputc('\n', f);
	}
	if (fclose(f) || rename(tmp, fin))
		goto out;
	ret = 0;
out:
	if (ret) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", fin, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	free(fin);
	return ret;
}

static char *point_label(const struct table *tb, const struct point *p)
{
	json_t *params = json_object_get(p->pj, "params");
	size_t np = json_array_size(tb->params), k;
	struct strbuf sb;

	sb_init(&sb);
	for (k = 0; k < np; k++) {
		const char *path = json_string_value(json_object_get(
			json_array_get(tb->params, k), "path"));
		json_t *v = json_object_get(params, path);
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

		sb_printf(&sb, "%s%s", k ? "," : "", s ? s : "?");
		free(s);
	}
	if (!sb.buf)
		sb_printf(&sb, "#%d", (int)json_integer_value(
			json_object_get(p->pj, "id")));
	return sb.buf;
}

struct ppt {
	double x, y;
	int series;
	int idx;
};

static int cmp_ppt(const void *a, const void *b)
{
	const struct ppt *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x ? 1 : p->y < q->y ? -1 :
	       p->y > q->y;
}

static int write_pareto(const char *dir, const struct table *tb,
			struct point *pts, int n, const char *metric,
			const char *title, bool quiet)
{
	const char *scripts = plot_scripts_dir();
	char *data = xasprintf("%s/pareto-data", dir), *path;
	struct ppt *pp = xcalloc((size_t)(n ? n : 1), sizeof(*pp));
	char **series = NULL;
	int nseries = 0, npp = 0, i, ret = -1;
	bool us = strlen(metric) > 3 && !strcmp(metric + strlen(metric) - 3, "_us");
	double best = INFINITY;
	FILE *f;

	if (!scripts)
		goto out;
	if (remove_tree(data) || mkdir(data, 0777)) {
		fprintf(stderr, "capsim: cannot create %s: %s\n", data, strerror(errno));
		goto out;
	}
	for (i = 0; i < n; i++) {
		char *s;
		int k;

		if (!pts[i].ok)
			continue;
		pp[npp].x = pts[i].m.energy_mj / 1e3;
		pp[npp].y = column_value(tb, &pts[i], metric) / (us ? 1e3 : 1);
		if (isnan(pp[npp].x) || isnan(pp[npp].y))
			continue;
		s = xasprintf("%s on %s", json_string_value(json_object_get(pts[i].pj, "policy")),
			      json_string_value(json_object_get(pts[i].pj, "platform")));
		for (k = 0; k < nseries && strcmp(series[k], s); k++)
			;
		if (k == nseries) {
			series = xrealloc(series, (size_t)(nseries + 1) * sizeof(char *));
			series[nseries++] = s;
		} else {
			free(s);
		}
		pp[npp].series = k + 1;
		pp[npp].idx = i;
		npp++;
	}
	if (!npp) {
		fprintf(stderr, "capsim: no point has both energy and %s: no Pareto plot\n",
			metric);
		ret = 0;
		goto out;
	}
	path = xasprintf("%s/pareto.dat", data);
	f = fopen(path, "w");
	free(path);
	if (!f)
		goto out;
	fprintf(f, "# energy_J %s series label\n", metric);
	/* Points that land on the same spot (a parameter that changes
	 * nothing, e.g. any cap under policy none) share one label, "a/b/c",
	 * instead of printing over each other */
	{
		char **labs = xcalloc((size_t)npp, sizeof(char *));
		int *cnt = xcalloc((size_t)npp, sizeof(int));
		double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
		int j;

		/* "the same spot": within 1.5 % of the axes' spans */
		for (i = 0; i < npp; i++) {
			x0 = fmin(x0, pp[i].x);
			x1 = fmax(x1, pp[i].x);
			y0 = fmin(y0, pp[i].y);
			y1 = fmax(y1, pp[i].y);
		}

		for (i = 0; i < npp; i++) {
			char *lab = point_label(tb, &pts[pp[i].idx]);

			for (j = 0; j < i; j++)
				if (labs[j] && fabs(pp[j].x - pp[i].x) <= 0.015 * (x1 - x0) &&
				    fabs(pp[j].y - pp[i].y) <= 0.015 * (y1 - y0))
					break;
			if (j < i) {
				/* another series on the same spot: "; " */
				const char *sep = pp[j].series == pp[i].series ? "/" : "; ";
				char *m = cnt[j] < 4 || strcmp(sep, "/") ?
					  xasprintf("%s%s%s", labs[j], sep, lab) :
					  xstrdup(labs[j]);

				if (cnt[j] == 4 && !strcmp(sep, "/")) {
					free(m);
					m = xasprintf("%s/...", labs[j]);
				}
				free(labs[j]);
				labs[j] = m;
				cnt[j]++;
				free(lab);
			} else {
				labs[i] = lab;
				cnt[i] = 1;
			}
		}
		for (i = 0; i < npp; i++) {
			char *q = gp_data_label(labs[i] ? labs[i] : "");

			fprintf(f, "%.9g %.9g %d %s\n", pp[i].x, pp[i].y,
				pp[i].series, q);
			free(q);
			free(labs[i]);
		}
		free(labs);
		free(cnt);
	}
	if (fclose(f))
		goto out;
	/* the front: by energy, each point lower than every cheaper one */
	qsort(pp, (size_t)npp, sizeof(*pp), cmp_ppt);
	path = xasprintf("%s/pareto-front.dat", data);
	f = fopen(path, "w");
	free(path);
	if (!f)
		goto out;
	for (i = 0; i < npp; i++) {
		if (pp[i].y < best) {
			best = pp[i].y;
			fprintf(f, "%.9g %.9g\n", pp[i].x, pp[i].y);
		}
	}
	if (fclose(f))
		goto out;
	path = xasprintf("%s/vars.gp", data);
	f = fopen(path, "w");
	free(path);
	if (!f)
		goto out;
	{
		char *t = xasprintf("%s\nenergy vs %s%s; front: no other point is better on both",
				    title, metric, us ? " (ms)" : "");
		char *qt = gp_quote(t);
		char *yl = xasprintf("%s%s", metric, us ? " (ms)" : "");
		char *qy = gp_quote(yl);

		fprintf(f, "runtitle = %s\nylab = %s\nnseries = %d\narray serieslabel[%d]\n",
			qt, qy, nseries, nseries);
		free(t);
		free(qt);
		free(yl);
		free(qy);
	}
	for (i = 0; i < nseries; i++) {
		char *q = gp_quote(series[i]);

		fprintf(f, "serieslabel[%d] = %s\n", i + 1, q);
		free(q);
	}
	if (fclose(f)) {
		fprintf(stderr, "capsim: cannot write %s/vars.gp: %s\n", data,
			strerror(errno));
		goto out;
	}
	{
		/* both formats aside, then renamed: no half-written plot;
		 * gnuplot runs in @dir, the names relative to it */
		char *script = xasprintf("%s/pareto.gp", scripts);
		char *tpng = xasprintf("%s/.pareto.png.tmp", dir),
		     *tsvg = xasprintf("%s/.pareto.svg.tmp", dir),
		     *png = xasprintf("%s/pareto.png", dir),
		     *svg = xasprintf("%s/pareto.svg", dir);
		char *qs = gp_quote(scripts);
		char *vars = xasprintf("datadir='pareto-data'; plotsdir=%s", qs);

		ret = plot_gnuplot_png_svg(dir, vars, script, ".pareto.png.tmp",
					   ".pareto.svg.tmp", quiet) ||
		      rename(tpng, png) || rename(tsvg, svg) ? -1 : 0;
		if (ret) {
			unlink(tpng);
			unlink(tsvg);
		}
		free(vars);
		free(qs);
		free(tpng);
		free(tsvg);
		free(png);
		free(svg);
		free(script);
	}
out:
	for (i = 0; i < nseries; i++)
		free(series[i]);
	free(series);
	free(pp);
	free(data);
	return ret;
}

/* Width of the point numbers, as the sweep named the directories */
static int point_width(int npoints)
{
	int w = 1, i;

	for (i = npoints; i >= 10; i /= 10)
		w++;
	return w < 4 ? 4 : w;
}

/*
 * Read point @id (points/NNNN): its point.json (required: a bad one is
 * bad input) and its run's summary.json (a point whose run failed has
 * none; one that exists must be valid). 0, 1 (the point failed or is
 * missing: said) or SWEEP_COLLECT_BAD_INPUT (said).
 */
static int read_point(const char *dir, json_t *plan_params, int id, int width,
		      struct point *pt)
{
	char *pdir = xasprintf("%s/points/%0*d", dir, width, id);
	char *pf = xasprintf("%s/point.json", pdir);
	char *sum = xasprintf("%s/run/summary.json", pdir);
	char err[512];
	struct stat st;
	json_t *js;
	int ret = SWEEP_COLLECT_BAD_INPUT;

	pt->name = xasprintf("points/%0*d", width, id);
	if (stat(pdir, &st) && errno == ENOENT) {
		/* deleted, or lost with a host: its row says "missing" */
		fprintf(stderr, "capsim: sweep point %s is missing (%s/sweep.json plans it)\n",
			pt->name, dir);
		pt->pj = json_pack("{s:i, s:{}, s:s, s:s, s:i}", "id", id,
				   "params", "policy", "", "platform", "",
				   "seed", 0);
		pt->status = "missing";
		ret = 1;
		goto out;
	}
	pt->pj = sweep_load_json(pf, err, sizeof(err));
	if (!pt->pj || sweep_point_check(pt->pj, plan_params, id, err,
					 sizeof(err))) {
		fprintf(stderr, "capsim: %s: %s\n", pf, err);
		goto out;
	}
	if (lstat(sum, &st) && errno == ENOENT) {
		char *log = xasprintf("%s/run.log", pdir);
		char *tail = procs_log_tail(log, 3);

		/* an empty log: the point could not even say why */
		fprintf(stderr, "capsim: sweep point %s failed (%s):\n%s\n",
			pt->name, json_string_value(json_object_get(pt->pj,
								    "command")),
			*tail ? tail : "(its run.log is empty: no space left for it?)");
		free(tail);
		free(log);
		pt->status = "failed";
		ret = 1;
		goto out;
	}
	js = sweep_load_json(sum, err, sizeof(err));
	if (!js || sweep_summary_check(js, err, sizeof(err))) {
		fprintf(stderr, "capsim: %s: %s\n", sum, err);
		json_decref(js);
		goto out;
	}
	if (sweep_summary_has_response(js)) {
		run_metrics_from_summary(&pt->m, js);
	} else {
		/* a point run by an older capsim: its trace gives the
		 * response times (sched lines only) */
		char *run = xasprintf("%s/run", pdir);
		struct metrics_opts mo = { .base_dir = dir, .sched_only = true,
					   .summary_first = true };
		int r = run_metrics_load(&pt->m, run, &mo);

		free(run);
		if (r) {
			fprintf(stderr, "capsim: sweep point %s: its summary has no response times and its trace cannot be read\n",
				pt->name);
			json_decref(js);
			pt->status = "failed";
			ret = 1;
			goto out;
		}
	}
	json_decref(js);
	pt->ok = true;
	pt->status = "ok";
	ret = 0;
out:
	free(pdir);
	free(pf);
	free(sum);
	return ret;
}

/* @name among the table's chains, once (it points into a point's
 * metrics, kept until the end of the collection) */
static void table_add_chain(struct table *tb, char *name)
{
	int j;

	for (j = 0; j < tb->nchains; j++)
		if (!strcmp(tb->chains[j], name))
			return;
	tb->chains = xrealloc(tb->chains, (size_t)(tb->nchains + 1) *
			      sizeof(char *));
	tb->chains[tb->nchains++] = name;
}

int sweep_collect(const char *dir, const char *metric, bool quiet)
{
	char *planf = xasprintf("%s/sweep.json", dir);
	struct point *pts = NULL;
	struct table tb = { 0 };
	json_t *plan;
	char err[512];
	char *title = NULL, *defmetric = NULL;
	int n = 0, i, failed = 0, ret = SWEEP_COLLECT_BAD_INPUT, width;

	plan = sweep_load_json(planf, err, sizeof(err));
	if (!plan || sweep_plan_check(plan, err, sizeof(err))) {
		fprintf(stderr, "capsim: %s: %s (not a sweep directory?)\n",
			planf, err);
		goto out;
	}
	tb.params = json_object_get(plan, "params");
	n = (int)json_integer_value(json_object_get(plan, "points"));
	width = point_width(n);
	pts = xcalloc((size_t)n, sizeof(*pts));
	for (i = 0; i < n; i++) {
		int k, r = read_point(dir, tb.params, i + 1, width, &pts[i]);

		if (r < 0)
			goto out;
		if (r) {
			failed++;
			continue;
		}
		for (k = 0; k < pts[i].m.ntasks; k++) {
			int j;

			for (j = 0; j < tb.ntasks &&
			     strcmp(tb.tasks[j], pts[i].m.tasks[k].name); j++)
				;
			if (j == tb.ntasks) {
				tb.tasks = xrealloc(tb.tasks, (size_t)(tb.ntasks + 1) *
						    sizeof(char *));
				tb.tasks[tb.ntasks++] = pts[i].m.tasks[k].name;
			}
		}
		for (k = 0; k < pts[i].m.nchains; k++)
			table_add_chain(&tb, pts[i].m.chains[k].name);
		if (pts[i].m.ndoms > tb.ndoms)
			tb.ndoms = pts[i].m.ndoms;
		if (!defmetric) {
			int mt = run_metrics_main_task(&pts[i].m);

			if (mt >= 0)
				defmetric = xasprintf("%s.resp_p95_us",
						      pts[i].m.tasks[mt].name);
		}
		if (!title)
			title = xasprintf("sweep of %s: %d points",
					  pts[i].m.workload, n);
	}
	if (!metric)
		metric = defmetric ? defmetric : "energy_mj";
	if (failed < n && !column_exists(&tb, metric)) {
		fprintf(stderr, "capsim: --metric %s is not a sweep.csv column (e.g. %s, energy_mj, dom0.avg_mhz)\n",
			metric, defmetric ? defmetric : "TASK.resp_p95_us");
		goto out;
	}
	ret = SWEEP_COLLECT_RUN_ERROR;
	if (write_csv(dir, &tb, pts, n) ||
	    (failed < n && write_pareto(dir, &tb, pts, n, metric,
					title ? title : "sweep", quiet)))
		goto out;
	if (!quiet)
		printf("collected %d points (%d failed) into %s/sweep.csv and %s/pareto.png (energy vs %s)\n",
		       n, failed, dir, dir, metric);
	ret = failed;
out:
	for (i = 0; pts && i < n; i++) {
		if (pts[i].ok)
			run_metrics_free(&pts[i].m);
		json_decref(pts[i].pj);
		free(pts[i].name);
	}
	free(pts);
	free(tb.tasks);
	free(tb.chains);
	free(title);
	free(defmetric);
	free(planf);
	json_decref(plan);
	return ret;
}
