/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sweeps: a sweep directory holds sweep.json (the plan), points/NNNN/
 * (each point's edited workload, its platform if edited, point.json and,
 * once run, run/summary.json + run/activations.csv + run.log, and
 * run/trace.txt with --keep-traces), and once collected sweep.csv,
 * with --repeat sweep-summary.csv, and pareto.png/.svg.
 */
#ifndef CAPSIM_SWEEP_H
#define CAPSIM_SWEEP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The most points a sweep may have, the product of its --set values,
 * platforms and policies (each point is a directory and a run) */
#define SWEEP_MAX_POINTS 100000
/* The most runs of one point (--repeat) */
#define SWEEP_MAX_REPEAT 1000

/* sweep_collect()'s failures, apart from its count of failed points */
#define SWEEP_COLLECT_RUN_ERROR (-1)	/* cannot read or write: exit 1 */
#define SWEEP_COLLECT_BAD_INPUT (-2)	/* a file of DIR is invalid, or
					 * --metric is no column: exit 2 */

/*
 * Merge the points of sweep directory @dir into @dir/sweep.csv (with
 * repeats also sweep-summary.csv) and the Pareto plot (energy against
 * @metric, a sweep.csv column or an expression over columns; NULL: the
 * metric of the sweep's plan, else the response p95 of the task with
 * the most activations; one other than the plan's is said). Every file read
 * is checked first (sweep_*_check() below). Returns the number of failed
 * or missing points (each named on stderr), or SWEEP_COLLECT_*.
 */
int sweep_collect(const char *dir, const char *metric, bool quiet);

/*
 * The same, a point at a time, as the points finish: each row goes out
 * when its point is added (in point order), and only what the Pareto
 * plot needs of a point stays in memory. open() never fails: its error,
 * if any, is said and returned by add() and finish(). points() is the
 * plan's count, or -1 after an error.
 */
struct sweep_collector;
struct sweep_collector *sweep_collector_open(const char *dir,
					     const char *metric);
int sweep_collector_points(const struct sweep_collector *c);
/* Read the next point (1, 2, ...): 0, or a SWEEP_COLLECT_* (said) */
int sweep_collector_add(struct sweep_collector *c);
/* The remaining points, sweep.csv and the plot: as sweep_collect() */
int sweep_collector_finish(struct sweep_collector *c, bool quiet);
void sweep_collector_free(struct sweep_collector *c);

/* @metric is chain.NAME.COLUMN, NAME a key of @chains (the workload's
 * capsim.chains) and COLUMN a per-chain column: jank_pct, lat_p95_ms... */
bool sweep_is_chain_metric(json_t *chains, const char *metric);

/*
 * --metric @metric (a sweep.csv column, or an expression over columns,
 * metric_expr.h) names only columns the sweep of workload @wroot on
 * platforms of at most @ndoms domains will have (any domain when
 * @edits_platform): 0, or -1 said with the names it may use.
 */
int sweep_metric_check(const char *metric, json_t *wroot, bool edits_platform,
		       int ndoms);

/*
 * The Pareto plot's metric when no --metric is given, judged from
 * workload @wroot (@where names it in the message): the one chain's
 * chain.NAME.jank_pct when it names chains, else the one task that
 * wakes up (a timer, sleep or suspend; each instance counts)'s
 * TASK.resp_p95_ms. *@metric gets it (the caller frees), or NULL when
 * there is no candidate; -1 (said, listing them) when there are several:
 * the sweep must not pick one nobody asked for.
 */
int sweep_default_metric(json_t *wroot, const char *where, char **metric);


/* The values of one --set SPEC */
struct sweep_values {
	json_t **v;
	int n;
};

/*
 * Parse SPEC (LO:HI:STEP, V1,V2,... or one JSON value) into distinct
 * values; numbers become JSON integers when @want_int and integral.
 * 0, or -1 with why in @err (nothing allocated then).
 */
int sweep_spec_parse(const char *spec, bool want_int,
		     struct sweep_values *out, char *err, size_t errlen);
void sweep_values_free(struct sweep_values *sv);

/*
 * The files --collect reads, checked against what it uses of them:
 * 0, or -1 with "FIELD: what is wrong" in @err.
 *  - sweep.json (the plan): params [{path, values}], points, repeat
 *    when there are repeats (a divisor of points), and metric (a string
 *    or null) when a capsim that keeps it made the sweep;
 *  - a point.json: id (@id), params (a member per plan path), policy,
 *    platform, seed, command, and repeat when there are repeats;
 *  - a point's summary.json: the fields run_metrics_from_summary() and,
 *    for an older capsim's summary without response_us, the trace scan
 *    of run_metrics_load() read, with their types and ranges.
 */
int sweep_plan_check(json_t *plan, char *err, size_t errlen);
/* A checked plan's runs per point (1 without repeats) */
int sweep_plan_repeat(json_t *plan);
int sweep_point_check(json_t *pj, json_t *plan_params, int id, char *err,
		      size_t errlen);
int sweep_summary_check(json_t *sum, char *err, size_t errlen);
/* Every task of a checked summary has its response times (an older
 * capsim's has not: its point's trace is scanned for them) */
bool sweep_summary_has_response(json_t *sum);

/*
 * Load @path as JSON if it is a regular file of at most 64 MiB: NULL with
 * the reason in @err otherwise.
 */
json_t *sweep_load_json(const char *path, char *err, size_t errlen);

#endif
