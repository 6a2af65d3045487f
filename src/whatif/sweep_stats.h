/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of a sweep's repeats (--repeat N): per point the mean,
 * the sample standard deviation and the half-width of the 95 %
 * confidence interval of the mean, mean +- t(0.975, n - 1) * sd / sqrt(n)
 * (Student's t: the repeats are few and the spread unknown); for a
 * bounded or bimodal one also the median, the interval clipped and a
 * bootstrap interval.
 */
#ifndef CAPSIM_SWEEP_STATS_H
#define CAPSIM_SWEEP_STATS_H

struct sample_stats {
	int n;			/* the finite values */
	double mean, sd, ci95;	/* NAN when n is 0; sd and ci95 when n < 2 */
};

/* Over the finite values of @v[0..@nv) (a NaN is a run without it) */
struct sample_stats sample_stats(const double *v, int nv);

/* Student's t quantile t(0.975, @df), @df >= 1 */
double student_t975(int df);

/*
 * For a bounded or bimodal metric (a jank %: 0 0 0 0 100 has the mean
 * 20 +- 55, an interval that leaves 0..100 and a mean no run had):
 * the median, the mean's 95 % t-interval clipped to what the column can
 * hold ([@lo, @hi]), and the percentile bootstrap 95 % interval of the
 * mean (BOOT_N resamples with a fixed seed: deterministic), which
 * stays inside the values. NAN when there is no value; the intervals
 * NAN with fewer than two.
 */
#define BOOT_N 2000
#define BOOT_SEED 2000ULL
#define BOOT_LO 50		/* of the BOOT_N means, sorted: 2.5 % */
#define BOOT_HI 1950		/* 97.5 % */
struct sample_robust {
	double median;
	double ci_lo, ci_hi;	/* mean -+ ci95, clipped to [lo, hi] */
	double boot_lo, boot_hi;
};
struct sample_robust sample_robust(const double *v, int nv, double lo,
				   double hi);

#endif
