// SPDX-License-Identifier: GPL-2.0
/* The command line: exit codes, outputs, nothing written on bad input,
 * byte-identical reruns of a traces/ workload. */
#include <jansson.h>

#include "check_main_tmpdir.h"
#include "clitest.h"

START_TEST(usage_errors_are_two_lines)
{
	char *w = src("traces/audio.json");

	expect_short_usage("capsim: unknown option: --bogus\n", "run", "run", w, "--bogus", NULL);
	expect_short_usage("capsim: --hz needs an integer in [10, 10000]: 0\n", "run", "run", w, "--hz", "0", NULL);
	expect_short_usage("capsim: run needs a WORKLOAD.json\n", "run", "run", NULL);
	expect_short_usage("capsim: validate needs at least one FILE\n", "validate", "validate", NULL);
	expect_short_usage("capsim: platform show needs one NAME\n", "platform", "platform", "show", NULL);
	expect_short_usage("capsim: platform cmdline needs one NAME or FILE\n", "platform", "platform", "cmdline", NULL);
	expect_short_usage("capsim: unknown option: --bogus\n", "platform", "platform", "cmdline", "--bogus", "sym4", NULL);
	expect_short_usage("capsim: unknown command: frobnicate\n", NULL, "frobnicate", NULL);
	expect_short_usage("capsim: missing command", NULL, NULL);
	free(w);
}
END_TEST

START_TEST(usage_and_exit_codes)
{
	char *w = src("traces/audio.json");

	ck_assert_int_eq(cli(NULL, NULL), 2);
	ck_assert_int_eq(cli("--help", NULL), 0);
	ck_assert_int_eq(cli("run", "--help", NULL), 0);
	ck_assert_int_eq(cli("validate", "--help", NULL), 0);
	ck_assert_int_eq(cli("platforms", NULL), 0);
	ck_assert_int_eq(cli("platform", "show", "sym4", NULL), 0);
	ck_assert_int_eq(cli("platform", "show", "nope", NULL), 2);
	ck_assert_int_eq(cli("platform", "cmdline", "juno-r0", NULL), 0);
	ck_assert_int_eq(cli("platform", "cmdline", "--smp", "juno-r0", NULL), 0);
	ck_assert_int_eq(cli("platform", "cmdline", "nope", NULL), 2);
	ck_assert_int_eq(cli("frobnicate", NULL), 2);
	ck_assert_int_eq(cli("run", NULL), 2);
	ck_assert_int_eq(cli("run", w, "--bogus", NULL), 2);
	ck_assert_int_eq(cli("run", w, "--duration", "-1", NULL), 2);
	ck_assert_int_eq(cli("run", w, "--policy", "uclamp", "--duration", "1", "-o", "x-uclamp", NULL), 0);
	ck_assert(exists("x-uclamp"));
	ck_assert_int_eq(cli("run", w, "--platform", "nope", "-o", "x-nope", NULL), 2);
	ck_assert(!exists("x-nope"));
	free(w);
}
END_TEST

/*
 * A group value one clamp policy refuses may be another's to take: the
 * group rules checked are those of the policy the run uses (--policy,
 * else the workload's), in `validate`, in `run`, and when other errors
 * are listed with them in one pass.
 */
START_TEST(group_rules_are_the_runs_policy)
{
	static const char groups[] =
		"\"taskgroups\": { \"/a\": { \"capacity_max\": 512 }, "
		"\"/a/b\": { \"capacity_max\": 1024 } } }";
	static const char above[] = "capacity_max 1024 is above the parent";
	char text[512];
	char *err;
	int rc;

	snprintf(text, sizeof(text),
		 "{ \"global\": { \"duration\": 1 }, "
		 "\"capsim\": { \"policy\": \"uclamp\", %s, "
		 "\"tasks\": { \"t\": { \"taskgroup\": \"/a/b\", "
		 "\"run\": 1000, \"sleep\": 1000 } } }\n", groups);
	put_file("uclamp-groups.json", text);
	err = cli_stderr(&rc, "validate", "uclamp-groups.json", NULL);
	ck_assert_msg(rc == 0 && !strstr(err, above), "validate: %d %s", rc, err);
	free(err);
	err = cli_stderr(&rc, "run", "uclamp-groups.json", "--quiet",
			 "-o", "x-uclamp-groups", NULL);
	ck_assert_msg(rc == 0, "run: %d %s", rc, err);
	free(err);
	/* rfc refuses the child wider than its parent */
	err = cli_stderr(&rc, "run", "uclamp-groups.json", "--policy", "rfc",
			 "--quiet", "-o", "x-rfc-groups", NULL);
	ck_assert_msg(rc == 2 && strstr(err, above), "rfc: %d %s", rc, err);
	ck_assert(!exists("x-rfc-groups"));
	free(err);

	/* with another error: that one alone under uclamp, both under rfc */
	snprintf(text, sizeof(text),
		 "{ \"global\": { \"duration\": 1 }, "
		 "\"capsim\": { \"policy\": \"uclamp\", %s, "
		 "\"tasks\": { \"t\": { \"taskgroup\": \"/a/b\", "
		 "\"policy\": \"SCHED_FIFO\", \"priority\": 500, "
		 "\"run\": 1000, \"sleep\": 1000 } } }\n", groups);
	put_file("uclamp-groups-bad.json", text);
	err = cli_stderr(&rc, "run", "uclamp-groups-bad.json", "--quiet",
			 "-o", "x-bad-groups", NULL);
	ck_assert_msg(rc == 2 && strstr(err, "priority: 500") &&
		      !strstr(err, above), "uclamp, one error: %d %s", rc, err);
	free(err);
	err = cli_stderr(&rc, "run", "uclamp-groups-bad.json", "--policy",
			 "rfc", "--quiet", "-o", "x-bad-groups", NULL);
	ck_assert_msg(rc == 2 && strstr(err, "priority: 500") &&
		      strstr(err, above), "rfc, two errors: %d %s", rc, err);
	free(err);
	ck_assert(!exists("x-bad-groups"));
}
END_TEST

START_TEST(bad_input_writes_nothing)
{
	FILE *f = fopen("bad.json", "w");

	fputs("{ \"tasks\": { \"t\": { \"run\": \"soon\" } } }\n", f);
	fclose(f);
	ck_assert_int_eq(cli("run", "bad.json", "-o", "out-bad/deeper", NULL), 2);
	ck_assert(!exists("out-bad"));
	ck_assert_int_eq(cli("validate", "bad.json", NULL), 2);
	f = fopen("eight.json", "w");
	fputs("{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"cpus\": [7], \"run\": 10 } } }\n", f);
	fclose(f);
	ck_assert_int_eq(cli("validate", "eight.json", NULL), 2);
	ck_assert_int_eq(cli("validate", "--platform", "sd855", "eight.json", NULL), 0);
	remove("eight.json");
	remove("bad.json");
}
END_TEST

START_TEST(run_error_writes_nothing)
{
	FILE *f = fopen("spin.json", "w");
	char *audio = src("traces/audio.json");

	/* a loop of zero-time events never lets time pass: refused up front */
	fputs("{ \"global\": { \"duration\": 1 },\n"
	      "  \"tasks\": { \"spin\": { \"lock\": \"m\", \"unlock\": \"m\" } } }\n", f);
	fclose(f);
	ck_assert_int_eq(cli("validate", "spin.json", NULL), 2);
	ck_assert_int_eq(cli("run", "spin.json", "-o", "out-spin/x", NULL), 2);
	ck_assert(!exists("out-spin"));
	remove("spin.json");

	/* a run error: the trace passes its limit (about 4 MiB in 10 s) */
	ck_assert_int_eq(cli("run", audio, "--duration", "10",
			     "--max-trace-mb", "1", "-o", "out-spin/x", NULL), 1);
	free(audio);
	ck_assert(!exists("out-spin"));
}
END_TEST

START_TEST(validate_traces)
{
	static const char *const files[] = {
		"traces/audio.json", "traces/video-playback.json",
		"traces/bg-batch-capped.json", "traces/rt-capped.json",
		"traces/whatif-bg-cap.json", "traces/platforms/sym4.json",
		"traces/platforms/juno-r0.json", "traces/platforms/juno-r2.json",
		"traces/platforms/sd855.json",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = src(files[i]);

		ck_assert_msg(cli("validate", p, NULL) == 0, "%s", p);
		free(p);
	}
}
END_TEST

START_TEST(run_writes_identical_outputs)
{
	char *w = src("traces/whatif-bg-cap.json");
	size_t l1, l2, s1, s2;
	char *a, *b, *x, *y;

	ck_assert_int_eq(cli("run", w, "--duration", "2", "-o", "out-a", "--quiet", NULL), 0);
	ck_assert_int_eq(cli("run", w, "--duration", "2", "-o", "out-b", "--quiet", NULL), 0);
	a = slurp_file("out-a/trace.txt", &l1);
	b = slurp_file("out-b/trace.txt", &l2);
	x = slurp_file("out-a/summary.json", &s1);
	y = slurp_file("out-b/summary.json", &s2);
	ck_assert_uint_eq(l1, l2);
	ck_assert(!memcmp(a, b, l1));
	ck_assert_uint_eq(s1, s2);
	ck_assert(!memcmp(x, y, s1));
	ck_assert(strstr(x, "\"policy\": \"rfc\""));
	ck_assert(strstr(x, "\"sha256\""));
	ck_assert(strstr(x, "\"energy_mj\""));
	ck_assert(strstr(x, "\"wakeup_latency_us\""));
	ck_assert(strstr(x, "\"response_us\""));
	free(a);
	free(b);
	free(x);
	free(y);
	ck_assert_int_eq(cli("run", w, "--duration", "2", "--policy", "none",
			     "--platform", "juno-r0", "-o", "out-c", "--quiet", NULL), 0);
	ck_assert(exists("out-c/trace.txt") && exists("out-c/summary.json"));
	free(w);
}
END_TEST

/*
 * --no-trace: the same summary and activations, byte for byte, no
 * trace.txt, an older one removed; the trace's options refused
 */
START_TEST(no_trace_same_figures)
{
	char *w = src("traces/audio.json");
	static const char *const files[] = { "summary.json",
					     "activations.csv" };
	size_t i;

	ck_assert_int_eq(cli("run", w, "--duration", "3", "-o", "out-t",
			     "--quiet", NULL), 0);
	ck_assert_int_eq(cli("run", w, "--duration", "3", "-o", "out-n",
			     "--no-trace", "--plot", NULL), 2);
	ck_assert_int_eq(cli("run", w, "--duration", "3", "-o", "out-n",
			     "--no-trace", "--trace-signals", NULL), 2);
	ck_assert(!exists("out-n"));
	ck_assert_int_eq(cli("run", w, "--duration", "3", "-o", "out-n",
			     "--quiet", "--no-trace", NULL), 0);
	ck_assert(!exists("out-n/trace.txt"));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *pa = xasprintf("out-t/%s", files[i]);
		char *pb = xasprintf("out-n/%s", files[i]);
		size_t la, lb;
		char *a = slurp_file(pa, &la), *b = slurp_file(pb, &lb);

		ck_assert_uint_eq(la, lb);
		ck_assert_msg(!memcmp(a, b, la), "%s differs", files[i]);
		free(a);
		free(b);
		free(pa);
		free(pb);
	}
	/* into the traced run's directory: its trace goes */
	ck_assert(exists("out-t/trace.txt"));
	ck_assert_int_eq(cli("run", w, "--duration", "3", "-o", "out-t",
			     "--quiet", "--no-trace", NULL), 0);
	ck_assert(!exists("out-t/trace.txt"));
	ck_assert(exists("out-t/summary.json"));
	free(w);
}
END_TEST

/*
 * summary.json's tasks are written one by one, spliced into the dump of
 * the rest: the file is still exactly jansson's dump of the whole tree
 * (read back and dumped again with the same flags, byte for byte)
 */
START_TEST(summary_is_one_jansson_dump)
{
	char *w = src("traces/phone-minute.json");
	size_t len;
	char *text, *again;
	json_t *root;

	ck_assert_int_eq(cli("run", w, "--duration", "1", "-o", "out-j",
			     "--quiet", "--no-trace", NULL), 0);
	text = slurp_file("out-j/summary.json", &len);
	root = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_gt(json_array_size(json_object_get(root, "tasks")), 5);
	again = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	ck_assert_uint_eq(strlen(again) + 1, len);
	ck_assert(!strncmp(again, text, len - 1));
	ck_assert_int_eq(text[len - 1], '\n');
	free(again);
	json_decref(root);
	free(text);
	free(w);
}
END_TEST

/* rt-app names instances NAME-0, NAME-1; the kernel's comm keeps 15 chars */
START_TEST(summary_names_long_instances_in_full)
{
	static const char text[] =
		"{ \"tasks\": { \"a_very_long_task_name_indeed\": { \"instance\": 2,\n"
		"    \"run\": 1000, \"sleep\": 9000 } } }";
	FILE *f = fopen("long.json", "w");
	size_t n, m;
	char *x, *tr;

	ck_assert(f && fputs(text, f) >= 0 && fclose(f) == 0);
	ck_assert_int_eq(cli("run", "long.json", "--duration", "0.1", "-o", "out-long", "--quiet", NULL), 0);
	x = slurp_file("out-long/summary.json", &n);
	ck_assert(strstr(x, "\"name\": \"a_very_long_task_name_indeed-0\""));
	ck_assert(strstr(x, "\"name\": \"a_very_long_task_name_indeed-1\""));
	ck_assert(strstr(x, "\"comm\": \"a_very_long_tas\""));
	tr = slurp_file("out-long/trace.txt", &m);
	ck_assert(strstr(tr, "comm=a_very_long_tas pid=1001 "));
	ck_assert(!strstr(tr, "a_very_long_task"));
	free(x);
	free(tr);
}
END_TEST

int main(void)
{
	return check_main_in_tmpdir("cli", 120, CHECK_TESTS(
			  usage_and_exit_codes,
			  usage_errors_are_two_lines,
			  bad_input_writes_nothing,
			  run_error_writes_nothing,
			  validate_traces,
			  run_writes_identical_outputs,
			  no_trace_same_figures,
			  summary_is_one_jansson_dump,
			  summary_names_long_instances_in_full,
			  group_rules_are_the_runs_policy));
}
