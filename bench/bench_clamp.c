/*
 * Clamp aggregator benchmark: the same random operation stream (enqueue,
 * dequeue, migrate, group writes) through the capsim core and through the
 * seed model, alternating runs, reporting the median ns/op of each and the
 * ratio. Later aggregators (mainline's uclamp buckets) join the same table.
 *
 *   bench_clamp [OPS]          run the comparison (default 2000000 ops)
 *   bench_clamp --oplog OPS [sched|writes]
 *                              print a random op log for capsim-replay
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clamp_impl.h"
#include "test_rand.h"

enum { CPUS = 4, TASKS = 96, GROUPS = 8, RUNS = 5 };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double run(enum impl_kind kind, long ops, unsigned long *sink)
{
	struct test_rand r;
	double t0;
	long i;
	int g;

	test_rand_init(&r, 42);
	impl_reset(kind, CPUS);
	for (g = 1; g < GROUPS; g++)
		impl_group_new(g < 4 ? 0 : g - 3);
	t0 = now();
	for (i = 0; i < ops; i++) {
		int t = (int)test_rand_below(&r, TASKS);
		unsigned int mn, mx;

		if (test_rand_below(&r, 64) == 0) {
			g = 1 + (int)test_rand_below(&r, GROUPS - 1);
			impl_write(g, 1, 128 + test_rand_below(&r, 897));
		} else if (impl_queued(t)) {
			impl_dequeue(t);
		} else {
			impl_enqueue(t, (int)test_rand_below(&r, CPUS),
				     (int)test_rand_below(&r, GROUPS));
		}
		impl_range(t % CPUS, &mn, &mx);
		*sink += mn + mx;
	}
	return (now() - t0) / ops * 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * A random op log for capsim-replay. "sched" is what a guest trace looks
 * like: mostly wake-ups and sleeps, some migrations and group moves, rare
 * group writes. "writes" makes every 16th op a group write, each of which
 * repositions all of that group's RUNNABLE entities (~100 here).
 */
static int oplog(long ops, int write_heavy)
{
	static const char *const paths[] = { "/", "/a", "/b", "/a/x" };
	struct test_rand r;
	int cpu_of[1024];
	int grp_of[1024];
	long i;

	test_rand_init(&r, 7);
	for (i = 0; i < 1024; i++) {
		cpu_of[i] = -1;
		grp_of[i] = (int)(i % 4);
	}
	printf("group /a\ngroup /b\ngroup /a/x\n");
	for (i = 0; i < ops; i++) {
		unsigned int t = (unsigned int)test_rand_below(&r, 1024);
		unsigned int k = (unsigned int)test_rand_below(&r, 1024);
		int c = (int)test_rand_below(&r, 4);

		if (write_heavy ? k % 16 == 0 : k == 0) {
			/* /a/x only narrows, so writes mostly succeed */
			printf("write %s %s %u\n", paths[1 + t % 3],
			       k & 1024 ? "min" : (t & 1 ? "min" : "max"),
			       (unsigned int)test_rand_below(&r, 1100));
		} else if (k < 64) {
			printf("range %d\n", c);
		} else if (k < 96) {
			grp_of[t] = (grp_of[t] + 1) % 4;
			printf("move %u %s\n", t, paths[grp_of[t]]);
		} else if (k < 160 && cpu_of[t] >= 0) {
			/* migration: off one CPU, onto another */
			printf("dequeue %u\nenqueue %u %d %s\n", t, t, c,
			       paths[grp_of[t]]);
			cpu_of[t] = c;
			i++;
		} else if (cpu_of[t] >= 0) {
			printf("dequeue %u\n", t);
			cpu_of[t] = -1;
		} else {
			printf("enqueue %u %d %s\n", t, c, paths[grp_of[t]]);
			cpu_of[t] = c;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	double core[RUNS], seed[RUNS];
	unsigned long sink = 0;
	long ops = 2000000;
	int i;

	if (argc > 2 && !strcmp(argv[1], "--oplog"))
		return oplog(atol(argv[2]), argc > 3 && !strcmp(argv[3], "writes"));
	if (argc > 1)
		ops = atol(argv[1]);
	if (ops <= 0) {
		fprintf(stderr, "usage: bench_clamp [OPS] | --oplog OPS [sched|writes]\n");
		return 2;
	}
	for (i = 0; i < RUNS; i++) {
		core[i] = run(IMPL_CORE, ops, &sink);
		seed[i] = run(IMPL_SEED, ops, &sink);
	}
	qsort(core, RUNS, sizeof(double), cmp_double);
	qsort(seed, RUNS, sizeof(double), cmp_double);
	printf("aggregator      ns/op (median of %d x %ld ops)   vs seed\n",
	       RUNS, ops);
	printf("seed (RFC v3)   %8.1f                          1.00\n",
	       seed[RUNS / 2]);
	printf("capsim core     %8.1f                          %.2f\n",
	       core[RUNS / 2], core[RUNS / 2] / seed[RUNS / 2]);
	printf("(checksum %lu)\n", sink);
	return 0;
}
