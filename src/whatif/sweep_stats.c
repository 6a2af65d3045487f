// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "sweep_stats.h"
#include "util.h"

/* t(0.975, df) for df 1..30: the standard table's values */
static const double t975[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

/* Beyond 30, the table's 40, 60, 120 and infinity, between them linear
 * in 1/df (the quantile is close to linear in it there) */
static const struct {
	double df, t;
} t975_far[] = {
	{ 30, 2.042 }, { 40, 2.021 }, { 60, 2.000 }, { 120, 1.980 },
	{ INFINITY, 1.960 },
};

double student_t975(int df)
{
	int i;

	if (df < 1)
		return NAN;
	if (df <= 30)
		return t975[df - 1];
	for (i = 1; df > t975_far[i].df; i++)
		;
	{
		double a = 1 / t975_far[i - 1].df, b = 1 / t975_far[i].df;
		double x = 1.0 / df;

		return t975_far[i].t + (t975_far[i - 1].t - t975_far[i].t) *
		       (x - b) / (a - b);
	}
}

/*
 * Around the first finite value v0 (the differences are exact zeros when
 * the runs agree, so equal runs give sd 0 and their own value as the
 * mean, not a rounding of n * v / n)
 */
struct sample_stats sample_stats(const double *v, int nv)
{
	struct sample_stats st = { 0, NAN, NAN, NAN };
	double v0 = NAN, sum = 0, ss = 0, md;
	int i;

	for (i = 0; i < nv; i++) {
		if (!isfinite(v[i]))
			continue;
		if (!st.n)
			v0 = v[i];
		sum += v[i] - v0;
		ss += (v[i] - v0) * (v[i] - v0);
		st.n++;
	}
	if (!st.n)
		return st;
	md = sum / st.n;
	st.mean = v0 + md;
	if (st.n < 2)
		return st;
	/* never below 0 through rounding */
	st.sd = sqrt(fmax(0, (ss - st.n * md * md) / (st.n - 1)));
	st.ci95 = student_t975(st.n - 1) * st.sd / sqrt(st.n);
	return st;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The finite values of @v[0..@nv) into a new array (caller frees),
 * their count in *@n */
static double *finite_values(const double *v, int nv, int *n)
{
	double *f = malloc((size_t)(nv > 0 ? nv : 1) * sizeof(double));
	int i;

	*n = 0;
	if (!f)
		return NULL;
	for (i = 0; i < nv; i++)
		if (isfinite(v[i]))
			f[(*n)++] = v[i];
	return f;
}

/*
 * The percentile bootstrap of the mean of the @n values @f: BOOT_N
 * resamples of @n drawn with replacement by splitmix64 from BOOT_SEED
 * (the same draws for every point and column: collecting again gives
 * the same interval), their means sorted, the BOOT_LO-th and BOOT_HI-th
 * of them
 */
static void bootstrap95(const double *f, int n, double *lo, double *hi)
{
	double *means = malloc(BOOT_N * sizeof(double));
	uint64_t st = BOOT_SEED;
	int b, k;

	*lo = *hi = NAN;
	if (!means)
		return;
	for (b = 0; b < BOOT_N; b++) {
		double sum = 0;

		for (k = 0; k < n; k++)
			sum += f[rng_next(&st) % (uint64_t)n];
		means[b] = sum / n;
	}
	qsort(means, BOOT_N, sizeof(double), cmp_dbl);
	*lo = means[BOOT_LO - 1];
	*hi = means[BOOT_HI - 1];
	free(means);
}

struct sample_robust sample_robust(const double *v, int nv, double lo,
				   double hi)
{
	struct sample_robust r = { NAN, NAN, NAN, NAN, NAN };
	struct sample_stats st = sample_stats(v, nv);
	int n;
	double *f = finite_values(v, nv, &n);

	if (!f || !n) {
		free(f);
		return r;
	}
	qsort(f, (size_t)n, sizeof(double), cmp_dbl);
	r.median = n % 2 ? f[n / 2] : (f[n / 2 - 1] + f[n / 2]) / 2;
	if (n >= 2) {
		/* clipped to what the column can hold: a jank % of 0 +- 1.2
		 * is [0, 1.2], not a negative share of frames */
		r.ci_lo = fmax(lo, st.mean - st.ci95);
		r.ci_hi = fmin(hi, st.mean + st.ci95);
		bootstrap95(f, n, &r.boot_lo, &r.boot_hi);
	}
	free(f);
	return r;
}
