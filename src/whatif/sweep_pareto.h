/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep's Pareto plot (pareto.png/.svg, drawn by plots/pareto.gp):
 * energy against the metric, a panel per platform, a colour and marker
 * per policy (policy_style.h), each panel's front marked, the points
 * labelled with their parameters by short keys ("max=128, min=0").
 * sweep_collect.c puts the points; this file writes pareto-data/ and has
 * gnuplot draw it.
 */
#ifndef CAPSIM_SWEEP_PARETO_H
#define CAPSIM_SWEEP_PARETO_H

#include <jansson.h>
#include <stdbool.h>

#include "pareto_labels.h"

/* What the Pareto plot keeps of a point: nothing else of it stays in
 * memory while a sweep streams its rows */
struct ppt {
	double x, y;
	/* with repeats, the 95 % intervals of both means, clipped to what
	 * each axis can hold (else x and y) */
	double xlo, xhi, ylo, yhi;
	/* where its marker is drawn: x, or set off beside the markers of
	 * the other policies on the same spot */
	double xdraw;
	int series;		/* its policy, from 1 */
	int panel;		/* its platform, from 1 */
	int idx;		/* its place in pareto.dat */
	char **vals;		/* its parameters' values, as text */
	char *label;		/* the text beside it, or NULL (another's has it) */
	int count;		/* the points its label stands for */
	bool front;
	enum pareto_label_pos label_pos;	/* beside its point */
};

/* The Pareto data of a collection: one entry per plotted point */
struct pareto {
	struct ppt *pp;
	int npp, cap;
	/* the policies (a series each, styled by name) and the platforms
	 * (a panel each: a front across platforms compares machines, not
	 * settings), in order of appearance */
	char **series, **panels;
	int nseries, npanels;
	/* each parameter's key on the labels, and its sweep.csv column */
	char **keys, **cols;
	int nkeys;
	bool errors;		/* the points are means with error bars */
};

/* An empty plot of a sweep whose plan has parameters @params */
void pareto_init(struct pareto *pa, json_t *params);
/*
 * @pt onto the plot in policy @policy's series and platform @platform's
 * panel, with its parameters' values @vals (pa->nkeys strings, taken:
 * freed with the plot)
 */
void pareto_put(struct pareto *pa, const char *policy, const char *platform,
		char **vals, struct ppt pt);
void pareto_free(struct pareto *pa);
/*
 * DIR/pareto-data/ (the points, the fronts, the labels, vars.gp) and
 * DIR/pareto.png and .svg of @pa, the metric @metric on an axis named
 * @axis, titled @title: 0, or -1 (said)
 */
int pareto_write(const char *dir, struct pareto *pa, const char *metric,
		 const char *axis, const char *title, bool quiet);

#endif
