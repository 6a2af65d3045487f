/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs by tasks queued (nr_running), for fork placement: find_idlest
 * over every CPU was a walk of the whole machine per fork (100 000 forks
 * on 1 024 CPUs: half a run's instructions), but only the CPUs with the
 * fewest tasks can win. Bucket n holds, as a bitmap in CPU id order, the
 * CPUs with n tasks queued; the index knows the lowest non-empty bucket.
 * Kept up to date where nr_running changes (sim.c's activate and
 * deactivate); it holds no scheduler types, so a test can drive it alone.
 */
#ifndef CAPSIM_CPU_LOAD_INDEX_H
#define CAPSIM_CPU_LOAD_INDEX_H

#include <stdint.h>

struct cpu_load_index {
	int ncpus;
	int words;		/* 64-bit words of one bucket's bitmap */
	int nbuckets;		/* buckets allocated: 0 .. nbuckets - 1 */
	int least;		/* the lowest bucket holding a CPU */
	uint64_t *bits;		/* nbuckets x words */
	int *count;		/* CPUs in each bucket */
};

/* Every CPU of @ncpus (> 0) in bucket 0, as a machine starts */
void cpu_load_index_init(struct cpu_load_index *ix, int ncpus);
void cpu_load_index_free(struct cpu_load_index *ix);
/* @cpu's tasks queued went from @from to @to (both >= 0) */
void cpu_load_index_move(struct cpu_load_index *ix, int cpu, int from,
			 int to);
/* The fewest tasks any CPU has queued */
static inline int cpu_load_index_least(const struct cpu_load_index *ix)
{
	return ix->least;
}
/*
 * The CPUs with the fewest tasks, in id order: the first above @after
 * (-1 to start), or -1 when there is none.
 */
int cpu_load_index_next_least(const struct cpu_load_index *ix, int after);
/* Bucket n holds exactly the CPUs whose @nr_running[] is n */
int cpu_load_index_consistent(const struct cpu_load_index *ix,
			      const int *nr_running);

#endif
