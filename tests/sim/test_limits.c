// SPDX-License-Identifier: GPL-2.0
/*
 * The parsers' limits (issue 15): absurd values refused up front with the
 * field and the allowed range, messages capped at DIAG_MAX_SHOWN with the
 * rest counted, positions found in large documents, inputs read only from
 * regular files of bounded size.
 */
#include <sys/stat.h>

#include "simtest.h"

static void expect_ok(const char *text)
{
	struct diag d;
	struct workload *wl = parse(text, &d);

	ck_assert_msg(wl != NULL, "%.1000s", d.log.buf);
	workload_free(wl);
	diag_free(&d);
}

/* @text (freed here) is refused with @needle in the log, or accepted if
 * @needle is NULL */
static void expect_text(char *text, const char *needle)
{
	if (needle)
		expect_error(text, needle);
	else
		expect_ok(text);
	free(text);
}

static void expect_duration(const char *dur, const char *needle)
{
	expect_text(xasprintf("{ \"global\": { \"duration\": %s },\n"
			      "  \"tasks\": { \"t\": { \"run\": 10, \"sleep\": 10 } } }",
			      dur), needle);
}

START_TEST(durations_within_the_simulator_limits)
{
	const char *range = "allowed -1 or 0 (until the tasks end), or seconds in [1e-06, 1e+06] (the simulator's limits)";
	static const char *const bad[] = { "1e308", "1e12", "1e-300", "1e9",
		"-2", "-0.5", "1000001", "0.0" };
	char *needle;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		needle = xasprintf("global.duration: %s is out of range: %s",
				   bad[i], range);
		/* jansson prints reals its own way: match the range only */
		expect_duration(bad[i], strchr(bad[i], 'e') || strchr(bad[i], '.') ?
				range : needle);
		free(needle);
	}
	expect_duration("\"10\"", "global.duration: \"10\" is not a number");
	expect_duration("0.5", NULL);
	expect_duration("1e-6", NULL);
	expect_duration("1000000", NULL);
	expect_duration("-1", NULL);
	expect_duration("0", NULL);
}
END_TEST

static void expect_group(const char *path, const char *needle)
{
	expect_text(xasprintf("{ \"global\": { \"duration\": 1 },\n"
			      "  \"tasks\": { \"t\": { \"taskgroup\": \"%s\", \"run\": 10, \"sleep\": 10 } } }",
			      path), needle);
}

START_TEST(group_paths_as_the_kernel_allows)
{
	struct strbuf long_path;
	char name[256];

	expect_group("/..", "\"/..\" is not a group path (\"/name/sub\"): \".\" and \"..\" are not group names");
	expect_group("/a/..", "\".\" and \"..\" are not group names");
	expect_group("/a/./b", "\".\" and \"..\" are not group names");
	expect_group("/a//b", "empty name between '/'");
	expect_group("/a/", "empty name between '/'");
	expect_group("/a b", "allowed letters, digits, _ - . between '/'");
	expect_group("/.hidden/..x", NULL);
	expect_group("/a/b.c", NULL);

	/* NAME_MAX (255) per name */
	memset(name, 'n', 255);
	name[255] = '\0';
	sb_init(&long_path);
	sb_printf(&long_path, "/%s", name);
	expect_group(long_path.buf, NULL);
	sb_putc(&long_path, 'n');
	expect_group(long_path.buf, "a name longer than the kernel's NAME_MAX (255)");

	/* PATH_MAX (4096 with the NUL): 4095 characters is the longest */
	long_path.len = 0;
	while (long_path.len + 4 <= 4095)
		sb_puts(&long_path, "/abc");
	while (long_path.len < 4095)
		sb_putc(&long_path, 'x');
	expect_group(long_path.buf, NULL);
	sb_putc(&long_path, 'x');
	/* the message quotes the path cut short, not 4 KB of it */
	expect_group(long_path.buf, "\"/abc/abc/abc/abc/abc/abc/abc/abc/abc... is not a group path (\"/name/sub\"): longer than the kernel's PATH_MAX (4096 with its NUL)");
	sb_free(&long_path);

	expect_error("{ \"global\": { \"duration\": 1 },\n"
		     "  \"capsim\": { \"taskgroups\": { \"/bg/..\": { \"capacity_max\": 10 } },\n"
		     "              \"events\": [ { \"at_ms\": 1, \"group\": \"/.\", \"capacity_max\": 5 } ] },\n"
		     "  \"tasks\": { \"t\": { \"run\": 10, \"sleep\": 10 } } }",
		     "w.json:3:50: error: capsim.events[0].group: \"/.\" is not a group path");
}
END_TEST

START_TEST(util_min_not_above_util_max)
{
	expect_error("{ \"global\": { \"duration\": 1 },\n"
		     "  \"tasks\": { \"t\": { \"util_min\": 900, \"util_max\": 100, \"run\": 10, \"sleep\": 10 } } }",
		     "w.json:2:33: error: tasks.t.util_min: util_min 900 is above util_max 100: allowed util_min <= util_max");
	/* a phase's value against the task's */
	expect_error("{ \"global\": { \"duration\": 1 },\n"
		     "  \"tasks\": { \"t\": { \"util_max\": 300, \"phases\": {\n"
		     "    \"p0\": { \"run\": 10, \"sleep\": 10 },\n"
		     "    \"p1\": { \"util_min\": 400, \"run\": 10, \"sleep\": 10 } } } } }",
		     "w.json:4:25: error: tasks.t.phases.p1.util_min: util_min 400 is above util_max 300");
	expect_ok("{ \"global\": { \"duration\": 1 },\n"
		  "  \"tasks\": { \"t\": { \"util_min\": 300, \"util_max\": 300, \"phases\": {\n"
		  "    \"p1\": { \"util_max\": 600, \"util_min\": 500, \"run\": 10, \"sleep\": 10 } } } } }");
}
END_TEST

START_TEST(loops_that_take_no_time_are_refused)
{
	const char *msg = "tasks.t: loops over events that take no simulated time";

	expect_error("{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"loop\": -1, \"run\": 0 } } }",
		     msg);
	expect_error("{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"yield\": \"\", \"signal\": \"c\" } } }",
		     msg);
	/* a byte of I/O at 100 MB/s rounds to 0 ns in the simulator */
	expect_error("{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"loop\": 5, \"iorun\": 0 } } }",
		     msg);
	expect_error("{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"loop\": 1, \"phases\": {\n"
		     "  \"p\": { \"loop\": -1, \"lock\": \"m\", \"unlock\": \"m\" } } } } }", msg);
	/* once through is finite; time or waiting is progress */
	expect_ok("{ \"tasks\": { \"t\": { \"loop\": 1, \"run\": 0 } } }");
	expect_ok("{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"loop\": -1, \"run\": 0, \"sleep\": 1 } } }");
	expect_ok("{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"loop\": -1, \"iorun\": 1000 } } }");
	expect_ok("{ \"global\": { \"duration\": 1 }, \"tasks\": {\n"
		  "  \"a\": { \"loop\": -1, \"barrier\": \"b\" }, \"b\": { \"loop\": -1, \"run\": 5, \"barrier\": \"b\" } } }");
}
END_TEST

/*
 * What the parser cannot see: fuzz-sim's livelock, three FIFO instances
 * on two CPUs looping over a barrier only they use and a yield, handing
 * the CPUs to each other at one nanosecond. The run fails once the events
 * in a row reach the floor its caller set (64 per task and CPU if more),
 * naming the tasks that kept waking.
 */
START_TEST(a_run_where_no_time_passes_fails)
{
	struct sim_opts o = { .clamp_policy = POLICY_RFC, .order = CLAMP_ORDER_410,
			      .duration_ns = 50 * NSEC_PER_MSEC,
			      .stuck_events_min = 4096 };
	const char *input = "tests/fuzz/regressions/sim/livelock-barrier-yield-fifo.json";
	char *text = source_text(input);
	struct run *r;

	ck_assert_msg(text, "%s", input);
	r = run_with(text, "juno-r0", &o, NULL);
	ck_assert_msg(r->s, "%s", r->d.log.buf);
	ck_assert(r->s->failed);
	ck_assert_msg(strstr(r->d.log.buf, "error: no simulated time passes: 4097 events at 0.001200 s, waking consumer-0, consumer-1, consumer-2"),
		      "%s", r->d.log.buf);
	ck_assert_uint_lt(r->s->nevents, 3 * 4096);
	run_free(r);
	free(text);
}
END_TEST

/* A caller's event limit stops the run where it is, not as failed */
START_TEST(a_run_stops_at_its_event_limit)
{
	static const char text[] =
		"{ \"tasks\": { \"t\": { \"run\": 1000, \"sleep\": 1000 } } }";
	struct sim_opts o = { .clamp_policy = POLICY_RFC,
			      .duration_ns = NSEC_PER_SEC, .max_events = 100 };
	struct run *r = run_with(text, "sym4", &o, NULL);

	ck_assert_msg(r->s, "%s", r->d.log.buf);
	ck_assert_int_eq(r->ret, 0);
	ck_assert(!r->s->failed);
	ck_assert_uint_eq(r->s->nevents, 100);
	ck_assert_uint_lt(r->s->now, 100 * NSEC_PER_MSEC);
	run_free(r);
}
END_TEST

START_TEST(instances_in_all_are_bounded)
{
	struct strbuf sb;
	int i;

	sb_init(&sb);
	sb_puts(&sb, "{ \"global\": { \"duration\": 1 }, \"tasks\": {\n");
	/* 257 x 1024 instances: one task over 2^18 */
	for (i = 0; i < 257; i++)
		sb_printf(&sb, "%s\"t%d\": { \"instance\": 1024, \"run\": 10, \"sleep\": 10 }\n",
			  i ? "," : "", i);
	sb_puts(&sb, "} }");
	expect_error(sb.buf, "w.json:1:41: error: tasks: 263168 task instances in all: allowed at most 262144 (the simulator's limit)");
	sb_free(&sb);
	expect_error("{ \"tasks\": { \"t\": { \"instance\": 1000000000, \"run\": 1 } } }",
		     "tasks.t.instance: 1000000000 is out of range: allowed [0, 1024]");
}
END_TEST

/* 10 000 tasks, each with its own timer: every resource indexed once */
START_TEST(ten_thousand_tasks_with_their_own_timers)
{
	struct strbuf sb;
	struct diag d;
	struct workload *wl;
	int i;

	sb_init(&sb);
	sb_puts(&sb, "{ \"global\": { \"duration\": 1 }, \"tasks\": {\n");
	for (i = 0; i < 10000; i++)
		sb_printf(&sb, "%s\"t%d\": { \"run\": 10, \"timer\": { \"ref\": \"r%d\", \"period\": 1000 }, \"barrier\": \"b%d\" }\n",
			  i ? "," : "", i, i, i / 2);
	sb_puts(&sb, "} }");
	wl = parse(sb.buf, &d);
	ck_assert_msg(wl != NULL, "%.1000s", d.log.buf);
	ck_assert_int_eq(wl->ntasks, 10000);
	ck_assert_int_eq(wl->nres, 10000 + 5000);
	for (i = 0; i < wl->nres; i++) {
		if (wl->res[i].kind == WL_RES_BARRIER)
			ck_assert_int_eq(wl->res[i].users, 2);
	}
	ck_assert_int_eq(wl->tasks[9999].phases[0].ev[1].type, WL_EV_TIMER);
	ck_assert_str_eq(wl->res[wl->tasks[9999].phases[0].ev[1].res].name,
			 "r9999");
	ck_assert_int_eq(wl->res[wl->tasks[9999].phases[0].ev[2].res].kind,
			 WL_RES_BARRIER);
	ck_assert_int_eq(d.warnings, 0);
	workload_free(wl);
	diag_free(&d);
	sb_free(&sb);
}
END_TEST

START_TEST(messages_are_capped_and_counted)
{
	struct strbuf sb;
	struct diag d;
	struct workload *wl;
	const char *c;
	int i, lines = 0;

	sb_init(&sb);
	sb_puts(&sb, "{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": {\n"
		"  \"run\": 10, \"sleep\": 10");
	for (i = 0; i < 20000; i++)
		sb_printf(&sb, ",\n  \"unknown%d\": %d", i, i);
	sb_puts(&sb, " } } }");
	wl = parse(sb.buf, &d);
	ck_assert_msg(wl != NULL, "%.1000s", d.log.buf);
	ck_assert_int_eq(d.warnings, 20000);
	ck_assert_int_eq(d.hidden_warnings, 20000 - DIAG_MAX_SHOWN);
	ck_assert_int_eq(d.nwarn, DIAG_MAX_SHOWN);
	for (c = d.log.buf; *c; c++)
		lines += *c == '\n';
	ck_assert_int_eq(lines, DIAG_MAX_SHOWN);
	/* the shown ones still have their positions, found by the index */
	ck_assert_msg(strstr(d.log.buf, "w.json:102:16: warning: tasks.t.unknown99: unknown key \"unknown99\", ignored"),
		      "%.500s", d.log.buf);
	workload_free(wl);
	diag_free(&d);
	sb_free(&sb);
}
END_TEST

START_TEST(positions_of_escaped_and_nested_keys)
{
	/* the index decodes \u escapes as jansson does */
	expect_error("{ \"tasks\": {\n"
		     "  \"caf\\u00e9\\ud83d\\ude00\": { \"run\": \"x\" },\n"
		     "  \"t\\/2\": { \"sleep\": -1, \"run\": 1 } } }",
		     "w.json:2:37: error: tasks[\"caf\xc3\xa9\xf0\x9f\x98\x80\"].run: \"x\" is not an integer");
	expect_error("{ \"tasks\": {\n"
		     "  \"t/2\": { \"run\": 1, \"phases\": { \"p~1\": { \"sleep\": -1 } } } } }",
		     "w.json:2:52: error: tasks[\"t/2\"].phases[\"p~1\"].sleep: -1 is out of range");
}
END_TEST

static struct platform *platform_text(const char *text, struct diag *d)
{
	FILE *f = fopen("limits-platform.json", "w");
	struct platform *p;

	fputs(text, f);
	fclose(f);
	diag_init(d, true);
	p = platform_load("./limits-platform.json", d);
	remove("limits-platform.json");
	return p;
}

/* 3 000 domains with the same id: each reported once, not each pair */
START_TEST(duplicate_domain_ids_reported_once_each)
{
	struct strbuf sb;
	struct diag d;
	int i;

	sb_init(&sb);
	sb_puts(&sb, "{ \"name\": \"dup\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 0 } ],\n"
		"  \"domains\": [\n");
	for (i = 0; i < 3000; i++)
		sb_printf(&sb, "%s{ \"id\": 0, \"cpus\": [0], \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] }\n",
			  i ? "," : "");
	sb_puts(&sb, "] }");
	ck_assert(platform_text(sb.buf, &d) == NULL);
	ck_assert_int_eq(d.errors, 2999);
	ck_assert_int_eq(d.hidden_errors, 2999 - DIAG_MAX_SHOWN);
	ck_assert_msg(strstr(d.log.buf, "./limits-platform.json:4:2: error: domains[1]: duplicate domain id 0 (also domains[0])"),
		      "%.500s", d.log.buf);
	diag_free(&d);
	sb_free(&sb);
}
END_TEST

START_TEST(inputs_are_bounded_regular_files)
{
	const char *why;
	size_t len;
	struct diag d;
	struct jdoc doc;
	char *b;
	FILE *f;

	b = read_input_file("/dev/zero", 1 << 20, &len, &why);
	ck_assert(b == NULL);
	ck_assert_str_eq(why, "not a regular file");
	ck_assert_int_eq(mkfifo("limits-fifo", 0600), 0);
	/* must not wait for a writer */
	b = read_input_file("limits-fifo", 1 << 20, &len, &why);
	remove("limits-fifo");
	ck_assert(b == NULL);
	ck_assert_str_eq(why, "not a regular file");
	b = read_input_file(".", 1 << 20, &len, &why);
	ck_assert(b == NULL && why);

	f = fopen("limits-big.json", "w");
	fputs("{ \"name\": \"0123456789\" }", f);
	fclose(f);
	b = read_input_file("limits-big.json", 10, &len, &why);
	ck_assert(b == NULL);
	ck_assert_str_eq(why, "larger than an input file may be");
	b = read_input_file("limits-big.json", 100, &len, &why);
	ck_assert(b != NULL);
	ck_assert_uint_eq(len, 24);
	free(b);
	remove("limits-big.json");

	diag_init(&d, true);
	ck_assert_int_eq(jdoc_load_file(&doc, "/dev/zero", &d), -1);
	ck_assert_msg(strstr(d.log.buf, "/dev/zero: error: cannot read: not a regular file (allowed: a regular file of at most 64 MiB)"),
		      "%s", d.log.buf);
	jdoc_free(&doc);
	diag_free(&d);
}
END_TEST

/* jansson quotes the token near an error: never raw bytes of the input */
START_TEST(no_raw_bytes_in_messages)
{
	static const char text[] = "{ \"a\": \x01\x7f\xfe\xff\x80garbage-that-goes-on-for-a-long-while-indeed }";
	struct diag d;
	struct jdoc doc;
	const unsigned char *c;

	diag_init(&d, true);
	ck_assert_int_eq(jdoc_load_buffer(&doc, "bin.json", text,
					  sizeof(text) - 1, &d), -1);
	for (c = (const unsigned char *)d.log.buf; *c; c++)
		ck_assert_msg(*c == '\n' || (*c >= 0x20 && *c < 0x7f),
			      "byte 0x%02x in %s", *c, d.log.buf);
	ck_assert_msg(strstr(d.log.buf, "bin.json:1:"), "%s", d.log.buf);
	ck_assert_msg(strlen(d.log.buf) < 160, "%s", d.log.buf);
	jdoc_free(&doc);
	diag_free(&d);

	diag_init(&d, true);
	ck_assert_int_eq(jdoc_load_buffer(&doc, "passwd", "root:x:0:0:root\n",
					  16, &d), -1);
	ck_assert_str_eq(d.log.buf, "passwd:1:1: error: not a JSON object (the first character is not '{')\n");
	jdoc_free(&doc);
	diag_free(&d);
}
END_TEST

int main(void)
{
	return check_main("limits", 0, CHECK_TESTS(
			  durations_within_the_simulator_limits,
			  group_paths_as_the_kernel_allows,
			  util_min_not_above_util_max,
			  loops_that_take_no_time_are_refused,
			  a_run_where_no_time_passes_fails,
			  a_run_stops_at_its_event_limit,
			  instances_in_all_are_bounded,
			  ten_thousand_tasks_with_their_own_timers,
			  messages_are_capped_and_counted,
			  positions_of_escaped_and_nested_keys,
			  duplicate_domain_ids_reported_once_each,
			  inputs_are_bounded_regular_files,
			  no_raw_bytes_in_messages));
}
