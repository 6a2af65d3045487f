/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of sweep.csv's columns and what they mean: the number
 * columns (energy_mj, domN.avg_mhz, TASK.COLUMN, chain.NAME.COLUMN, every
 * time in ms), a pandas-typable identifier for each --set path, and the
 * sidecar sweep.columns.json that names every column of sweep.csv and
 * sweep-summary.csv with its unit and meaning (docs/outputs.md).
 */
#ifndef CAPSIM_SWEEP_COLUMNS_H
#define CAPSIM_SWEEP_COLUMNS_H

#include <jansson.h>
#include <stdbool.h>

/* The per-task (TASK.SUFFIX) and per-chain (chain.NAME.SUFFIX) column
 * suffixes, in sweep.csv's order */
#define SWEEP_TASK_COLS 5
#define SWEEP_CHAIN_COLS 4
const char *sweep_task_column(int c);
const char *sweep_chain_column(int c);
/* @suffix is a per-task column suffix: resp_p95_ms... */
bool sweep_is_task_column(const char *suffix);

/*
 * The column an earlier capsim named @name (TASK.resp_p95_us,
 * chain.NAME.lat_p95_us: microseconds), now in ms: its new name (caller
 * frees), or NULL when @name is no such retired column.
 */
char *sweep_retired_column(const char *name);

/*
 * What to add to "unknown name @name" of a --metric: for a retired
 * microsecond column ": ... did you mean "ui.resp_p95_ms"?", else the
 * closest of the names @known (NULL-ended) it may use, as
 * spelling_hint(), or "". Caller frees.
 */
char *sweep_metric_hint(const char *name, char **known);

/* The identifier header of each path of the plan's @params (an array of
 * {path}), in order, unique and [a-z0-9_] only; NULL-ended, strv_free() */
char **sweep_param_columns(json_t *params);

/*
 * The key of each path of @params on the Pareto plot's labels
 * ("max=128, min=0"), in order: its last member's name, shortened to its
 * last word that is not a unit when longer than 8 characters
 * (capacity_max: max, rate_limit_us: limit); two alike, or a path that
 * ends in an index, take their column names. NULL-ended, strv_free().
 */
char **sweep_param_keys(json_t *params);

/*
 * What number column @col can hold, [*@lo, *@hi]: [0, 100] for a share
 * (jank %), [0, inf) for every other figure of a run, unbounded for
 * anything else (an expression)
 */
void sweep_column_range(const char *col, double *lo, double *hi);
/* @col's range is bounded both ways (a share): sweep-summary.csv gives
 * it SWEEP_SUMMARY_STATS columns, the others 3 */
bool sweep_column_bounded(const char *col);
/* _mean _sd _ci95, and for a bounded column and the metric _median
 * _ci_lo _ci_hi _boot_lo _boot_hi */
#define SWEEP_SUMMARY_STATS 8

/* Number column @col on a plot's axis, "ui response p95 (ms)"; anything
 * else (an expression) as written. Caller frees. */
char *sweep_axis_label(const char *col);

/*
 * DIR/sweep.columns.json, written aside and renamed: the columns of
 * sweep.csv (and of sweep-summary.csv when @repeats) in order, each with
 * its --set path or what it measures and its unit. @numbers: the number
 * columns (NULL-ended), @metric the plot's (metric_* of the summary).
 * 0, or -1 (said).
 */
int sweep_columns_write(const char *dir, json_t *params, char **numbers,
			bool repeats, const char *metric);

#endif
