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
	struct sugov_params p = params(0, 0);
	struct sugov_cpu_input c[2];
	struct sugov_input in = two_cpus(c, 400);
	struct sugov_state st = { 0 };
	struct sugov_decision d;

	/* 400 * 1.25 = 500 -> 1.22 GHz -> the 1.5 GHz OPP */
	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	ck_assert_int_eq(d.opp, 2);
	/* 400 * 1.0 -> 0.977 GHz -> the 1 GHz OPP */
	st = (struct sugov_state){ 0 };
	c[0].headroom_pm = c[1].headroom_pm = 1000;
	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	ck_assert_int_eq(d.opp, 1);
	ck_assert_uint_eq(d.out.perf, 400);
}
END_TEST

/* Android's down_rate_limit_us: a decrease waits, an increase does not */
START_TEST(down_limit_delays_only_decreases)
{
	struct sugov_params p = params(1000000, 20000000);
	struct sugov_cpu_input c[2];
	struct sugov_input in = two_cpus(c, 400);
	struct sugov_state st = { 0 };
	struct sugov_decision d;

	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	ck_assert_int_eq(d.opp, 2);
	/* the smaller limit gates evaluation (min_rate_limit_ns) */
	ck_assert(!sugov_should_update(&st, &p, 999999));
	ck_assert(sugov_should_update(&st, &p, 1000000));
	/* down, 2 ms after the change: dropped, the cache is next_opp's */
	c[0].util_cfs = 0;
	ck_assert(!sugov_update(&st, &p, &in, 0, 2000000, &d));
	ck_assert_int_eq(st.next_opp, 2);
	ck_assert_uint_eq(st.cached_raw_khz, 1220703);
	/* up, at the same time: taken at once */
	c[0].util_cfs = 1000;
	ck_assert(sugov_update(&st, &p, &in, 0, 2000000, &d));
	ck_assert_int_eq(d.opp, 4);
	/* down again 19.999 ms after that change: still held */
	c[0].util_cfs = 0;
	ck_assert(!sugov_update(&st, &p, &in, 0, 21999999, &d));
	ck_assert(sugov_update(&st, &p, &in, 0, 22000000, &d));
	ck_assert_int_eq(d.opp, 0);
}
END_TEST

START_TEST(up_limit_delays_only_increases)
{
	struct sugov_params p = params(20000000, 1000000);
	struct sugov_cpu_input c[2];
	struct sugov_input in = two_cpus(c, 400);
	struct sugov_state st = { 0 };
	struct sugov_decision d;

	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	c[0].util_cfs = 1000;
	ck_assert(!sugov_update(&st, &p, &in, 0, 5000000, &d));
	ck_assert_int_eq(st.next_opp, 2);
	c[0].util_cfs = 0;
	ck_assert(sugov_update(&st, &p, &in, 0, 5000000, &d));
	ck_assert_int_eq(d.opp, 0);
	c[0].util_cfs = 1000;
	ck_assert(!sugov_update(&st, &p, &in, 0, 24999999, &d));
	ck_assert(sugov_update(&st, &p, &in, 0, 25000000, &d));
	ck_assert_int_eq(d.opp, 4);
}
END_TEST

/* A limits change passes the direction limits, as mainline's rate limit */
START_TEST(limits_change_passes_the_direction_limits)
{
	struct sugov_params p = params(1000000, 20000000);
	struct sugov_cpu_input c[2];
	struct sugov_input in = two_cpus(c, 400);
	struct sugov_state st = { 0 };
	struct sugov_decision d;

	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	c[0].util_cfs = 0;
	st.limits_changed = true;
	ck_assert(sugov_should_update(&st, &p, 10));
	ck_assert(sugov_update(&st, &p, &in, 0, 10, &d));
	ck_assert_int_eq(d.opp, 0);
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

START_TEST(run_headroom)
{
	double kb, kk, tb, tk;

	compare_runs(TASK_RUN, "\"dvfs_headroom\": 1.0,", "", &kb, &kk, &tb,
		     &tk);
	ck_assert_msg(kk < kb, "headroom 1.0: %.0f kHz, default %.0f", kk, kb);
	/* 1.25 written out is the default exactly */
	compare_runs(TASK_RUN, "\"dvfs_headroom\": 1.25,", "", &kb, &kk, &tb,
		     &tk);
	ck_assert(kk == kb && tk == tb);
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
	compare_runs(TASK_RUN, "", "\"up_rate_limit_us\": 1000, \"down_rate_limit_us\": 1000,",
		     &kb, &kk, &tb, &tk);
	ck_assert(kk == kb && tk == tb);
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
	compare_runs(TASK_IO, "\"iowait_boost\": 1,", "", &kb, &kk, &tb,
		     &tk);
	ck_assert(kk == kb && tk == tb);
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
