// SPDX-License-Identifier: GPL-2.0
/*
 * The forks' placement through the load index (src/sim/cpu_load_index.c,
 * balance.c's idlest()) against the plain walk over every CPU it
 * replaced: over random forks, exits, migrations and utilization changes,
 * with many ties (a few utilization values, two capacities), symmetric
 * and asymmetric machines, tasks allowed everywhere and tasks with their
 * own masks, the same CPU every time, and the index the CPUs' nr_running.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "cpu_load_index.h"
#include "platform.h"
#include "sim.h"

/*
 * The walk as the simulator did it before the index, the specification:
 * over the allowed CPUs in id order, the first with the fewest tasks,
 * then the least utilization, then (asymmetric) the biggest capacity;
 * no allowed CPU: the first CPU.
 */
static int walk_idlest(struct sim *s, const bool *allowed)
{
	int best = -1, i;

	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i], *b;
		unsigned long u = cpu_util(s, c);

		if (!allowed[i])
			continue;
		if (best < 0) {
			best = i;
			continue;
		}
		b = &s->cpus[best];
		if (c->nr_running != b->nr_running) {
			if (c->nr_running < b->nr_running)
				best = i;
			continue;
		}
		if (u != cpu_util(s, b)) {
			if (u < cpu_util(s, b))
				best = i;
			continue;
		}
		if (s->pl->asym && c->capacity > b->capacity)
			best = i;
	}
	return best < 0 ? 0 : best;
}

static uint64_t rng;

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng >> 33) % n;
}

/* a machine of @ncpus with only what placement reads */
struct machine {
	struct platform pl;
	struct sim s;
};

static void machine_init(struct machine *m, int ncpus, bool asym)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->pl.asym = asym;
	m->s.pl = &m->pl;
	m->s.ncpus = ncpus;
	m->s.cpus = calloc((size_t)ncpus, sizeof(*m->s.cpus));
	m->s.all_cpus = calloc((size_t)ncpus, sizeof(bool));
	for (i = 0; i < ncpus; i++) {
		m->s.cpus[i].id = i;
		m->s.cpus[i].capacity = asym && rnd(2) ? 512 : 1024;
		m->s.all_cpus[i] = true;
	}
	cpu_load_index_init(&m->s.load_idx, ncpus);
}

static void machine_free(struct machine *m)
{
	cpu_load_index_free(&m->s.load_idx);
	free(m->s.cpus);
	free(m->s.all_cpus);
}

/* @c's tasks queued by @delta, as activate and deactivate do */
static void queue(struct machine *m, int cpu, int delta)
{
	struct sim_cpu *c = &m->s.cpus[cpu];

	c->nr_running += delta;
	cpu_load_index_move(&m->s.load_idx, cpu, c->nr_running - delta,
			    c->nr_running);
}

/* a few values, so that ties are common; 0 ends the symmetric walk */
static void new_util(struct machine *m, int cpu)
{
	struct sim_cpu *c = &m->s.cpus[cpu];

	c->cfs.avg.util_avg = rnd(4) * 100;
	c->cfs.avg.util_est = rnd(3) ? 0 : rnd(4) * 100;
	c->rt.avg.util_avg = rnd(4) ? 0 : 100;
}

static int busy_cpu(struct machine *m)
{
	int i, start = (int)rnd((unsigned int)m->s.ncpus);

	for (i = 0; i < m->s.ncpus; i++) {
		int cpu = (start + i) % m->s.ncpus;

		if (m->s.cpus[cpu].nr_running)
			return cpu;
	}
	return -1;
}

START_TEST(index_picks_as_the_walk)
{
	static const int sizes[] = { 1, 3, 8, 63, 64, 65, 130, 1024 };
	int round, forks = 0, own = 0, nonzero_least = 0;

	rng = 28;
	for (round = 0; round < 64; round++) {
		int ncpus = sizes[round % 8], step;
		struct machine m;
		bool *mask = calloc((size_t)ncpus, sizeof(bool));
		struct sim_task t = { 0 };

		machine_init(&m, ncpus, round % 2);
		for (step = 0; step < 3000; step++) {
			unsigned int op = rnd(10);
			int cpu, got, want, i;

			if (op < 5) {	/* a fork, then its enqueue */
				t.allowed = m.s.all_cpus;
				if (rnd(4) == 0) {	/* its own mask */
					for (i = 0; i < ncpus; i++)
						mask[i] = rnd(8) != 0;
					if (rnd(16) == 0)	/* none: CPU 0 */
						memset(mask, 0, (size_t)ncpus);
					t.allowed = mask;
					own++;
				}
				want = walk_idlest(&m.s, t.allowed);
				got = select_fair_rq(&m.s, &t, &m.s.cpus[0],
						     true)->id;
				ck_assert_msg(got == want,
					      "round %d step %d (%d CPUs, %s, %s mask): CPU %d, the walk %d",
					      round, step, ncpus,
					      m.pl.asym ? "asym" : "sym",
					      t.allowed == mask ? "own" : "shared",
					      got, want);
				forks++;
				nonzero_least += cpu_load_index_least(
					&m.s.load_idx) > 0;
				queue(&m, got, 1);
				new_util(&m, got);
			} else if (op < 7 && (cpu = busy_cpu(&m)) >= 0) {
				queue(&m, cpu, -1);	/* an exit or a block */
				new_util(&m, cpu);
			} else if (op < 8 && (cpu = busy_cpu(&m)) >= 0) {
				int to = (int)rnd((unsigned int)ncpus);

				queue(&m, cpu, -1);	/* a migration */
				queue(&m, to, 1);
				new_util(&m, cpu);
				new_util(&m, to);
			} else {	/* signals decay and grow */
				new_util(&m, (int)rnd((unsigned int)ncpus));
			}
			ck_assert(sim_load_index_consistent(&m.s));
		}
		machine_free(&m);
		free(mask);
	}
	/* the draw reached what it is for */
	ck_assert_int_gt(forks, 50000);
	ck_assert_int_gt(own, 10000);
	ck_assert_int_gt(nonzero_least, 10000);
}
END_TEST

/* The index alone: buckets past its first allocation, the least's CPUs
 * in id order across words, the least moving both ways */
START_TEST(index_lists_the_least_loaded_in_order)
{
	struct cpu_load_index ix;
	int nr[130] = { 0 }, i, n;

	cpu_load_index_init(&ix, 130);
	for (i = 0; i < 130; i++)	/* every CPU 1 task, CPU 129 200 */
		cpu_load_index_move(&ix, i, 0, nr[i] = 1);
	for (n = 1; n < 200; n++)
		cpu_load_index_move(&ix, 129, n, nr[129] = n + 1);
	ck_assert(cpu_load_index_consistent(&ix, nr));
	ck_assert_int_eq(cpu_load_index_least(&ix), 1);
	for (i = 0; i < 129; i++)	/* CPUs 0..128 to 2 tasks but 5, 64, 128 */
		if (i != 5 && i != 64 && i != 128)
			cpu_load_index_move(&ix, i, 1, nr[i] = 2);
	ck_assert_int_eq(cpu_load_index_next_least(&ix, -1), 5);
	ck_assert_int_eq(cpu_load_index_next_least(&ix, 5), 64);
	ck_assert_int_eq(cpu_load_index_next_least(&ix, 64), 128);
	ck_assert_int_eq(cpu_load_index_next_least(&ix, 128), -1);
	cpu_load_index_move(&ix, 5, 1, nr[5] = 2);
	cpu_load_index_move(&ix, 128, 1, nr[128] = 2);
	cpu_load_index_move(&ix, 64, 1, nr[64] = 2);
	ck_assert_int_eq(cpu_load_index_least(&ix), 2);
	ck_assert_int_eq(cpu_load_index_next_least(&ix, -1), 0);
	cpu_load_index_move(&ix, 7, 2, nr[7] = 1);
	ck_assert_int_eq(cpu_load_index_least(&ix), 1);
	ck_assert_int_eq(cpu_load_index_next_least(&ix, -1), 7);
	ck_assert_int_eq(cpu_load_index_next_least(&ix, 7), -1);
	ck_assert(cpu_load_index_consistent(&ix, nr));
	nr[3] = 3;	/* the check sees a CPU in the wrong bucket */
	ck_assert(!cpu_load_index_consistent(&ix, nr));
	cpu_load_index_free(&ix);
}
END_TEST

int main(void)
{
	return check_main("fork-placement", 120, CHECK_TESTS(
		index_picks_as_the_walk,
		index_lists_the_least_loaded_in_order));
}
