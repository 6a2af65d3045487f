/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's timeline for the freq plot: the frequency and the clamp band
 * as levels that hold until the next change. Written for gnuplot as steps
 * when the window holds few changes; when it holds more than a 1000 px
 * plot can show (a busy workload flips the OPP every few ms), as bins: per
 * bin the time-weighted mean frequency, its lowest and highest level, and
 * the band's envelope (lowest min, highest max while it held), so the plot
 * shows a trend and an envelope instead of a solid block of colour, and
 * the mean never leaves the band it was bounded by.
 */
#ifndef CAPSIM_FREQ_SERIES_H
#define CAPSIM_FREQ_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct level {
	double t;		/* s */
	double khz, bmin, bmax;	/* band as the OPPs it allows, kHz */
	bool band;
};

struct level_series {
	struct level *v;
	size_t n, cap;
};

/* A level from @l.t on (a second level at the same time replaces it) */
void series_add(struct level_series *s, struct level l);
void series_free(struct level_series *s);

/*
 * Rows "t MHz MHz_low MHz_high band_min_MHz band_max_MHz has_band" over
 * [from, to]. Returns the bin width in seconds, or 0 when written as
 * steps.
 */
double series_write(FILE *f, const struct level_series *s, double from,
		    double to);

/*
 * The share of [from, to] the series spent at each of the @nopps OPPs
 * (@khz ascending) into @pct, in percent; *@unknown_pct the rest: before
 * its first level (no frequency known yet), or at a level off the table.
 * A window's residency, from the same levels the freq panel draws, by
 * the rule of src/trace/freq_residency.h.
 */
void series_residency(const struct level_series *s, double from, double to,
		      const unsigned int *khz, int nopps, double *pct,
		      double *unknown_pct);

#endif
