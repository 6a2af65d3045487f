/*
 * capsim-replay's cost against reading and parsing its input, side by
 * side in one process: for an op log FILE, ROUNDS rounds (the order
 * rotating) of
 *
 *   read    getline() over the file, as capsim-replay reads it
 *   parse   the same, each line through oplog_parse()
 *   replay  the same, each op applied to a clamp host (oplog_apply(),
 *           its output to /dev/null): capsim-replay's loop
 *
 * The medians, in Mops/s, and replay's time over parse's and read's: how
 * much of a replay is the clamp core and its host, and how much is the
 * input. Nothing here asserts on time.
 *
 *   bench_oplog FILE [CPUS [ROUNDS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clamp_host.h"
#include "oplog.h"
#include "oplog_apply.h"

enum { MAX_ROUNDS = 15 };
enum mode { READ, PARSE, REPLAY, NR_MODES };

static const char *const mode_name[NR_MODES] = { "read", "parse", "replay" };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One pass over @path in @mode: its seconds; the lines in *@ops */
static double pass(const char *path, enum mode mode, unsigned int cpus,
		   unsigned long *ops)
{
	FILE *in = fopen(path, "r"), *out = fopen("/dev/null", "w");
	struct clamp_host host;
	char *line = NULL;
	size_t cap = 0;
	unsigned long n = 0;
	double t0;

	if (!in || !out || clamp_host_init(&host, cpus)) {
		perror(path);
		exit(1);
	}
	t0 = now_s();
	while (getline(&line, &cap, in) >= 0) {
		const char *msg;
		struct op op;
		int col;

		n++;
		if (mode == READ)
			continue;
		if (oplog_parse(line, &op, &msg, &col)) {
			fprintf(stderr, "%s:%lu:%d: %s\n", path, n, col, msg);
			exit(1);
		}
		if (mode == REPLAY && oplog_apply(&host, &op, out, &msg)) {
			fprintf(stderr, "%s:%lu: %s\n", path, n, msg);
			exit(1);
		}
	}
	t0 = now_s() - t0;
	free(line);
	fclose(in);
	fclose(out);
	clamp_host_destroy(&host);
	*ops = n;
	return t0;
}

int main(int argc, char **argv)
{
	unsigned int cpus = argc > 2 ? (unsigned int)atoi(argv[2]) : 4;
	int rounds = argc > 3 ? atoi(argv[3]) : 5, r, m;
	double t[NR_MODES][MAX_ROUNDS], med[NR_MODES];
	unsigned long ops = 0;

	if (argc < 2 || !cpus || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: bench_oplog FILE [CPUS [ROUNDS <= %d]]\n",
			MAX_ROUNDS);
		return 2;
	}
	for (r = 0; r < rounds; r++)
		for (m = 0; m < NR_MODES; m++) {
			enum mode k = (enum mode)((r + m) % NR_MODES);

			t[k][r] = pass(argv[1], k, cpus, &ops);
		}
	for (m = 0; m < NR_MODES; m++) {
		qsort(t[m], (size_t)rounds, sizeof(double), cmp_double);
		med[m] = rounds % 2 ? t[m][rounds / 2] :
			 (t[m][rounds / 2 - 1] + t[m][rounds / 2]) / 2;
		printf("%-6s %lu ops: %.3f s (median of %d), %.2f Mops/s\n",
		       mode_name[m], ops, med[m], rounds,
		       (double)ops / med[m] / 1e6);
	}
	printf("replay / parse %.2fx, replay / read %.2fx; the clamp core and host: %.0f %% of the replay\n",
	       med[REPLAY] / med[PARSE], med[REPLAY] / med[READ],
	       100 * (med[REPLAY] - med[PARSE]) / med[REPLAY]);
	return 0;
}
