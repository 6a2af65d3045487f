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
	struct sim_opts o = { .clamp_policy = POLICY_NONE, .governor_set = true,
			      .governor = { .kind = GOV_USERSPACE, .khz = khz },
			      .duration_ns = NSEC_PER_SEC };
	struct run *r = run_with(text, "sym4", &o, NULL);

	free(text);
	RUN_OK(r);
	ck_assert_int_eq(r->s->nchains, 1);
	chains_close(r->s);
	return r;
}

/*
 * 1 s of 16.667 ms periods: 60 triggers, the last one's deadline after
 * the end (not judged). Frame 0 is lost: both tasks start at 0 and
 * "render" has not reached its first suspend when "ui" resumes it at 2.15
 * ms (rt-app loses that resume too), so render's first completion, at
 * that suspend, did no work for any frame.
 */
START_TEST(frame_latency_at_the_top_opp)
{
	struct run *r = run_frame(16667, 2500000);
	struct chain_run *cr = &r->s->chains[0];

	ck_assert_uint_eq(cr->judged, 59);
	ck_assert_uint_eq(cr->late, 1);
	ck_assert_uint_eq(cr->dropped, 1);
	ck_assert_uint_eq(cr->lost, 1);
	ck_assert(cr->f[0].k == 0 && cr->f[0].lost && !cr->f[0].finished);
	ck_assert_uint_eq(cr->lat.n, 58);
	ck_assert_int_eq(samples_pct(&cr->lat, 50), 5150000);
	ck_assert_int_eq(samples_pct(&cr->lat, 99), 5150000);
	ck_assert_int_eq(samples_max(&cr->lat), 5150000);
	ck_assert(chain_jank_pct(cr) == 100.0 / 59);
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
	/* 5 ms into ui's first run, the tick let render reach its suspend */
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
	struct sim_opts o = { .clamp_policy = POLICY_NONE,
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
	struct sim_opts o = { .clamp_policy = POLICY_NONE, .governor_set = true,
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
	ck_assert_uint_eq(cr->f[0].k, 3);
	ck_assert_int_eq(samples_max(&cr->lat), 5150000);
	run_free(r);
}
END_TEST

/* The workload of the next tests at 2.5 GHz on sym4: "ui" pinned to CPU
 * 0 starts at 1 ms (so "render", on CPU 1, waits by its first resume) */
static struct run *run_fixed(const char *text)
{
	struct sim_opts o = { .clamp_policy = POLICY_NONE, .governor_set = true,
			      .governor = { .kind = GOV_USERSPACE,
					    .khz = 2500000 },
			      .duration_ns = NSEC_PER_SEC };
	struct run *r = run_with(text, "sym4", &o, NULL);

	RUN_OK(r);
	chains_close(r->s);
	return r;
}

/*
 * Render's fourth frame takes 20 ms: at ui's next resume (frame 4, 69.818
 * ms) render is still busy, so that resume finds no waiter and frame 4 is
 * lost; render then waits and frame 5 onwards are its own again, 5.3 ms
 * each. The oldest-open-period rule credited every later completion to
 * the period before (21.967 ms, 56 of 59 late).
 */
static const char overrun_json[] =
	"{ \"global\": { \"duration\": 1 },\n"
	"  \"tasks\": {\n"
	"    \"ui\": { \"loop\": -1, \"cpus\": [0], \"delay\": 1000, \"run\": 2000,\n"
	"              \"resume\": \"render\",\n"
	"              \"timer\": { \"ref\": \"vsync\", \"period\": 16667 } },\n"
	"    \"render\": { \"loop\": 1, \"cpus\": [1], \"phases\": {\n"
	"      \"warm\": { \"loop\": 3, \"suspend\": \"render\", \"run\": 3000 },\n"
	"      \"slow\": { \"loop\": 1, \"suspend\": \"render\", \"run\": 20000 },\n"
	"      \"steady\": { \"loop\": 100, \"suspend\": \"render\", \"run\": 3000 } } } },\n"
	"  \"capsim\": { \"chains\": { \"frame\": { \"tasks\": [\"ui\", \"render\"],\n"
	"    \"period_us\": 16667, \"start\": \"vsync\" } } } }\n";

START_TEST(frame_lost_when_render_overruns)
{
	struct run *r = run_fixed(overrun_json);
	struct chain_run *cr = &r->s->chains[0];
	size_t k;

	ck_assert_uint_eq(cr->judged, 59);
	ck_assert_uint_eq(cr->lost, 1);
	ck_assert_uint_eq(cr->dropped, 1);
	ck_assert_uint_eq(cr->late, 2);		/* frame 3 (22.3 ms), 4 */
	ck_assert(cr->f[4].k == 4 && cr->f[4].lost && !cr->f[4].finished);
	ck_assert_uint_eq(cr->f[4].lost_at, 69818000);
	ck_assert_int_eq(chain_frame_latency(cr, &cr->f[3]), 22300000);
	for (k = 5; k < 59; k++)
		ck_assert_int_eq(chain_frame_latency(cr, &cr->f[k]), 5300000);
	ck_assert_int_eq(samples_pct(&cr->lat, 95), 5300000);
	/* said on the run log (and so in summary.json's warnings) */
	ck_assert_ptr_nonnull(strstr(r->d.log.buf,
		"warning: chain frame: 1 of 59 frames lost (the first, frame 4, at 0.069818 s): \"ui\" resumed \"render\" while it was still busy"));
	run_free(r);
}
END_TEST

/* Each stage's CPU, wake-up, wake-up latency, run time and frequency:
 * frame 1, vsync at 17.667 ms */
START_TEST(frame_stages)
{
	struct run *r = run_fixed(overrun_json);
	struct chain_run *cr = &r->s->chains[0];
	const struct chain_stage *ui = chain_stage_of(cr, 1, 0);
	const struct chain_stage *rd = chain_stage_of(cr, 1, 1);

	/* ui: CPU 0 left its idle state (150 us) for the timer's interrupt,
	 * so the wake-up is late but the switch-in immediate */
	ck_assert(ui->done && ui->cpu == 0);
	ck_assert_uint_eq(ui->wake, 17817000);
	ck_assert_uint_eq(ui->wlat_ns, 0);
	ck_assert_uint_eq(ui->run_ns, 2000000);
	ck_assert_uint_eq(ui->end, 19817000);
	ck_assert(ui->khz == 2500000);
	ck_assert_str_eq(r->s->tasks[ui->task]->name, "ui");
	/* render: woken by the resume, CPU 1's idle exit before it runs */
	ck_assert(rd->done && rd->cpu == 1);
	ck_assert_uint_eq(rd->wake, 19817000);
	ck_assert_uint_eq(rd->wlat_ns, 150000);
	ck_assert_uint_eq(rd->run_ns, 3000000);
	ck_assert_uint_eq(rd->end, 22967000);
	ck_assert(rd->khz == 2500000);
	/* the lost frame: ui worked for it, render never began */
	ck_assert(chain_stage_of(cr, 4, 0)->done);
	ck_assert(!chain_stage_of(cr, 4, 1)->begun);
	run_free(r);
}
END_TEST

/*
 * The first task overruns: ui's fourth run takes 20 ms and passes its
 * timer (frame 4's vsync, 67.668 ms) without sleeping, so frame 4 begins
 * there (71.151 ms, no wake-up); its resume then finds render busy with
 * frame 3 (lost). The relative timer restarts from the pass, so later
 * frames begin 3.483 ms after their vsync, each in its own period.
 */
START_TEST(frame_first_task_overruns)
{
	static const char text[] =
		"{ \"global\": { \"duration\": 1 },\n"
		"  \"tasks\": {\n"
		"    \"ui\": { \"loop\": 1, \"cpus\": [0], \"delay\": 1000, \"phases\": {\n"
		"      \"warm\": { \"loop\": 3, \"run\": 2000, \"resume\": \"render\",\n"
		"                \"timer\": { \"ref\": \"vsync\", \"period\": 16667 } },\n"
		"      \"slow\": { \"loop\": 1, \"run\": 20000, \"resume\": \"render\",\n"
		"                \"timer\": { \"ref\": \"vsync\", \"period\": 16667 } },\n"
		"      \"steady\": { \"loop\": 100, \"run\": 2000, \"resume\": \"render\",\n"
		"                \"timer\": { \"ref\": \"vsync\", \"period\": 16667 } } } },\n"
		"    \"render\": { \"loop\": -1, \"cpus\": [1], \"suspend\": \"render\",\n"
		"                  \"run\": 3000 } },\n"
		"  \"capsim\": { \"chains\": { \"frame\": { \"tasks\": [\"ui\", \"render\"],\n"
		"    \"period_us\": 16667, \"start\": \"vsync\" } } } }\n";
	struct run *r = run_fixed(text);
	struct chain_run *cr = &r->s->chains[0];
	const struct chain_stage *ui4 = chain_stage_of(cr, 4, 0);

	ck_assert_uint_eq(cr->judged, 59);
	ck_assert_uint_eq(cr->lost, 1);
	ck_assert_uint_eq(cr->late, 2);
	ck_assert_uint_eq(cr->f[4].k, 4);
	ck_assert(cr->f[4].lost);
	ck_assert_uint_eq(ui4->wake, 71151000);
	ck_assert_uint_eq(ui4->wlat_ns, 0);
	ck_assert_int_eq(chain_frame_latency(cr, &cr->f[3]), 23300000);
	ck_assert_int_eq(chain_frame_latency(cr, &cr->f[5]), 8783000);
	ck_assert_int_eq(samples_pct(&cr->lat, 50), 8783000);
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("chains", 120, CHECK_TESTS(
			  frame_latency_at_the_top_opp,
			  frame_late_when_slow,
			  frame_never_done_is_late,
			  frame_started_by_its_own_trigger,
			  frame_lost_when_render_overruns,
			  frame_stages,
			  frame_first_task_overruns));
}
