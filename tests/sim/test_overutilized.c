// SPDX-License-Identifier: GPL-2.0
/*
 * EAS's overutilized flag judged at each tick from the CPUs whose signals
 * changed (src/sim/overutilized.c): every CPU left off the list must be
 * judged as a fresh look at its signals would judge it, or a tick would
 * read a stale verdict. Checked between events, at every stop point of a
 * run cut after 1, 1 + STEP, ... events, on an asymmetric platform where
 * CFS, RT and DEADLINE tasks make CPUs cross the 80 % line both ways,
 * with util_est (its enqueue and dequeue move cpu_util()) and without it
 * (then only the PELT updates do).
 */
#include "simtest.h"

#define STEP 7
#define EVENTS 6000
#define TASKS \
	"  \"tasks\": {\n" \
	"  \"burst\": { \"instance\": 3, \"run\": 30000, \"sleep\": 50000 },\n" \
	"  \"tick\": { \"instance\": 4, \"run\": 900, \"timer\": { \"ref\": \"p\", \"period\": 4000 } },\n" \
	"  \"rt\": { \"policy\": \"SCHED_FIFO\", \"priority\": 20, \"run\": 3000, \"sleep\": 7000 },\n" \
	"  \"dl\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4000, \"dl-period\": 10000,\n" \
	"          \"run\": 2000, \"timer\": { \"ref\": \"dlp\", \"period\": 10000 } } } }"

static const char *const mixed[2] = {
	"{ \"capsim\": { \"util_est\": true },\n" TASKS,
	"{ \"capsim\": { \"util_est\": false },\n" TASKS,
};

static struct run *run_events(int util_est, uint64_t max_events)
{
	struct sim_opts o = { .clamp_policy = POLICY_NONE,
			      .order = CLAMP_ORDER_612,
			      .duration_ns = 2000000000ULL,
			      .max_events = max_events };
	struct run *r = run_with(mixed[!util_est], "sd855", &o, NULL);

	ck_assert_msg(r->s != NULL, "the workload did not load");
	return r;
}

static void check_verdicts(int util_est)
{
	uint64_t n;
	int stops = 0, bad = 0, listed = 0;

	for (n = 1; n <= EVENTS; n += STEP) {
		struct run *r = run_events(util_est, n);

		stops++;
		listed += r->s->nr_ou_changed > 0;
		if (!sim_overutilized_consistent(r->s) && !bad++)
			fprintf(stderr, "util_est %d: first stale verdict after %llu events\n",
				util_est, (unsigned long long)n);
		run_free(r);
	}
	ck_assert_int_eq(bad, 0);
	/* the list was exercised: CPUs waited for a tick at some stops */
	ck_assert_int_gt(listed, stops / 4);
}

START_TEST(verdicts_follow_the_signals_with_util_est)
{
	check_verdicts(1);
}
END_TEST

START_TEST(verdicts_follow_the_signals_without_util_est)
{
	check_verdicts(0);
}
END_TEST

/* the flags did rise and fall: the verdicts above were not all "no" */
START_TEST(the_flags_rise_and_fall)
{
	struct run *r = run_events(0, 0);
	int i, doms_set = 0;

	RUN_OK(r);
	ck_assert(sim_overutilized_consistent(r->s));
	ck_assert_uint_gt(r->s->ou_ns, 0);
	ck_assert_uint_lt(r->s->ou_ns, 2000000000ULL);
	for (i = 0; i < r->s->ndoms; i++)
		doms_set += r->s->doms[i].ou_ns > 0;
	ck_assert_int_gt(doms_set, 0);
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("overutilized", 120, CHECK_TESTS(
			  verdicts_follow_the_signals_with_util_est,
			  verdicts_follow_the_signals_without_util_est,
			  the_flags_rise_and_fall));
}
