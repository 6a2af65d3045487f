// SPDX-License-Identifier: GPL-2.0
/*
 * sweep.csv's table (sweep_table.h): the points read back and checked,
 * their columns and values, the rows.
 */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "escape.h"
#include "procs.h"
#include "run_metrics.h"
#include "sweep.h"
#include "sweep_columns.h"
#include "sweep_table.h"
#include "util.h"
#include "whatif.h"

/* Column @c of chain @name in @m, NAN if @m has no such chain */
static double chain_col(const struct run_metrics *m, const char *name, int c)
{
	const struct chain_metrics *cm = run_metrics_chain(m, name);

	if (!cm)
		return NAN;
	return c ? cm->lat_us[c - 1] / 1e3 : cm->jank_pct;
}

/* The index of chain.@name.COLUMN's COLUMN in @col, or -1 */
static int chain_col_of(const char *col, const char *name)
{
	size_t n = strlen(name);
	int c;

	if (strncmp(col, "chain.", 6) || strncmp(col + 6, name, n) ||
	    col[6 + n] != '.')
		return -1;
	for (c = 0; c < (int)SWEEP_CHAIN_COLS; c++)
		if (!strcmp(col + 7 + n, sweep_chain_column(c)))
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

void table_csv_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.6g", v);
}

static double task_col(const struct task_metrics *t, int c)
{
	switch (c) {
	case 0: return t->wlat_us[1] / 1e3;
	case 1: return t->wlat_us[2] / 1e3;
	case 2: return t->resp_us[1] / 1e3;
	case 3: return t->resp_us[2] / 1e3;
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

/* The value of sweep.csv column @col for point @p (NAN if none/text) */
double table_value(const struct table *tb, const struct point *p,
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
		for (c = 0; c < (int)SWEEP_TASK_COLS; c++) {
			const struct task_metrics *t;

			if (strcmp(col + n + 1, sweep_task_column(c)))
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

bool table_has_column(const struct table *tb, const char *col)
{
	int k, c;

	if (!strcmp(col, "energy_mj"))
		return true;
	for (k = 0; k < tb->ntasks; k++)
		for (c = 0; c < (int)SWEEP_TASK_COLS; c++) {
			char *n = xasprintf("%s.%s", tb->tasks[k], sweep_task_column(c));
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

/* The number columns of sweep.csv, in order (a NULL-ended array the
 * caller frees with strv_free()) */
char **table_columns(const struct table *tb)
{
	int n = 1 + tb->ntasks * (int)SWEEP_TASK_COLS + tb->ndoms +
		tb->nchains * (int)SWEEP_CHAIN_COLS, k = 0, i, t, c;
	char **cols = xcalloc((size_t)n + 1, sizeof(char *));

	cols[k++] = xstrdup("energy_mj");
	for (t = 0; t < tb->ntasks; t++)
		for (c = 0; c < (int)SWEEP_TASK_COLS; c++)
			cols[k++] = xasprintf("%s.%s", tb->tasks[t], sweep_task_column(c));
	for (i = 0; i < tb->ndoms; i++)
		cols[k++] = xasprintf("dom%d.avg_mhz", i);
	for (t = 0; t < tb->nchains; t++)
		for (c = 0; c < (int)SWEEP_CHAIN_COLS; c++)
			cols[k++] = xasprintf("chain.%s.%s", tb->chains[t],
					      sweep_chain_column(c));
	return cols;
}

/* point, the parameters' identifiers (their paths are in
 * sweep.columns.json), policy, platform (both CSV files) */
void table_put_point_header(FILE *f, const struct table *tb)
{
	char **ids = sweep_param_columns(tb->params);
	int k;

	fputs("point", f);
	for (k = 0; ids[k]; k++) {
		fputc(',', f);
		csv_put_field(f, ids[k]);
	}
	fputs(",policy,platform", f);
	strv_free(ids);
}

void table_put_header(FILE *f, const struct table *tb, bool repeats)
{
	char **cols = table_columns(tb);
	int i;

	table_put_point_header(f, tb);
	fputs(repeats ? ",seed,repeat,status" : ",seed,status", f);
	for (i = 0; cols[i]; i++) {
		fputc(',', f);
		csv_put_field(f, cols[i]);
	}
	fputc('\n', f);
	strv_free(cols);
}

/* Point @p's number, parameter values, policy and platform: @id */
void table_put_point_fields(FILE *f, const struct table *tb,
			       const struct point *p, int id)
{
	json_t *pj = p->pj, *params = json_object_get(pj, "params");
	size_t np = json_array_size(tb->params), k;

	fprintf(f, "%d", id);
	for (k = 0; k < np; k++) {
		const char *path = json_string_value(json_object_get(
			json_array_get(tb->params, k), "path"));
		char *v = json_dumps(json_object_get(params, path),
				     JSON_ENCODE_ANY | JSON_COMPACT);

		fputc(',', f);
		csv_put_field(f, v ? v : "");
		free(v);
	}
	fputc(',', f);
	csv_put_field(f, json_string_value(json_object_get(pj, "policy")));
	fputc(',', f);
	csv_put_field(f, json_string_value(json_object_get(pj, "platform")));
}

/* Point @p's row, its columns those of @tb as it is now */
void table_put_row(FILE *f, const struct table *tb, const struct point *p,
		      int repeat)
{
	json_t *pj = p->pj;
	int id = (int)json_integer_value(json_object_get(pj, "id")), t, c;

	table_put_point_fields(f, tb, p, id);
	fprintf(f, ",%lld", (long long)json_integer_value(
		json_object_get(pj, "seed")));
	/* from the number, so that a missing point's is said too: a
	 * point's runs are consecutive */
	if (repeat > 1)
		fprintf(f, ",%d", (id - 1) % repeat + 1);
	fprintf(f, ",%s,", p->status);
	if (p->ok)
		table_csv_num(f, p->m.energy_mj);
	for (t = 0; t < tb->ntasks; t++) {
		const struct task_metrics *tm = p->ok ?
			find_task(&p->m, tb->tasks[t]) : NULL;

		for (c = 0; c < (int)SWEEP_TASK_COLS; c++) {
			fputc(',', f);
			if (tm)
				table_csv_num(f, task_col(tm, c));
		}
	}
	for (t = 0; t < tb->ndoms; t++) {
		fputc(',', f);
		if (p->ok && t < p->m.ndoms)
			table_csv_num(f, p->m.doms[t].avg_mhz);
	}
	for (t = 0; t < tb->nchains; t++)
		for (c = 0; c < (int)SWEEP_CHAIN_COLS; c++) {
			fputc(',', f);
			if (p->ok)
				table_csv_num(f, chain_col(&p->m, tb->chains[t], c));
		}
	fputc('\n', f);
}

/* Point @p's parameter values as the plot's labels show them, in plan
 * order (caller frees: pareto_put() takes them); a string as itself,
 * anything else as compact JSON */
char **table_point_vals(const struct table *tb, const struct point *p)
{
	json_t *params = json_object_get(p->pj, "params");
	size_t np = json_array_size(tb->params), k;
	char **v = xcalloc(np + 1, sizeof(char *));

	for (k = 0; k < np; k++) {
		const char *path = json_string_value(json_object_get(
			json_array_get(tb->params, k), "path"));
		json_t *x = json_object_get(params, path);
		char *s = json_is_string(x) ? xstrdup(json_string_value(x)) :
			  json_dumps(x, JSON_ENCODE_ANY | JSON_COMPACT);

		v[k] = s ? s : xstrdup("?");
	}
	return v;
}

/* Width of the point numbers, as the sweep named the directories */
int table_point_width(int npoints)
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
int table_read_point(const char *dir, json_t *plan_params, int id,
		     int width, struct point *pt, bool say)
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
		if (say)
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
		if (say)
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
			if (say)
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

void table_point_free(struct point *p)
{
	if (p->ok)
		run_metrics_free(&p->m);
	json_decref(p->pj);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

/* @p's tasks, domains and chains into the table; true if it grew */
bool table_take(struct table *tb, const struct point *p)
{
	bool grew = false;
	int k, j;

	for (k = 0; k < p->m.ntasks; k++) {
		for (j = 0; j < tb->ntasks &&
		     strcmp(tb->tasks[j], p->m.tasks[k].name); j++)
			;
		if (j == tb->ntasks) {
			tb->tasks = xrealloc(tb->tasks, (size_t)(tb->ntasks + 1) *
					     sizeof(char *));
			tb->tasks[tb->ntasks++] = xstrdup(p->m.tasks[k].name);
			grew = true;
		}
	}
	if (p->m.ndoms > tb->ndoms) {
		tb->ndoms = p->m.ndoms;
		grew = true;
	}
	for (k = 0; k < p->m.nchains; k++) {
		for (j = 0; j < tb->nchains &&
		     strcmp(tb->chains[j], p->m.chains[k].name); j++)
			;
		if (j == tb->nchains) {
			tb->chains = xrealloc(tb->chains,
					      (size_t)(tb->nchains + 1) *
					      sizeof(char *));
			tb->chains[tb->nchains++] = xstrdup(p->m.chains[k].name);
			grew = true;
		}
	}
	return grew;
}
