/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sweep.csv's table, for the collector (sweep_collect.c): the points
 * read back from their directories (point.json, run/summary.json, each
 * checked), the columns the points seen so far make (tasks, domains,
 * chains), a column's value for a point, and the rows and headers of
 * sweep.csv and sweep-summary.csv.
 */
#ifndef CAPSIM_SWEEP_TABLE_H
#define CAPSIM_SWEEP_TABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "run_metrics.h"

/* A point read back */
struct point {
	char *name;		/* points/NNNN */
	json_t *pj;		/* point.json */
	bool ok;
	const char *status;	/* sweep.csv's: ok, failed or missing */
	struct run_metrics m;
};

/* The columns, as the points added so far make them */
struct table {
	char **tasks;
	int ntasks;
	char **chains;		/* the chains of any point, first seen first */
	int nchains;
	int ndoms;
	json_t *params;		/* the plan's params array */
};

/* @v as sweep.csv writes a number; NaN as nothing */
void table_csv_num(FILE *f, double v);
/* The value of sweep.csv column @col for point @p (NAN if none/text) */
double table_value(const struct table *tb, const struct point *p,
		   const char *col);
bool table_has_column(const struct table *tb, const char *col);
/* The number columns of sweep.csv, in order (strv_free()) */
char **table_columns(const struct table *tb);
/* point, the parameters' identifiers, policy, platform (both CSVs) */
void table_put_point_header(FILE *f, const struct table *tb);
/* sweep.csv's header (with a repeat column when @repeats) */
void table_put_header(FILE *f, const struct table *tb, bool repeats);
/* Point @p's number @id, parameter values, policy and platform */
void table_put_point_fields(FILE *f, const struct table *tb,
			    const struct point *p, int id);
/* Point @p's row of sweep.csv, the columns those of @tb as it is now */
void table_put_row(FILE *f, const struct table *tb, const struct point *p,
		   int repeat);
/* Point @p's parameter values as text, in plan order (caller frees) */
char **table_point_vals(const struct table *tb, const struct point *p);
/* The width of the point directories' numbers of a sweep of @npoints */
int table_point_width(int npoints);
/*
 * Read point @id (points/NNNN of @dir, numbers @width wide): 0, 1 (the
 * point failed or is missing: said when @say) or SWEEP_COLLECT_BAD_INPUT
 * (said)
 */
int table_read_point(const char *dir, json_t *plan_params, int id,
		     int width, struct point *pt, bool say);
void table_point_free(struct point *p);
/* @p's tasks, domains and chains into the table; true if it grew */
bool table_take(struct table *tb, const struct point *p);

#endif
