// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app compatibility: repeated keys as rt-app's doc/workgen renames them,
 * a phase written twice as json-c keeps it, a phase without "cpus" back on
 * the task's, and every workload of rt-app's doc/examples (copies in
 * tests/fixtures/rt-app) validating and running, or rejected with the
 * reason.
 */
#include "clitest.h"
#include "summary.h"

static void expect_keys(const struct wl_phase *ph, const char *const *keys,
			const uint64_t *us)
{
	int i;

	for (i = 0; keys[i]; i++) {
		ck_assert_int_lt(i, ph->nev);
		ck_assert_str_eq(ph->ev[i].key, keys[i]);
		if (us)
			ck_assert_uint_eq(ph->ev[i].us, us[i]);
	}
	ck_assert_int_eq(i, ph->nev);
}

START_TEST(repeated_keys_renamed_as_workgen)
{
	/*
	 * workgen's counter is shared by the keys of one object and only
	 * grows: run, sleep, run1, sleep1, then run1 is taken, so run2
	 */
	struct diag d;
	struct workload *wl = parse(
		"{ \"tasks\": { \"t\": { \"loop\": 1,\n"
		"  \"run\": 1, \"sleep\": 2,\n"
		"  \"run\": 3, \"sleep\": 4,\n"
		"  \"run\": 5 } } }\n", &d);
	const char *const keys[] = { "run", "sleep", "run1", "sleep1", "run2",
				     NULL };
	const uint64_t us[] = { 1, 2, 3, 4, 5 };

	ck_assert_msg(wl != NULL, "%s", d.log.buf);
	expect_keys(&wl->tasks[0].phases[0], keys, us);
	/* one note for the file, at the first renamed key, not a warning */
	ck_assert_int_eq(d.notes, 1);
	ck_assert_int_eq(d.warnings, 0);
	ck_assert_msg(strstr(d.log.buf, "w.json:3:10: note: tasks.t.run1: repeated \"run\" taken as \"run1\": 3 repeated keys of this file renamed in document order"),
		      "%s", d.log.buf);
	workload_free(wl);
	diag_free(&d);
}
END_TEST

START_TEST(workgen_names_in_rtapp_example5)
{
	/* worked out by hand with doc/workgen's algorithm */
	char *f = src("tests/fixtures/rt-app/tutorial/example5.json");
	struct diag d;
	struct workload *wl;
	const char *const p1[] = { "lock", "run", "signal", "run1", "unlock",
				   "run2", "resume", "timer", NULL };
	const char *const t1[] = { "lock", "wait", "unlock", "run", "suspend",
				   "run1", "suspend1", "run2", NULL };

	diag_init(&d, true);
	wl = workload_load(f, &d);
	ck_assert_msg(wl != NULL, "%s", d.log.buf);
	ck_assert_str_eq(wl->tasks[0].phases[1].name, "p1");
	expect_keys(&wl->tasks[0].phases[1], p1, NULL);
	expect_keys(&wl->tasks[1].phases[0], t1, NULL);
	/* the keys renamed, and why its timer and resume make no chain
	 * (workload_chain_infer.c): thread0's first phase only sleeps */
	ck_assert_int_eq(d.notes, 2);
	ck_assert(strstr(d.log.buf, "5 repeated keys"));
	ck_assert(strstr(d.log.buf, "no chain inferred from \"thread0\"'s timer and resume: \"thread0\"'s phases differ"));
	ck_assert_int_eq(wl->nchains, 0);
	workload_free(wl);
	diag_free(&d);
	free(f);
}
END_TEST

START_TEST(repeated_phase_last_wins_in_place)
{
	struct diag d;
	struct workload *wl = parse(
		"{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": {\n"
		"  \"a\": { \"run\": 1 },\n"
		"  \"b\": { \"run\": 2 },\n"
		"  \"a\": { \"run\": 3, \"sleep\": 4 } } } } }\n", &d);
	const struct wl_task *t;

	ck_assert_msg(wl != NULL, "%s", d.log.buf);
	t = &wl->tasks[0];
	ck_assert_int_eq(t->nphases, 2);
	ck_assert_str_eq(t->phases[0].name, "a");
	ck_assert_int_eq(t->phases[0].nev, 2);
	ck_assert_uint_eq(t->phases[0].ev[0].us, 3);
	ck_assert_str_eq(t->phases[1].name, "b");
	ck_assert_int_eq(d.warnings, 1);
	/* at the kept phase, and no hint to number event keys */
	ck_assert_msg(strstr(d.log.buf, "w.json:4:8: warning: tasks.t.phases.a: \"a\" is repeated: the last one is kept"),
		      "%s", d.log.buf);
	ck_assert(!strstr(d.log.buf, "run0"));
	workload_free(wl);
	diag_free(&d);
}
END_TEST

START_TEST(phase_without_cpus_uses_the_tasks)
{
	/* rt-app's tutorial example8: phase3 has no "cpus", the task has [2] */
	char *f = src("tests/fixtures/rt-app/tutorial/example8.json");
	struct diag d;
	struct workload *wl;
	struct platform *pl;
	struct sim_opts o = { .clamp_policy = POLICY_NONE };
	struct sim *s;
	int cpu;

	diag_init(&d, true);
	wl = workload_load(f, &d);
	ck_assert_msg(wl != NULL, "%s", d.log.buf);
	pl = platform_load("sym4", &d);
	sim_opts_resolve(&o, wl);
	s = sim_create(pl, wl, &o, &d);
	ck_assert_msg(s != NULL, "%s", d.log.buf);
	ck_assert_int_eq(sim_run(s, NULL), 0);
	/* 1.5 ms on each of CPUs 0, 1, 2 in turn for 2 s: a third each */
	for (cpu = 0; cpu < 3; cpu++)
		ck_assert_msg(cpu_busy(s, cpu) > 0.5 && cpu_busy(s, cpu) < 0.7,
			      "CPU%d busy %.3f s", cpu, cpu_busy(s, cpu));
	ck_assert_msg(cpu_busy(s, 3) == 0, "CPU3 busy %.3f s", cpu_busy(s, 3));
	/* no timer: no timer latency nor slack, "-" in the table (in ms) as
	 * summary.json's count 0 (not 0.0) */
	{
		struct run_info ri = { f, "t", "s", 0 };
		char *table = NULL;
		size_t len;
		FILE *m = open_memstream(&table, &len);

		summary_print(s, &ri, m);
		fclose(m);
		ck_assert_msg(strstr(table, "0.150        -         -     1.8"), "%s",
			      table);
		free(table);
	}
	sim_destroy(s);
	platform_free(pl);
	workload_free(wl);
	diag_free(&d);
	free(f);
}
END_TEST

START_TEST(phase_without_cpus_back_to_all_cpus)
{
	/*
	 * No task "cpus": a phase without them runs anywhere again. p1 sits
	 * on CPU 0 behind a FIFO hog that holds CPU 0; p2 must escape it.
	 */
	struct run *r = run_text(
		"{ \"tasks\": {\n"
		"  \"hog\": { \"cpus\": [0], \"policy\": \"SCHED_FIFO\", \"priority\": 50,\n"
		"           \"delay\": 1000, \"run\": 5000000 },\n"
		"  \"t\": { \"loop\": 1, \"phases\": {\n"
		"     \"p1\": { \"cpus\": [0], \"run\": 100 },\n"
		"     \"p2\": { \"loop\": 100, \"run\": 1000 } } } } }",
		"sym4", POLICY_NONE, CLAMP_ORDER_612, 0.5, NULL);
	struct sim_task *t;

	RUN_OK(r);
	t = task_named(r->s, "t");
	ck_assert_msg(t->state == TS_DEAD, "p2 never left CPU 0");
	run_free(r);
}
END_TEST

/* The fixture files, by their path under tests/fixtures/rt-app */
static const char *const standalone[] = {
	"browser-long.json", "browser-short.json",
	"cpufreq_governor_efficiency/calibration.json",
	"cpufreq_governor_efficiency/dvfs.json", "custom-slice.json",
	"mp3-long.json", "mp3-short.json", "spreading-tasks.json",
	"template.json", "tutorial/example1.json", "tutorial/example2.json",
	"tutorial/example3.json", "tutorial/example4.json",
	"tutorial/example5.json", "tutorial/example6.json",
	"tutorial/example7.json", "tutorial/example8.json",
	"tutorial/example9.json", "tutorial/example10.json",
	"tutorial/example11.json", NULL,
};

START_TEST(every_standalone_example_validates_and_runs)
{
	int i;

	for (i = 0; standalone[i]; i++) {
		char *rel = xasprintf("tests/fixtures/rt-app/%s", standalone[i]);
		char *f = src(rel);
		char *out = xasprintf("out-rtapp-%d", i);
		int rc;
		char *err = cli_stderr(&rc, "validate", f, NULL);

		remove_run_dir(out);
		ck_assert_msg(rc == 0, "validate %s: %d\n%s", rel, rc, err);
		free(err);
		/* 1 s: --duration keeps example4 (never ends) and the
		 * 60 s ones short */
		err = cli_stderr(&rc, "run", f, "--duration", "1", "-o", out,
				 "--quiet", NULL);
		ck_assert_msg(rc == 0, "run %s: %d\n%s", rel, rc, err);
		free(err);
		free(out);
		free(f);
		free(rel);
	}
}
END_TEST

START_TEST(never_ending_example_validates_and_runs_with_duration)
{
	char *f = src("tests/fixtures/rt-app/tutorial/example4.json");
	int rc;
	char *err;

	remove_run_dir("out-ex4");
	err = cli_stderr(&rc, "validate", f, NULL);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(err, "warning: the workload never ends") &&
		      strstr(err, "`capsim run` needs --duration"), "%s", err);
	free(err);
	err = cli_stderr(&rc, "run", f, "-o", "out-ex4", NULL);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "error: the workload never ends"), "%s", err);
	ck_assert(!exists("out-ex4"));
	free(err);
	ck_assert_int_eq(cli("run", f, "--duration", "0.5", "-o", "out-ex4",
			     "--quiet", NULL), 0);
	ck_assert(exists("out-ex4/trace.txt"));
	free(f);
}
END_TEST

static void expect_rejected(const char *rel, const char *why)
{
	char *path = xasprintf("tests/fixtures/rt-app/%s", rel);
	char *f = src(path);
	int rc;
	char *err = cli_stderr(&rc, "validate", f, NULL);

	ck_assert_msg(rc == 2, "%s: %d", rel, rc);
	ck_assert_msg(strstr(err, why), "%s: expected \"%s\" in:\n%s", rel, why,
		      err);
	free(err);
	free(f);
	free(path);
}

START_TEST(fragments_and_valueless_keys_say_why)
{
	expect_rejected("merge/global.json", ":1:1: error: no \"tasks\": a workload needs them (a fragment for rt-app's doc/merge.py");
	expect_rejected("merge/resources.json", "a fragment for rt-app's doc/merge.py");
	expect_rejected("merge/thread0.json", ":3:15: error: tasks.thread0: rt-app's legacy thread grammar");
	expect_rejected("merge/thread3.json", "today's rt-app rejects it too");
	expect_rejected("video-long.json", ":6:13: error: ':' expected near ',': \"suspend\" has no value (every key needs one; rt-app's own parser, json-c, rejects this file too)");
	expect_rejected("video-short.json", "\"suspend\" has no value");
}
END_TEST

int main(void)
{
	return check_main("rtapp_compat", 300, CHECK_TESTS(
		repeated_keys_renamed_as_workgen,
		workgen_names_in_rtapp_example5,
		repeated_phase_last_wins_in_place,
		phase_without_cpus_uses_the_tasks,
		phase_without_cpus_back_to_all_cpus,
		every_standalone_example_validates_and_runs,
		never_ending_example_validates_and_runs_with_duration,
		fragments_and_valueless_keys_say_why));
}
