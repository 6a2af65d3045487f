// SPDX-License-Identifier: GPL-2.0
/*
 * PELT (src/sim/pelt.c) alone, against values derived outside the code
 * under test: the geometric series PELT approximates (y^32 = 1/2),
 * numbers worked out by hand from the 6.12 formulas (decay_load(),
 * accumulate_sum(), ___update_load_avg(), post_init_entity_util_avg()),
 * and the time-scaled clock's invariance.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "check_main.h"
#include "pelt.h"

#define US 1024ULL		/* PELT's time unit, in ns */
#define PERIOD (1024 * US)	/* one PELT period, in ns */
#define BOOT (1ULL << 30)

START_TEST(decay_halves_every_32_periods)
{
	/*
	 * y^32 is applied as a shift, then y^0 = 0xffffffff / 2^32 from
	 * the table: 2^20 * (1/2) * (2^32 - 1) / 2^32 = 2^19 - 2^-13, floor
	 * 524287; y^64: 2^18 - 1; past 63 half-lives everything is gone.
	 */
	ck_assert_uint_eq(pelt_decay_load(1u << 20, 32), 524287);
	ck_assert_uint_eq(pelt_decay_load(1u << 20, 64), 262143);
	ck_assert_uint_eq(pelt_decay_load(UINT64_MAX, 32 * 63 + 1), 0);
	/* y^1 of 47742 (LOAD_AVG_MAX) is LOAD_AVG_MAX - 1024, less rounding */
	ck_assert_uint_eq(pelt_decay_load(47742, 1), 46718);
	/* every n < 32: within one unit of 10^6 * 0.5^(n/32) */
	for (int n = 0; n < 32; n++) {
		double want = 1e6 * pow(0.5, n / 32.0);

		ck_assert(fabs((double)pelt_decay_load(1000000, n) - want) <= 1.0);
	}
}
END_TEST

START_TEST(blocked_signal_halves_in_32_ms)
{
	struct pelt_avg sa = { .last_update_time = BOOT };
	unsigned long full;

	/* run 1 s (about 30 half-lives): saturated */
	pelt_update_se(BOOT + 1000 * PERIOD, &sa, true, true, 1024);
	full = sa.util_avg;
	ck_assert_uint_ge(full, 1020);
	/* 32 periods asleep, period-aligned: half, to the unit */
	pelt_update_blocked_se(BOOT + 1032 * PERIOD, &sa, 1024);
	ck_assert(labs((long)sa.util_avg - (long)full / 2) <= 1);
}
END_TEST

/*
 * A task running r of every p periods (period-aligned) converges to
 * the series' bounds: peak 1024 (1 - y^r) / (1 - y^p) at the end of a
 * run, trough peak * y^(p - r) at the end of a sleep.
 */
static void periodic_bounds(int r, int p)
{
	double y = pow(0.5, 1 / 32.0);
	double peak = 1024 * (1 - pow(y, r)) / (1 - pow(y, p));
	double trough = peak * pow(y, p - r);
	struct pelt_avg sa = { .last_update_time = BOOT };
	uint64_t t = BOOT;
	unsigned long hi = 0, lo = 0;

	for (int i = 0; i < 4000 / p; i++) {
		t += (uint64_t)r * PERIOD;
		pelt_update_se(t, &sa, true, true, 1024);
		hi = sa.util_avg;
		t += (uint64_t)(p - r) * PERIOD;
		pelt_update_se(t, &sa, false, false, 1024);
		lo = sa.util_avg;
	}
	/* integer truncation only ever takes away, a few units at most */
	ck_assert_msg(hi <= peak + 0.5 && hi >= peak - 3,
		      "r=%d p=%d peak %lu, series %.1f", r, p, hi, peak);
	ck_assert_msg(lo <= trough + 0.5 && lo >= trough - 3,
		      "r=%d p=%d trough %lu, series %.1f", r, p, lo, trough);
}

START_TEST(periodic_task_converges_to_the_series)
{
	periodic_bounds(4, 16);
	periodic_bounds(8, 16);
	periodic_bounds(1, 10);
	periodic_bounds(30, 32);
}
END_TEST

/*
 * One entity (weight 1024) stepped by hand through 6.12's arithmetic; the
 * numbers were worked out separately from the kernel's formulas (a
 * Python transcription of decay_load()/accumulate_sum()/
 * ___update_load_avg() with the table of sched-pelt.h):
 *  +1000 us running: no period crossed, sums 1000 (<<10), avg untouched;
 *  +3072500 ns running: 2000 units, 2 periods: d1 = 24 decayed twice,
 *    c2 = 47742 - decay(47742, 2) - 1024, d3 = 952, avg = sum / 47670;
 *  +10 ms asleep, +50 ms running, +51 ms queued not running, +400 ms
 *    asleep: see the table.
 */
START_TEST(hand_stepped_sequence_matches_612)
{
	static const struct {
		uint64_t at, lut;
		bool on_rq, running;
		uint32_t pc, util_sum;
		uint64_t runnable_sum, load_sum;
		unsigned long util, runnable, load;
	} step[] = {
		{ 1024000, 1024000, 1, 1, 1000, 1024000, 1024000, 1000, 0, 0, 0 },
		{ 3072500, 3072000, 1, 1, 952, 3002985, 3002985, 2932, 62, 62, 62 },
		{ 10000000, 9999360, 0, 0, 549, 2580493, 2580493, 2519, 54, 54, 54 },
		{ 50000000, 49999872, 1, 1, 700, 28437958, 28437958, 27770, 599, 599, 599 },
		{ 51000000, 50999296, 1, 0, 652, 27828591, 28820847, 28143, 587, 608, 608 },
		{ 400000000, 400000000, 0, 0, 481, 20506, 21237, 20, 0, 0, 0 },
	};
	struct pelt_avg sa = { .last_update_time = BOOT };

	for (unsigned int i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		pelt_update_se(BOOT + step[i].at, &sa, step[i].on_rq,
			       step[i].running, 1024);
		ck_assert_uint_eq(sa.last_update_time - BOOT, step[i].lut);
		ck_assert_uint_eq(sa.period_contrib, step[i].pc);
		ck_assert_uint_eq(sa.util_sum, step[i].util_sum);
		ck_assert_uint_eq(sa.runnable_sum, step[i].runnable_sum);
		ck_assert_uint_eq(sa.load_sum, step[i].load_sum);
		ck_assert_uint_eq(sa.util_avg, step[i].util);
		ck_assert_uint_eq(sa.runnable_avg, step[i].runnable);
		ck_assert_uint_eq(sa.load_avg, step[i].load);
	}
}
END_TEST

/*
 * The same work at half the frequency: 4 ms of every 16 at full speed,
 * or 8 ms at half speed. The PELT clock runs at half rate while busy
 * and syncs to clock_task at idle (update_idle_rq_clock_pelt()), so the
 * signal sees the same 4 ms of running and the same 12 ms of idle, and
 * ends every cycle at the same value, to the unit.
 */
static unsigned long cycle_util(unsigned long freq, uint64_t busy_ns,
				int cycles, unsigned long *mid)
{
	struct pelt_clock clk = { BOOT, BOOT, 0 };
	struct pelt_avg rq = { .last_update_time = BOOT };

	for (int i = 0; i < cycles; i++) {
		/* wake-up: the idle rq syncs, the class starts running */
		pelt_clock_update(&clk, 0, true, 1024, freq);
		pelt_update_class_rq(pelt_clock_now(&clk), &rq, false);
		pelt_clock_update(&clk, busy_ns, false, 1024, freq);
		/* put_prev: the run is accounted, then the idle sync */
		pelt_update_class_rq(pelt_clock_now(&clk), &rq, true);
		pelt_clock_idle(&clk, 0, rq.util_sum, 0);
		pelt_clock_update(&clk, 16000000 - busy_ns, true, 1024, freq);
		*mid = rq.util_avg;
	}
	pelt_update_class_rq(pelt_clock_now(&clk), &rq, false);
	ck_assert_uint_eq(clk.clock_task, BOOT + (uint64_t)cycles * 16000000);
	return rq.util_avg;
}

START_TEST(half_frequency_same_util_after_idle_sync)
{
	unsigned long mid_full, mid_half;
	unsigned long full = cycle_util(1024, 4000000, 40, &mid_full);
	unsigned long half = cycle_util(512, 8000000, 40, &mid_half);

	ck_assert_uint_eq(full, half);
	ck_assert_uint_eq(mid_full, mid_half);
	/* and it is the 4-of-16 ms duty cycle's level, not 8-of-16's */
	ck_assert_uint_lt(mid_full, 400);
	ck_assert_uint_gt(mid_full, 200);
}
END_TEST

START_TEST(saturated_rq_loses_its_idle_time)
{
	struct pelt_clock clk = { BOOT, BOOT, 0 };
	struct pelt_avg rq = { .last_update_time = BOOT };
	uint64_t stolen;

	/* 2 s always running at half frequency: util_sum at its maximum */
	for (int i = 0; i < 2000; i++) {
		pelt_clock_update(&clk, 1000000, false, 1024, 512);
		pelt_update_class_rq(pelt_clock_now(&clk), &rq, true);
	}
	stolen = clk.clock_task - clk.clock_pelt;
	ck_assert_uint_eq(stolen, 1000000000);
	pelt_clock_idle(&clk, 0, rq.util_sum, 0);
	ck_assert_uint_eq(clk.lost_idle_time, stolen);
	ck_assert_uint_eq(pelt_clock_now(&clk), clk.clock_task - stolen);
	/* a rq that was not saturated gives its stolen time back */
	clk = (struct pelt_clock){ BOOT, BOOT, 0 };
	pelt_clock_update(&clk, 1000000, false, 1024, 512);
	pelt_clock_idle(&clk, 0, 1000, 0);
	ck_assert_uint_eq(clk.lost_idle_time, 0);
	ck_assert_uint_eq(pelt_clock_now(&clk), BOOT + 1000000);
}
END_TEST

/*
 * post_init_entity_util_avg(): the kernel comment's series on a 1024 CPU
 * (512, 256, 128: half the spare capacity each), a LITTLE CPU's half of
 * 446, and the util-per-load estimate winning below the cap:
 * 200 * 1024 / (2048 + 1) = 99.95, floor 99.
 */
START_TEST(new_task_initial_util)
{
	struct pelt_avg rq = { .last_update_time = BOOT }, se[3];
	static const unsigned long want[3] = { 512, 256, 128 };

	for (int i = 0; i < 3; i++) {
		pelt_init_entity(&se[i], 1024);
		ck_assert_uint_eq(se[i].load_avg, 1024);
		pelt_post_init(&se[i], &rq, 1024, 1024);
		ck_assert_uint_eq(se[i].util_avg, want[i]);
		ck_assert_uint_eq(se[i].runnable_avg, want[i]);
		pelt_attach(&rq, &se[i], 1024);
		ck_assert_uint_eq(se[i].last_update_time, BOOT);
	}
	ck_assert_uint_eq(rq.util_avg, 896);
	ck_assert_uint_eq(rq.load_avg, 3072);

	rq = (struct pelt_avg){ .last_update_time = BOOT };
	pelt_init_entity(&se[0], 1024);
	pelt_post_init(&se[0], &rq, 446, 1024);
	ck_assert_uint_eq(se[0].util_avg, 223);

	rq = (struct pelt_avg){ .util_avg = 200, .load_avg = 2048 };
	pelt_init_entity(&se[0], 1024);
	pelt_post_init(&se[0], &rq, 1024, 1024);
	ck_assert_uint_eq(se[0].util_avg, 99);
	/* a full CPU leaves no spare: the task starts at 0 */
	rq = (struct pelt_avg){ .util_avg = 1024, .load_avg = 1024 };
	pelt_init_entity(&se[0], 1024);
	pelt_post_init(&se[0], &rq, 1024, 1024);
	ck_assert_uint_eq(se[0].util_avg, 0);
}
END_TEST

/* Attach then detach leaves the queue as it was; removal is deferred */
START_TEST(attach_detach_and_removed)
{
	struct pelt_avg rq = { .last_update_time = BOOT + 5 * US,
			       .period_contrib = 5 };
	struct pelt_avg se = { .util_avg = 300, .runnable_avg = 300,
			       .load_avg = 1024 };
	struct pelt_removed rm = { 0 };

	pelt_attach(&rq, &se, 1024);
	/* the sums rebuilt with the queue's divider 46718 + 5 */
	ck_assert_uint_eq(se.util_sum, 300u * 46723);
	ck_assert_uint_eq(se.load_sum, 46723);
	ck_assert_uint_eq(se.period_contrib, 5);
	ck_assert_uint_eq(rq.util_avg, 300);
	pelt_detach(&rq, &se, 1024);
	ck_assert_uint_eq(rq.util_avg, 0);
	ck_assert_uint_eq(rq.util_sum, 0);
	ck_assert_uint_eq(rq.load_avg, 0);

	pelt_attach(&rq, &se, 1024);
	pelt_remove(&rm, &se);
	ck_assert_uint_eq(rq.util_avg, 300);	/* not until the update */
	ck_assert(pelt_update_cfs_rq(rq.last_update_time, &rq, &rm, 0, 0,
				     false));
	ck_assert_uint_eq(rq.util_avg, 0);
	ck_assert_int_eq(rm.nr, 0);
}
END_TEST

/*
 * util_est_update() (6.12), by hand: a fall moves a quarter of the way,
 * ewma' = (4 ewma - (ewma - util)) / 4: 600 -> 200 gives 500, and with
 * util 0 next, 500 -> 375; a rise is taken at once; the 1% margin (10),
 * a task that waited (runnable > util + 10) and one above the CPU's
 * capacity keep their estimate; UTIL_AVG_UNCHANGED stops a second
 * update until util_avg is recomputed.
 */
START_TEST(util_est_rules)
{
	struct pelt_avg se = { .util_est = 600, .util_avg = 200,
			       .runnable_avg = 200,
			       .last_update_time = BOOT };

	pelt_util_est_update(&se, 1024);
	ck_assert_uint_eq(se.util_est, 500 | PELT_UTIL_AVG_UNCHANGED);
	ck_assert_uint_eq(pelt_task_util_est(&se), 500);
	se.util_avg = 0;		/* not recomputed: the flag holds */
	pelt_util_est_update(&se, 1024);
	ck_assert_uint_eq(pelt_task_util_est(&se), 500);
	/* a period crossed: util_avg recomputed (to 0), the flag cleared */
	ck_assert(pelt_update_se(BOOT + 2 * PERIOD, &se, false, false, 1024));
	ck_assert_uint_eq(se.util_avg, 0);
	ck_assert_uint_eq(se.util_est, 500);
	se.runnable_avg = 0;
	pelt_util_est_update(&se, 1024);
	ck_assert_uint_eq(pelt_task_util_est(&se), 375);

	se = (struct pelt_avg){ .util_est = 200, .util_avg = 600 };
	pelt_util_est_update(&se, 1024);
	ck_assert_uint_eq(se.util_est, 600 | PELT_UTIL_AVG_UNCHANGED);
	se = (struct pelt_avg){ .util_est = 605, .util_avg = 600 };
	pelt_util_est_update(&se, 1024);
	ck_assert_uint_eq(se.util_est, 605 | PELT_UTIL_AVG_UNCHANGED);
	se = (struct pelt_avg){ .util_est = 600, .util_avg = 200,
				.runnable_avg = 300 };
	pelt_util_est_update(&se, 1024);
	ck_assert_uint_eq(se.util_est, 600 | PELT_UTIL_AVG_UNCHANGED);
	se = (struct pelt_avg){ .util_est = 900, .util_avg = 500,
				.runnable_avg = 500 };
	pelt_util_est_update(&se, 446);
	ck_assert_uint_eq(se.util_est, 900);
}
END_TEST

/* The queue's estimate: a sum, never below 0 (util_est_dequeue()) */
START_TEST(util_est_queue_sum)
{
	struct pelt_avg rq = { 0 };
	struct pelt_avg a = { .util_est = 500 | PELT_UTIL_AVG_UNCHANGED };
	struct pelt_avg b = { .util_est = 300 };

	pelt_util_est_enqueue(&rq, &a);
	pelt_util_est_enqueue(&rq, &b);
	ck_assert_uint_eq(rq.util_est, 800);
	pelt_util_est_dequeue(&rq, &a);
	ck_assert_uint_eq(rq.util_est, 300);
	b.util_est = 400;	/* it grew while queued: the sum stops at 0 */
	pelt_util_est_dequeue(&rq, &b);
	ck_assert_uint_eq(rq.util_est, 0);
}
END_TEST

int main(void)
{
	return check_main("pelt", 60, CHECK_TESTS(
			  decay_halves_every_32_periods,
			  blocked_signal_halves_in_32_ms,
			  periodic_task_converges_to_the_series,
			  hand_stepped_sequence_matches_612,
			  half_frequency_same_util_after_idle_sync,
			  saturated_rq_loses_its_idle_time,
			  new_task_initial_util,
			  attach_detach_and_removed,
			  util_est_rules,
			  util_est_queue_sum));
}
