// SPDX-License-Identifier: GPL-2.0
/*
 * summary.json's hand-written dump (src/sim/jdump.c) against jansson's
 * own: reals over the edges of the printf-free path (the bounds 1e-4 and
 * 1e9, 9 and 10 digits, the neighbours of short decimals, rounding
 * boundaries of the 9th digit, integers near 2^53, random bit patterns),
 * compared with json_dumps() and with snprintf("%.9g") itself (whole
 * task objects: test_summary_task.c).
 */
#include <check.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "jdump.h"

#define FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(9))

static unsigned long checked;

/* jdump_real(@v) is jansson's dump of the real, and snprintf's digits */
static void check_real(double v)
{
	char got[JDUMP_REAL_MAX], ref[64], *want;
	json_t *j;
	int n;
	size_t len;

	if (!isfinite(v)) {	/* jansson has no such real */
		ck_assert_int_eq(jdump_real(got, v), -1);
		return;
	}
	j = json_real(v);
	want = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(9));
	n = jdump_real(got, v);
	ck_assert_ptr_nonnull(want);
	ck_assert_msg(n == (int)strlen(got) && !strcmp(got, want),
		      "%a: jdump \"%s\", jansson \"%s\"", v, got, want);
	/* and printf's: the same text less jansson's ".0" and exponent */
	snprintf(ref, sizeof(ref), "%.9g", v);
	len = strlen(got);
	if (!strchr(ref, 'e') && !strchr(ref, '.'))
		ck_assert_msg(len >= 2 && !strcmp(got + len - 2, ".0") &&
			      !strncmp(got, ref, len - 2) && len - 2 == strlen(ref),
			      "%a: jdump \"%s\", printf \"%s\"", v, got, ref);
	else if (!strchr(ref, 'e'))
		ck_assert_str_eq(got, ref);
	free(want);
	json_decref(j);
	checked++;
}

/* @v, both signs, and its two neighbours */
static void check_around(double v)
{
	int s;

	for (s = -1; s <= 1; s += 2) {
		check_real(s * v);
		check_real(s * nextafter(v, 0));
		check_real(s * nextafter(v, INFINITY));
	}
}

START_TEST(reals_as_jansson)
{
	static const double edges[] = {
		0, 1e-4, 1e-5, 5e-5, 0.00009999, 0.000123456789, 1e9, 1e9 - 1,
		999999999.5, 999999999.4, 123456789.1, 12345678.9, 1e8, 1e10,
		0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 2.403592, 9926.222, 0.00025,
		0.15, 0.5, 2.5, 1.0000000005, 1.00000000049999, 1.0000000015,
		9.9999999949, 9.999999995, 99999.99995, 4000, 12517, 150,
		9007199254740992.0, 9007199254740993.0, 4503599627370496.5,
		DBL_MAX, DBL_MIN, DBL_EPSILON, 4.9e-324, 1e300, 1e-300,
		123456789, 1234567891, 0.1234567891, 1e-4 * 3, 7e-4,
	};
	uint64_t bits = 0x9e3779b97f4a7c15ULL;
	size_t i;
	int k, e;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_around(edges[i]);
	check_real(-0.0);
	/* short decimals at every scale and their neighbours: ns as us,
	 * ms and s, and 1..9 digits at every exponent of the fast path */
	for (k = 1; k < 1000000; k = k * 7 + 3) {
		check_around(k / 1e3);
		check_around(k / 1e6);
		check_around(k / 1e9);
	}
	for (e = -6; e <= 10; e++)
		for (k = 1; k <= 9; k++) {
			double d = 123456789 / pow(10, 9 - k);	/* k digits */

			check_around(floor(d) * pow(10, e - k));
			check_around((floor(d) + 0.5) * pow(10, e - k));
		}
	/* integers around 2^53 and powers of ten */
	for (e = 0; e <= 20; e++) {
		check_around(pow(10, e));
		check_around(ldexp(1, e * 3));
	}
	/* random bit patterns (finite) and random decimals */
	for (i = 0; i < 200000; i++) {
		double v;

		bits ^= bits << 13;
		bits ^= bits >> 7;
		bits ^= bits << 17;
		memcpy(&v, &bits, sizeof(v));
		if (isfinite(v))
			check_real(v);
		check_real((double)(int64_t)(bits % 2000000000000ULL) /
			   pow(10, (int)(bits >> 60) % 13));
	}
	ck_assert_uint_gt(checked, 400000);
}
END_TEST

int main(void)
{
	return check_main("jdump", 300,
			  CHECK_TESTS(reals_as_jansson));
}
