// SPDX-License-Identifier: GPL-2.0
/*
 * capsim.chains (src/sim/chains.c): a frame whose latency is known by
 * construction. On sym4 at a fixed frequency, "ui" wakes at each vsync
 * from the deep idle state (cpu-sleep, exit latency 150 us), runs 2 ms of
 * work, resumes "render" on its own CPU and sleeps; "render" runs 3 ms and
 * suspends. At the top OPP (2.5 GHz, capacity 1024) the frame is done
 * 0.150 + 2 + 3 = 5.150 ms after the vsync; at 1 GHz (capacity 410 of
 * 1024) 0.150 + (2 + 3) * 1024 / 410 = 12.637805 ms (to the ns).
 */
#include "simtest.h"

#include "chains_out.h"

static const char frame_json[] =
	"{ \"global\": { \"duration\": 1 },\n"
	"  \"tasks\": {\n"
	"    \"ui\": { \"loop\": -1, \"cpus\": [0], \"run\": 2000,\n"
	"              \"resume\": \"render\",\n"
	"              \"timer\": { \"ref\": \"vsync\", \"period\": 16667 } },\n"
	"    \"render\": { \"loop\": -1, \"cpus\": [0], \"suspend\": \"render\",\n"
	"                  \"run\": 3000 } },\n"
	"  \"capsim\": { \"chains\": { \"frame\": { \"tasks\": [\"ui\", \"render\"],\n"
	"    \"period_us\": 16667, \"start\": \"vsync\", \"deadline_us\": %d } } } }\n";

/* The frame workload with @deadline_us at the fixed frequency @khz */
static struct run *run_frame(int deadline_us, unsigned int khz)
{
	char *text = xasprintf(frame_json, deadline_us);
	struct sim_opts o = { .clamp_policy = POLICY_NONE, .hz = 250,
			      .nonidle_rule = true, .governor_set = true,
			      .governor = { .kind = GOV_USERSPACE, .khz = khz },
			      .duration_ns = NSEC_PER_SEC };
	struct run *r = run_with(text, "sym4", &o, NULL);

	free(text);
	RUN_OK(r);
	ck_assert_int_eq(r->s->nchains, 1);
	chains_close(r->s);
	return r;
}

/* 1 s of 16.667 ms periods: 60 triggers, the last one's deadline after
 * the end (not judged) */
START_TEST(frame_latency_at_the_top_opp)
{
	struct run *r = run_frame(16667, 2500000);
	struct chain_run *cr = &r->s->chains[0];

	ck_assert_uint_eq(cr->judged, 59);
	ck_assert_uint_eq(cr->late, 0);
	ck_assert_uint_eq(cr->dropped, 0);
	ck_assert_uint_eq(cr->lat.n, 59);
	ck_assert_int_eq(samples_pct(&cr->lat, 50), 5150000);
	ck_assert_int_eq(samples_pct(&cr->lat, 99), 5150000);
	ck_assert_int_eq(samples_max(&cr->lat), 5150000);
	ck_assert(chain_jank_pct(cr) == 0);
	run_free(r);
}
END_TEST

/*
 * Capped to 1 GHz, every frame misses an 8 ms deadline but is done; the
 * 60th trigger (983.35 ms) is judged now, its deadline within the run
 */
START_TEST(frame_late_when_slow)
{
	struct run *r = run_frame(8000, 1000000);
	struct chain_run *cr = &r->s->chains[0];

	ck_assert_uint_eq(cr->judged, 60);
	ck_assert_uint_eq(cr->late, 60);
	ck_assert_uint_eq(cr->dropped, 0);
	ck_assert_int_eq(samples_pct(&cr->lat, 95), 12637805);
	ck_assert(chain_jank_pct(cr) == 100);
	run_free(r);
	/* the same frames against a 12.7 ms deadline: none late */
	r = run_frame(12700, 1000000);
	ck_assert_uint_eq(r->s->chains[0].late, 0);
	run_free(r);
}
END_TEST

/* A chain whose second task never runs: every period dropped, late */
START_TEST(frame_never_done_is_late)
{
	static const char text[] =
		"{ \"global\": { \"duration\": 0.1 },\n"
		"  \"tasks\": {\n"
		"    \"ui\": { \"loop\": -1, \"run\": 1000,\n"
		"              \"timer\": { \"ref\": \"t\", \"period\": 10000 } },\n"
		"    \"stuck\": { \"loop\": -1, \"suspend\": \"never\", \"run\": 10 } },\n"
		"  \"capsim\": { \"chains\": { \"c\": { \"tasks\": [\"ui\", \"stuck\"],\n"
		"    \"period_us\": 10000, \"start\": \"period\" } } } }\n";
	struct sim_opts o = { .clamp_policy = POLICY_NONE, .hz = 250,
			      .nonidle_rule = true,
			      .duration_ns = NSEC_PER_SEC / 10 };
	struct run *r = run_with(text, "sym4", &o, NULL);
	struct chain_run *cr;

	RUN_OK(r);
	chains_close(r->s);
	cr = &r->s->chains[0];
	/* triggers at 0, 10, .. 100 ms; the one at 100 ms is not judged */
	ck_assert_uint_eq(cr->judged, 10);
	ck_assert_uint_eq(cr->late, 10);
	ck_assert_uint_eq(cr->dropped, 10);
	ck_assert_uint_eq(cr->lat.n, 0);
	run_free(r);
}
END_TEST

/*
 * The first task's completion starts the period of the latest trigger
 * before its wake-up, not the oldest one waiting: "ui" starts 3 periods
 * late (delay 50001 us, on the fixed ticks of "period"), so periods 0-2
 * never start (late, dropped) and every later one is on time
 */
START_TEST(frame_started_by_its_own_trigger)
{
	static const char text[] =
		"{ \"global\": { \"duration\": 1 },\n"
		"  \"tasks\": {\n"
		"    \"ui\": { \"loop\": -1, \"cpus\": [0], \"delay\": 50001,\n"
		"              \"run\": 2000, \"resume\": \"render\",\n"
		"              \"timer\": { \"ref\": \"vsync\", \"period\": 16667 } },\n"
		"    \"render\": { \"loop\": -1, \"cpus\": [0], \"suspend\": \"render\",\n"
		"                  \"run\": 3000 } },\n"
		"  \"capsim\": { \"chains\": { \"frame\": { \"tasks\": [\"ui\", \"render\"],\n"
		"    \"period_us\": 16667, \"start\": \"period\" } } } }\n";
	struct sim_opts o = { .clamp_policy = POLICY_NONE, .hz = 250,
			      .nonidle_rule = true, .governor_set = true,
			      .governor = { .kind = GOV_PERFORMANCE },
			      .duration_ns = NSEC_PER_SEC };
	struct run *r = run_with(text, "sym4", &o, NULL);
	struct chain_run *cr;

	RUN_OK(r);
	chains_close(r->s);
	cr = &r->s->chains[0];
	ck_assert_uint_eq(cr->judged, 59);
	ck_assert_uint_eq(cr->late, 3);
	ck_assert_uint_eq(cr->dropped, 3);
	ck_assert_uint_eq(cr->lat.n, 56);
	ck_assert_uint_eq(cr->p[0].k, 3);
	ck_assert_int_eq(samples_max(&cr->lat), 5150000);
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("chains", 120, CHECK_TESTS(
			  frame_latency_at_the_top_opp,
			  frame_late_when_slow,
			  frame_never_done_is_late,
			  frame_started_by_its_own_trigger));
}
