/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capsim compare's own figure, compare.png/.svg: the energy and the
 * residency of every policy side by side (a bar per policy in each
 * domain's cluster, and in each OPP's), where the per-policy plots show
 * one policy a file. Data in DIR/compare-data/, drawn by
 * plots/compare.gp.
 */
#ifndef CAPSIM_COMPARE_PLOT_H
#define CAPSIM_COMPARE_PLOT_H

#include <stdbool.h>

#include "gnuplot.h"
#include "run_metrics.h"

struct compare_series {
	const char *policy;
	const struct run_metrics *m;
};

/*
 * Write the data of the @n runs (n >= 1, the same platform) into
 * @dir/compare-data. 0, or -1 (said).
 */
int compare_plot_write(const char *dir, const struct compare_series *s, int n);
/*
 * The figure added to @g, a gnuplot process that runs in that @dir
 * (gp_figures_init()): compare.svg, and compare.png when @png. 0, or -1
 * (said: the scripts are not found).
 */
int compare_plot_add(struct gp_figures *g, bool png);

#endif
