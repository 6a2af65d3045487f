/*
 * Seeded, reproducible randomness for the tests: CAPSIM_TEST_SEED in the
 * environment overrides the default seed, and failures print the seed.
 */
#ifndef CAPSIM_TEST_RAND_H
#define CAPSIM_TEST_RAND_H

#include <stdint.h>
#include <stdlib.h>

struct test_rand {
	uint64_t s;
};

static inline uint64_t test_seed(void)
{
	const char *e = getenv("CAPSIM_TEST_SEED");

	return e ? strtoull(e, NULL, 0) : 20170228u;
}

static inline void test_rand_init(struct test_rand *r, uint64_t seed)
{
	r->s = seed ? seed : 1;
}

/* splitmix64: small, fast, and well mixed for test sequences. */
static inline uint64_t test_rand_next(struct test_rand *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t test_rand_below(struct test_rand *r, uint64_t n)
{
	return test_rand_next(r) % n;
}

#endif
