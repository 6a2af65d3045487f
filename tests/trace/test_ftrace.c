/* The ftrace text reader on lines in the kernel's and capsim's formats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ftrace.h"

static int parse(const char *text, struct ftrace_event *ev, char *buf,
		 size_t n, int *col)
{
	const char *err = NULL;

	strncpy(buf, text, n - 1);
	buf[n - 1] = '\0';
	return ftrace_parse_line(buf, ev, &err, col);
}

static void kernel_line_with_flags(void **state)
{
	struct ftrace_event ev;
	char buf[512];
	int col;
	int64_t v;

	(void)state;
	assert_int_equal(parse("          <idle>-0       [001] d..2.    54.313512: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/1:1 next_pid=42 next_prio=120\n",
			       &ev, buf, sizeof(buf), &col), 1);
	assert_string_equal(ev.comm, "<idle>");
	assert_int_equal(ev.pid, 0);
	assert_int_equal(ev.cpu, 1);
	assert_true(ev.ts_ns == 54313512000ull);
	assert_string_equal(ev.name, "sched_switch");
	assert_string_equal(ftrace_get(&ev, "prev_comm"), "swapper/1");
	assert_string_equal(ftrace_get(&ev, "next_comm"), "kworker/1:1");
	assert_true(ftrace_get_i64(&ev, "next_pid", &v));
	assert_int_equal(v, 42);
	assert_int_equal(ev.nr_fields, 7);
}

static void capsim_line_without_flags(void **state)
{
	struct ftrace_event ev;
	char buf[512];
	int col;
	int64_t v;

	(void)state;
	assert_int_equal(parse("    my-app thread-1234    [003]     1.000250: cpu_frequency: state=1500000 cpu_id=3",
			       &ev, buf, sizeof(buf), &col), 1);
	assert_string_equal(ev.comm, "my-app thread");
	assert_int_equal(ev.pid, 1234);
	assert_int_equal(ev.cpu, 3);
	assert_true(ev.ts_ns == 1000250000ull);
	assert_string_equal(ev.name, "cpu_frequency");
	assert_true(ftrace_get_i64(&ev, "state", &v));
	assert_int_equal(v, 1500000);
	assert_null(ftrace_get(&ev, "missing"));
}

static void values_with_spaces_and_comments(void **state)
{
	struct ftrace_event ev;
	char buf[512];
	int col;

	(void)state;
	assert_int_equal(parse("# tracer: nop", &ev, buf, sizeof(buf), &col), 0);
	assert_int_equal(parse("   ", &ev, buf, sizeof(buf), &col), 0);
	assert_int_equal(parse("a-1 [000] 0.5: sched_waking: comm=Web Content pid=7 prio=120 target_cpu=002",
			       &ev, buf, sizeof(buf), &col), 1);
	assert_string_equal(ftrace_get(&ev, "comm"), "Web Content");
	assert_string_equal(ftrace_get(&ev, "target_cpu"), "002");
	assert_true(ev.ts_ns == 500000000ull);
}

static void malformed(void **state)
{
	struct ftrace_event ev;
	char buf[512];
	int col;

	(void)state;
	assert_int_equal(parse("no cpu column here", &ev, buf, sizeof(buf), &col), -1);
	assert_int_equal(parse("nopid [000] 1.0: x: a=1", &ev, buf, sizeof(buf), &col), -1);
	assert_int_equal(parse("a-1 [000] notatime: x: a=1", &ev, buf, sizeof(buf), &col), -1);
	assert_int_equal(col, 11);
	assert_int_equal(parse("a-1 [000] 1.0: ", &ev, buf, sizeof(buf), &col), -1);
}

/* Found by the fuzzer: the cut in front of "[CPU]" used to land on the
 * '[' when no space separated it from the PID, and the reader then
 * dereferenced strchr(...) + 1 of NULL. */
static void cpu_column_right_after_pid(void **state)
{
	struct ftrace_event ev;
	char buf[512];
	int col;

	(void)state;
	assert_int_equal(parse("task-1234567[002] 1.000000: sched_waking: pid=1",
			       &ev, buf, sizeof(buf), &col), 1);
	assert_string_equal(ev.comm, "task");
	assert_int_equal(ev.pid, 1234567);
	assert_int_equal(ev.cpu, 2);
	assert_string_equal(ev.name, "sched_waking");
	assert_int_equal(parse("-12[000] 1.000000: x: a=1", &ev, buf,
			       sizeof(buf), &col), -1);
}

static void numbers_out_of_range(void **state)
{
	struct ftrace_event ev;
	char buf[512];
	int col;

	(void)state;
	assert_int_equal(parse("a-99999999999999999999 [000] 1.0: x: a=1", &ev,
			       buf, sizeof(buf), &col), -1);
	assert_int_equal(col, 3);
	assert_int_equal(parse("a-4194305 [000] 1.0: x: a=1", &ev, buf,
			       sizeof(buf), &col), -1);
	assert_int_equal(parse("a-1 [99999999999] 1.0: x: a=1", &ev, buf,
			       sizeof(buf), &col), -1);
	assert_int_equal(col, 6);
	assert_int_equal(parse("a-1 [8192] 1.0: x: a=1", &ev, buf,
			       sizeof(buf), &col), -1);
	assert_int_equal(parse("a-1 [8191] 18446744073.0: x: a=1", &ev, buf,
			       sizeof(buf), &col), 1);
	assert_int_equal(ev.cpu, 8191);
	assert_int_equal(parse("a-1 [000] 18446744074.0: x: a=1", &ev, buf,
			       sizeof(buf), &col), -1);
	assert_int_equal(parse("a-1 [000] 99999999999999999999.0: x: a=1", &ev,
			       buf, sizeof(buf), &col), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_line_with_flags),
		cmocka_unit_test(capsim_line_without_flags),
		cmocka_unit_test(values_with_spaces_and_comments),
		cmocka_unit_test(malformed),
		cmocka_unit_test(cpu_column_right_after_pid),
		cmocka_unit_test(numbers_out_of_range),
	};

	return cmocka_run_group_tests_name("ftrace_reader", tests, NULL, NULL);
}
