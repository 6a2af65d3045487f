// SPDX-License-Identifier: GPL-2.0
/*
 * samples_pct() sorts with its own radix sort: the percentiles, and the
 * sorted order the summary reads (min as v[0]), are qsort()'s for
 * short and long arrays, negative values (slack), duplicates and keys
 * that share their high bytes (latencies).
 */
#include <stdint.h>
#include <stdlib.h>

#include "check_main.h"
#include "util.h"

static int cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

START_TEST(sorted_as_qsort)
{
	static const size_t sizes[] = { 1, 2, 3, 63, 64, 65, 1000, 100000 };
	static const double pct[] = { 0, 1, 50, 95, 99, 99.9, 100 };
	uint64_t x = 7;
	size_t si, i, k;
	int kind;

	for (kind = 0; kind < 4; kind++) {
		for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
			struct samples s = { 0 };
			size_t n = sizes[si];
			int64_t *ref = malloc(n * sizeof(*ref));

			for (i = 0; i < n; i++) {
				int64_t v;

				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				switch (kind) {
				case 0:		/* anything, both signs */
					v = (int64_t)x;
					break;
				case 1:		/* latencies: high bytes equal */
					v = (int64_t)(x >> 44);
					break;
				case 2:		/* slack: small, both signs */
					v = (int64_t)(x >> 50) - (1 << 13);
					break;
				default:	/* few distinct values */
					v = (int64_t)(x >> 61) * 1000;
					break;
				}
				ref[i] = v;
				samples_add(&s, v);
			}
			qsort(ref, n, sizeof(*ref), cmp);
			for (k = 0; k < sizeof(pct) / sizeof(pct[0]); k++) {
				size_t rank = (size_t)(pct[k] / 100.0 * (double)n +
						       0.999999999);

				rank = rank < 1 ? 1 : rank > n ? n : rank;
				ck_assert_int_eq(samples_pct(&s, pct[k]),
						 ref[rank - 1]);
			}
			for (i = 0; i < n; i++)
				ck_assert_int_eq(s.v[i], ref[i]);
			/* more samples after a sort: sorted again */
			samples_add(&s, INT64_MIN);
			ck_assert_int_eq(samples_pct(&s, 0), INT64_MIN);
			ck_assert_int_eq(s.v[0], INT64_MIN);
			samples_free(&s);
			free(ref);
		}
	}
}
END_TEST

int main(void)
{
	return check_main("samples", 120, CHECK_TESTS(sorted_as_qsort));
}
