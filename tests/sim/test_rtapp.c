// SPDX-License-Identifier: GPL-2.0
/* rt-app semantics the guest runner must match: timers (relative,
 * absolute, shared), instances, suspend/resume, broadcast, RR, iorun. */
#include "simtest.h"

static struct run *go(const char *text, double secs, FILE *trace)
{
	return run_text(text, "sym4", POLICY_NONE, CLAMP_ORDER_612, secs, trace);
}

START_TEST(relative_timer_restarts_absolute_keeps_schedule)
{
	/* 15 ms of wall-clock work against a 10 ms timer: late every time */
	struct run *r = go(
		"{ \"tasks\": {\n"
		"  \"rel\": { \"cpus\": [0], \"runtime\": 15000, \"timer\": { \"ref\": \"a\", \"period\": 10000 } },\n"
		"  \"abs\": { \"cpus\": [1], \"runtime\": 15000, \"timer\": { \"ref\": \"b\", \"period\": 10000, \"mode\": \"absolute\" } } } }",
		1.0, NULL);
	struct sim_task *rel, *abs;
	size_t i;

	RUN_OK(r);
	rel = task_named(r->s, "rel");
	abs = task_named(r->s, "abs");
	ck_assert_uint_ge(rel->slack.n, 60);
	ck_assert_uint_eq(rel->misses, rel->slack.n);
	/* relative: each iteration is 5 ms late, no more */
	for (i = 1; i < rel->slack.n; i++)
		ck_assert_msg(llabs(rel->slack.v[i] + 5000000) < 200000,
			      "slack[%zu] = %lld", i, (long long)rel->slack.v[i]);
	/* absolute: the lateness accumulates, 5 ms per period */
	for (i = 1; i < abs->slack.n; i++)
		ck_assert(abs->slack.v[i] < abs->slack.v[i - 1] - 4000000);
	run_free(r);
}
END_TEST

START_TEST(timers_are_shared_unless_unique)
{
	/* two instances on one "ref": each use advances the same timer */
	struct run *r = go(
		"{ \"tasks\": {\n"
		"  \"shared\": { \"instance\": 2, \"run\": 100, \"timer\": { \"ref\": \"tick\", \"period\": 10000 } },\n"
		"  \"own\": { \"instance\": 2, \"run\": 100, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }",
		2.0, NULL);
	uint64_t shared, own;

	RUN_OK(r);
	ck_assert_ptr_nonnull(task_named(r->s, "shared-0"));
	ck_assert_ptr_nonnull(task_named(r->s, "own-1"));
	shared = task_named(r->s, "shared-0")->activations +
		 task_named(r->s, "shared-1")->activations;
	own = task_named(r->s, "own-0")->activations +
	      task_named(r->s, "own-1")->activations;
	ck_assert_msg(own >= 398 && own <= 402, "own %lu", (unsigned long)own);
	ck_assert_msg(shared >= 198 && shared <= 202, "shared %lu",
		      (unsigned long)shared);
	run_free(r);
}
END_TEST

START_TEST(suspend_resume_and_broadcast)
{
	struct run *r = go(
		"{ \"tasks\": {\n"
		"  \"sleeper\": { \"suspend\": \"sleeper\", \"run\": 200 },\n"
		"  \"waker\": { \"run\": 100, \"sleep\": 10000, \"resume\": \"sleeper\" },\n"
		"  \"w\": { \"instance\": 3, \"lock\": \"m\", \"wait\": { \"ref\": \"go\", \"mutex\": \"m\" }, \"unlock\": \"m\", \"run\": 100 },\n"
		"  \"bcast\": { \"sleep\": 20000, \"lock\": \"m\", \"broad\": \"go\", \"unlock\": \"m\" } } }",
		1.0, NULL);
	struct sim_task *s, *w;
	int i;

	RUN_OK(r);
	s = task_named(r->s, "sleeper");
	w = task_named(r->s, "waker");
	ck_assert(llabs((long long)s->completed - (long long)w->completed) <= 1);
	ck_assert_uint_ge(s->completed, 90);
	for (i = 0; i < 3; i++) {
		char name[8];

		snprintf(name, sizeof(name), "w-%d", i);
		ck_assert_msg(task_named(r->s, name)->completed >= 45, "%s %lu",
			      name, (unsigned long)task_named(r->s, name)->completed);
	}
	run_free(r);
}
END_TEST

START_TEST(round_robin_shares_by_slices)
{
	struct run *r = go(
		"{ \"tasks\": { \"rr\": { \"instance\": 2, \"cpus\": [0], \"policy\": \"SCHED_RR\", \"priority\": 5, \"runtime\": 1000000 },\n"
		"  \"fifo\": { \"cpus\": [1], \"instance\": 2, \"policy\": \"SCHED_FIFO\", \"priority\": 5, \"runtime\": 1000000 } } }",
		2.0, NULL);
	double a, b;

	RUN_OK(r);
	a = (double)task_named(r->s, "rr-0")->runtime_ns / 1e9;
	b = (double)task_named(r->s, "rr-1")->runtime_ns / 1e9;
	ck_assert_msg(fabs(a - b) < 0.11, "rr %f %f", a, b);
	/* FIFO never rotates: the first one never gives the CPU up */
	ck_assert(fabs((double)task_named(r->s, "fifo-0")->runtime_ns / 1e9 - 2.0) < 0.01);
	ck_assert_uint_eq(task_named(r->s, "fifo-1")->runtime_ns, 0);
	run_free(r);
}
END_TEST

START_TEST(iorun_sleeps_in_d_state)
{
	FILE *f = tmpfile();
	struct run *r = run_text(
		"{ \"tasks\": { \"io\": { \"runtime\": 500, \"iorun\": 100000 } },\n"
		"  \"capsim\": { \"io_bandwidth_mbps\": 100 } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 0.1, f);
	char line[512];
	bool d = false;

	RUN_OK(r);
	rewind(f);
	while (fgets(line, sizeof(line), f))
		d |= strstr(line, "prev_comm=io prev_pid=1001 prev_prio=120 prev_state=D ") != NULL;
	ck_assert(d);
	/* 100 kB at 100 MB/s is 1 ms of I/O per 1.5 ms iteration */
	ck_assert_uint_ge(task_named(r->s, "io")->completed, 55);
	fclose(f);
	run_free(r);
}
END_TEST

START_TEST(yield_lets_the_other_run)
{
	struct run *r = go(
		"{ \"tasks\": { \"y\": { \"instance\": 2, \"cpus\": [2], \"runtime\": 100, \"yield\": \"\" } } }",
		1.0, NULL);

	RUN_OK(r);
	ck_assert(fabs((double)task_named(r->s, "y-0")->runtime_ns -
		       (double)task_named(r->s, "y-1")->runtime_ns) < 0.05e9);
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("rtapp", 120, CHECK_TESTS(
			  relative_timer_restarts_absolute_keeps_schedule,
			  timers_are_shared_unless_unique,
			  suspend_resume_and_broadcast,
			  round_robin_shares_by_slices,
			  iorun_sleeps_in_d_state,
			  yield_lets_the_other_run));
}
