/*
 * The clamp core table: four per-CPU aggregators on the same operations,
 * measured side by side in one run.
 *   a  rbtree   today's core, cap_clamp_rbtree.c
 *   b  seed     the RFC v3 design, keys read through the group
 *               (tests/core/seed_model.c)
 *   c  buckets  mainline uclamp's 5 refcounted buckets (uclamp_buckets.h)
 *   d  exact    the exact aggregator, cap_clamp_exact.c
 * Operations, with N RUNNABLE tasks on the CPU (N = 1, 16, 256, 4096):
 *   pair   enqueue + dequeue of one more task, in one of 8 groups
 *   write  a group write with its N RUNNABLE tasks following it
 *          (capacity_max 300 <-> 900; the N tasks are all of that group)
 *   read   the CPU's range
 * Each cell is the median ns per operation of ROUNDS interleaved rounds
 * (the aggregators take turns, in a rotating order, so that a noisy
 * neighbour hits them alike). The core is built here without lockdep, as
 * a production kernel runs it, and called backend by backend, as a kernel
 * that built only that backend does. Nothing here asserts on time.
 *
 *   bench_core                 the table
 *   bench_core --quick         fewer rounds and operations
 *   bench_core --instructions  every cell once, each between callgrind
 *                              client requests: run under valgrind
 *                              --tool=callgrind (bench/core_instructions.sh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/sched/cap_clamp.h>
#include "seed_model.h"
#include "uclamp_buckets.h"
#ifdef HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

enum agg { RBTREE, SEED, BUCKETS, EXACT, NR_AGG };
enum op { PAIR, WRITE, READ, NR_OP };
enum { GROUPS = 8, PROBES = 64, MAX_N = 4096, MAX_ROUNDS = 9 };

static const char *const agg_name[NR_AGG] = {
	"a:rbtree", "b:seed", "c:buckets", "d:exact",
};
static const char *const op_name[NR_OP] = { "pair", "write", "read" };
static const int sizes[] = { 1, 16, 256, 4096 };

/* One CPU of each aggregator, with its groups and tasks (probes last). */
static struct core_world {
	struct cap_clamp_cpu cpu;
	raw_spinlock_t lock;
	struct mutex glock;
	struct cap_clamp_group root, grp[GROUPS];
	struct cap_clamp_se se[MAX_N + PROBES];
	int grp_of[MAX_N + PROBES];
} core[2];				/* [0] rbtree, [1] exact */

static struct {
	struct seed_cpu cpu;
	struct seed_group root, grp[GROUPS];
	struct seed_task t[MAX_N + PROBES];
} seed;

static struct {
	struct ucb_cpu cpu;
	raw_spinlock_t lock;
	struct ucb_group grp[GROUPS];
	struct ucb_task t[MAX_N + PROBES];
} ucb;

static unsigned long sink;

/* Group g: [100 g, 300 + 100 g], distinct values in distinct buckets. */
static unsigned int grp_min(int g) { return 100 * g; }
static unsigned int grp_max(int g) { return 300 + 100 * g; }

/* Task i's group: all in group 0 for the write, spread otherwise. */
static int group_of(int i, int n, enum op op)
{
	return op == WRITE && i < n ? 0 : i % GROUPS;
}

static void setup_core(struct core_world *w, bool exact, int n, enum op op)
{
	int g, i;

	if (exact)
		cap_clamp_exact_cpu_init(&w->cpu);
	else
		cap_clamp_rbtree_cpu_init(&w->cpu);
	raw_spin_lock_init(&w->lock);
	mutex_init(&w->glock);
	cap_clamp_group_init_root(&w->root);
	for (g = 0; g < GROUPS; g++) {
		cap_clamp_group_link(&w->grp[g], &w->root, &w->glock);
		cap_clamp_group_write(&w->grp[g], CAP_CLAMP_MAX, grp_max(g),
				      &w->glock);
		cap_clamp_group_write(&w->grp[g], CAP_CLAMP_MIN, grp_min(g),
				      &w->glock);
	}
	for (i = 0; i < n + PROBES; i++) {
		w->grp_of[i] = group_of(i, n, op);
		cap_clamp_se_init(&w->se[i]);
		if (i < n)
			cap_clamp_enqueue(&w->cpu, &w->se[i],
					  &w->grp[w->grp_of[i]], &w->lock);
	}
}

static void setup_seed(int n, enum op op)
{
	int g, i;

	seed_cpu_init(&seed.cpu);
	seed.root.parent = NULL;
	seed.root.cap_clamp[0] = 0;
	seed.root.cap_clamp[1] = 1024;
	for (g = 0; g < GROUPS; g++) {
		seed.grp[g].parent = &seed.root;
		seed.grp[g].cap_clamp[0] = grp_min(g);
		seed.grp[g].cap_clamp[1] = grp_max(g);
	}
	for (i = 0; i < n + PROBES; i++) {
		seed_task_init(&seed.t[i], &seed.grp[group_of(i, n, op)]);
		if (i < n)
			seed_enqueue_task(&seed.cpu, &seed.t[i]);
	}
}

static void setup_buckets(int n, enum op op)
{
	int g, i;

	ucb_cpu_init(&ucb.cpu);
	raw_spin_lock_init(&ucb.lock);
	for (g = 0; g < GROUPS; g++)
		ucb_group_set(&ucb.grp[g], grp_min(g), grp_max(g));
	for (i = 0; i < n + PROBES; i++) {
		ucb_task_init(&ucb.t[i], &ucb.grp[group_of(i, n, op)]);
		if (i < n)
			ucb_enqueue(&ucb.cpu, &ucb.t[i], &ucb.lock);
	}
}

static void setup(enum agg a, int n, enum op op)
{
	switch (a) {
	case RBTREE:
	case EXACT:
		setup_core(&core[a == EXACT], a == EXACT, n, op);
		break;
	case SEED:
		setup_seed(n, op);
		break;
	default:
		setup_buckets(n, op);
		break;
	}
}

/* Enqueue + dequeue of probe task @t. */
static inline __attribute__((always_inline)) void pair(enum agg a, int t)
{
	struct core_world *w = &core[a == EXACT];

	switch (a) {
	case RBTREE:
		cap_clamp_rbtree_enqueue(&w->cpu, &w->se[t],
					 &w->grp[w->grp_of[t]], &w->lock);
		cap_clamp_rbtree_dequeue(&w->cpu, &w->se[t], &w->lock);
		break;
	case EXACT:
		cap_clamp_exact_enqueue(&w->cpu, &w->se[t],
					&w->grp[w->grp_of[t]], &w->lock);
		cap_clamp_exact_dequeue(&w->cpu, &w->se[t], &w->lock);
		break;
	case SEED:
		seed_enqueue_task(&seed.cpu, &seed.t[t]);
		seed_dequeue_task(&seed.cpu, &seed.t[t]);
		break;
	default:
		ucb_enqueue(&ucb.cpu, &ucb.t[t], &ucb.lock);
		ucb_dequeue(&ucb.cpu, &ucb.t[t], &ucb.lock);
		break;
	}
}

/* Group 0's capacity_max becomes @v; its @n RUNNABLE tasks follow. */
static inline __attribute__((always_inline)) void group_write(enum agg a,
							      int n,
							      unsigned int v)
{
	struct core_world *w = &core[a == EXACT];
	int i;

	switch (a) {
	case RBTREE:
	case EXACT:
		cap_clamp_group_write(&w->grp[0], CAP_CLAMP_MAX, v, &w->glock);
		for (i = 0; i < n; i++) {
			if (a == EXACT)
				cap_clamp_exact_update(&w->cpu, &w->se[i],
						       &w->grp[0], &w->lock);
			else
				cap_clamp_rbtree_update(&w->cpu, &w->se[i],
							&w->grp[0], &w->lock);
		}
		break;
	case SEED:
		seed_group_write(&seed.grp[0], SEED_CLAMP_MAX, v, NULL, 0);
		for (i = 0; i < n; i++)
			seed_update_capacity(&seed.t[i], SEED_CLAMP_MAX);
		break;
	default:
		ucb_group_set(&ucb.grp[0], ucb.grp[0].uclamp[UCB_MIN].value, v);
		for (i = 0; i < n; i++)
			ucb_update(&ucb.cpu, &ucb.t[i], &ucb.lock);
		break;
	}
}

static inline __attribute__((always_inline)) unsigned int read_range(enum agg a)
{
	struct cap_clamp_range r;
	unsigned int mn, mx;

	switch (a) {
	case RBTREE:
	case EXACT:
		cap_clamp_cpu_range(&core[a == EXACT].cpu, &r);
		return r.min + r.max;
	case SEED:
		seed_cpu_range(&seed.cpu, &mn, &mx);
		return mn + mx;
	default:
		ucb_cpu_range(&ucb.cpu, &mn, &mx);
		return mn + mx;
	}
}

/* @iters operations of @op on @a, set up with @n RUNNABLE tasks. */
static inline __attribute__((always_inline)) void run(enum agg a, enum op op,
						      int n, long iters)
{
	long i;

	for (i = 0; i < iters; i++) {
		switch (op) {
		case PAIR:
			pair(a, n + (int)(i % PROBES));
			break;
		case WRITE:
			group_write(a, n, i & 1 ? 300 : 900);
			break;
		default:
			sink += read_range(a);
			break;
		}
	}
}

/* One copy of the loop per aggregator, each with direct calls only. */
static void run_agg(enum agg a, enum op op, int n, long iters)
{
	switch (a) {
	case RBTREE:
		run(RBTREE, op, n, iters);
		break;
	case SEED:
		run(SEED, op, n, iters);
		break;
	case BUCKETS:
		run(BUCKETS, op, n, iters);
		break;
	default:
		run(EXACT, op, n, iters);
		break;
	}
}

/* Operations per measurement: about the same time for every cell. */
static long iterations(enum op op, int n, bool quick)
{
	long base = op == READ ? 4000000 : op == PAIR ? 400000 : 1000000;
	long it = op == WRITE ? base / n : base;

	if (quick)
		it /= 10;
	return it > 4 ? it : 4;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static void table(int rounds, bool quick)
{
	unsigned int s, k;
	int op, r, a;

	printf("Clamp core: ns per operation, median of %d interleaved rounds\n",
	       rounds);
	printf("%-6s %5s %10s %10s %10s %10s %7s %7s\n", "op", "N",
	       agg_name[0], agg_name[1], agg_name[2], agg_name[3], "a/b",
	       "d/c");
	for (op = 0; op < NR_OP; op++) {
		for (s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
			double t[NR_AGG][MAX_ROUNDS], med[NR_AGG];
			int n = sizes[s];
			long it = iterations(op, n, quick);

			for (r = 0; r < rounds; r++) {
				for (k = 0; k < NR_AGG; k++) {
					double t0;

					a = (k + r) % NR_AGG;
					setup(a, n, op);
					t0 = now();
					run_agg(a, op, n, it);
					t[a][r] = (now() - t0) / it * 1e9;
				}
			}
			for (a = 0; a < NR_AGG; a++) {
				qsort(t[a], rounds, sizeof(double), cmp_double);
				med[a] = t[a][rounds / 2];
			}
			printf("%-6s %5d %10.2f %10.2f %10.2f %10.2f %7.2f %7.2f\n",
			       op_name[op], n, med[RBTREE], med[SEED],
			       med[BUCKETS], med[EXACT], med[RBTREE] / med[SEED],
			       med[EXACT] / med[BUCKETS]);
		}
	}
	printf("(checksum %lu)\n", sink);
}

/*
 * Under callgrind: each cell's operations between a zero and a dump of
 * the counters, the dump named "op/N/aggregator/operations".
 */
static int instructions(void)
{
#ifdef HAVE_CALLGRIND
	unsigned int s;
	int op, a;

	for (op = 0; op < NR_OP; op++) {
		for (s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
			int n = sizes[s];
			long it = iterations(op, n, true) / 10 + 4;

			for (a = 0; a < NR_AGG; a++) {
				char name[64];

				snprintf(name, sizeof(name), "%s/%d/%s/%ld",
					 op_name[op], n, agg_name[a], it);
				setup(a, n, op);
				CALLGRIND_ZERO_STATS;
				run_agg(a, op, n, it);
				CALLGRIND_DUMP_STATS_AT(name);
			}
		}
	}
	printf("(checksum %lu)\n", sink);
	return 0;
#else
	fprintf(stderr, "bench_core: built without <valgrind/callgrind.h>\n");
	return 77;
#endif
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");

	if (argc > 1 && !strcmp(argv[1], "--instructions"))
		return instructions();
	if (argc > 1 && !quick) {
		fprintf(stderr, "usage: bench_core [--quick|--instructions]\n");
		return 2;
	}
	table(quick ? 3 : 7, quick);
	return 0;
}
