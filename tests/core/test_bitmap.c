/*
 * The kcompat bit operations the exact aggregator relies on, against a
 * bit-by-bit reference: __set_bit/__clear_bit on their own bit only,
 * __fls, and find_last_bit() for every size from 1 to 200 bits, with
 * bits set past the size (which must not count), empty maps included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include "test_rand.h"

enum { MAX_BITS = 200, WORDS = (MAX_BITS + 63) / 64 + 1 };

static int ref_bit(const unsigned long *map, unsigned long i)
{
	return (map[i / (8 * sizeof(long))] >> (i % (8 * sizeof(long)))) & 1;
}

static void sizes(void **state)
{
	(void)state;
	assert_int_equal(BITS_PER_LONG, 8 * sizeof(long));
	assert_int_equal(BITS_TO_LONGS(0), 0);
	assert_int_equal(BITS_TO_LONGS(1), 1);
	assert_int_equal(BITS_TO_LONGS(BITS_PER_LONG), 1);
	assert_int_equal(BITS_TO_LONGS(BITS_PER_LONG + 1), 2);
	assert_int_equal(BITS_TO_LONGS(1025), (1025 + BITS_PER_LONG - 1) /
			 BITS_PER_LONG);
	assert_int_equal(BIT_WORD(BITS_PER_LONG - 1), 0);
	assert_int_equal(BIT_WORD(BITS_PER_LONG), 1);
}

static void set_clear_fls(void **state)
{
	unsigned long map[WORDS] = { 0 };
	unsigned long i, j;

	(void)state;
	for (i = 0; i < WORDS * BITS_PER_LONG; i++) {
		__set_bit(i, map);
		for (j = 0; j < WORDS * BITS_PER_LONG; j++)
			assert_int_equal(ref_bit(map, j), j == i);
		assert_int_equal(__fls(map[BIT_WORD(i)]), i % BITS_PER_LONG);
		__clear_bit(i, map);
		for (j = 0; j < WORDS; j++)
			assert_int_equal(map[j], 0);
	}
	assert_int_equal(__fls(~0UL), BITS_PER_LONG - 1);
	assert_int_equal(__fls(1UL), 0);
}

static void find_last(void **state)
{
	struct test_rand r;
	unsigned long size;
	int round;

	(void)state;
	test_rand_init(&r, test_seed());
	for (size = 1; size <= MAX_BITS; size++) {
		for (round = 0; round < 64; round++) {
			unsigned long map[WORDS] = { 0 };
			unsigned long expect = size, i;
			/* from empty to dense, and beyond @size */
			unsigned int density = round % 8;

			for (i = 0; i < WORDS * BITS_PER_LONG; i++)
				if (density &&
				    test_rand_below(&r, 64) < density * density)
					__set_bit(i, map);
			for (i = 0; i < size; i++)
				if (ref_bit(map, i))
					expect = i;
			assert_int_equal(find_last_bit(map, size), expect);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),
		cmocka_unit_test(set_clear_fls),
		cmocka_unit_test(find_last),
	};

	return cmocka_run_group_tests_name("kcompat_bitmap", tests, NULL, NULL);
}
