// SPDX-License-Identifier: GPL-2.0
/* Workload and platform parsing: accepted forms, rejected ones with their
 * messages (file:line:column, field, allowed range), warnings. */
#include "sha256.h"
#include "simtest.h"

START_TEST(accepts_lenient_json)
{
	struct diag d;
	struct workload *wl = parse(
		"{\n"
		"  // rt-app accepts comments\n"
		"  \"global\": { \"duration\": 2, /* and these */ },\n"
		"  \"tasks\": {\n"
		"    \"t\": { \"run\": 1000, \"sleep\": 1000, },\n"
		"  },\n"
		"}\n", &d);

	ck_assert_msg(wl != NULL, "%s", d.log.buf);
	ck_assert_int_eq(wl->ntasks, 1);
	ck_assert_int_eq(wl->tasks[0].phases[0].nev, 2);
	ck_assert_int_eq(wl->tasks[0].phases[0].ev[0].type, WL_EV_RUN);
	ck_assert_int_eq(wl->tasks[0].phases[0].ev[1].type, WL_EV_SLEEP);
	ck_assert_int_eq(d.errors, 0);
	workload_free(wl);
	diag_free(&d);
}
END_TEST

/* summary.json's input hash is of the bytes as read, whether the
 * pre-pass blanked comments (hashed at load) or not (hashed when asked) */
START_TEST(hashes_the_bytes_as_read)
{
	static const char *const texts[] = {
		"{ \"tasks\": { \"t\": { \"run\": 1000, /* c */ } } }",
		"{ \"tasks\": { \"t\": { \"run\": 1000 } } }",
	};
	char got[65], want[65];
	size_t i;

	for (i = 0; i < 2; i++) {
		struct diag d;
		struct workload *wl = parse(texts[i], &d);

		ck_assert_msg(wl != NULL, "%s", d.log.buf);
		sha256_hex(texts[i], strlen(texts[i]), want);
		jdoc_sha256(&wl->doc, got);
		ck_assert_str_eq(got, want);
		workload_free(wl);
		diag_free(&d);
	}
}
END_TEST

START_TEST(accepts_full_grammar)
{
	struct diag d;
	struct workload *wl = parse(
		"{ \"global\": { \"duration\": 1, \"default_policy\": \"SCHED_OTHER\", \"calibration\": \"CPU0\" },\n"
		"  \"tasks\": {\n"
		"    \"a\": { \"instance\": 2, \"loop\": 3, \"delay\": 100, \"priority\": -5,\n"
		"             \"cpus\": [0, 1], \"taskgroup\": \"/fg\",\n"
		"             \"phases\": {\n"
		"               \"p1\": { \"loop\": 2, \"run0\": 100, \"runtime\": 50, \"timer\": { \"ref\": \"tick\", \"period\": 1000, \"mode\": \"absolute\" } },\n"
		"               \"p2\": { \"lock\": \"m\", \"signal\": \"c\", \"unlock\": \"m\", \"barrier\": \"b\", \"yield\": \"\", \"iorun\": 1000, \"mem\": 4096,\n"
		"                        \"sync\": { \"ref\": \"c\", \"mutex\": \"m\" }, \"resume\": \"b0\", \"broad\": \"c\" } } },\n"
		"    \"b\": { \"policy\": \"SCHED_FIFO\", \"priority\": 50, \"barrier\": \"b\", \"suspend\": \"b0\", \"wait\": { \"ref\": \"c\", \"mutex\": \"m\" } },\n"
		"    \"d\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 10000, \"run\": 500, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } }\n"
		"  } }\n", &d);

	ck_assert_msg(wl != NULL, "%s", d.log.buf);
	ck_assert_int_eq(wl->ntasks, 3);
	ck_assert_int_eq(wl->tasks[0].instances, 2);
	ck_assert_int_eq(wl->tasks[0].nphases, 2);
	ck_assert_int_eq(wl->tasks[0].phases[0].loop, 2);
	ck_assert(wl->tasks[0].phases[0].ev[2].absolute);
	/* sync expands to lock, signal, wait, unlock */
	ck_assert_int_eq(wl->tasks[0].phases[1].nev, 7 + 4 + 2);
	ck_assert_int_eq(wl->tasks[1].attrs.policy, WL_SCHED_FIFO);
	ck_assert_int_eq(wl->tasks[2].dl_deadline_us, 10000);
	ck_assert_str_eq(wl->tasks[0].attrs.group, "/fg");
	workload_free(wl);
	diag_free(&d);
}
END_TEST

START_TEST(rejects_with_position_field_range)
{
	expect_error("{\n \"tasks\": {\n  \"t\": { \"policy\": \"SCHED_FIFO\",\n         \"priority\": 150, \"run\": 10 } } }\n",
		     "w.json:4:22: error: tasks.t.priority: 150 is out of range for SCHED_FIFO: allowed [1, 99]");
	expect_error("{ \"tasks\": { \"t\": { \"policy\": \"SCHED_RR\", \"priority\": -5, \"run\": 10 } } }",
		     "tasks.t.priority: -5 is out of range for SCHED_RR: allowed [1, 99]");
	expect_error("{ \"tasks\": { \"t\": { \"priority\": 120, \"run\": 10 } } }",
		     "tasks.t.priority: 120 is out of range for SCHED_OTHER (a nice value): allowed [-20, 19]");
	expect_error("{ \"tasks\": { \"t\": { \"policy\": \"SCHED_FIFO\", \"priority\": 5000000000, \"run\": 10 } } }",
		     "5000000000 is out of range for SCHED_FIFO: allowed [1, 99]");
	expect_error("{ \"tasks\": { \"t\": { \"phases\": { \"a\": { \"policy\": \"SCHED_FIFO\", \"priority\": 0, \"run\": 10 } } } } }",
		     "tasks.t.phases.a.priority: 0 is out of range for SCHED_FIFO: allowed [1, 99]");
	expect_error("{ \"tasks\": { \"t\": { \"policy\": \"SCHED_FIFO\", \"priority\": 0, \"run\": 10 } } }",
		     "tasks.t.priority: 0 is out of range for SCHED_FIFO: allowed [1, 99]");
	expect_error("{ \"tasks\": { \"t\": { \"priority\": 30, \"run\": 10 } } }",
		     "(a nice value): allowed [-20, 19]");
	expect_error("{ \"tasks\": { \"t\": { \"policy\": \"SCHED_FOO\", \"run\": 10 } } }",
		     "unknown policy \"SCHED_FOO\": allowed SCHED_OTHER");
	expect_error("{ \"tasks\": { \"t\": { \"run\": -5 } } }",
		     "tasks.t.run: -5 is out of range: allowed [0, 3600000000]");
	expect_error("{ \"tasks\": { \"t\": { \"run\": 5, \"timer\": { \"ref\": \"x\" } } } }",
		     "missing \"period\"");
	expect_error("{ \"tasks\": { \"t\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 5000, \"dl-period\": 1000, \"run\": 5 } } }",
		     "dl-runtime <= dl-deadline <= dl-period");
	expect_error("{ \"tasks\": { \"t\": { \"cpus\": [], \"run\": 5 } } }",
		     "tasks.t.cpus: []: must be a non-empty array");
	/* the value given is echoed */
	expect_error("{ \"tasks\": { \"t\": { \"run\": \"abc\" } } }",
		     "tasks.t.run: \"abc\" is not an integer: allowed [0, 3600000000]");
	expect_error("{ \"tasks\": { \"t\": { \"run\": 1.5 } } }",
		     "tasks.t.run: 1.5 is not an integer");
	expect_error("{ \"tasks\": { \"t\": { \"priority\": \"high\", \"run\": 1 } } }",
		     "tasks.t.priority: \"high\" is not an integer: a nice value in [-20, 19]");
	expect_error("{ \"tasks\": { \"t\": { \"taskgroup\": 7, \"run\": 1 } } }",
		     "tasks.t.taskgroup: 7 is not a string");
	expect_error("{ \"tasks\": { \"t\": { \"taskgroup\": \"bg\", \"run\": 5 } } }",
		     "is not a group path");
	expect_error("{ \"tasks\": { } }", "\"tasks\" must be a non-empty object");
	expect_error("{ \"tasks\": { \"t\": { \"sleep\": 5 } }, \"capsim\": { \"clamp_order\": \"5.0\" } }",
		     "capsim.clamp_order: allowed \"6.12\"");
	expect_error("{ \"tasks\": { \"t\": { \"loop\": 2 } } }",
		     "a task needs events");
}
END_TEST

START_TEST(rejects_syntax_with_position)
{
	expect_error("{\n  \"tasks\": {\n    \"t\": { \"run\" 10 }\n  }\n}\n",
		     "w.json:3:19: error: ':' expected near '10'");
	expect_error("{ \"tasks\": { /* never closed\n", "w.json:1:14: error: unterminated /* comment");
	/* repeated rt-app keys are renamed as workgen does; capsim's are
	 * errors (tests/sim/test_rtapp_compat.c) */
	expect_error("{ \"tasks\": { \"t\": { \"run\": 1 } }, \"capsim\": { \"platform\": \"sym4\", \"platform\": \"sd855\" } }",
		     "w.json:1:79: error: capsim.platform: \"platform\" is repeated: capsim's own keys must be unique");
}
END_TEST

START_TEST(warns_once_per_unmodelled_key)
{
	struct diag d;
	struct workload *wl = parse(
		"{ \"global\": { \"logdir\": \"./\", \"frobnicate\": 1 },\n"
		"  \"tasks\": { \"t\": { \"run\": 10, \"colour\": \"red\", \"fork\": \"x\", \"util_min\": 100 } } }", &d);

	ck_assert_msg(wl != NULL, "%s", d.log.buf);
	ck_assert_int_eq(d.warnings, 5);
	ck_assert(strstr(d.log.buf, "global.logdir: no effect in simulation"));
	ck_assert(strstr(d.log.buf, "global.frobnicate: unknown key"));
	ck_assert(strstr(d.log.buf, "tasks.t.colour: unknown key"));
	ck_assert(strstr(d.log.buf, "\"fork\" is not modelled"));
	ck_assert(strstr(d.log.buf, "util_min/util_max are per-task uclamp"));
	workload_free(wl);
	diag_free(&d);
}
END_TEST

START_TEST(rejects_bad_hierarchy_naming_group_and_rule)
{
	struct run *r = run_text(
		"{ \"tasks\": { \"t\": { \"run\": 10, \"taskgroup\": \"/bg/batch\" } },\n"
		"  \"capsim\": { \"taskgroups\": {\n"
		"     \"/bg\": { \"capacity_max\": 256 },\n"
		"     \"/bg/batch\": { \"capacity_max\": 512 } } } }\n",
		"sym4", POLICY_RFC, CLAMP_ORDER_612, 1, NULL);

	ck_assert(r->s == NULL);
	ck_assert_msg(strstr(r->d.log.buf,
			     "test.json:4:37: error: capsim.taskgroups[\"/bg/batch\"].capacity_max: group /bg/batch: capacity_max 512 is above the parent /bg's capacity_max 256"),
		      "%s", r->d.log.buf);
	run_free(r);

	r = run_text("{ \"tasks\": { \"t\": { \"run\": 10 } },\n"
		     "  \"capsim\": { \"taskgroups\": { \"/fg\": { \"capacity_min\": 600, \"capacity_max\": 500 } } } }",
		     "sym4", POLICY_RFC, CLAMP_ORDER_612, 1, NULL);
	ck_assert(r->s == NULL);
	ck_assert_msg(strstr(r->d.log.buf, "capacity_min 600 is above the group's capacity_max 500"),
		      "%s", r->d.log.buf);
	run_free(r);
}
END_TEST

/* A range error does not hide the group rules and event checks */
START_TEST(reports_all_errors_in_one_pass)
{
	struct run *r = run_text(
		"{ \"tasks\": { \"t\": { \"run\": -1, \"sleep\": 10, \"taskgroup\": \"/bg/c\" } },\n"
		"  \"capsim\": { \"taskgroups\": {\n"
		"     \"/bg\": { \"capacity_min\": 100, \"capacity_max\": 2000 },\n"
		"     \"/bg/c\": { \"capacity_min\": 50 } },\n"
		"   \"events\": [ { \"at_ms\": 5, \"group\": \"/nope\", \"capacity_max\": 10 } ] } }\n",
		"sym4", POLICY_RFC, CLAMP_ORDER_612, 1, NULL);

	ck_assert(r->wl == NULL && r->s == NULL);
	ck_assert_msg(strstr(r->d.log.buf, "test.json:1:28: error: tasks.t.run: -1 is out of range"),
		      "%s", r->d.log.buf);
	ck_assert_msg(strstr(r->d.log.buf, "capsim.taskgroups[\"/bg\"].capacity_max: 2000 is out of range"),
		      "%s", r->d.log.buf);
	ck_assert_msg(strstr(r->d.log.buf, "test.json:4:33: error: capsim.taskgroups[\"/bg/c\"].capacity_min: group /bg/c: capacity_min 50 is below the parent /bg's capacity_min 100"),
		      "%s", r->d.log.buf);
	ck_assert_msg(strstr(r->d.log.buf, "capsim.events[0].capacity_max: group /nope is neither declared"),
		      "%s", r->d.log.buf);
	ck_assert_int_eq(r->d.errors, 4);
	run_free(r);
}
END_TEST

START_TEST(rejects_platform_mismatch)
{
	struct run *r = run_text("{ \"tasks\": { \"t\": { \"run\": 10, \"cpus\": [0, 7] } } }",
				 "sym4", POLICY_RFC, CLAMP_ORDER_612, 1, NULL);

	ck_assert(r->s == NULL);
	ck_assert_msg(strstr(r->d.log.buf, "tasks.t.cpus[1]: CPU 7 does not exist on platform sym4: allowed [0, 3]"),
		      "%s", r->d.log.buf);
	run_free(r);
	r = run_text("{ \"tasks\": { \"t\": { \"run\": 10, \"sleep\": 10 } } }",
		     "sym4", POLICY_RFC, CLAMP_ORDER_612, 0, NULL);
	ck_assert(r->s == NULL);
	ck_assert(strstr(r->d.log.buf, "the workload never ends"));
	run_free(r);
}
END_TEST

START_TEST(embedded_platforms_parse)
{
	int i;

	for (i = 0; i < platform_embedded_count(); i++) {
		struct diag d;
		struct platform *p;

		diag_init(&d, true);
		p = platform_load(platform_embedded_name(i), &d);
		ck_assert_msg(p != NULL, "%s: %s", platform_embedded_name(i), d.log.buf);
		ck_assert_int_eq(d.warnings, 0);
		platform_free(p);
		diag_free(&d);
	}
}
END_TEST

START_TEST(sym4_is_the_guest_table)
{
	static const unsigned int khz[] = { 500000, 1000000, 1500000, 2000000, 2500000 };
	static const unsigned int cap[] = { 205, 410, 614, 819, 1024 };
	struct diag d;
	struct platform *p;
	int i;

	diag_init(&d, true);
	p = platform_load("sym4", &d);
	ck_assert_int_eq(p->ncpus, 4);
	ck_assert_int_eq(p->ndomains, 1);
	ck_assert_int_eq(p->domains[0].nopps, 5);
	for (i = 0; i < 5; i++) {
		ck_assert_uint_eq(p->domains[0].opps[i].khz, khz[i]);
		ck_assert_uint_eq(p->domains[0].opps[i].capacity, cap[i]);
	}
	platform_free(p);
	diag_free(&d);
}
END_TEST

static void expect_platform_error(const char *text, const char *needle)
{
	FILE *f = fopen("bad-platform.json", "w");
	struct diag d;
	struct platform *p;

	fputs(text, f);
	fclose(f);
	diag_init(&d, true);
	p = platform_load("./bad-platform.json", &d);
	ck_assert(p == NULL);
	ck_assert_msg(strstr(d.log.buf, needle), "expected \"%s\" in %s", needle,
		      d.log.buf);
	diag_free(&d);
	remove("bad-platform.json");
}

START_TEST(rejects_bad_platforms)
{
	expect_platform_error(
		"{ \"name\": \"x\", \"cpus\": [ { \"id\": 0, \"capacity\": 1000, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [0], \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] } ] }",
		"capacity 1000 differs from its domain's top OPP capacity 1024");
	expect_platform_error(
		"{ \"name\": \"x\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [0], \"opps\": [ { \"khz\": 2, \"capacity\": 512, \"power_mw\": 1 },\n"
		"     { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] } ] }",
		"./bad-platform.json:3:6: error: domains[0].opps[1]: OPPs must be sorted by strictly increasing khz");
	expect_platform_error(
		"{ \"name\": \"x\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 1 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [0], \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] } ] }",
		"\"domain\" is 1 but CPU 0 is listed in domain 0");
	/* the value given is echoed */
	expect_platform_error(
		"{ \"name\": \"x\", \"cpus\": [ { \"id\": 0, \"capacity\": 2000, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [0], \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] } ] }",
		"cpus[0].capacity: 2000 is out of range: allowed [1, 1024]");
	expect_platform_error(
		"{ \"name\": \"x\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [\"0\"], \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": -3 } ] } ] }",
		"domains[0].opps[0].power_mw: -3 is out of range: allowed [0, 1000000]");
	expect_platform_error(
		"{ \"name\": \"x\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [\"0\"], \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] } ] }",
		"domains[0].cpus[0]: \"0\" is not a CPU id: allowed [0, 1023]");
}
END_TEST

int main(void)
{
	return check_main("parser", 0, CHECK_TESTS(
			  accepts_lenient_json,
			  hashes_the_bytes_as_read,
			  accepts_full_grammar,
			  rejects_with_position_field_range,
			  rejects_syntax_with_position,
			  warns_once_per_unmodelled_key,
			  rejects_bad_hierarchy_naming_group_and_rule,
			  reports_all_errors_in_one_pass,
			  rejects_platform_mismatch,
			  embedded_platforms_parse,
			  sym4_is_the_guest_table,
			  rejects_bad_platforms));
}
