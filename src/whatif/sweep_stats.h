/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of a sweep's repeats (--repeat N): per point the mean,
 * the sample standard deviation and the half-width of the 95 %
 * confidence interval of the mean, mean +- t(0.975, n - 1) * sd / sqrt(n)
 * (Student's t: the repeats are few and the spread unknown).
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

#endif
