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
 *   frames    per chain: each frame's latency against the deadline (a
 *             run with chains: its chains.csv); activity.png then has a
 *             lane per chain (plot_frames.h)
 */
#ifndef CAPSIM_PLOT_H
#define CAPSIM_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "gnuplot.h"
#include "outdir.h"

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

/* "0,1,2,3,6" as "0-3,6" (caller frees) */
char *plot_cpu_ranges(const char *list);
/* @datadir/@name opened for writing, or NULL (said, naming it): written
 * aside, under its name at safe_fclose() (src/outputs/safe_write.h) */
FILE *plot_data_open(const char *datadir, const char *name);

/*
 * plot_run() in two halves, so that a caller draws several runs at once
 * (compare): plot_begin() writes the data and starts gnuplot (returns as
 * plot_run(); on failure nothing is left to end), plot_end() waits for
 * it and puts the directory in place (0 or -1, said); plot_abort() drops
 * a begun one.
 *
 * Or with the figures drawn by a gnuplot process the caller shares
 * between runs: plot_prepare() writes the data only (returns as
 * plot_begin()), plot_add_figure() adds the run's figure @i (of nfigs)
 * to @g, which runs in a directory where the plots' temporary directory
 * is @reldir (a name capsim made, "" for the same directory), and once
 * every process drawing them is waited for, plot_finish() puts the
 * directory in place when @drawn (0), or drops it (-1).
 */
struct plot_job {
	struct outdir od;
	struct gp_figures g;
	char *outdir;
	const char *scripts;	/* plot_scripts_dir() */
	const char *figs[6];	/* the plots/NAME.gp drawn */
	int nfigs;
	bool started, quiet, no_done_line, has_util, has_energy, has_frames;
};
int plot_begin(struct plot_job *j, const char *path, const struct plot_opts *o);
int plot_end(struct plot_job *j);
void plot_abort(struct plot_job *j);
int plot_prepare(struct plot_job *j, const char *path,
		 const struct plot_opts *o);
void plot_add_figure(const struct plot_job *j, struct gp_figures *g,
		     const char *reldir, int i);
int plot_finish(struct plot_job *j, bool drawn);
/*
 * plots/NAME.gp drawn as NAME.png and NAME.svg by gnuplot run in @outdir,
 * the script's data in its data/ (@scripts: plot_scripts_dir()); 0 or -1
 */
int plot_render(const char *scripts, const char *outdir, const char *name,
		bool quiet);

#endif
