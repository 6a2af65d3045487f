// SPDX-License-Identifier: GPL-2.0
/*
 * The SPEC of a sweep's --set PATH=SPEC: a range LO:HI:STEP, a list
 * V1,V2,... of numbers or of booleans (false,true), or one JSON value. Bounded before anything is allocated for
 * the values: a range's count is computed first (a non-finite bound or
 * step, or more values than a sweep may have points, is refused with that
 * count), and no two values may be equal (a step below the resolution of
 * a double at LO, or a value listed twice, would give duplicate points).
 */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "util.h"

/* An integer that a double holds exactly and JSON readers keep exact */
static bool integral(double v)
{
	return fabs(v) < 9e15 && v == floor(v);
}

/* A count as a person reads it: 12, 4000000 or 1e+300 */
static void fmt_count(char *b, size_t n, double c)
{
	if (isinf(c))
		snprintf(b, n, "infinitely many");
	else
		snprintf(b, n, c < 1e15 ? "%.0f" : "%.3g", c);
}

/*
 * A number of the SPEC: strtod's syntax, but no leading blank, no hex
 * (0x1p3 is nobody's sweep value) and only finite values. 0 or -1.
 */
static int number(const char *s, const char *stop, double *v,
		  const char **end)
{
	char *e;

	if (!*s || strchr(" \t\n\v\f\r", *s) || strchr(stop, *s))
		return -1;
	*v = strtod(s, &e);
	/* an overflow is infinite; an underflow (1e-400) is its zero */
	if (e == s || !isfinite(*v) || (strpbrk(s, "xX") &&
					 strpbrk(s, "xX") < e))
		return -1;
	*end = e;
	return 0;
}

static json_t *num_value(double v, bool as_int)
{
	return as_int ? json_integer((json_int_t)v) : json_real(v);
}

static int parse_range(const char *spec, bool want_int,
		       struct sweep_values *out, char *err, size_t errlen)
{
	double lo, hi, st, span, count, prev = 0;
	const char *p = spec, *e;
	char c[64];
	bool as_int;
	int k;

	if (number(p, ":", &lo, &e) || *e != ':' ||
	    number(p = e + 1, ":", &hi, &e) || *e != ':' ||
	    number(p = e + 1, ":", &st, &e) || *e) {
		/* say what such a range would have given */
		if (sscanf(spec, "%lf:%lf:%lf", &lo, &hi, &st) == 3 &&
		    (!isfinite(lo) || !isfinite(hi)) && isfinite(st))
			return err_fail(err, errlen, "a range LO:HI:STEP needs finite numbers: this one gives %s values",
				    isnan(lo) || isnan(hi) || hi < lo ? "no" :
				    "infinitely many");
		return err_fail(err, errlen, "a range LO:HI:STEP needs three finite numbers");
	}
	if (!(st > 0) || hi < lo)
		return err_fail(err, errlen, "a range LO:HI:STEP needs STEP > 0 and HI >= LO");
	/* the values lo + k * step up to hi, with a tolerance of a
	 * billionth of a step for a decimal step (0:1:0.1 ends at 1) */
	span = hi - lo;
	count = floor(span / st + 1e-9) + 1;
	if (!(count <= SWEEP_MAX_POINTS)) {
		fmt_count(c, sizeof(c), count);
		return err_fail(err, errlen, "the range gives %s values: a sweep has at most %d points",
			    c, SWEEP_MAX_POINTS);
	}
	as_int = want_int && integral(lo) && integral(st) &&
		 integral(lo + (count - 1) * st);
	out->v = xcalloc((size_t)count, sizeof(json_t *));
	for (k = 0; k < (int)count; k++) {
		double v = lo + k * st;

		if (k && !(v > prev)) {
			fmt_count(c, sizeof(c), count);
			return err_fail(err, errlen, "STEP %g is below the resolution of a double at %g: the %s values would repeat",
				    st, v, c);
		}
		prev = v;
		out->v[out->n++] = num_value(v, as_int);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int parse_list(const char *spec, bool want_int,
		      struct sweep_values *out, char *err, size_t errlen)
{
	const char *p = spec, *e;
	double *nums;
	size_t n = 1;
	int k;

	for (e = spec; (e = strchr(e, ',')); e++)
		n++;
	if (n > SWEEP_MAX_POINTS)
		return err_fail(err, errlen, "the list has %zu values: a sweep has at most %d points",
			    n, SWEEP_MAX_POINTS);
	nums = xcalloc(n, sizeof(double));
	for (k = 0; k < (int)n; k++) {
		if (number(p, ",", &nums[k], &e) || (*e && *e != ',')) {
			free(nums);
			return err_fail(err, errlen, "item %d is not a finite number (SPEC: LO:HI:STEP, V1,V2,... or a JSON value)",
				    k + 1);
		}
		p = e + 1;
	}
	out->v = xcalloc(n, sizeof(json_t *));
	for (k = 0; k < (int)n; k++)
		out->v[out->n++] = num_value(nums[k], want_int &&
					     integral(nums[k]));
	/* 1 and 1.0 are the same point */
	qsort(nums, n, sizeof(double), cmp_double);
	for (k = 1; k < (int)n; k++) {
		if (nums[k] == nums[k - 1]) {
			double d = nums[k];

			free(nums);
			return err_fail(err, errlen, "the value %g is listed twice: it would give duplicate points",
				    d);
		}
	}
	free(nums);
	return 0;
}

/* One item of a list of booleans, "true" or "false" up to @e; -1 if
 * neither */
static int bool_item(const char *s, const char *e)
{
	size_t n = (size_t)(e - s);

	if (n == 4 && !strncmp(s, "true", 4))
		return 1;
	if (n == 5 && !strncmp(s, "false", 5))
		return 0;
	return -1;
}

/*
 * A list of booleans, "false,true" (a switch swept: capsim.util_est),
 * into @out: 1, or 0 when @spec is no such list (nothing allocated), or
 * -1 with why in @err (a value listed twice)
 */
static int parse_bools(const char *spec, struct sweep_values *out, char *err,
		       size_t errlen)
{
	const char *p = spec, *e;
	bool seen[2] = { false, false };
	int b;

	if (!strchr(spec, ','))
		return 0;
	for (p = spec; ; p = e + 1) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if (bool_item(p, e) < 0)
			return 0;
		if (!*e)
			break;
	}
	out->v = xcalloc(2, sizeof(json_t *));
	for (p = spec; ; p = e + 1) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		b = bool_item(p, e);
		if (seen[b])
			return err_fail(err, errlen, "the value %s is listed twice: it would give duplicate points",
					b ? "true" : "false");
		seen[b] = true;
		out->v[out->n++] = json_boolean(b);
		if (!*e)
			break;
	}
	return 1;
}

int sweep_spec_parse(const char *spec, bool want_int,
		     struct sweep_values *out, char *err, size_t errlen)
{
	int ret;

	out->v = NULL;
	out->n = 0;
	if (!*spec) {
		ret = err_fail(err, errlen, "an empty SPEC (LO:HI:STEP, V1,V2,... or a JSON value)");
	} else if (strchr(spec, ':') && !strchr("[{\"", spec[0])) {
		ret = parse_range(spec, want_int, out, err, errlen);
	} else if ((ret = parse_bools(spec, out, err, errlen))) {
		ret = ret < 0 ? -1 : 0;
	} else if (strchr("[{\"tfn", spec[0])) {
		json_error_t e;
		json_t *v = json_loads(spec, JSON_DECODE_ANY, &e);

		if (v) {
			out->v = xcalloc(1, sizeof(json_t *));
			out->v[out->n++] = v;
			ret = 0;
		} else {
			ret = err_fail(err, errlen, "not a number, a range or a JSON value: %s",
				   e.text);
		}
	} else {
		ret = parse_list(spec, want_int, out, err, errlen);
	}
	if (ret)
		sweep_values_free(out);
	return ret;
}

void sweep_values_free(struct sweep_values *sv)
{
	int k;

	for (k = 0; k < sv->n; k++)
		json_decref(sv->v[k]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}
