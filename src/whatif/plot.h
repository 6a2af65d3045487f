/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plots of a run (capsim plot, capsim run --plot, capsim compare):
 * a pass over the trace writes data files and a vars.gp, then the generic
 * gnuplot scripts of plots/ draw them, PNG and SVG, 1000 px wide:
 *   freq      one panel per frequency domain: the frequency and the clamp
 *             band drawn as the OPPs it allows
 *   activity  a lane per task: running (coloured by CPU), runnable
 *   util      per CPU: utilization against its clamp range (--trace-util)
 *   residency per domain: share of time at each OPP
 *   energy    per domain (needs summary.json)
 */
#ifndef CAPSIM_PLOT_H
#define CAPSIM_PLOT_H

#include <stdbool.h>

struct plot_opts {
	double from_s, to_s;	/* window; to_s < 0: the end */
	const char *platform;	/* for a bare trace: NAME or FILE */
	const char *outdir;	/* default: RUN/plots or ./plots-TRACE */
	const char *tasks;	/* comma-separated lanes to draw, or NULL */
	bool quiet;		/* no "plots:" line, no gnuplot warnings */
	bool no_done_line;	/* the caller names the plots (compare) */
};

/* capsim plot PATH...; exit status */
int cmd_plot(int argc, char **argv);

/* Plot the run in @path into @o->outdir (or its default); 0, -1, or
 * SCAN_BAD_INPUT (-2: its trace is no usable trace, or the output
 * directory may not be written) */
int plot_run(const char *path, const struct plot_opts *o);

/* Where the gnuplot scripts are; NULL if not found (reported) */
const char *plot_scripts_dir(void);
/*
 * Run `gnuplot -e VARS SCRIPT` in @dir, where every file the script reads
 * or writes is named relative to it (so no path is ever gnuplot code);
 * gnuplot's warnings on stderr unless @quiet, all its messages when it
 * fails. 0 or -1 (reported).
 */
int plot_gnuplot(const char *dir, const char *vars, const char *script,
		 bool quiet);
/*
 * SCRIPT (which sets its terminal from fmt and its output from out, as
 * plots/common.gp does) drawn into @png and @svg (relative to @dir, where
 * gnuplot runs, as plot_gnuplot()) by one gnuplot process:
 * its start-up costs more than a small plot, and a sweep's Pareto plot is
 * part of its overhead. 0 or -1 (reported).
 */
int plot_gnuplot_png_svg(const char *dir, const char *vars,
			 const char *script, const char *png, const char *svg,
			 bool quiet);

/*
 * Every string in gnuplot code (-e lists, vars.gp) goes through this: a
 * string expression of single-quoted pieces, each ' as "'", control
 * characters as '?' -- gnuplot runs nothing in it (caller frees)
 */
char *gp_quote(const char *s);
/* A "label" column of a gnuplot data file: no " nor control character
 * inside, so the columns after it stay in place (caller frees) */
char *gp_data_label(const char *s);

#endif
