// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel knobs (docs/knobs.md): each changes what it stands for and
 * nothing else, and each is checked like every capsim key (a typo is an
 * error with the key meant, a value out of range names the field and the
 * range). The governor's rules alone first (schedutil.c, expected values
 * worked out by hand), then whole runs through the command line, compared
 * with the same run without the knob.
 */
#include <jansson.h>

#include "clitest.h"
#include "check_main_tmpdir.h"
#include "schedutil.h"

/* sym4's OPPs: 0.5 to 2.5 GHz, scale 1024 */
static const unsigned int khz[] = { 500000, 1000000, 1500000, 2000000,
				    2500000 };

static struct sugov_params params(uint64_t up_ns, uint64_t down_ns)
{
	struct sugov_params p = {
		.rate_limit_ns = up_ns < down_ns ? up_ns : down_ns,
		.up_rate_limit_ns = up_ns, .down_rate_limit_ns = down_ns,
		.tick_ns = 4000000, .opp_khz = khz, .nopps = 5 };

	return p;
}

/* two idle-free CPUs of one policy (a shared policy never holds) */
static struct sugov_input two_cpus(struct sugov_cpu_input *c,
				   unsigned long util)
{
	struct sugov_input in = { .order = CLAMP_ORDER_612, .scale = 1024,
				  .max_khz = 2500000, .ncpus = 2, .cpu = c };

	c[0] = (struct sugov_cpu_input){ .util_cfs = util, .rt_floor = 1024,
					 .clamp = { 0, 1024 } };
	c[1] = (struct sugov_cpu_input){ .rt_floor = 1024,
					 .clamp = { 0, 1024 } };
	return in;
}

/* One shared policy's governor, its inputs and its last decision */
struct gov {
	struct sugov_params p;
	struct sugov_cpu_input c[2];
	struct sugov_input in;
	struct sugov_state st;
	struct sugov_decision d;
};

static void gov_init(struct gov *g, uint64_t up_ns, uint64_t down_ns,
		     unsigned long util)
{
	g->p = params(up_ns, down_ns);
	g->in = two_cpus(g->c, util);
	g->st = (struct sugov_state){ 0 };
}

/* A decision at @now: true when the frequency changes (g->d.opp) */
static bool gov_update(struct gov *g, uint64_t now)
{
	return sugov_update(&g->st, &g->p, &g->in, 0, now, &g->d);
}

START_TEST(headroom_default_is_the_kernels)
{
	unsigned long u;

	/* 0 (not given) and 1.250 are both util + util / 4 */
	for (u = 0; u <= 1024; u++) {
		ck_assert_uint_eq(map_util_perf(u, 0), u + u / 4);
		ck_assert_uint_eq(map_util_perf(u, 1250), u + u / 4);
	}
	ck_assert_uint_eq(map_util_perf(400, 1000), 400);
	ck_assert_uint_eq(map_util_perf(400, 1500), 600);
}
END_TEST

START_TEST(headroom_one_lowers_the_opp)
{
	struct gov g;

	/* 400 * 1.25 = 500 -> 1.22 GHz -> the 1.5 GHz OPP */
	gov_init(&g, 0, 0, 400);
	ck_assert(gov_update(&g, 0));
	ck_assert_int_eq(g.d.opp, 2);
	/* 400 * 1.0 -> 0.977 GHz -> the 1 GHz OPP */
	gov_init(&g, 0, 0, 400);
	g.c[0].headroom_pm = g.c[1].headroom_pm = 1000;
	ck_assert(gov_update(&g, 0));
	ck_assert_int_eq(g.d.opp, 1);
	ck_assert_uint_eq(g.d.out.perf, 400);
}
END_TEST

/*
 * Android's separate limits, one of them 20 ms and the other 1 ms: a
 * change in the limited direction waits 20 ms from the last change, one
 * in the other direction is taken at once.
 */
static void check_direction_limit(bool up_limited)
{
	const uint64_t lim = 20000000, other = 1000000;
	/* the utilizations that move from 400 (OPP 2) each way */
	unsigned long held = up_limited ? 1000 : 0, taken = up_limited ? 0 : 1000;
	struct gov g;

	gov_init(&g, up_limited ? lim : other, up_limited ? other : lim, 400);
	ck_assert(gov_update(&g, 0));
	ck_assert_int_eq(g.d.opp, 2);
	/* the smaller limit gates evaluation (min_rate_limit_ns) */
	ck_assert(!sugov_should_update(&g.st, &g.p, other - 1));
	ck_assert(sugov_should_update(&g.st, &g.p, other));
	/* the limited way, 2 ms after the change: dropped, the cache is
	 * next_opp's (400 * 1.25 -> 1 220 703 kHz) */
	g.c[0].util_cfs = held;
	ck_assert(!gov_update(&g, 2000000));
	ck_assert_int_eq(g.st.next_opp, 2);
	ck_assert_uint_eq(g.st.cached_raw_khz, 1220703);
	/* the other way, at the same time: taken at once */
	g.c[0].util_cfs = taken;
	ck_assert(gov_update(&g, 2000000));
	ck_assert_int_eq(g.d.opp, up_limited ? 0 : 4);
	/* the limited way again: held until 20 ms after that change */
	g.c[0].util_cfs = held;
	ck_assert(!gov_update(&g, 2000000 + lim - 1));
	ck_assert(gov_update(&g, 2000000 + lim));
	ck_assert_int_eq(g.d.opp, up_limited ? 4 : 0);
}

START_TEST(down_limit_delays_only_decreases)
{
	check_direction_limit(false);
}
END_TEST

START_TEST(up_limit_delays_only_increases)
{
	check_direction_limit(true);
}
END_TEST

/* A limits change passes the direction limits, as mainline's rate limit */
START_TEST(limits_change_passes_the_direction_limits)
{
	struct gov g;

	gov_init(&g, 1000000, 20000000, 400);
	ck_assert(gov_update(&g, 0));
	g.c[0].util_cfs = 0;
	g.st.limits_changed = true;
	ck_assert(sugov_should_update(&g.st, &g.p, 10));
	ck_assert(gov_update(&g, 10));
	ck_assert_int_eq(g.d.opp, 0);
}
END_TEST

START_TEST(iowait_boost_off_never_boosts)
{
	struct sugov_params on = params(0, 0), off = params(0, 0);
	struct sugov_cpu_state a = { 0 }, b = { 0 };

	off.iowait_boost_off = true;
	sugov_iowait_boost(&a, &on, 1000, true);
	sugov_iowait_boost(&b, &off, 1000, true);
	ck_assert_uint_eq(sugov_iowait_apply(&a, &on, 1000, 1024), 128);
	ck_assert_uint_eq(sugov_iowait_apply(&b, &off, 1000, 1024), 0);
	ck_assert_uint_eq(b.iowait_boost, 0);
}
END_TEST

/*
 * Whole runs. A periodic task on sym4, 2 s; @knob goes into its capsim
 * object, @plat_knob next to the platform domain's rate_limit_us.
 */
#define TASK_RUN "\"t\": { \"loop\": -1, \"run\": 3000, \"sleep\": 7000 }"
/* five short I/O waits in a row: the boost doubles each time */
#define TASK_IO "\"t\": { \"loop\": -1, \"iorun\": 40000, \"run\": 200, " \
	"\"iorun1\": 40000, \"run1\": 200, \"iorun2\": 40000, \"run2\": 200, " \
	"\"iorun3\": 40000, \"run3\": 200, \"iorun4\": 40000, \"run4\": 200, " \
	"\"sleep\": 10000 }"

static void put_platform(const char *plat_knob)
{
	char *w = xasprintf(
		"{ \"name\": \"p\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 0 },\n"
		"  { \"id\": 1, \"capacity\": 1024, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [0, 1], \"rate_limit_us\": 1000, %s\n"
		"    \"opps\": [ { \"khz\": 500000, \"capacity\": 205, \"power_mw\": 60 },\n"
		"      { \"khz\": 1000000, \"capacity\": 410, \"power_mw\": 160 },\n"
		"      { \"khz\": 1500000, \"capacity\": 614, \"power_mw\": 320 },\n"
		"      { \"khz\": 2000000, \"capacity\": 819, \"power_mw\": 560 },\n"
		"      { \"khz\": 2500000, \"capacity\": 1024, \"power_mw\": 900 } ] } ] }\n",
		plat_knob);

	put_file("p.json", w);
	free(w);
}

static void put_workload(const char *task, const char *knob)
{
	char *w = xasprintf("{ \"global\": { \"duration\": 2 },\n"
			    "  \"tasks\": { %s },\n"
			    "  \"capsim\": { %s \"description\": \"knobs\" } }\n",
			    task, knob);

	put_file("w.json", w);
	free(w);
}

/* The summary of a run of w.json on p.json, with @extra (or NULL) */
static json_t *run_summary(const char *extra, const char *extra2)
{
	json_error_t e;
	json_t *sum;
	int rc;
	char *err;

	remove_run_dir("o");
	err = cli_stderr(&rc, "run", "w.json", "--platform", "p.json", "-o",
			 "o", "--quiet", extra, extra2, NULL);
	ck_assert_msg(rc == 0, "run exit %d: %s", rc, err);
	free(err);
	sum = json_load_file("o/summary.json", 0, &e);
	ck_assert_msg(sum, "o/summary.json: %s", e.text);
	return sum;
}

static double dom_num(json_t *sum, const char *key)
{
	json_t *d = json_array_get(json_object_get(sum, "domains"), 0);

	return json_number_value(json_object_get(d, key));
}

/* avg_khz and transitions of domain 0 with @knob/@plat_knob and without */
static void compare_runs(const char *task, const char *knob,
			 const char *plat_knob, double *khz_base,
			 double *khz_knob, double *tr_base, double *tr_knob)
{
	json_t *s;

	put_platform("");
	put_workload(task, "");
	s = run_summary(NULL, NULL);
	*khz_base = dom_num(s, "avg_khz");
	*tr_base = dom_num(s, "transitions");
	json_decref(s);
	put_platform(plat_knob);
	put_workload(task, knob);
	s = run_summary(NULL, NULL);
	*khz_knob = dom_num(s, "avg_khz");
	*tr_knob = dom_num(s, "transitions");
	json_decref(s);
}

/* @knob/@plat_knob written at their defaults: the default's run exactly */
static void expect_default_run(const char *task, const char *knob,
			       const char *plat_knob)
{
	double kb, kk, tb, tk;

	compare_runs(task, knob, plat_knob, &kb, &kk, &tb, &tk);
	ck_assert_msg(kk == kb && tk == tb, "%s%s: %.0f/%.0f kHz, %.0f/%.0f changes",
		      knob, plat_knob, kk, kb, tk, tb);
}

START_TEST(run_headroom)
{
	double kb, kk, tb, tk;

	compare_runs(TASK_RUN, "\"dvfs_headroom\": 1.0,", "", &kb, &kk, &tb,
		     &tk);
	ck_assert_msg(kk < kb, "headroom 1.0: %.0f kHz, default %.0f", kk, kb);
	/* 1.25 written out is the default exactly */
	expect_default_run(TASK_RUN, "\"dvfs_headroom\": 1.25,", "");
}
END_TEST

START_TEST(run_rate_limits)
{
	double kb, kk, tb, tk;

	/* decreases wait 20 ms: fewer changes, a higher mean frequency */
	compare_runs(TASK_RUN, "", "\"down_rate_limit_us\": 20000,", &kb, &kk,
		     &tb, &tk);
	ck_assert_msg(tk < tb && kk > kb, "down limit: %.0f/%.0f kHz, %.0f/%.0f changes",
		      kk, kb, tk, tb);
	/* increases wait 20 ms: fewer changes, a lower mean frequency */
	compare_runs(TASK_RUN, "", "\"up_rate_limit_us\": 20000,", &kb, &kk,
		     &tb, &tk);
	ck_assert_msg(tk < tb && kk < kb, "up limit: %.0f/%.0f kHz, %.0f/%.0f changes",
		      kk, kb, tk, tb);
	/* both given as rate_limit_us: mainline's run */
	expect_default_run(TASK_RUN, "",
			   "\"up_rate_limit_us\": 1000, \"down_rate_limit_us\": 1000,");
}
END_TEST

START_TEST(run_iowait_boost)
{
	double kb, kk, tb, tk, k0, t0;

	compare_runs(TASK_IO, "\"iowait_boost\": false,", "", &kb, &kk, &tb,
		     &tk);
	ck_assert_msg(kk < kb, "no iowait boost: %.0f kHz, default %.0f", kk,
		      kb);
	/* 0 is false, 1 is true (a sweep's numbers) */
	compare_runs(TASK_IO, "\"iowait_boost\": 0,", "", &kb, &k0, &tb,
		     &t0);
	ck_assert(k0 == kk && t0 == tk);
	expect_default_run(TASK_IO, "\"iowait_boost\": 1,", "");
}
END_TEST

/* UTIL_EST off: no estimate ever traced, and the frequency follows
 * util_avg alone (lower for a task that sleeps between runs) */
START_TEST(run_util_est)
{
	double kb, kk, tb, tk;
	size_t len;
	char *tr;
	json_t *s;

	compare_runs(TASK_RUN, "\"util_est\": false,", "", &kb, &kk, &tb, &tk);
	ck_assert_msg(kk < kb, "no util_est: %.0f kHz, default %.0f", kk, kb);
	s = run_summary("--trace-signals", NULL);
	json_decref(s);
	tr = slurp_file("o/trace.txt", &len);
	ck_assert_ptr_null(strstr(tr, "lisa__sched_util_est"));
	ck_assert_ptr_nonnull(strstr(tr, "lisa__sched_pelt_se"));
	free(tr);
	put_workload(TASK_RUN, "");
	s = run_summary("--trace-signals", NULL);
	json_decref(s);
	tr = slurp_file("o/trace.txt", &len);
	ck_assert_ptr_nonnull(strstr(tr, "lisa__sched_util_est_cfs"));
	free(tr);
}
END_TEST

START_TEST(run_hz)
{
	json_t *s;

	put_platform("");
	put_workload(TASK_RUN, "\"hz\": 1000,");
	s = run_summary(NULL, NULL);
	ck_assert_int_eq(json_integer_value(json_object_get(s, "hz")), 1000);
	json_decref(s);
	/* the option wins over the workload */
	s = run_summary("--hz", "100");
	ck_assert_int_eq(json_integer_value(json_object_get(s, "hz")), 100);
	json_decref(s);
}
END_TEST

/* validate w.json on p.json: exit status 2 and @want in its stderr */
static void expect_invalid(const char *want)
{
	int rc;
	char *err = cli_stderr(&rc, "validate", "--platform", "p.json",
			       "w.json", NULL);

	ck_assert_msg(rc == 2, "exit %d for %s", rc, want);
	ck_assert_msg(strstr(err, want), "expected \"%s\" in:\n%s", want, err);
	free(err);
}

static void bad_knob(const char *knob, const char *want)
{
	put_platform("");
	put_workload(TASK_RUN, knob);
	expect_invalid(want);
}

static void bad_platform_knob(const char *knob, const char *want)
{
	put_platform(knob);
	put_workload(TASK_RUN, "");
	expect_invalid(want);
}

START_TEST(typos_and_ranges)
{
	bad_knob("\"dvfs_headrom\": 1,",
		 "capsim.dvfs_headrom: unknown key \"dvfs_headrom\": did you mean \"dvfs_headroom\"?");
	bad_knob("\"utilest\": false,",
		 "unknown key \"utilest\": did you mean \"util_est\"?");
	bad_knob("\"dvfs_headroom\": 0.8,",
		 "capsim.dvfs_headroom: 0.8 is out of range: allowed [1, 4]");
	bad_knob("\"dvfs_headroom\": \"1.25\",",
		 "capsim.dvfs_headroom: \"1.25\" is not a number: allowed [1, 4]");
	bad_knob("\"hz\": 5,",
		 "capsim.hz: 5 is out of range: allowed [10, 10000]");
	bad_knob("\"util_est\": 2,",
		 "capsim.util_est: 2 is not a switch: allowed true, false, 1, 0");
	bad_knob("\"iowait_boost\": \"off\",",
		 "capsim.iowait_boost: \"off\" is not a switch: allowed true, false, 1, 0");
	bad_platform_knob("\"down_rate_limt_us\": 5000,",
			  "domains[0].down_rate_limt_us: unknown key \"down_rate_limt_us\": did you mean \"down_rate_limit_us\"?");
	bad_platform_knob("\"up_rate_limit_us\": 20000000,",
			  "domains[0].up_rate_limit_us: 20000000 is out of range: allowed [0, 10000000]");
}
END_TEST

int main(void)
{
	return check_main_in_tmpdir("knobs", 300, CHECK_TESTS(
		headroom_default_is_the_kernels,
		headroom_one_lowers_the_opp,
		down_limit_delays_only_decreases,
		up_limit_delays_only_increases,
		limits_change_passes_the_direction_limits,
		iowait_boost_off_never_boosts,
		run_headroom,
		run_rate_limits,
		run_iowait_boost,
		run_util_est,
		run_hz,
		typos_and_ranges));
}
