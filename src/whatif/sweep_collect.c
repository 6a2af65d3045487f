// SPDX-License-Identifier: GPL-2.0
/*
 * `capsim sweep --collect`, and a sweep's collection as its points end
 * (sweep.h): the points read a point at a time into sweep.csv's rows
 * (sweep_table.c), with --repeat sweep-summary.csv's statistics
 * (sweep_stats.c), the sidecar (sweep_columns.c) and the Pareto plot
 * of the sweep's metric (sweep_pareto.c).
 */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "metric_expr.h"
#include "safe_write.h"
#include "sweep.h"
#include "sweep_columns.h"
#include "sweep_pareto.h"
#include "sweep_stats.h"
#include "sweep_table.h"
#include "util.h"
#include "whatif.h"

/* What metric_expr_eval() asks a point's columns through */
struct point_row {
	const struct table *tb;
	const struct point *p;
};

static double point_column(void *ctx, const char *name)
{
	const struct point_row *r = ctx;

	return table_value(r->tb, r->p, name);
}

/* @p's value of metric @e, in its columns' unit */
static double metric_value(const struct table *tb, const struct point *p,
			   const struct metric_expr *e)
{
	struct point_row row = { tb, p };

	return metric_expr_eval(e, point_column, &row);
}

/* Point @p's place on the plot (energy against metric @e), when it has
 * both */
static void pareto_add(struct pareto *pa, const struct table *tb,
		       const struct point *p, const struct metric_expr *e)
{
	struct ppt pt = { 0 };

	if (!p->ok)
		return;
	pt.x = p->m.energy_mj / 1e3;
	pt.y = metric_value(tb, p, e);
	if (!isnan(pt.x) && !isnan(pt.y))
		pareto_put(pa, json_string_value(json_object_get(p->pj, "policy")),
			   json_string_value(json_object_get(p->pj, "platform")),
			   table_point_vals(tb, p), pt);
}

/*
 * A collection in progress: the plan, the columns seen so far, the rows
 * written so far (in point order, to an unlinked file), what the Pareto
 * plot needs of each point, and nothing else of the points.
 */
struct sweep_collector {
	char *dir;
	json_t *plan;
	struct table tb;
	int n, width;
	int repeat;		/* runs per point (the plan's) */
	int next;		/* the next point to add, from 1 */
	int failed;
	int error;		/* a SWEEP_COLLECT_* that stopped it, or 0 */
	FILE *rows;
	/* the table grew after a row was written: the rows are written
	 * again, from the points, once the columns are all known */
	bool rows_stale;
	const char *metric;	/* --metric, or NULL */
	char *defmetric, *title;
	/* the metric being plotted, once known; its names are checked
	 * against the columns when all are known (finish()) */
	struct metric_expr *expr;
	/* ok points read before the default metric is known (it is the
	 * first point's, unless that one has no task that ran) */
	struct point *pending;
	int npending;
	struct pareto pa;
};

/* The metric the plot will show: NULL while the default one is unknown */
static const char *collector_metric(const struct sweep_collector *c)
{
	return c->metric ? c->metric : c->defmetric;
}

/* A name shaped as a column (energy_mj, domN.avg_mhz, X.TASKCOLUMN,
 * chain.X.CHAINCOLUMN), while the columns are still being found */
static bool column_shaped(void *ctx, const char *name)
{
	const char *dot = strrchr(name, '.');
	int k, n;

	(void)ctx;
	if (!strcmp(name, "energy_mj"))
		return true;
	if (sscanf(name, "dom%d.avg_mhz%n", &k, &n) == 1 && !name[n])
		return true;
	if (!dot)
		return false;
	if (!strncmp(name, "chain.", 6))
		for (k = 0; k < (int)SWEEP_CHAIN_COLS; k++)
			if (!strcmp(dot + 1, sweep_chain_column(k)))
				return true;
	return sweep_is_task_column(dot + 1);
}

static bool table_has(void *ctx, const char *name)
{
	return table_has_column(ctx, name);
}

/*
 * The parsed metric once collector_metric() is known, its names taken on
 * their shape: the columns are not all known before the last point, and
 * finish() checks them. NULL while unknown or when the text is no
 * metric at all (said by finish()).
 */
static const struct metric_expr *collector_expr(struct sweep_collector *c)
{
	const char *m = collector_metric(c), *unknown;
	char err[256];

	if (!c->expr && m)
		c->expr = metric_expr_parse(m, column_shaped, NULL, err,
					    sizeof(err), &unknown);
	return c->expr;
}

struct sweep_collector *sweep_collector_open(const char *dir,
					     const char *metric)
{
	struct sweep_collector *c = xcalloc(1, sizeof(*c));
	char *planf = xasprintf("%s/sweep.json", dir);
	char err[512];

	c->dir = xstrdup(dir);
	c->metric = metric;
	c->next = 1;
	c->plan = sweep_load_json(planf, err, sizeof(err));
	if (!c->plan || sweep_plan_check(c->plan, err, sizeof(err))) {
		fprintf(stderr, "capsim: %s: %s (not a sweep directory?)\n",
			planf, err);
		c->error = SWEEP_COLLECT_BAD_INPUT;
	} else {
		json_t *pm = json_object_get(c->plan, "metric");

		/* without --metric, the one the sweep was made with */
		if (!metric && json_is_string(pm))
			c->metric = json_string_value(pm);
		c->tb.params = json_object_get(c->plan, "params");
		c->n = (int)json_integer_value(json_object_get(c->plan, "points"));
		c->repeat = sweep_plan_repeat(c->plan);
		pareto_init(&c->pa, c->tb.params);
		c->pa.errors = c->repeat > 1;
		c->width = table_point_width(c->n);
		c->rows = tmpfile();
		if (!c->rows) {
			fprintf(stderr, "capsim: cannot create a temporary file for %s/sweep.csv: %s\n",
				dir, strerror(errno));
			c->error = SWEEP_COLLECT_RUN_ERROR;
		}
	}
	free(planf);
	return c;
}

int sweep_collector_points(const struct sweep_collector *c)
{
	return c->error ? -1 : c->n;
}

/* The first ok point with a task that ran names the default metric */
static void take_defaults(struct sweep_collector *c, const struct point *p)
{
	if (!c->defmetric) {
		int mt = run_metrics_main_task(&p->m);

		if (mt >= 0)
			c->defmetric = xasprintf("%s.resp_p95_ms",
						 p->m.tasks[mt].name);
	}
	if (!c->title && c->repeat > 1)
		c->title = xasprintf("sweep of %s: %d points x %d runs",
				     p->m.workload, c->n / c->repeat, c->repeat);
	else if (!c->title)
		c->title = xasprintf("sweep of %s: %d point%s", p->m.workload,
				     c->n, c->n == 1 ? "" : "s");
}

/* The pending points onto the plot, now that its metric is known */
static void flush_pending(struct sweep_collector *c,
			  const struct metric_expr *e)
{
	int i;

	for (i = 0; i < c->npending; i++) {
		if (e)
			pareto_add(&c->pa, &c->tb, &c->pending[i], e);
		table_point_free(&c->pending[i]);
	}
	free(c->pending);
	c->pending = NULL;
	c->npending = 0;
}

int sweep_collector_add(struct sweep_collector *c)
{
	struct point p = { 0 };
	int r;

	if (c->error || c->next > c->n)
		return c->error;
	r = table_read_point(c->dir, c->tb.params, c->next, c->width, &p, true);
	if (r < 0) {
		table_point_free(&p);
		return c->error = r;
	}
	c->next++;
	if (r) {
		c->failed++;
	} else {
		if (table_take(&c->tb, &p) && c->next > 2)
			c->rows_stale = true;
		take_defaults(c, &p);
	}
	if (!c->rows_stale)
		table_put_row(c->rows, &c->tb, &p, c->repeat);
	/* with repeats the plot has each point's mean, at finish() */
	if (c->repeat > 1) {
		table_point_free(&p);
		return 0;
	}
	if (!r && !collector_metric(c)) {
		c->pending = xrealloc(c->pending, (size_t)(c->npending + 1) *
				      sizeof(*c->pending));
		c->pending[c->npending++] = p;
		return 0;
	}
	if (!r) {
		const struct metric_expr *e = collector_expr(c);

		if (c->npending)
			flush_pending(c, e);
		if (e)
			pareto_add(&c->pa, &c->tb, &p, e);
	}
	table_point_free(&p);
	return 0;
}

/* The rows again, every column known now; 0 or a SWEEP_COLLECT_* */
static int rewrite_rows(struct sweep_collector *c)
{
	int id;

	if (fflush(c->rows) || ftruncate(fileno(c->rows), 0) ||
	    fseek(c->rows, 0, SEEK_SET))
		return SWEEP_COLLECT_RUN_ERROR;
	for (id = 1; id <= c->n; id++) {
		struct point p = { 0 };
		int r = table_read_point(c->dir, c->tb.params, id, c->width, &p, false);

		if (r >= 0)
			table_put_row(c->rows, &c->tb, &p, c->repeat);
		table_point_free(&p);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A point's runs (--repeat): their values of each column and of the
 * metric, run by run */
struct run_group {
	char **cols;		/* the table's number columns */
	int ncols;
	double *v;		/* [col * repeat + run]; the metric last */
	double *energy_j, *metric;	/* per run (the metric in its unit) */
	struct point first;	/* its first run that is not missing */
	int ok;
};

/* Runs @id0 .. @id0 + repeat - 1 into @g; 0 or a SWEEP_COLLECT_* */
static int group_read(struct sweep_collector *c, int id0, struct run_group *g)
{
	int r, k;

	for (r = 0; r < c->repeat; r++) {
		struct point p = { 0 };
		int st = table_read_point(c->dir, c->tb.params, id0 + r, c->width, &p,
				    false);

		if (st < 0) {
			table_point_free(&p);
			return st;
		}
		for (k = 0; k < g->ncols; k++)
			g->v[k * c->repeat + r] = table_value(&c->tb, &p,
							       g->cols[k]);
		g->energy_j[r] = p.ok ? p.m.energy_mj / 1e3 : NAN;
		g->metric[r] = p.ok && c->expr ?
			       metric_value(&c->tb, &p, c->expr) : NAN;
		g->ok += p.ok;
		if (!g->first.pj && strcmp(p.status, "missing"))
			g->first = p;
		else
			table_point_free(&p);
	}
	return 0;
}

/* The mean, sd and ci95 of the @n runs' values @v, and with @robust
 * their median, the interval clipped to [@lo, @hi] and the bootstrap's
 * (sweep_stats.h) */
static void csv_stats(FILE *f, const double *v, int n, bool robust,
		      double lo, double hi)
{
	struct sample_stats st = sample_stats(v, n);
	struct sample_robust r;

	fputc(',', f);
	table_csv_num(f, st.mean);
	fputc(',', f);
	table_csv_num(f, st.sd);
	fputc(',', f);
	table_csv_num(f, st.ci95);
	if (!robust)
		return;
	r = sample_robust(v, n, lo, hi);
	fputc(',', f);
	table_csv_num(f, r.median);
	fputc(',', f);
	table_csv_num(f, r.ci_lo);
	fputc(',', f);
	table_csv_num(f, r.ci_hi);
	fputc(',', f);
	table_csv_num(f, r.boot_lo);
	fputc(',', f);
	table_csv_num(f, r.boot_hi);
}

/* What the metric can hold: its column's range, or any value for an
 * expression */
static void metric_range(const struct sweep_collector *c, double *lo,
			 double *hi)
{
	const char *col = c->expr ? metric_expr_column(c->expr) : NULL;

	*lo = -INFINITY;
	*hi = INFINITY;
	if (col)
		sweep_column_range(col, lo, hi);
}

/* Group @gi's row of sweep-summary.csv, and its mean onto the plot */
static void group_out(struct sweep_collector *c, FILE *f, int gi,
		      struct run_group *g)
{
	struct sample_stats x = sample_stats(g->energy_j, c->repeat),
			    y = sample_stats(g->metric, c->repeat);
	double mlo, mhi, lo, hi;
	int k;

	metric_range(c, &mlo, &mhi);
	if (g->first.pj) {
		table_put_point_fields(f, &c->tb, &g->first, gi + 1);
	} else {
		/* every run missing: the number alone, the fields empty */
		fprintf(f, "%d", gi + 1);
		for (k = 0; k < (int)json_array_size(c->tb.params) + 2; k++)
			fputc(',', f);
	}
	fprintf(f, ",%d,%d", c->repeat, g->ok);
	for (k = 0; k < g->ncols; k++) {
		sweep_column_range(g->cols[k], &lo, &hi);
		csv_stats(f, &g->v[k * c->repeat], c->repeat,
			  isfinite(lo) && isfinite(hi), lo, hi);
	}
	csv_stats(f, g->metric, c->repeat, true, mlo, mhi);
	fputc('\n', f);
	if (g->first.ok && x.n && y.n) {
		double xe = isnan(x.ci95) ? 0 : x.ci95,
		       ye = isnan(y.ci95) ? 0 : y.ci95;
		/* the bars clipped to what each axis can hold: energy is
		 * never below 0, a jank % stays in 0..100 */
		struct ppt pt = { .x = x.mean, .y = y.mean,
				  .xlo = fmax(0, x.mean - xe), .xhi = x.mean + xe,
				  .ylo = fmax(mlo, y.mean - ye),
				  .yhi = fmin(mhi, y.mean + ye) };

		pareto_put(&c->pa, json_string_value(json_object_get(
				   g->first.pj, "policy")),
			   json_string_value(json_object_get(g->first.pj,
							     "platform")),
			   table_point_vals(&c->tb, &g->first), pt);
	}
}

/*
 * With --repeat: sweep-summary.csv (a row per point, the mean, sd and 95 %
 * interval of every number column and of the metric over its runs) and
 * the plot's points, the runs read again a point at a time; 0 or a
 * SWEEP_COLLECT_*
 */
static int write_summary(struct sweep_collector *c)
{
	char *fin = xasprintf("%s/sweep-summary.csv", c->dir);
	struct run_group g = { .cols = table_columns(&c->tb) };
	FILE *f = safe_fopen(fin);
	int ret = SWEEP_COLLECT_RUN_ERROR, gi, k;

	g.ncols = strv_len(g.cols);
	g.v = xcalloc((size_t)(g.ncols * c->repeat), sizeof(double));
	g.energy_j = xcalloc((size_t)c->repeat, sizeof(double));
	g.metric = xcalloc((size_t)c->repeat, sizeof(double));
	if (!f)
		goto out;
	table_put_point_header(f, &c->tb);
	fputs(",runs,ok", f);
	for (k = 0; k <= g.ncols; k++) {
		static const char *const sfx[SWEEP_SUMMARY_STATS] = {
			"_mean", "_sd", "_ci95", "_median", "_ci_lo", "_ci_hi",
			"_boot_lo", "_boot_hi",
		};
		const char *col = k < g.ncols ? g.cols[k] : "metric";
		int q;

		/* the metric (last) and a share get all: a mean of a
		 * bounded or bimodal figure says too little */
		for (q = 0; q < (k == g.ncols || sweep_column_bounded(col) ?
				 SWEEP_SUMMARY_STATS : 3); q++) {
			char *h = xasprintf("%s%s", col, sfx[q]);

			fputc(',', f);
			csv_put_field(f, h);
			free(h);
		}
	}
	fputc('\n', f);
	for (gi = 0; gi < c->n / c->repeat; gi++) {
		int r;

		g.ok = 0;
		r = group_read(c, gi * c->repeat + 1, &g);
		if (!r)
			group_out(c, f, gi, &g);
		table_point_free(&g.first);
		if (r) {
			ret = r;
			goto out;
		}
	}
	ret = safe_fclose(f) ? SWEEP_COLLECT_RUN_ERROR : 0;
	f = NULL;
out:
	if (ret == SWEEP_COLLECT_RUN_ERROR)
		fprintf(stderr, "capsim: cannot write %s: %s\n", fin,
			strerror(errno));
	if (f)
		safe_fdiscard(f);
	strv_free(g.cols);
	free(g.v);
	free(g.energy_j);
	free(g.metric);
	free(fin);
	return ret;
}

/* The header, then the rows: sweep.csv written aside and renamed */
static int write_csv(struct sweep_collector *c)
{
	char *fin = xasprintf("%s/sweep.csv", c->dir);
	FILE *f = safe_fopen(fin);
	char buf[65536];
	size_t got;
	int ret = -1;

	if (!f)
		goto out;
	table_put_header(f, &c->tb, c->repeat > 1);
	if (fflush(c->rows) || fseek(c->rows, 0, SEEK_SET))
		goto out;
	while ((got = fread(buf, 1, sizeof(buf), c->rows)) > 0)
		if (fwrite(buf, 1, got, f) != got)
			goto out;
	if (ferror(c->rows))
		goto out;
	ret = safe_fclose(f) ? -1 : 0;
	f = NULL;
out:
	if (ret) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", fin, strerror(errno));
		if (f)
			safe_fdiscard(f);
	}
	free(fin);
	return ret;
}

/* sweep.columns.json, for the columns sweep.csv has now */
static int write_columns(struct sweep_collector *c, const char *metric)
{
	char **cols = table_columns(&c->tb);
	int r = sweep_columns_write(c->dir, c->tb.params, cols, c->repeat > 1,
				    metric);

	strv_free(cols);
	return r;
}

/* The Pareto plot of the metric, its axis a column by what it measures,
 * in its unit, an expression as written; 0 or -1 (said) */
static int write_plot(struct sweep_collector *c, const char *metric,
		      bool quiet)
{
	const char *col = c->expr ? metric_expr_column(c->expr) : NULL;
	char *axis = col ? sweep_axis_label(col) : xstrdup(metric);
	int r = pareto_write(c->dir, &c->pa, metric, axis,
			     c->title ? c->title : "sweep", quiet);

	free(axis);
	return r;
}

int sweep_collector_finish(struct sweep_collector *c, bool quiet)
{
	const char *metric;
	int r;

	while (!c->error && c->next <= c->n)
		sweep_collector_add(c);
	if (c->error)
		return c->error;
	metric = collector_metric(c) ? collector_metric(c) : "energy_mj";
	if (c->failed < c->n) {
		const char *unknown;
		char err[256];
		struct metric_expr *e = metric_expr_parse(metric, table_has,
							  &c->tb, err,
							  sizeof(err), &unknown);

		if (!e) {
			char **cols = table_columns(&c->tb);
			char *hint = unknown ? sweep_metric_hint(
				err + strlen("unknown name "), cols) : xstrdup("");

			fprintf(stderr, "capsim: --metric %.100s is not a sweep.csv column or an expression over its columns: %s%s (e.g. %s, energy_mj, dom0.avg_mhz, energy_mj/1000)\n",
				metric, err, hint, c->defmetric ? c->defmetric :
				"TASK.resp_p95_ms");
			free(hint);
			strv_free(cols);
			return c->error = SWEEP_COLLECT_BAD_INPUT;
		}
		/* the same reading, the names now checked (or energy_mj
		 * when no point had a task that ran) */
		metric_expr_free(c->expr);
		c->expr = e;
	}
	flush_pending(c, c->expr);
	if (c->rows_stale) {
		r = rewrite_rows(c);
		if (r)
			return c->error = r;
	}
	if (c->repeat > 1 && (r = write_summary(c)))
		return c->error = r;
	if (write_columns(c, metric) || write_csv(c) ||
	    (c->failed < c->n && write_plot(c, metric, quiet)))
		return c->error = SWEEP_COLLECT_RUN_ERROR;
	if (!quiet)
		printf("collected %d points (%d failed) into %s/sweep.csv and %s/pareto.png (energy vs %s)\n",
		       c->n, c->failed, c->dir, c->dir, metric);
	return c->failed;
}

void sweep_collector_free(struct sweep_collector *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < c->npending; i++)
		table_point_free(&c->pending[i]);
	free(c->pending);
	pareto_free(&c->pa);
	if (c->rows)
		fclose(c->rows);
	for (i = 0; i < c->tb.ntasks; i++)
		free(c->tb.tasks[i]);
	free(c->tb.tasks);
	for (i = 0; i < c->tb.nchains; i++)
		free(c->tb.chains[i]);
	free(c->tb.chains);
	free(c->title);
	free(c->defmetric);
	metric_expr_free(c->expr);
	json_decref(c->plan);
	free(c->dir);
	free(c);
}

/*
 * Without --metric, the one candidate metric of the sweep's workload, as
 * the sweep itself judged it (sweep_default_metric()), from the first
 * point's copy of the workload that is still there: a directory prepared by --emit-jobs is
 * collected with the plot its sweep would have drawn. A workload with
 * several candidates: SWEEP_COLLECT_BAD_INPUT (said); none, or no
 * readable copy: the plot's old default (take_defaults()).
 */
static void collector_default_metric(struct sweep_collector *c)
{
	const char *wname = json_string_value(json_object_get(c->plan,
							      "workload_name"));
	json_t *w = NULL;
	char *wf = NULL;
	int id;

	/* a plan that says (its metric, or null: no candidate) is not
	 * judged again */
	if (c->error || c->metric || !wname ||
	    json_object_get(c->plan, "metric"))
		return;
	/* the first point that still has its copy (one may be missing) */
	for (id = 1; id <= c->n && !w; id++) {
		free(wf);
		wf = xasprintf("%s/points/%0*d/%s.json", c->dir, c->width, id,
			       wname);
		w = json_load_file(wf, 0, NULL);
	}
	if (w && sweep_default_metric(w, wf, &c->defmetric))
		c->error = SWEEP_COLLECT_BAD_INPUT;
	json_decref(w);
	free(wf);
}

int sweep_collect(const char *dir, const char *metric, bool quiet)
{
	struct sweep_collector *c = sweep_collector_open(dir, metric);
	json_t *pm = c->plan ? json_object_get(c->plan, "metric") : NULL;
	int r;

	if (metric && json_is_string(pm) && strcmp(json_string_value(pm), metric))
		fprintf(stderr, "capsim: --collect: --metric %s: the plot shows it, not the sweep's %s (%s/sweep.json)\n",
			metric, json_string_value(pm), dir);
	collector_default_metric(c);
	r = sweep_collector_finish(c, quiet);

	sweep_collector_free(c);
	return r;
}
