/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gnuplot for the commands that draw (capsim plot, compare, sweep,
 * xcheck): every string quoted one way, the program run in the output
 * directory (so no user path is ever gnuplot code), its plots checked
 * complete, each drawn under a name of capsim's in a directory made for
 * it and renamed to its own once whole. The plots themselves are the
 * callers' (src/whatif/plot.c, src/xcheck/report.c).
 */
#ifndef CAPSIM_GNUPLOT_H
#define CAPSIM_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* Where the gnuplot scripts are; NULL if not found (reported) */
const char *plot_scripts_dir(void);
/*
 * Run `gnuplot -e VARS SCRIPT` in @dir, where every file the script reads
 * is named relative to it (so no path is ever gnuplot code), and which
 * draws the files @outs (a NULL-ended list of names, each in format
 * @fmt, png or svg) into the directory its variable outdir names: one
 * made for it, whence they are renamed to @dir/NAME once all are whole
 * (gnuplot.c says why). gnuplot's warnings on stderr unless @quiet, all
 * its messages when it fails. 0 or -1 (reported).
 */
int plot_gnuplot(const char *dir, const char *vars, const char *script,
		 const char *fmt, const char *const *outs, bool quiet);
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
 * Figures drawn by one gnuplot process, started now and waited for later:
 * gnuplot's start-up (its libraries, fontconfig's configuration) costs
 * about what a small figure does, so a compare draws every policy's
 * figures and its own in as many processes as it runs at once (-j).
 * Each script is run once per format, PNG (unless @png is NULL) then SVG,
 * from common.gp's reset on
 * (so one figure's settings never leak into the next); files relative to
 * @dir as plot_gnuplot()'s. init (@vars may be NULL), add each (after a
 * gp_figures_set() when figures of several directories share the
 * process), start, then wait (which checks every file complete and
 * frees; free() alone when start failed).
 */
struct gp_figures {
	char *dir, *script;	/* script: the last added, for messages */
	char *draw;		/* where gnuplot draws them, then renamed */
	bool draw_failed;
	char **argv, **files;
	const char **fmts;	/* files[i] is drawn as fmts[i]: png, svg */
	int argc, nfiles;
	pid_t pid;
	FILE *log;
	bool quiet;
};

void gp_figures_init(struct gp_figures *g, const char *dir, const char *vars,
		     bool quiet);
void gp_figures_add(struct gp_figures *g, const char *script, const char *png,
		    const char *svg);
/* gnuplot code (a -e list, strings through gp_quote()) run before the
 * figures added after it (their datadir when it differs), after every
 * variable an earlier figure's scripts set is removed */
void gp_figures_set(struct gp_figures *g, const char *vars);
/* 0, or -1 (reported) */
int gp_figures_start(struct gp_figures *g);
/* 0, or -1 (reported: gnuplot's messages, or the file left incomplete) */
int gp_figures_wait(struct gp_figures *g);
void gp_figures_free(struct gp_figures *g);

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
