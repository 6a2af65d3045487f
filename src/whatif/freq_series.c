// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "freq_residency.h"
#include "freq_series.h"
#include "util.h"

/* More changes than this in the window: bins (a 1000 px plot has ~850 px
 * of x axis, so beyond ~1 change per 3 px the steps merge into a block) */
#define MAX_STEPS 300
#define NBINS 400

void series_add(struct level_series *s, struct level l)
{
	if (s->n && s->v[s->n - 1].t >= l.t) {
		s->v[s->n - 1] = l;
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = l;
}

void series_free(struct level_series *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

static void row(FILE *f, double t, const struct level *l, double lo,
		double hi, double bmin, double bmax)
{
	fprintf(f, "%.9f %.3f %.3f %.3f %.3f %.3f %d\n", t, l->khz / 1e3,
		lo / 1e3, hi / 1e3, bmin / 1e3, bmax / 1e3, l->band);
}

/* First level in force at @t (the one before it, or the first) */
static size_t level_at(const struct level_series *s, double t)
{
	size_t lo = 0, hi = s->n;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid].t <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void write_steps(FILE *f, const struct level_series *s, double from,
			double to, size_t first)
{
	size_t i;

	for (i = first; i < s->n && s->v[i].t <= to; i++) {
		const struct level *l = &s->v[i];
		double t0 = l->t < from ? from : l->t;
		double t1 = i + 1 < s->n && s->v[i + 1].t < to ? s->v[i + 1].t : to;

		/* both ends of the level, so filled curves follow the steps */
		row(f, t0, l, l->khz, l->khz, l->bmin, l->bmax);
		row(f, t1, l, l->khz, l->khz, l->bmin, l->bmax);
	}
}

/*
 * Per bin: the time-weighted mean frequency, the lowest and highest level,
 * and the band as the widest it was in the bin (its lowest min, its
 * highest max, over the time it held): drawn as an envelope, a band's
 * extremes bound the frequency's as they do in steps. A mean band did
 * not: the frequency lags a falling band by its transition, so averaged
 * over a bin the mean frequency rose above the mean band's max and a
 * working cap read as a broken one. Time without a band (no busy CPU)
 * adds nothing to it.
 */
static void write_bins(FILE *f, const struct level_series *s, double from,
		       double to, size_t first)
{
	double w = (to - from) / NBINS;
	size_t i = first;
	int b;

	for (b = 0; b < NBINS; b++) {
		double b0 = from + b * w, b1 = b0 + w, sum = 0, lo = 1e18,
		       hi = 0, blo = 1e18, bhi = 0, dt_tot = 0;
		struct level mean = { 0 };

		while (i + 1 < s->n && s->v[i + 1].t <= b0)
			i++;
		for (size_t k = i; k < s->n && s->v[k].t < b1; k++) {
			const struct level *l = &s->v[k];
			double t0 = l->t > b0 ? l->t : b0;
			double t1 = k + 1 < s->n && s->v[k + 1].t < b1 ?
				    s->v[k + 1].t : b1;
			double dt = t1 - t0;

			if (dt <= 0)
				continue;
			sum += dt * l->khz;
			dt_tot += dt;
			if (l->khz < lo)
				lo = l->khz;
			if (l->khz > hi)
				hi = l->khz;
			if (!l->band)
				continue;
			mean.band = true;
			if (l->bmin < blo)
				blo = l->bmin;
			if (l->bmax > bhi)
				bhi = l->bmax;
		}
		if (dt_tot <= 0)
			continue;
		mean.khz = sum / dt_tot;
		row(f, b0 + w / 2, &mean, lo, hi, mean.band ? blo : 0, bhi);
	}
}

double series_write(FILE *f, const struct level_series *s, double from,
		    double to)
{
	size_t first, last;

	if (!s->n)
		return 0;
	first = level_at(s, from);
	last = level_at(s, to);
	if (last - first <= MAX_STEPS) {
		write_steps(f, s, from, to, first);
		return 0;
	}
	write_bins(f, s, from, to, first);
	return (to - from) / NBINS;
}

/* @t in ns from the window's start @from, for the residency's counts */
static uint64_t ns_from(double t, double from)
{
	return (uint64_t)llround((t - from) * 1e9);
}

void series_residency(const struct level_series *s, double from, double to,
		      const unsigned int *khz, int nopps, double *pct,
		      double *unknown_pct)
{
	struct freq_residency r;
	uint64_t end;
	size_t i;
	int j;

	for (j = 0; j < nopps; j++)
		pct[j] = 0;
	*unknown_pct = 0;
	if (to <= from)
		return;
	end = ns_from(to, from);
	freq_residency_init(&r, nopps, 0);
	/* before the first level (or with none): no frequency known yet */
	if (!s->n || s->v[0].t >= to)
		freq_residency_add(&r, -1, 0, end);
	else if (s->v[0].t > from)
		freq_residency_add(&r, -1, 0, ns_from(s->v[0].t, from));
	for (i = s->n ? level_at(s, from) : 0; i < s->n && s->v[i].t < to; i++) {
		const struct level *l = &s->v[i];
		double t0 = l->t > from ? l->t : from;
		double t1 = i + 1 < s->n && s->v[i + 1].t < to ? s->v[i + 1].t : to;

		if (t1 <= t0)
			continue;
		for (j = 0; j < nopps && khz[j] != (unsigned int)l->khz; j++)
			;
		/* a level off the OPP table counts as unknown */
		freq_residency_add(&r, j < nopps ? j : -1, ns_from(t0, from),
				   ns_from(t1, from));
	}
	for (j = 0; j < nopps; j++)
		pct[j] = freq_residency_pct(&r, j);
	*unknown_pct = freq_residency_pct(&r, -1);
	freq_residency_free(&r);
}
