/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep's Pareto plot (pareto.png/.svg, drawn by plots/pareto.gp):
 * energy against the metric, a panel per platform, a series per policy,
 * each panel's front marked, the points labelled with their parameters.
 * sweep_collect.c puts the points; this file writes pareto-data/ and
 * has gnuplot draw it.
 */
#ifndef CAPSIM_SWEEP_PARETO_H
#define CAPSIM_SWEEP_PARETO_H

#include <stdbool.h>

#include "pareto_labels.h"

/* What the Pareto plot keeps of a point: nothing else of it stays in
 * memory while a sweep streams its rows */
struct ppt {
	double x, y;
	double xerr, yerr;	/* 95 % half-widths, with repeats (else 0) */
	int series;		/* its policy, from 1 */
	int panel;		/* its platform, from 1 */
	int idx;		/* its place in pareto.dat */
	char *label;		/* its parameters' values */
	bool front;
	enum pareto_label_pos label_pos;	/* beside its point */
};

/* The Pareto data of a collection: one entry per plotted point */
struct pareto {
	struct ppt *pp;
	int npp, cap;
	/* the policies (a colour each) and the platforms (a panel each: a
	 * front across platforms compares machines, not settings), in order
	 * of appearance */
	char **series, **panels;
	int nseries, npanels;
	bool errors;		/* the points are means with error bars */
};

/*
 * @pt onto the plot in policy @policy's series and platform @platform's
 * panel, labelled @label (taken: freed with the plot)
 */
void pareto_put(struct pareto *pa, const char *policy, const char *platform,
		char *label, struct ppt pt);
void pareto_free(struct pareto *pa);
/*
 * DIR/pareto-data/ (the points, the fronts, vars.gp) and DIR/pareto.png
 * and .svg of @pa, the metric @metric on an axis named @axis, titled
 * @title: 0, or -1 (said)
 */
int pareto_write(const char *dir, struct pareto *pa, const char *metric,
		 const char *axis, const char *title, bool quiet);

#endif
