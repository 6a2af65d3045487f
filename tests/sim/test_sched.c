// SPDX-License-Identifier: GPL-2.0
/* Scheduler behaviour on sym4: classes, weights, affinity, DL, spreading. */
#include "simtest.h"

START_TEST(fifo_preempts_cfs_hog)
{
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"hog\": { \"cpus\": [0], \"run\": 1000000 },\n"
		"  \"rt\": { \"cpus\": [0], \"policy\": \"SCHED_FIFO\", \"priority\": 50,\n"
		"          \"delay\": 1000, \"runtime\": 2000, \"timer\": { \"ref\": \"p\", \"period\": 10000 } } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 2, NULL);
	struct sim_task *hog, *rt;

	RUN_OK(r);
	hog = task_named(r->s, "hog");
	rt = task_named(r->s, "rt");
	ck_assert_uint_eq(rt->misses, 0);
	ck_assert_uint_ge(rt->activations, 199);
	/* the RT task runs as soon as it wakes: the CPU is busy, no idle exit */
	ck_assert_int_le(samples_pct(&rt->wlat, 99), 1000);
	ck_assert_uint_ge(hog->preempted, 190);
	/* 2 ms of every 10 ms go to the RT task */
	ck_assert(fabs((double)rt->runtime_ns / 2e9 - 0.2) < 0.01);
	ck_assert(fabs((double)hog->runtime_ns / 2e9 - 0.8) < 0.01);
	ck_assert_uint_eq(kcompat_warn_count, 0);
	run_free(r);
}
END_TEST

/*
 * A FIFO wake-up at the same ns as the tick of a CPU running CFS: 6.12
 * keeps it there (select_task_rq_rt()) and it preempts the CFS task at
 * once; the tick's push must not send it to the idle CPU 2 (150 us exit
 * latency). Period 8 ms and HZ 250 coincide at every activation.
 */
START_TEST(rt_wakeup_on_a_tick_preempts_in_place)
{
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"hog\": { \"cpus\": [1], \"run\": 1000000 },\n"
		"  \"rt\": { \"cpus\": [1, 2], \"policy\": \"SCHED_FIFO\", \"priority\": 50,\n"
		"          \"run\": 1000, \"timer\": { \"ref\": \"p\", \"period\": 8000 } } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 1, NULL);
	struct sim_task *rt;

	RUN_OK(r);
	rt = task_named(r->s, "rt");
	ck_assert_uint_ge(rt->activations, 124);
	ck_assert_uint_eq(rt->migrations, 0);
	ck_assert_int_eq(rt->cpu, 1);
	ck_assert(cpu_busy(r->s, 2) == 0);
	ck_assert_int_eq(samples_pct(&rt->wlat, 99), 0);
	ck_assert_uint_ge(task_named(r->s, "hog")->preempted, 120);
	run_free(r);
}
END_TEST

START_TEST(nice_levels_share_by_weight)
{
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"n0\": { \"cpus\": [1], \"priority\": 0, \"runtime\": 100000 },\n"
		"  \"n5\": { \"cpus\": [1], \"priority\": 5, \"runtime\": 100000 } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 10, NULL);
	double a, b, share;

	RUN_OK(r);
	a = (double)task_named(r->s, "n0")->runtime_ns;
	b = (double)task_named(r->s, "n5")->runtime_ns;
	share = a / (a + b);
	/* 1024 / (1024 + 335) = 0.7535 */
	ck_assert_msg(fabs(share - 1024.0 / 1359.0) < 0.03, "share %f", share);
	ck_assert(cpu_busy(r->s, 0) == 0 && cpu_busy(r->s, 2) == 0);
	run_free(r);
}
END_TEST

START_TEST(affinity_is_respected)
{
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"pinned\": { \"instance\": 3, \"cpus\": [2], \"run\": 3000, \"sleep\": 1000 },\n"
		"  \"pair\": { \"instance\": 2, \"cpus\": [0, 3], \"run\": 5000, \"sleep\": 500 } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 3, NULL);
	int i;

	RUN_OK(r);
	ck_assert(cpu_busy(r->s, 1) == 0);
	ck_assert(cpu_busy(r->s, 2) > 2.5);
	for (i = 0; i < r->s->ntasks; i++) {
		struct sim_task *t = r->s->tasks[i];

		ck_assert(t->allowed[t->cpu]);
	}
	run_free(r);
}
END_TEST

START_TEST(deadline_task_meets_deadlines)
{
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"hogs\": { \"instance\": 6, \"run\": 1000000 },\n"
		"  \"dl\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4000, \"dl-period\": 10000,\n"
		"          \"run\": 2000, \"timer\": { \"ref\": \"dlp\", \"period\": 10000 } } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 5, NULL);
	struct sim_task *dl;

	RUN_OK(r);
	dl = task_named(r->s, "dl");
	ck_assert_uint_ge(dl->activations, 499);
	ck_assert_uint_eq(dl->misses, 0);
	ck_assert_int_gt(samples_pct(&dl->slack, 1), 0);
	run_free(r);
}
END_TEST

START_TEST(independent_hogs_spread)
{
	struct run *r = run_text(
		"{ \"tasks\": { \"hog\": { \"instance\": 4, \"run\": 1000000 } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 2, NULL);
	int i;

	RUN_OK(r);
	for (i = 0; i < 4; i++)
		ck_assert_msg(cpu_busy(r->s, i) > 1.99, "cpu%d busy %f", i,
			      cpu_busy(r->s, i));
	run_free(r);
}
END_TEST

START_TEST(hogs_spread_after_late_start)
{
	/* all four start pinned to CPU 0, then a phase frees them */
	struct run *r = run_text(
		"{ \"tasks\": { \"hog\": { \"instance\": 4, \"loop\": 1, \"phases\": {\n"
		"   \"pinned\": { \"cpus\": [0], \"run\": 20000 },\n"
		"   \"free\": { \"cpus\": [0, 1, 2, 3], \"runtime\": 2000000 } } } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 3, NULL);
	int i;

	RUN_OK(r);
	for (i = 1; i < 4; i++)
		ck_assert_msg(cpu_busy(r->s, i) > 1.9, "cpu%d busy %f", i,
			      cpu_busy(r->s, i));
	run_free(r);
}
END_TEST

START_TEST(run_stretches_with_frequency_runtime_does_not)
{
	/* one activation each at the lowest OPP: a cap of 200 asks for
	 * 488281 kHz (205 would ask 500488 kHz and land on 1 GHz); "t" outlives
	 * "w", so no CPU of the domain goes idle while "w" runs */
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"w\": { \"loop\": 1, \"taskgroup\": \"/low\", \"run\": 10000 },\n"
		"  \"t\": { \"loop\": 1, \"taskgroup\": \"/low\", \"runtime\": 100000 } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/low\": { \"capacity_max\": 200 } } } }",
		"sym4", POLICY_RFC, CLAMP_ORDER_612, 1, NULL);
	double w, t;

	RUN_OK(r);
	w = (double)task_named(r->s, "w")->runtime_ns / 1e6;
	t = (double)task_named(r->s, "t")->runtime_ns / 1e6;
	ck_assert_msg(fabs(w - 10.0 * 1024 / 205) < 0.2, "run took %f ms", w);
	ck_assert_msg(fabs(t - 100.0) < 0.01, "runtime took %f ms", t);
	run_free(r);
}
END_TEST

START_TEST(mutex_and_barrier_sequence)
{
	struct run *r = run_text(
		"{ \"global\": { \"duration\": 1 }, \"tasks\": {\n"
		"  \"a\": { \"cpus\": [0], \"lock\": \"m\", \"run\": 1000, \"unlock\": \"m\", \"barrier\": \"b\", \"sleep\": 1000 },\n"
		"  \"b\": { \"cpus\": [1], \"lock\": \"m\", \"run\": 1000, \"unlock\": \"m\", \"barrier\": \"b\", \"sleep\": 1000 } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 0, NULL);
	struct sim_task *a, *b;

	RUN_OK(r);
	a = task_named(r->s, "a");
	b = task_named(r->s, "b");
	/* serialized by the mutex and kept in step by the barrier */
	ck_assert(a->completed > 100);
	ck_assert(llabs((long long)a->completed - (long long)b->completed) <= 1);
	run_free(r);
}
END_TEST

/*
 * The counts that spare newidle balance and pull_rt its walk over the
 * CPUs follow every enqueue and dequeue: checked while RT and CFS tasks
 * wake, migrate, are pushed and pulled on 4 CPUs, at each progress call
 * (every 65 536 events) and at the end; so does the forks' load index
 * (CPUs by nr_running).
 */
static int gate_checks, gate_errors;

static void check_gates(void *arg, unsigned long long now,
			unsigned long long end)
{
	(void)now;
	(void)end;
	gate_checks++;
	gate_errors += !sim_pull_gates_consistent(arg);
	gate_errors += !sim_load_index_consistent(arg);
}

START_TEST(pull_gates_follow_the_queues)
{
	struct sim_opts o = { .clamp_policy = POLICY_NONE, .order = CLAMP_ORDER_612,
			      .duration_ns = 30000000000ULL };
	struct run *r = calloc(1, sizeof(*r));
	uint64_t pulls[2] = { 0, 0 };
	int i;

	diag_init(&r->d, true);
	r->wl = workload_load_buffer_all("test.json",
		"{ \"tasks\": {\n"
		"  \"rt\": { \"instance\": 6, \"policy\": \"SCHED_FIFO\", \"priority\": 10, \"run\": 1000, \"sleep\": 1000 },\n"
		"  \"cfs\": { \"instance\": 3, \"run\": 2000, \"sleep\": 4000 } } }",
		&r->d);
	ck_assert(r->wl != NULL);
	r->pl = platform_load("sym4", &r->d);
	ck_assert(r->pl != NULL);
	sim_opts_resolve(&o, r->wl);
	r->s = sim_create(r->pl, r->wl, &o, &r->d);
	ck_assert(r->s != NULL);
	r->s->progress = check_gates;
	r->s->progress_arg = r->s;
	ck_assert_int_eq(sim_run(r->s, NULL), 0);
	ck_assert_int_ge(gate_checks, 3);
	ck_assert_int_eq(gate_errors, 0);
	ck_assert(sim_pull_gates_consistent(r->s));
	ck_assert(sim_load_index_consistent(r->s));
	/* the gates were open at times: both classes were pulled */
	for (i = 0; i < r->s->ntasks; i++) {
		struct sim_task *t = r->s->tasks[i];

		pulls[t->cls == &rt_sched_class] += t->mig[MIG_PULL];
	}
	ck_assert_msg(pulls[0] > 0 && pulls[1] > 0, "pulls: cfs %llu rt %llu",
		      (unsigned long long)pulls[0],
		      (unsigned long long)pulls[1]);
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("sched", 120, CHECK_TESTS(
			  fifo_preempts_cfs_hog,
			  rt_wakeup_on_a_tick_preempts_in_place,
			  nice_levels_share_by_weight,
			  affinity_is_respected,
			  deadline_task_meets_deadlines,
			  independent_hogs_spread,
			  hogs_spread_after_late_start,
			  run_stretches_with_frequency_runtime_does_not,
			  mutex_and_barrier_sequence,
			  pull_gates_follow_the_queues));
}
