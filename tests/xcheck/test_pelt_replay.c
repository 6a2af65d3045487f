// SPDX-License-Identifier: GPL-2.0
/*
 * The signal replay (src/xcheck/pelt_replay.c): hand-made traces whose
 * expected signal is computed here with the kernel's formulas, not by
 * the code under test, and a simulator trace replayed end to end.
 */
#include "simtest.h"
#include "pelt_replay.h"

/* 6.12 sched-pelt.h: runnable_avg_yN_inv[10] = y^10 * 2^32 */
#define Y10_INV 0xce248c14ULL
#define Y3_INV 0xefe4b99aULL		/* y^3 * 2^32 */
/* LOAD_AVG_MAX - 1024 + period_contrib, with period_contrib 0 */
#define DIVIDER0 (47742 - 1024)
#define PERIOD_NS (1024ULL * 1024)

struct snippet {
	char *buf;
	size_t len;
	FILE *f;
};

static void sn_open(struct snippet *s)
{
	s->f = open_memstream(&s->buf, &s->len);
	ck_assert(s->f != NULL);
}

static void replay(struct snippet *s, uint64_t tick_ns,
		   struct pelt_replay_result *r)
{
	struct diag d;
	struct platform *p;
	struct pelt_replay_opts o = { .split_search = true,
				      .tick_ns = tick_ns };
	FILE *in;

	fclose(s->f);
	diag_init(&d, true);
	p = platform_load("sym4", &d);
	ck_assert(p != NULL);
	o.platform = p;
	in = fmemopen(s->buf, s->len, "r");
	ck_assert_int_eq(pelt_replay_stream(in, "snippet", &o, r), 0);
	fclose(in);
	platform_free(p);
	diag_free(&d);
	free(s->buf);
}

/* The state a running task of weight 1024 logs at 1.000000 on CPU 0 */
#define U0 (1ULL << 32)
#define LS0 40000ULL
#define RS0 (40000ULL * 1024)
#define US0 30000000ULL

static void logged_running_then_sleeps(FILE *f)
{
	fprintf(f, "# tracer: nop\n");
	fprintf(f, "  <idle>-0 [000] 0.999000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t next_pid=100 next_prio=120\n");
	fprintf(f, "   t-100 [000] 1.000000: lisa__sched_pelt_se: cpu=0 path=(null) comm=t pid=100 load=%llu util=%llu update_time=%llu runnable=%llu\n",
		1024 * LS0 / DIVIDER0, US0 / DIVIDER0, U0, RS0 / DIVIDER0);
	fprintf(f, "   t-100 [000] 1.000000: capsim_pelt_se: cpu=0 pid=100 update_time=%llu load_sum=%llu runnable_sum=%llu util_sum=%llu period_contrib=0 on_rq=1 running=1\n",
		U0, LS0, RS0, US0);
	fprintf(f, "   t-100 [000] 1.000000: sched_switch: prev_comm=t prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
}

/* decay_load(x, 10) as the kernel writes it: x * y^10, the y^n table's */
static uint64_t decay10(uint64_t x)
{
	return (uint64_t)(((unsigned __int128)x * Y10_INV) >> 32);
}

static void wakes_after_ten_periods(FILE *f, uint64_t util_sum_error)
{
	fprintf(f, "  <idle>-0 [000] 1.010486: sched_waking: comm=t pid=100 prio=120 target_cpu=000\n");
	fprintf(f, "  <idle>-0 [000] 1.010486: capsim_pelt_se: cpu=0 pid=100 update_time=%llu load_sum=%llu runnable_sum=%llu util_sum=%llu period_contrib=0 on_rq=0 running=0\n",
		U0 + 10 * PERIOD_NS, (unsigned long long)decay10(LS0),
		(unsigned long long)decay10(RS0),
		(unsigned long long)(decay10(US0) + util_sum_error));
	fprintf(f, "  <idle>-0 [000] 1.010486: sched_wakeup: comm=t pid=100 prio=120 target_cpu=000\n");
}

static struct pelt_replay_interval seen;

static void keep(const struct pelt_replay_interval *iv, void *arg)
{
	(void)arg;
	seen = *iv;
}

/* asleep ten whole periods: every sum times y^10, and nothing else */
START_TEST(sleep_ten_periods_is_exact)
{
	struct snippet s;
	struct pelt_replay_result r;
	struct diag d;
	struct platform *p;
	struct pelt_replay_opts o = { .on_interval = keep };
	FILE *in;

	sn_open(&s);
	logged_running_then_sleeps(s.f);
	wakes_after_ten_periods(s.f, 0);
	fclose(s.f);
	diag_init(&d, true);
	p = platform_load("sym4", &d);
	o.platform = p;
	in = fmemopen(s.buf, s.len, "r");
	ck_assert_int_eq(pelt_replay_stream(in, "snippet", &o, &r), 0);
	fclose(in);
	ck_assert_uint_eq(r.events, 2);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].n, 1);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].exact, 1);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_CHANGES].n, 0);
	ck_assert_uint_eq(seen.expected.util_sum, decay10(US0));
	ck_assert_uint_eq(seen.expected.util_avg, decay10(US0) / DIVIDER0);
	/* the weight came from E0's LISA line: load_avg compared too */
	ck_assert(seen.load_known);
	ck_assert_uint_eq(seen.expected.load_avg,
			  1024 * decay10(LS0) / DIVIDER0);
	ck_assert_uint_eq(seen.nchanges, 0);
	platform_free(p);
	diag_free(&d);
	free(s.buf);
}
END_TEST

/* one unit off in the logged util_sum: a uniform interval, not exact */
START_TEST(uniform_miss_is_counted)
{
	struct snippet s;
	struct pelt_replay_result r;
	const struct pelt_replay_stats *a = &r.cls[PELT_REPLAY_UNIFORM];

	sn_open(&s);
	logged_running_then_sleeps(s.f);
	wakes_after_ten_periods(s.f, 1);
	replay(&s, 0, &r);
	ck_assert_uint_eq(a->n, 1);
	ck_assert_uint_eq(a->exact, 0);
	ck_assert_uint_eq(a->split_explained, 0);
	ck_assert_uint_eq(a->max_util_sum_diff, 1);
	ck_assert_int_eq(a->nworst, 1);
	ck_assert_int_eq(a->worst[0].pid, 100);
	ck_assert_str_eq(a->worst[0].comm, "t");
}
END_TEST

/*
 * Woken 2 ms in and running to the end (3 periods after the first event): a class (b) interval, and
 * the last stretch runs with the logged inputs (on_rq, running). The
 * wake-up at 1.002000 is 2000 us of trace time on an idle CPU, i.e.
 * 2000000 / 1024 = 1953 units: but no unlogged update can lie past the
 * first period boundary (it would have been logged), so the replay puts
 * it at unit 1023 and the sums are 1023 units asleep then running.
 */
START_TEST(change_inside_is_class_b)
{
	struct snippet s;
	struct pelt_replay_result r;
	uint64_t u1 = U0 + 3 * PERIOD_NS, us = US0, ls = LS0;
	uint32_t c1, c2;

	sn_open(&s);
	logged_running_then_sleeps(s.f);
	fprintf(s.f, "  <idle>-0 [000] 1.002000: sched_wakeup: comm=t pid=100 prio=120 target_cpu=000\n");
	fprintf(s.f, "  <idle>-0 [000] 1.002000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t next_pid=100 next_prio=120\n");
	/*
	 * Expected, with the kernel's accumulate_sum(): at unit 1023 no
	 * period crossed (asleep: nothing added); then 2049 units running
	 * from period_contrib 1023: 3 periods, d1 = 1, d3 = 0.
	 */
	c1 = (uint32_t)((1ULL * Y3_INV) >> 32);		/* decay(1, 3) */
	c2 = 47742 - (uint32_t)((47742ULL * Y3_INV) >> 32) - 1024;
	us = ((us * Y3_INV) >> 32) + ((uint64_t)(c1 + c2) << 10);
	ls = ((ls * Y3_INV) >> 32) + c1 + c2;
	fprintf(s.f, "   t-100 [000] 1.004000: capsim_pelt_se: cpu=0 pid=100 update_time=%llu load_sum=%llu runnable_sum=%llu util_sum=%llu period_contrib=0 on_rq=1 running=1\n",
		(unsigned long long)u1, (unsigned long long)ls,
		(unsigned long long)(((RS0 * Y3_INV) >> 32) +
				     ((uint64_t)(c1 + c2) << 10)),
		(unsigned long long)us);
	replay(&s, 0, &r);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].n, 0);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_CHANGES].n, 1);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_CHANGES].exact, 1);
	ck_assert_uint_eq(r.flags_mismatch, 0);
}
END_TEST

/*
 * 6.12's DELAY_DEQUEUE: the task switched out asleep stays queued (load
 * and runnable accumulate, util not) until its delayed dequeue, 512
 * units in here, an update that crossed no period and was not logged.
 * Expected, by hand: 512 units added to load_sum and runnable_sum (<<
 * 10) from period_contrib 0, then the ten periods decay all three sums.
 * Without the option the interval is a plain inexact sleep; with it the
 * search finds the dequeue at 512.
 */
START_TEST(delayed_dequeue_is_found)
{
	struct pelt_replay_result r;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		struct diag d;
		struct platform *p;
		struct pelt_replay_opts o = { .split_search = true,
					      .delay_dequeue = pass == 1,
					      .on_interval = keep };
		struct snippet s;
		FILE *in;

		sn_open(&s);
		logged_running_then_sleeps(s.f);
		fprintf(s.f, "  <idle>-0 [000] 1.010486: capsim_pelt_se: cpu=0 pid=100 update_time=%llu load_sum=%llu runnable_sum=%llu util_sum=%llu period_contrib=0 on_rq=0 running=0\n",
			U0 + 10 * PERIOD_NS,
			(unsigned long long)decay10(LS0 + 512),
			(unsigned long long)decay10(RS0 + 512 * 1024),
			(unsigned long long)decay10(US0));
		fclose(s.f);
		diag_init(&d, true);
		p = platform_load("sym4", &d);
		o.platform = p;
		in = fmemopen(s.buf, s.len, "r");
		ck_assert_int_eq(pelt_replay_stream(in, "snippet", &o, &r), 0);
		fclose(in);
		platform_free(p);
		diag_free(&d);
		free(s.buf);
		ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].n, 1);
		ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].exact, 0);
		/* util_sum is untouched by a delay: only load, runnable */
		ck_assert_uint_eq(seen.util_sum_diff, 0);
		ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].delay_explained,
				  (unsigned long)pass);
		ck_assert_int_eq(seen.delayed_units, pass ? 512 : -1);
	}
}
END_TEST

/*
 * A kernel's lines: the irq-info column, a task group's entity (pid -1,
 * its path) and its queue, which the replay leaves alone; the task's own
 * pair replays as in sleep_ten_periods_is_exact.
 */
START_TEST(kernel_format_and_groups)
{
	struct snippet s;
	struct pelt_replay_result r;

	sn_open(&s);
	fprintf(s.f, "# tracer: nop\n");
	fprintf(s.f, "           t-100     [000] d..2.  1.000000: capsim_pelt_se: cpu=0 pid=100 update_time=%llu load_sum=%llu runnable_sum=%llu util_sum=%llu period_contrib=0 on_rq=1 running=1\n",
		U0, LS0, RS0, US0);
	fprintf(s.f, "           t-100     [000] d..2.  1.000000: lisa__sched_pelt_se: cpu=0 path=/bg comm=(null) pid=-1 load=5 util=5 update_time=%llu runnable=5\n",
		U0);
	fprintf(s.f, "           t-100     [000] d..2.  1.000000: capsim_pelt_se: cpu=0 pid=-1 update_time=%llu load_sum=1 runnable_sum=1 util_sum=1 period_contrib=0 on_rq=1 running=1\n",
		U0);
	fprintf(s.f, "           t-100     [000] d..2.  1.000000: sched_switch: prev_comm=t prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
	fprintf(s.f, "          <idle>-0     [000] d.h2.  1.005000: capsim_pelt_se: cpu=0 pid=-1 update_time=%llu load_sum=0 runnable_sum=0 util_sum=0 period_contrib=0 on_rq=1 running=0\n",
		U0 + 5 * PERIOD_NS);
	fprintf(s.f, "          <idle>-0     [000] d.h2.  1.010486: capsim_pelt_se: cpu=0 pid=100 update_time=%llu load_sum=%llu runnable_sum=%llu util_sum=%llu period_contrib=0 on_rq=0 running=0\n",
		U0 + 10 * PERIOD_NS, (unsigned long long)decay10(LS0),
		(unsigned long long)decay10(RS0),
		(unsigned long long)decay10(US0));
	replay(&s, 0, &r);
	ck_assert_uint_eq(r.events, 2);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].n, 1);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].exact, 1);
}
END_TEST

/* a migration between the events: skipped, counted, not compared */
START_TEST(migration_is_skipped)
{
	struct snippet s;
	struct pelt_replay_result r;

	sn_open(&s);
	logged_running_then_sleeps(s.f);
	fprintf(s.f, "  <idle>-0 [001] 1.010486: sched_migrate_task: comm=t pid=100 prio=120 orig_cpu=0 dest_cpu=1\n");
	wakes_after_ten_periods(s.f, 0);
	replay(&s, 0, &r);
	ck_assert_uint_eq(r.skipped[PELT_SKIP_MIGRATED], 1);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_UNIFORM].n, 0);
	ck_assert_uint_eq(r.cls[PELT_REPLAY_CHANGES].n, 0);
}
END_TEST

static const char workload[] =
	"{ \"tasks\": { \"ui\": { \"run\": 3000, \"timer\": { \"ref\": \"u\", \"period\": 16000 } },\n"
	"  \"bg\": { \"instance\": 2, \"run\": 20000, \"sleep\": 20000 },\n"
	"  \"rt\": { \"policy\": \"SCHED_FIFO\", \"priority\": 5, \"run\": 500, \"timer\": { \"ref\": \"r\", \"period\": 10000 } } } }";

/*
 * The simulator's own trace: every uniform interval exact, or made exact
 * by the one update of the tick inside placed within the slack of its
 * estimate (the trace's microseconds; "at a known tick"); those with
 * changes within 1 of util_avg, half of them or more exact, and every
 * one exact with its changes moved within the same slack. Measured on
 * this workload (3 s, --hz 250): sym4 1403 uniform, 1387 exact, 16 at
 * the tick; 95 with changes, 72 exact, max diff 0; juno-r0 1599 / 1596 /
 * 3, 96 / 77, 0; traces/game.json on juno-r0 (5 s) 3896 / 3838 / 58,
 * 164 / 95, max diff 1.
 */
static void sim_replays(const char *text, const char *platform,
			enum clamp_policy pol, double seconds)
{
	struct sim_opts so = { .clamp_policy = pol, .order = CLAMP_ORDER_612,
			       .trace_signals = true };
	struct pelt_replay_opts o = { .split_search = true,
				      .tick_ns = 4000000 };
	struct pelt_replay_result res;
	const struct pelt_replay_stats *a = &res.cls[PELT_REPLAY_UNIFORM];
	const struct pelt_replay_stats *b = &res.cls[PELT_REPLAY_CHANGES];
	FILE *f = tmpfile();
	struct run *r;

	so.duration_ns = (uint64_t)(seconds * 1e9);
	r = run_with(text, platform, &so, f);
	RUN_OK(r);
	rewind(f);
	o.platform = r->pl;
	ck_assert_int_eq(pelt_replay_stream(f, platform, &o, &res), 0);
	pelt_replay_print(stderr, &res);
	ck_assert_uint_gt(a->n, 300);
	ck_assert_uint_gt(b->n, 10);
	ck_assert_uint_eq(a->exact + a->split_at_tick, a->n);
	ck_assert_uint_ge(a->exact * 10, a->n * 9);
	ck_assert_uint_le(b->max_util_diff, 1);
	ck_assert_uint_ge(b->exact * 2, b->n);
	ck_assert_uint_eq(b->exact + b->jitter_explained, b->n);
	ck_assert_uint_eq(res.flags_mismatch, 0);
	run_free(r);
	fclose(f);
}

START_TEST(simulator_trace_sym4)
{
	sim_replays(workload, "sym4", POLICY_NONE, 3);
}
END_TEST

START_TEST(simulator_trace_juno)
{
	sim_replays(workload, "juno-r0", POLICY_NONE, 3);
}
END_TEST

/* migrations, clamping (the rfc policy), four tasks on big.LITTLE */
START_TEST(simulator_trace_game_juno)
{
	char path[4096];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/traces/game.json",
		 getenv("CAPSIM_SRCDIR") ? getenv("CAPSIM_SRCDIR") : ".");
	text = read_file(path, &len);
	ck_assert_msg(text != NULL, "%s", path);
	sim_replays(text, "juno-r0", POLICY_RFC, 5);
	free(text);
}
END_TEST

int main(void)
{
	return check_main("pelt-replay", 300, CHECK_TESTS(
			  sleep_ten_periods_is_exact,
			  uniform_miss_is_counted,
			  change_inside_is_class_b,
			  delayed_dequeue_is_found,
			  kernel_format_and_groups,
			  migration_is_skipped,
			  simulator_trace_sym4,
			  simulator_trace_juno,
			  simulator_trace_game_juno));
}
