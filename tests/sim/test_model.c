// SPDX-License-Identifier: GPL-2.0
/* Model properties: EAS placement on an
 * asymmetric platform, CBS isolation, CFS wake-up latency, phase changes. */
#include "check_main_tmpdir.h"
#include "simtest.h"

/*
 * schedutil's iowait boost (6.12): a task waking from I/O every 0.4 ms
 * doubles its CPU's boost at each decision (128, 256, 512, 1024) and
 * takes the domain to the top OPP; the same task sleeping instead of
 * waiting for I/O (no SCHED_CPUFREQ_IOWAIT) stays at its util's OPPs.
 */
START_TEST(iowait_boost_lifts_an_io_bound_task)
{
	struct run *io = run_text(
		"{ \"tasks\": { \"io\": { \"run\": 200, \"iorun\": 20000 } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 2, NULL);
	struct run *sl = run_text(
		"{ \"tasks\": { \"io\": { \"run\": 200, \"sleep\": 200 } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 2, NULL);

	RUN_OK(io);
	RUN_OK(sl);
	ck_assert(time_at(io->s, 0, 2500000) > 0.5);
	ck_assert(time_at(sl->s, 0, 2500000) == 0);
	run_free(io);
	run_free(sl);
}
END_TEST

START_TEST(eas_places_small_tasks_on_little)
{
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"small\": { \"instance\": 2, \"run\": 1000, \"timer\": { \"ref\": \"unique\", \"period\": 16000 } },\n"
		"  \"hog\": { \"delay\": 100000, \"run\": 1000000 } } }",
		"juno-r0", POLICY_NONE, CLAMP_ORDER_612, 5, NULL);
	double little = 0, big;
	int i;

	RUN_OK(r);
	for (i = 0; i < r->s->ncpus; i++)
		if (r->s->cpus[i].capacity < 1024)
			little += cpu_busy(r->s, i);
	big = cpu_busy(r->s, 1) + cpu_busy(r->s, 2);
	/* the periodic tasks stay on the A53s, the hog on an A57 */
	ck_assert_msg(little > 2.5 && little < 3.0, "little %f", little);
	ck_assert_msg(big > 4.8 && big < 5.0, "big %f", big);
	run_free(r);
}
END_TEST

START_TEST(misfit_moves_to_big)
{
	/* a hog born on a LITTLE CPU (pinned there first) moves up once free */
	struct run *r = run_text(
		"{ \"tasks\": { \"hog\": { \"loop\": 1, \"phases\": {\n"
		"   \"little\": { \"cpus\": [0], \"run\": 50000 },\n"
		"   \"free\": { \"cpus\": [0, 1, 2, 3, 4, 5], \"runtime\": 2000000 } } } } }",
		"juno-r0", POLICY_NONE, CLAMP_ORDER_612, 3, NULL);

	RUN_OK(r);
	ck_assert(cpu_busy(r->s, 1) + cpu_busy(r->s, 2) > 1.9);
	run_free(r);
}
END_TEST

static const char uni[] =
	"{ \"name\": \"uni\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 0 } ],\n"
	"  \"domains\": [ { \"id\": 0, \"cpus\": [0], \"opps\": [\n"
	"    { \"khz\": 1000000, \"capacity\": 512, \"power_mw\": 100 },\n"
	"    { \"khz\": 2000000, \"capacity\": 1024, \"power_mw\": 400 } ] } ] }\n";

START_TEST(cbs_isolates_an_overrunning_dl_task)
{
	FILE *f = fopen("uni.json", "w");
	struct run *r;
	struct sim_task *hog, *good;

	fputs(uni, f);
	fclose(f);
	/* "greedy" reserves 2 ms / 10 ms but wants 5 ms: it is throttled;
	 * "good" reserves 3 ms / 10 ms, uses 2 ms, and keeps its deadlines */
	r = run_text(
		"{ \"tasks\": {\n"
		"  \"greedy\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 10000,\n"
		"              \"runtime\": 5000, \"timer\": { \"ref\": \"g\", \"period\": 10000 } },\n"
		"  \"good\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 3000, \"dl-period\": 10000,\n"
		"            \"runtime\": 2000, \"timer\": { \"ref\": \"o\", \"period\": 10000 } },\n"
		"  \"cfs\": { \"runtime\": 100000 } } }",
		"./uni.json", POLICY_NONE, CLAMP_ORDER_612, 3, NULL);
	RUN_OK(r);
	hog = task_named(r->s, "greedy");
	good = task_named(r->s, "good");
	ck_assert_uint_gt(hog->dl.throttles, 200);
	ck_assert_uint_gt(hog->misses, 100);
	ck_assert_uint_eq(good->misses, 0);
	/* the CFS task still gets the time the reservations leave */
	ck_assert((double)task_named(r->s, "cfs")->runtime_ns / 3e9 > 0.25);
	run_free(r);
	remove("uni.json");
}
END_TEST

START_TEST(cfs_wakeup_latency_is_bounded_by_a_slice)
{
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"hog\": { \"cpus\": [0], \"runtime\": 1000000 },\n"
		"  \"tick\": { \"cpus\": [0], \"runtime\": 500, \"timer\": { \"ref\": \"t\", \"period\": 7000 } } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 3, NULL);
	struct sim_task *t;

	RUN_OK(r);
	t = task_named(r->s, "tick");
	/* RUN_TO_PARITY: at worst the rest of the hog's slice, rounded to a tick */
	ck_assert_int_le(samples_pct(&t->wlat, 100), (int64_t)(r->s->base_slice_ns + r->s->tick_ns));
	ck_assert_uint_eq(t->misses, 0);
	run_free(r);
}
END_TEST

START_TEST(phases_change_class_and_group)
{
	struct run *r = run_text(
		"{ \"tasks\": { \"shape\": { \"loop\": 1, \"phases\": {\n"
		"   \"fair\": { \"loop\": 10, \"run\": 1000, \"sleep\": 1000 },\n"
		"   \"rt\": { \"loop\": 10, \"policy\": \"SCHED_FIFO\", \"priority\": 10, \"taskgroup\": \"/rt\", \"run\": 1000, \"sleep\": 1000 },\n"
		"   \"back\": { \"loop\": 10, \"policy\": \"SCHED_OTHER\", \"priority\": 0, \"taskgroup\": \"/\", \"run\": 1000, \"sleep\": 1000 } } } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/rt\": { \"capacity_max\": 300 } } } }",
		"sym4", POLICY_RFC, CLAMP_ORDER_612, 0, NULL);
	struct sim_task *t;

	RUN_OK(r);
	t = task_named(r->s, "shape");
	ck_assert_int_eq(t->state, TS_DEAD);
	ck_assert_uint_eq(t->completed, 30);
	ck_assert_ptr_eq(t->cls, &fair_sched_class);
	ck_assert_str_eq(t->group->path, "/");
	ck_assert_uint_eq(kcompat_warn_count, 0);
	run_free(r);
}
END_TEST

START_TEST(timer_on_idle_cpu_pays_exit_latency_before_waking)
{
	/* sym4's cpu-sleep: exit 150 us, entered when the next timer is
	 * more than 600 us away */
	struct run *r = run_text(
		"{ \"tasks\": { \"p\": { \"run\": 1000, \"timer\": { \"ref\": \"t\", \"period\": 10000 } } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 1, NULL);
	struct sim_task *t;

	RUN_OK(r);
	t = task_named(r->s, "p");
	/* only the fork onto an idle CPU waits after sched_wakeup_new */
	ck_assert_int_eq(samples_pct(&t->wlat, 99), 0);
	ck_assert_int_eq(samples_pct(&t->tlat, 50), 150000);
	run_free(r);
}
END_TEST

/* Only even tasks are valid, for the timer heap test */
static bool even_task(void *ctx, const struct timer_entry *e)
{
	(void)ctx;
	return !(e->task & 1);
}

/* The per-CPU timer heap: the earliest valid entry, stale ones dropped */
START_TEST(timer_heap_earliest_valid)
{
	struct timer_heap h = { 0 };
	uint64_t x = 12345, best = UINT64_MAX;
	const struct timer_entry *e;
	int i;

	for (i = 0; i < 1000; i++) {
		uint64_t at;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		at = (x >> 20) % 1000000 + 1;
		timer_heap_push(&h, at, i, 0);
		if (!(i & 1) && at < best)
			best = at;
	}
	e = timer_heap_first(&h, even_task, NULL);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->at, best);
	ck_assert_int_eq(e->task & 1, 0);
	timer_heap_compact(&h, even_task, NULL);
	ck_assert_uint_eq(h.n, 500);
	for (i = 0; i < (int)h.n; i++) {
		ck_assert_int_eq(h.v[i].task & 1, 0);
		if (i)	/* the heap order holds */
			ck_assert_uint_le(h.v[(i - 1) / 2].at, h.v[i].at);
	}
	ck_assert_uint_eq(timer_heap_first(&h, even_task, NULL)->at, best);
	timer_heap_free(&h);
}
END_TEST

int main(void)
{
	return check_main_in_tmpdir("model", 120, CHECK_TESTS(
			  timer_heap_earliest_valid,
			  iowait_boost_lifts_an_io_bound_task,
			  eas_places_small_tasks_on_little,
			  misfit_moves_to_big,
			  cbs_isolates_an_overrunning_dl_task,
			  cfs_wakeup_latency_is_bounded_by_a_slice,
			  phases_change_class_and_group,
			  timer_on_idle_cpu_pays_exit_latency_before_waking));
}
