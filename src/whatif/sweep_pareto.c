// SPDX-License-Identifier: GPL-2.0
/*
 * The Pareto plot of a sweep (sweep_pareto.h): the fronts, the points on
 * one spot grouped under one label and set apart, the labels placed,
 * pareto-data/ written and drawn by plots/pareto.gp.
 */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gnuplot.h"
#include "outdir.h"
#include "pareto_labels.h"
#include "plot.h"
#include "policy_style.h"
#include "safe_write.h"
#include "sweep_columns.h"
#include "sweep_pareto.h"
#include "util.h"
#include "whatif.h"

/* More plotted points than this: only the front's are labelled (a
 * label each on 10 000 points would be a black smear), each on its own */
#define PARETO_LABEL_ALL_MAX 200
/* A label lists so many values of a parameter, then "..." */
#define LABEL_VALUES_MAX 4
/* The markers of the policies on one spot, this share of the panel's
 * energy span apart (a marker is about 1.5 % of the plot's width) */
#define SPOT_SHIFT 0.02

static int cmp_ppt(const void *a, const void *b)
{
	const struct ppt *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	if (p->y != q->y)
		return p->y < q->y ? -1 : 1;
	/* ties in plot order: the same point is the front's every time */
	return (p->idx > q->idx) - (p->idx < q->idx);
}

void pareto_init(struct pareto *pa, json_t *params)
{
	memset(pa, 0, sizeof(*pa));
	pa->keys = sweep_param_keys(params);
	pa->cols = sweep_param_columns(params);
	pa->nkeys = strv_len(pa->keys);
}

/* @name's number in @names (from 1), added at the end when new */
static int name_index(char ***names, int *n, const char *name)
{
	int k;

	for (k = 0; k < *n && strcmp((*names)[k], name); k++)
		;
	if (k == *n) {
		*names = xrealloc(*names, (size_t)(*n + 1) * sizeof(char *));
		(*names)[(*n)++] = xstrdup(name);
	}
	return k + 1;
}

void pareto_put(struct pareto *pa, const char *policy, const char *platform,
		char **vals, struct ppt pt)
{
	pt.series = name_index(&pa->series, &pa->nseries, policy ? policy : "?");
	pt.panel = name_index(&pa->panels, &pa->npanels,
			      platform ? platform : "?");
	pt.idx = pa->npp;
	pt.vals = vals;
	pt.label = NULL;
	pt.xdraw = pt.x;
	pt.count = 1;
	if (!pa->errors) {
		pt.xlo = pt.xhi = pt.x;
		pt.ylo = pt.yhi = pt.y;
	}
	if (pa->npp == pa->cap) {
		pa->cap = pa->cap ? 2 * pa->cap : 64;
		pa->pp = xrealloc(pa->pp, (size_t)pa->cap * sizeof(*pa->pp));
	}
	pa->pp[pa->npp++] = pt;
}

static void vals_free(char **v, int n)
{
	int k;

	for (k = 0; v && k < n; k++)
		free(v[k]);
	free(v);
}

void pareto_free(struct pareto *pa)
{
	int i;

	for (i = 0; i < pa->npp; i++) {
		free(pa->pp[i].label);
		vals_free(pa->pp[i].vals, pa->nkeys);
	}
	free(pa->pp);
	for (i = 0; i < pa->nseries; i++)
		free(pa->series[i]);
	free(pa->series);
	for (i = 0; i < pa->npanels; i++)
		free(pa->panels[i]);
	free(pa->panels);
	strv_free(pa->keys);
	strv_free(pa->cols);
}

/* Each panel's [min x, max x, min y, max y] of all its points (their
 * intervals included when @bars) */
static double *panel_spans(const struct ppt *pp, int npp, int npanels,
			   bool bars)
{
	double *span = xcalloc((size_t)npanels * 4, sizeof(double));
	int i;

	for (i = 0; i < npanels; i++) {
		span[4 * i] = span[4 * i + 2] = INFINITY;
		span[4 * i + 1] = span[4 * i + 3] = -INFINITY;
	}
	for (i = 0; i < npp; i++) {
		double *sp = &span[4 * (pp[i].panel - 1)];

		sp[0] = fmin(sp[0], bars ? pp[i].xlo : pp[i].x);
		sp[1] = fmax(sp[1], bars ? pp[i].xhi : pp[i].x);
		sp[2] = fmin(sp[2], bars ? pp[i].ylo : pp[i].y);
		sp[3] = fmax(sp[3], bars ? pp[i].yhi : pp[i].y);
	}
	return span;
}

/* "max=128, min=0" of point @p's values */
static void put_point_vals(struct strbuf *sb, const struct pareto *pa,
			   const struct ppt *p)
{
	int k;

	for (k = 0; k < pa->nkeys; k++)
		sb_printf(sb, "%s%s=%s", k ? ", " : "", pa->keys[k],
			  p->vals[k]);
}

/* The distinct values of key @k among the @n points @m */
static int distinct_vals(struct ppt *const *m, int n, int k)
{
	int i, j, d = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(m[j]->vals[k], m[i]->vals[k]); j++)
			;
		d += j == i;
	}
	return d;
}

/*
 * The values of the @n points @m of one series on one spot: when they
 * are a grid (every combination of the values each key has among them:
 * one key varying, or several in full), each key with its values
 * ("max=128/256/512, min=0"), or "any max" when they are all those the
 * plot has, @nall[k], two or more: a parameter that changes nothing
 * there; else each point's ("max=128, min=0 | max=256, min=100").
 * Either cut after LABEL_VALUES_MAX.
 */
static void put_group_vals(struct strbuf *sb, const struct pareto *pa,
			   struct ppt *const *m, int n, const int *nall)
{
	double grid = 1;
	int k, i, j;

	for (k = 0; k < pa->nkeys; k++)
		grid *= distinct_vals(m, n, k);
	if (grid != n) {
		for (i = 0; i < n && i < LABEL_VALUES_MAX; i++) {
			if (i)
				sb_printf(sb, " | ");
			put_point_vals(sb, pa, m[i]);
		}
		if (n > LABEL_VALUES_MAX)
			sb_printf(sb, " | ...");
		return;
	}
	for (k = 0; k < pa->nkeys; k++) {
		int shown = 0;

		if (nall[k] >= 2 && distinct_vals(m, n, k) == nall[k]) {
			sb_printf(sb, "%sany %s", k ? ", " : "", pa->keys[k]);
			continue;
		}
		sb_printf(sb, "%s%s=", k ? ", " : "", pa->keys[k]);
		for (i = 0; i < n; i++) {
			/* each value once, in plot order */
			for (j = 0; j < i && strcmp(m[j]->vals[k], m[i]->vals[k]);
			     j++)
				;
			if (j < i)
				continue;
			if (shown == LABEL_VALUES_MAX) {
				sb_printf(sb, "/...");
				break;
			}
			sb_printf(sb, "%s%s", shown ? "/" : "", m[i]->vals[k]);
			shown++;
		}
	}
}

/*
 * The label of the @n points @m on one spot (@m[0] its first, in plot
 * order): their values, by policy when several with other values share
 * the spot ("rfc: max=1024; none: max=128/256"), once when they all
 * have the same ("max=717"), and "×N", the N points it stands for;
 * and each policy's markers set apart by SPOT_SHIFT of the panel's
 * energy span @xspan, so that none hides another
 */
static char *group_label(const struct pareto *pa, struct ppt **m, int n,
			 double xspan, const int *nall)
{
	struct ppt **ser = xcalloc((size_t)n, sizeof(*ser));
	int *seen = xcalloc((size_t)n, sizeof(int));
	char **text = xcalloc((size_t)n, sizeof(char *));
	int nser = 0, s, i;
	bool same = true;
	struct strbuf sb;

	/* the series on the spot, in order of appearance */
	for (i = 0; i < n; i++) {
		for (s = 0; s < nser && seen[s] != m[i]->series; s++)
			;
		if (s == nser)
			seen[nser++] = m[i]->series;
	}
	for (s = 0; s < nser; s++) {
		struct strbuf v;
		int k = 0;

		for (i = 0; i < n; i++)
			if (m[i]->series == seen[s]) {
				ser[k++] = m[i];
				m[i]->xdraw = m[i]->x + (s - (nser - 1) / 2.0) *
					      SPOT_SHIFT * xspan;
			}
		sb_init(&v);
		if (pa->nkeys)
			put_group_vals(&v, pa, ser, k, nall);
		text[s] = v.buf ? v.buf : xstrdup("");
		same = same && !strcmp(text[s], text[0]);
	}
	/* by policy when they differ (the markers' colours say which
	 * policies share it when they do not) */
	sb_init(&sb);
	for (s = 0; s < (same ? 1 : nser); s++)
		if (nser > 1 && !same)
			sb_printf(&sb, "%s%s: %s", s ? "; " : "",
				  pa->series[seen[s] - 1], text[s]);
		else
			sb_printf(&sb, "%s", text[s]);
	/* the points one marker stands for (their values list them) */
	if (n > 1)
		sb_printf(&sb, "%s\u00d7%d", sb.len ? " " : "", n);
	for (s = 0; s < nser; s++)
		free(text[s]);
	free(text);
	free(ser);
	free(seen);
	if (!sb.len) {
		sb_free(&sb);
		return NULL;
	}
	return sb.buf;
}

/* a span of 0 (every point at one value) is drawn as some range */
static double span_or(double span, double at)
{
	if (span > 0)
		return span;
	return fabs(at) > 0 ? fabs(at) * 0.2 : 1.0;
}

/*
 * The labels: up to PARETO_LABEL_ALL_MAX points, the points that land on
 * the same spot of their panel (within 1.5 % of its spans: a parameter
 * that changes nothing, e.g. any cap under policy none) share one
 * label, on the first of them; beyond, the fronts' only, each its own.
 * Quadratic: only for the few points that are all labelled.
 */
static void make_labels(struct pareto *pa)
{
	double *span = panel_spans(pa->pp, pa->npp, pa->npanels, false);
	struct ppt **m = xcalloc((size_t)pa->npp, sizeof(*m));
	int *anchor = xcalloc((size_t)pa->npp, sizeof(int));
	int *nall = xcalloc((size_t)pa->nkeys + 1, sizeof(int));
	int i, j;

	for (i = 0; i < pa->npp && pa->npp <= PARETO_LABEL_ALL_MAX; i++)
		m[i] = &pa->pp[i];
	for (j = 0; j < pa->nkeys && pa->npp <= PARETO_LABEL_ALL_MAX; j++)
		nall[j] = distinct_vals(m, pa->npp, j);
	for (i = 0; i < pa->npp; i++) {
		struct ppt *p = &pa->pp[i];
		const double *sp = &span[4 * (p->panel - 1)];

		anchor[i] = i;
		if (pa->npp > PARETO_LABEL_ALL_MAX) {
			if (p->front)
				p->label = group_label(pa, &p, 1, 0, nall);
			continue;
		}
		for (j = 0; j < i; j++)
			if (anchor[j] == j && pa->pp[j].panel == p->panel &&
			    fabs(pa->pp[j].x - p->x) <= 0.015 * (sp[1] - sp[0]) &&
			    fabs(pa->pp[j].y - p->y) <= 0.015 * (sp[3] - sp[2]))
				break;
		anchor[i] = j;
	}
	for (i = 0; i < pa->npp && pa->npp <= PARETO_LABEL_ALL_MAX; i++) {
		const double *sp = &span[4 * (pa->pp[i].panel - 1)];
		int n = 0;

		if (anchor[i] != i)
			continue;
		for (j = i; j < pa->npp; j++)
			if (anchor[j] == i)
				m[n++] = &pa->pp[j];
		pa->pp[i].label = group_label(pa, m, n,
					      span_or(sp[1] - sp[0], sp[0]),
					      nall);
		pa->pp[i].count = n;
	}
	free(nall);
	free(anchor);
	free(m);
	free(span);
}

/* Labelled points by panel, then energy, then plot order */
static int cmp_by_x(const void *a, const void *b)
{
	const struct ppt *p = *(const struct ppt *const *)a,
			 *q = *(const struct ppt *const *)b;

	if (p->panel != q->panel)
		return p->panel - q->panel;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return (p->idx > q->idx) - (p->idx < q->idx);
}

/* A metric no point has below 0 (nor its interval): its axis starts at
 * 0 (a percentage, a time, an energy) */
static bool y_nonneg(const struct pareto *pa)
{
	int i;

	for (i = 0; i < pa->npp && pa->pp[i].y >= 0 && pa->pp[i].ylo >= 0; i++)
		;
	return pa->npp && i == pa->npp;
}

/* Each label's spot beside its point (pareto_labels.c), in plot order,
 * inside the plot area pareto.gp draws: its points' spans widened by
 * its offsets (5 % left, 12 % right, 8 % below but none from a floor of
 * 0, 5 % above) */
static void place_labels(struct pareto *pa)
{
	struct pareto_label *l = xcalloc((size_t)pa->npp, sizeof(*l));
	double *span = panel_spans(pa->pp, pa->npp, pa->npanels, false);
	double *xs = xcalloc((size_t)pa->npanels, sizeof(double));
	double *ys = xcalloc((size_t)pa->npanels, sizeof(double));
	double *area = xcalloc((size_t)pa->npanels * 4, sizeof(double));
	struct ppt **order = xcalloc((size_t)pa->npp, sizeof(*order));
	bool floor0 = y_nonneg(pa);
	int i, n = 0;

	for (i = 0; i < pa->npanels; i++) {
		const double *sp = &span[4 * i];
		double rx, ry;

		xs[i] = sp[1] - sp[0];
		ys[i] = sp[3] - sp[2];
		rx = span_or(xs[i], sp[0]);
		ry = span_or(ys[i], sp[2]);
		area[4 * i] = sp[0] - 0.05 * rx;
		area[4 * i + 1] = sp[1] + 0.12 * rx;
		area[4 * i + 2] = floor0 ? fmin(0, sp[2]) : sp[2] - 0.08 * ry;
		area[4 * i + 3] = sp[3] + 0.05 * ry;
	}
	/* placed left to right: each next to its point when it can, a
	 * long one that cannot then going where the short ones left room
	 * (in plot order, a long label placed early took the row) */
	for (i = 0; i < pa->npp; i++) {
		pa->pp[i].label_pos = PARETO_LABEL_ABOVE_RIGHT;
		if (pa->pp[i].label)
			order[n++] = &pa->pp[i];
	}
	qsort(order, (size_t)n, sizeof(*order), cmp_by_x);
	for (i = 0; i < n; i++)
		l[i] = (struct pareto_label){
			.x = order[i]->x, .y = order[i]->y,
			.panel = order[i]->panel,
			.len = (int)strlen(order[i]->label) };
	pareto_place_labels_within(l, n, pa->npanels, area, xs, ys);
	for (i = 0; i < n; i++)
		order[i]->label_pos = l[i].pos;
	free(order);
	free(area);
	free(xs);
	free(ys);
	free(span);
	free(l);
}

/* The order of the fronts' file: by panel, then as cmp_ppt() */
static int cmp_ppt_panel(const void *a, const void *b)
{
	const struct ppt *p = a, *q = b;

	if (p->panel != q->panel)
		return p->panel - q->panel;
	return cmp_ppt(a, b);
}

/* The points of each panel (index panel - 1; caller frees) */
static int *panel_counts(const struct pareto *pa)
{
	int *n = xcalloc((size_t)pa->npanels, sizeof(int));
	int i;

	for (i = 0; i < pa->npp; i++)
		n[pa->pp[i].panel - 1]++;
	return n;
}

/*
 * Each panel's front (by energy, each point lower than every cheaper one
 * of its platform) marked and written to @data/pareto-front.dat, a panel
 * after the other, energy ascending; a panel of one point has none (it
 * is better than nothing). @pa's points are left in plot order again.
 * 0 or -1.
 */
static int write_fronts(const char *data, struct pareto *pa)
{
	struct ppt *pp = pa->pp;
	int npp = pa->npp, i, panel = 0, *count = panel_counts(pa);
	char *path = xasprintf("%s/pareto-front.dat", data);
	double best = INFINITY;
	FILE *f = safe_fopen(path);

	free(path);
	if (!f) {
		free(count);
		return -1;
	}
	qsort(pp, (size_t)npp, sizeof(*pp), cmp_ppt_panel);
	for (i = 0; i < npp; i++) {
		if (pp[i].panel != panel) {
			panel = pp[i].panel;
			best = INFINITY;
		}
		if (count[panel - 1] > 1 && pp[i].y < best) {
			best = pp[i].y;
			pp[i].front = true;
			fprintf(f, "%.9g %.9g %d\n", pp[i].x, pp[i].y,
				pp[i].panel);
		}
	}
	/* no front at all: one row gnuplot skips, not an empty file it
	 * warns about */
	for (i = 0; i < pa->npanels && count[i] < 2; i++)
		;
	if (i == pa->npanels)
		fputs("NaN NaN 0\n", f);
	free(count);
	/* back in plot order */
	for (i = 0; i < npp; i++)
		while (pp[i].idx != i) {
			struct ppt t = pp[pp[i].idx];

			pp[pp[i].idx] = pp[i];
			pp[i] = t;
		}
	return safe_fclose(f) ? -1 : 0;
}

/* Every point, in plot order, into @data/pareto.dat; 0 or -1 */
static int write_points(const char *data, const struct pareto *pa,
			const char *metric)
{
	char *path = xasprintf("%s/pareto.dat", data);
	FILE *f = safe_fopen(path);
	int i;

	free(path);
	if (!f)
		return -1;
	fprintf(f, "# energy_J %s panel series label label_pos energy_drawn count%s\n",
		metric, pa->errors ?
		" energy_lo energy_hi metric_lo metric_hi" : "");
	for (i = 0; i < pa->npp; i++) {
		const struct ppt *pt = &pa->pp[i];
		char *q = gp_data_label(pt->label ? pt->label : "");

		fprintf(f, "%.9g %.9g %d %d %s %d %.9g %d", pt->x, pt->y,
			pt->panel, pt->series, q, (int)pt->label_pos,
			pt->xdraw, pt->label ? pt->count : 0);
		if (pa->errors)
			fprintf(f, " %.9g %.9g %.9g %.9g", pt->xlo, pt->xhi,
				pt->ylo, pt->yhi);
		fputc('\n', f);
		free(q);
	}
	return safe_fclose(f) ? -1 : 0;
}

/*
 * The labels of panel @panel at spot @pos (pareto_labels.h) into
 * @data/labels-PANEL-POS.dat: "x y label" rows, each a label to draw.
 * A spot without labels gets one empty label at the panel's first
 * point: gnuplot 5.4 warns of an empty file, and crashes (SIGSEGV) on a
 * labels plot whose one row it does not draw. 0 or -1.
 */
static int write_label_file(const char *data, const struct pareto *pa,
			    int panel, int pos)
{
	char *path = xasprintf("%s/labels-%d-%d.dat", data, panel, pos);
	FILE *f = safe_fopen(path);
	const struct ppt *first = NULL;
	int i, n = 0;

	free(path);
	if (!f)
		return -1;
	for (i = 0; i < pa->npp; i++) {
		const struct ppt *pt = &pa->pp[i];
		char *q;

		if (pt->panel != panel)
			continue;
		if (!first)
			first = pt;
		if (!pt->label || (int)pt->label_pos != pos)
			continue;
		q = gp_data_label(pt->label);
		fprintf(f, "%.9g %.9g %s\n", pt->x, pt->y, q);
		free(q);
		n++;
	}
	if (!n && first)
		fprintf(f, "%.9g %.9g \"\"\n", first->x, first->y);
	return safe_fclose(f) ? -1 : 0;
}

/* gnuplot's array @name of @n quoted strings into @f */
static void put_gp_names(FILE *f, const char *name, char **names, int n)
{
	int i;

	fprintf(f, "n%s = %d\narray %slabel[%d]\n", name, n, name, n);
	for (i = 0; i < n; i++) {
		char *q = gp_quote(names[i]);

		fprintf(f, "%slabel[%d] = %s\n", name, i + 1, q);
		free(q);
	}
}

/* Each policy's colour and style (policy_style.h), by name */
static void put_styles(FILE *f, const struct pareto *pa)
{
	int i;

	fprintf(f, "array seriescolour[%d]\narray seriesstyle[%d]\n",
		pa->nseries, pa->nseries);
	for (i = 0; i < pa->nseries; i++)
		fprintf(f, "seriescolour[%d] = '%s'\nseriesstyle[%d] = %d\n",
			i + 1, policy_colour(pa->series[i]), i + 1,
			policy_style(pa->series[i]));
}

/*
 * Per panel: whether it has a front, and the range of an axis along
 * which all its points (and bars) sit at one value (gnuplot warns of an
 * empty range and picks one of its own): the value +- 10 %, from 0 for
 * a metric never below 0 (@ynonneg)
 */
static void put_panels(FILE *f, const struct pareto *pa, bool ynonneg)
{
	double *span = panel_spans(pa->pp, pa->npp, pa->npanels, true);
	int *count = panel_counts(pa), i;

	fprintf(f, "array hasfront[%d]\narray xfix[%d]\narray yfix[%d]\n",
		pa->npanels, pa->npanels, pa->npanels);
	fprintf(f, "array xlo[%d]\narray xhi[%d]\narray ylo[%d]\narray yhi[%d]\n",
		pa->npanels, pa->npanels, pa->npanels, pa->npanels);
	for (i = 0; i < pa->npanels; i++) {
		const double *sp = &span[4 * i];
		double d;

		fprintf(f, "hasfront[%d] = %d\n", i + 1, count[i] > 1);
		d = span_or(0, sp[0]) / 2;
		fprintf(f, "xfix[%d] = %d\nxlo[%d] = %.9g\nxhi[%d] = %.9g\n",
			i + 1, sp[1] <= sp[0], i + 1, sp[0] - d, i + 1,
			sp[0] + d);
		d = span_or(0, sp[2]) / 2;
		/* from 0, the range is one unless every point is at 0 */
		fprintf(f, "yfix[%d] = %d\nylo[%d] = %.9g\nyhi[%d] = %.9g\n",
			i + 1, ynonneg ? sp[3] <= 0 : sp[3] <= sp[2], i + 1,
			ynonneg ? fmax(0, sp[2] - d) : sp[2] - d, i + 1,
			sp[2] + d);
	}
	free(count);
	free(span);
}

/* The plot's titles (the labels' keys on a third line), the metric's
 * name, the series and the panels into @data/vars.gp; 0 or -1 (said) */
static int write_vars(const char *data, const struct pareto *pa,
		      const char *axis, const char *title)
{
	char *path = xasprintf("%s/vars.gp", data);
	FILE *f = safe_fopen(path);
	/* the lines: each quoted, joined by gnuplot's "\n" (gp_quote()
	 * turns a newline inside a string into '?') */
	char *t = xasprintf("energy vs %s, a panel per platform; front: no other point of the platform is better on both",
			    axis);
	char *qtitle = gp_quote(title), *qt = gp_quote(t), *qy = gp_quote(axis);
	struct strbuf keys;
	int ret = -1, i;
	bool ynonneg;

	sb_init(&keys);
	for (i = 0; i < pa->nkeys; i++)
		sb_printf(&keys, "%s%s = %s", i ? ", " : "labels: ",
			  pa->keys[i], pa->cols[i]);
	if (f) {
		char *qk = gp_quote(keys.len ? keys.buf : "");

		fprintf(f, "runtitle = %s.\"\\n\".%s%s%s\nylab = %s\n", qtitle,
			qt, keys.len ? ".\"\\n\"." : "", keys.len ? qk : "",
			qy);
		free(qk);
		/* only then, so that a sweep without repeats keeps its files */
		if (pa->errors)
			fputs("errorbars = 1\n", f);
		/* a metric no point has below 0 (a percentage, a time, an
		 * energy): its axis starts at 0, where the margin and a
		 * confidence interval's lower end would draw negative jank */
		ynonneg = y_nonneg(pa);
		if (ynonneg)
			fputs("ynonneg = 1\n", f);
		put_gp_names(f, "series", pa->series, pa->nseries);
		put_styles(f, pa);
		put_gp_names(f, "panel", pa->panels, pa->npanels);
		put_panels(f, pa, ynonneg);
		ret = safe_fclose(f) ? -1 : 0;
	}
	if (ret)
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
	sb_free(&keys);
	free(path);
	free(t);
	free(qtitle);
	free(qt);
	free(qy);
	return ret;
}

/* pareto.png and .svg, drawn by gnuplot in @dir (where it runs, the
 * names relative to it): gnuplot.c has them drawn aside and renamed once
 * both are whole, so no half-written plot replaces an older one */
static int draw_pareto(const char *dir, const char *scripts, bool quiet)
{
	char *script = xasprintf("%s/pareto.gp", scripts);
	char *qs = gp_quote(scripts);
	char *vars = xasprintf("datadir='pareto-data'; plotsdir=%s", qs);
	int ret = plot_gnuplot_png_svg(dir, vars, script, "pareto.png",
				       "pareto.svg", quiet);

	free(vars);
	free(qs);
	free(script);
	return ret;
}

int pareto_write(const char *dir, struct pareto *pa, const char *metric,
		 const char *axis, const char *title, bool quiet)
{
	const char *scripts = plot_scripts_dir();
	char *data = xasprintf("%s/pareto-data", dir);
	int ret = -1, p, k;

	if (!scripts)
		goto out;
	if (remove_tree(data) || mkdir(data, 0777)) {
		fprintf(stderr, "capsim: cannot create %s: %s\n", data, strerror(errno));
		goto out;
	}
	if (!pa->npp) {
		fprintf(stderr, "capsim: no point has both energy and %s: no Pareto plot\n",
			metric);
		ret = 0;
		goto out;
	}
	if (write_fronts(data, pa))
		goto bad;
	make_labels(pa);
	place_labels(pa);
	for (p = 1; p <= pa->npanels; p++)
		for (k = PARETO_LABEL_ABOVE_RIGHT; k <= PARETO_LABEL_SPOTS;
		     k++)
			if (write_label_file(data, pa, p, k))
				goto bad;
	if (write_points(data, pa, metric))
		goto bad;
	if (write_vars(data, pa, axis, title))
		goto out;
	ret = draw_pareto(dir, scripts, quiet);
	goto out;
bad:
	fprintf(stderr, "capsim: cannot write the Pareto plot's data in %s: %s\n",
		data, strerror(errno));
out:
	free(data);
	return ret;
}
