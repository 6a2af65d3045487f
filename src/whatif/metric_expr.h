/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep's --metric: one sweep.csv column, or an arithmetic expression
 * over columns (`energy_mj/1000`, `(ui.resp_p95_ms + render.resp_p95_ms)
 * / 2`). The text is parsed into a list of operations that only this
 * file's evaluator reads: numbers, + - * /, unary minus, parentheses and
 * column names; no function calls, nothing of the text ever runs.
 */
#ifndef CAPSIM_METRIC_EXPR_H
#define CAPSIM_METRIC_EXPR_H

#include <stdbool.h>
#include <stddef.h>

/* Longest --metric text and deepest nesting of parentheses accepted */
#define METRIC_EXPR_MAX_LEN 1000
#define METRIC_EXPR_MAX_DEPTH 32

struct metric_expr;

/* Is @name a column the caller knows (sweep.csv will have, or has)? */
typedef bool (*metric_known_fn)(void *ctx, const char *name);

/*
 * Parse @text: an expression whose every name @known accepts; failing
 * that, a text @known accepts as a whole is that one column (a task
 * named "a-b" or "my task" stays usable). A name is a letter or '_'
 * followed by letters, digits, '_' and '.'; a '-' inside a name followed
 * by digits and a dot is a task instance's (`bg-2.misses`), so a
 * subtraction of a number right after a name needs spaces (`a - 2.5`).
 * NULL with the reason in @err (an unknown name: "unknown name NAME",
 * *@unknown then points at it in @text, else NULL).
 */
struct metric_expr *metric_expr_parse(const char *text, metric_known_fn known,
				      void *ctx, char *err, size_t errlen,
				      const char **unknown);
void metric_expr_free(struct metric_expr *e);

/* The one column @e is, or NULL when it is an expression */
const char *metric_expr_column(const struct metric_expr *e);

/* The value of a column for the row being evaluated (NAN if none) */
typedef double (*metric_value_fn)(void *ctx, const char *name);

/*
 * @e's value: a NaN operand gives NaN, and so do a division by zero
 * and a result too large for a double (never an infinity: a point
 * without a finite metric is left off the plot rather than drawn at the
 * edge).
 */
double metric_expr_eval(const struct metric_expr *e, metric_value_fn value,
			void *ctx);

#endif
