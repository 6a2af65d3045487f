/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sweeps: a sweep directory holds sweep.json (the plan), points/NNNN/
 * (each point's edited workload, its platform if edited, point.json and,
 * once run, run/trace.txt + run/summary.json + run.log), and once
 * collected sweep.csv and pareto.png/.svg.
 */
#ifndef CAPSIM_SWEEP_H
#define CAPSIM_SWEEP_H

#include <stdbool.h>

/*
 * Merge the points of sweep directory @dir into @dir/sweep.csv and the
 * Pareto plot (energy against @metric, a sweep.csv column; NULL: the
 * response p95 of the task with the most activations). Returns the number
 * of failed points, or -1 (reported).
 */
int sweep_collect(const char *dir, const char *metric, bool quiet);

#endif
