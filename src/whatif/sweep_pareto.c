// SPDX-License-Identifier: GPL-2.0
/*
 * The Pareto plot of a sweep (sweep_pareto.h): the fronts, the labels
 * merged and placed, pareto-data/ written and drawn by plots/pareto.gp.
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
#include "safe_write.h"
#include "sweep_pareto.h"
#include "util.h"

/* More plotted points than this: only the front's are labelled (a
 * label each on 10 000 points would be a black smear) */
#define PARETO_LABEL_ALL_MAX 200

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
		char *label, struct ppt pt)
{
	pt.series = name_index(&pa->series, &pa->nseries, policy ? policy : "?");
	pt.panel = name_index(&pa->panels, &pa->npanels,
			      platform ? platform : "?");
	pt.idx = pa->npp;
	pt.label = label;
	if (pa->npp == pa->cap) {
		pa->cap = pa->cap ? 2 * pa->cap : 64;
		pa->pp = xrealloc(pa->pp, (size_t)pa->cap * sizeof(*pa->pp));
	}
	pa->pp[pa->npp++] = pt;
}

void pareto_free(struct pareto *pa)
{
	int i;

	for (i = 0; i < pa->npp; i++)
		free(pa->pp[i].label);
	free(pa->pp);
	for (i = 0; i < pa->nseries; i++)
		free(pa->series[i]);
	free(pa->series);
	for (i = 0; i < pa->npanels; i++)
		free(pa->panels[i]);
	free(pa->panels);
}

/*
 * Points that land on the same spot of their panel (a parameter that
 * changes nothing, e.g. any cap under policy none) share one label,
 * "a/b/c", instead of printing over each other; the labels go into the
 * entries (in plot order), a merged one's NULL. Quadratic: only for the
 * few points that are all labelled.
 */
/* Each panel's [min x, max x, min y, max y] of all its points */
static double *panel_spans(const struct ppt *pp, int npp, int npanels)
{
	double *span = xcalloc((size_t)npanels * 4, sizeof(double));
	int i;

	for (i = 0; i < npanels; i++) {
		span[4 * i] = span[4 * i + 2] = INFINITY;
		span[4 * i + 1] = span[4 * i + 3] = -INFINITY;
	}
	for (i = 0; i < npp; i++) {
		double *sp = &span[4 * (pp[i].panel - 1)];

		sp[0] = fmin(sp[0], pp[i].x);
		sp[1] = fmax(sp[1], pp[i].x);
		sp[2] = fmin(sp[2], pp[i].y);
		sp[3] = fmax(sp[3], pp[i].y);
	}
	return span;
}

static void merge_labels(struct ppt *pp, int npp, int npanels)
{
	int *cnt = xcalloc((size_t)npp, sizeof(int));
	/* each panel's spans: "the same spot" is within 1.5 % of them */
	double *span = panel_spans(pp, npp, npanels);
	int i, j;

	for (i = 0; i < npp; i++) {
		const double *sp = &span[4 * (pp[i].panel - 1)];
		char *lab = pp[i].label;

		pp[i].label = NULL;
		for (j = 0; j < i; j++)
			if (pp[j].label && pp[j].panel == pp[i].panel &&
			    fabs(pp[j].x - pp[i].x) <= 0.015 * (sp[1] - sp[0]) &&
			    fabs(pp[j].y - pp[i].y) <= 0.015 * (sp[3] - sp[2]))
				break;
		if (j < i) {
			/* another series on the same spot: "; " */
			const char *sep = pp[j].series == pp[i].series ? "/" : "; ";
			char *m = cnt[j] < 4 || strcmp(sep, "/") ?
				  xasprintf("%s%s%s", pp[j].label, sep, lab) :
				  xstrdup(pp[j].label);

			if (cnt[j] == 4 && !strcmp(sep, "/")) {
				free(m);
				m = xasprintf("%s/...", pp[j].label);
			}
			free(pp[j].label);
			pp[j].label = m;
			cnt[j]++;
			free(lab);
		} else {
			pp[i].label = lab;
			cnt[i] = 1;
		}
	}
	free(span);
	free(cnt);
}

/* a point's label is drawn: all of them up to PARETO_LABEL_ALL_MAX
 * points, else the fronts' */
static bool label_shown(const struct pareto *pa, const struct ppt *pt)
{
	return pt->label && (pa->npp <= PARETO_LABEL_ALL_MAX || pt->front);
}

/* Each drawn label's spot beside its point (pareto_labels.c), in plot
 * order */
static void place_labels(struct pareto *pa)
{
	struct pareto_label *l = xcalloc((size_t)pa->npp, sizeof(*l));
	double *span = panel_spans(pa->pp, pa->npp, pa->npanels);
	double *xs = xcalloc((size_t)pa->npanels, sizeof(double));
	double *ys = xcalloc((size_t)pa->npanels, sizeof(double));
	int i, n = 0;

	for (i = 0; i < pa->npanels; i++) {
		xs[i] = span[4 * i + 1] - span[4 * i];
		ys[i] = span[4 * i + 3] - span[4 * i + 2];
	}
	for (i = 0; i < pa->npp; i++) {
		const struct ppt *pt = &pa->pp[i];

		pa->pp[i].label_pos = PARETO_LABEL_ABOVE_RIGHT;
		if (label_shown(pa, pt))
			l[n++] = (struct pareto_label){
				.x = pt->x, .y = pt->y, .panel = pt->panel,
				.len = (int)strlen(pt->label) };
	}
	pareto_place_labels(l, n, pa->npanels, xs, ys);
	for (i = 0, n = 0; i < pa->npp; i++)
		if (label_shown(pa, &pa->pp[i]))
			pa->pp[i].label_pos = l[n++].pos;
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

/*
 * Each panel's front (by energy, each point lower than every cheaper one
 * of its platform) marked and written to @data/pareto-front.dat, a panel
 * after the other, energy ascending; @pa's points are left in plot order
 * again. 0 or -1.
 */
static int write_fronts(const char *data, struct pareto *pa)
{
	struct ppt *pp = pa->pp;
	int npp = pa->npp, i, panel = 0;
	char *path = xasprintf("%s/pareto-front.dat", data);
	double best = INFINITY;
	FILE *f = safe_fopen(path);

	free(path);
	if (!f)
		return -1;
	qsort(pp, (size_t)npp, sizeof(*pp), cmp_ppt_panel);
	for (i = 0; i < npp; i++) {
		if (pp[i].panel != panel) {
			panel = pp[i].panel;
			best = INFINITY;
		}
		if (pp[i].y < best) {
			best = pp[i].y;
			pp[i].front = true;
			fprintf(f, "%.9g %.9g %d\n", pp[i].x, pp[i].y,
				pp[i].panel);
		}
	}
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
	fprintf(f, "# energy_J %s panel series label%s label_pos\n", metric,
		pa->errors ? " energy_ci95 metric_ci95" : "");
	for (i = 0; i < pa->npp; i++) {
		const struct ppt *pt = &pa->pp[i];
		char *q = gp_data_label(label_shown(pa, pt) ? pt->label : "");

		fprintf(f, "%.9g %.9g %d %d %s", pt->x, pt->y, pt->panel,
			pt->series, q);
		if (pa->errors)
			fprintf(f, " %.9g %.9g", pt->xerr, pt->yerr);
		fprintf(f, " %d\n", (int)pt->label_pos);
		free(q);
	}
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

/* The plot's titles, the metric's name and the series and panels'
 * names into @data/vars.gp; 0 or -1 (said) */
static int write_vars(const char *data, const struct pareto *pa,
		      const char *axis, const char *title)
{
	char *path = xasprintf("%s/vars.gp", data);
	FILE *f = safe_fopen(path);
	/* two lines: each quoted, joined by gnuplot's "\n" (gp_quote()
	 * turns a newline inside a string into '?') */
	char *t = xasprintf("energy vs %s, a panel per platform; front: no other point of the platform is better on both",
			    axis);
	char *qtitle = gp_quote(title), *qt = gp_quote(t), *qy = gp_quote(axis);
	int ret = -1, i;

	if (f) {
		fprintf(f, "runtitle = %s.\"\\n\".%s\nylab = %s\n", qtitle, qt,
			qy);
		/* only then, so that a sweep without repeats keeps its files */
		if (pa->errors)
			fputs("errorbars = 1\n", f);
		/* a metric no point has below 0 (a percentage, a time, an
		 * energy): its axis starts at 0, where the margin and a
		 * confidence interval's lower end would draw negative jank */
		for (i = 0; i < pa->npp && pa->pp[i].y >= 0; i++)
			;
		if (pa->npp && i == pa->npp)
			fputs("ynonneg = 1\n", f);
		put_gp_names(f, "series", pa->series, pa->nseries);
		put_gp_names(f, "panel", pa->panels, pa->npanels);
		ret = safe_fclose(f) ? -1 : 0;
	}
	if (ret)
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
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
	int ret = -1;

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
		goto out;
	if (pa->npp <= PARETO_LABEL_ALL_MAX)
		merge_labels(pa->pp, pa->npp, pa->npanels);
	place_labels(pa);
	if (write_points(data, pa, metric) || write_vars(data, pa, axis, title))
		goto out;
	ret = draw_pareto(dir, scripts, quiet);
out:
	free(data);
	return ret;
}
