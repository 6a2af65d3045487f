// SPDX-License-Identifier: GPL-2.0
/* The CPUs by tasks queued: see cpu_load_index.h */
#include "cpu_load_index.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint64_t *bucket(const struct cpu_load_index *ix, int n)
{
	return ix->bits + (size_t)n * (size_t)ix->words;
}

void cpu_load_index_init(struct cpu_load_index *ix, int ncpus)
{
	int i;

	ix->ncpus = ncpus;
	ix->words = (ncpus + 63) / 64;
	ix->nbuckets = 4;
	ix->least = 0;
	ix->bits = xcalloc((size_t)ix->nbuckets * (size_t)ix->words,
			   sizeof(*ix->bits));
	ix->count = xcalloc((size_t)ix->nbuckets, sizeof(*ix->count));
	for (i = 0; i < ncpus; i++)
		ix->bits[i / 64] |= (uint64_t)1 << (i % 64);
	ix->count[0] = ncpus;
}

void cpu_load_index_free(struct cpu_load_index *ix)
{
	free(ix->bits);
	free(ix->count);
	memset(ix, 0, sizeof(*ix));
}

/* Buckets up to @n, doubling: a CPU's tasks grow one at a time */
static void reserve(struct cpu_load_index *ix, int n)
{
	int old = ix->nbuckets, nb = old;

	if (n < old)
		return;
	while (nb <= n)
		nb *= 2;
	ix->bits = xrealloc(ix->bits, (size_t)nb * (size_t)ix->words *
					      sizeof(*ix->bits));
	memset(bucket(ix, old), 0, (size_t)(nb - old) * (size_t)ix->words *
					   sizeof(*ix->bits));
	ix->count = xrealloc(ix->count, (size_t)nb * sizeof(*ix->count));
	memset(ix->count + old, 0, (size_t)(nb - old) * sizeof(*ix->count));
	ix->nbuckets = nb;
}

void cpu_load_index_move(struct cpu_load_index *ix, int cpu, int from,
			 int to)
{
	uint64_t bit = (uint64_t)1 << (cpu % 64);

	reserve(ix, to);
	bucket(ix, from)[cpu / 64] &= ~bit;
	ix->count[from]--;
	bucket(ix, to)[cpu / 64] |= bit;
	ix->count[to]++;
	/* a move is by one task at a time in the model, so the new least is
	 * @to, or the next non-empty bucket up (found in a step or a few) */
	if (to < ix->least)
		ix->least = to;
	while (!ix->count[ix->least])
		ix->least++;
}

int cpu_load_index_next_least(const struct cpu_load_index *ix, int after)
{
	const uint64_t *b = bucket(ix, ix->least);
	int i = after + 1, w = i / 64;
	uint64_t x;

	if (i >= ix->ncpus)
		return -1;
	x = b[w] & (~(uint64_t)0 << (i % 64));
	for (;;) {
		if (x)	/* the lowest set bit: a GCC and clang builtin */
			return w * 64 + __builtin_ctzll(x);
		if (++w == ix->words)
			return -1;
		x = b[w];
	}
}

int cpu_load_index_consistent(const struct cpu_load_index *ix,
			      const int *nr_running)
{
	int i, n, least = -1;

	for (n = 0; n < ix->nbuckets; n++) {
		int count = 0;

		for (i = 0; i < ix->ncpus; i++) {
			int in = !!(bucket(ix, n)[i / 64] &
				    ((uint64_t)1 << (i % 64)));

			if (in != (nr_running[i] == n))
				return 0;
			count += in;
		}
		if (count != ix->count[n])
			return 0;
		if (count && least < 0)
			least = n;
	}
	for (i = 0; i < ix->ncpus; i++)
		if (nr_running[i] >= ix->nbuckets)
			return 0;
	return least == ix->least;
}
