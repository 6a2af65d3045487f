/*
 * A trace's profile over a window (src/trace/trace_profile.c) on a small
 * kernel text trace on sym4: busy time, activations (sched_waking only
 * where the trace has no sched_wakeup), response times, a task named by
 * its last comm, CPU busy time, the domain's unknown stretch and OPP
 * residency, the TVD's residency from a later start, the window clipping
 * all of them, and the bad input refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "diag.h"
#include "platform.h"
#include "trace_profile.h"

#define MS 1000000ULL

/* pid 10 runs on CPU 0 1.0-1.4 s as "a", then 1.6-1.8 s renamed "b";
 * the domain's first frequency event is at 1.2 s; the trace ends at 2 s */
static const char trace_text[] =
"# tracer: nop\n"
"          <idle>-0     [000] d..2.  1.000000: sched_waking: comm=a pid=10 prio=120 target_cpu=000\n"
"          <idle>-0     [000] d..2.  1.000000: sched_wakeup: comm=a pid=10 prio=120 target_cpu=000\n"
"          <idle>-0     [000] d..2.  1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n"
"          <idle>-0     [000] d..2.  1.200000: cpu_frequency: state=1000000 cpu_id=0\n"
"               a-10    [000] d..2.  1.400000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
"          <idle>-0     [000] d..2.  1.600000: sched_wakeup: comm=b pid=10 prio=120 target_cpu=000\n"
"          <idle>-0     [000] d..2.  1.600000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=10 next_prio=120\n"
"               b-10    [000] d..2.  1.800000: sched_switch: prev_comm=b prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
"          <idle>-0     [001] d..2.  2.000000: cpu_idle: state=1 cpu_id=1\n";

static char *write_trace(const char *text)
{
	char *path = strdup("/tmp/test_trace_profile.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static struct platform *sym4(void)
{
	struct diag d;
	struct platform *pl;

	diag_init(&d, false);
	pl = platform_load("sym4", &d);
	diag_free(&d);
	assert_non_null(pl);
	return pl;
}

/* Profile @text over [from, to) with @tvd_from (or NULL): its result */
static int profile(const char *text, double from, double to,
		   const uint64_t *tvd_from, struct trace_profile *p,
		   struct platform *pl)
{
	char *path = write_trace(text);
	int r;

	memset(p, 0, sizeof(*p));
	p->pl = pl;
	p->origin_ns = -1;
	p->from_s = from;
	p->to_s = to;
	p->tvd_from_ns = tvd_from;
	r = trace_profile_read(p, path);
	unlink(path);
	free(path);
	return r;
}

static void whole_trace(void **state)
{
	struct platform *pl = sym4();
	struct trace_profile p;
	struct profile_task *t;

	(void)state;
	assert_int_equal(profile(trace_text, 0, -1, NULL, &p, pl), 0);
	assert_int_equal(p.win_end - p.win_start, 1000 * MS);
	assert_int_equal(p.ss.ntasks, 1);
	t = trace_profile_task(&p, 0);
	assert_string_equal(profile_task_name(t), "b");
	assert_int_equal(t->busy_ns, 600 * MS);
	/* two sched_wakeup: the sched_waking before the first is the same
	 * wake-up */
	assert_int_equal(profile_task_activations(&p, t), 2);
	assert_int_equal(t->resp.n, 2);
	assert_int_equal(t->resp.v[0], 400 * MS);
	assert_int_equal(t->resp.v[1], 200 * MS);
	assert_int_equal(p.cpu_busy_ns[0], 600 * MS);
	assert_int_equal(p.cpu_busy_ns[1], 0);
	/* unknown until 1.2 s, then 1 GHz (sym4's second OPP) */
	assert_int_equal(p.doms[0].res.unknown_ns, 200 * MS);
	assert_int_equal(p.doms[0].res.opp_ns[0], 0);
	assert_int_equal(p.doms[0].res.opp_ns[1], 800 * MS);
	assert_int_equal(p.doms[0].res.cut_opp_ns[1], 800 * MS);
	trace_profile_free(&p);
	platform_free(pl);
}

static void window_clips(void **state)
{
	struct platform *pl = sym4();
	uint64_t tvd_from[1] = { 50 * MS };
	struct trace_profile p;
	struct profile_task *t;

	(void)state;
	/* [1.3, 1.7): a's last 0.1 s and b's first 0.1 s; one wake-up */
	assert_int_equal(profile(trace_text, 0.3, 0.7, tvd_from, &p, pl), 0);
	t = trace_profile_task(&p, 0);
	assert_int_equal(t->busy_ns, 200 * MS);
	assert_int_equal(profile_task_activations(&p, t), 1);
	/* the response begun before the window is not its own */
	assert_int_equal(t->resp.n, 1);
	assert_int_equal(t->resp.v[0], 200 * MS);
	assert_int_equal(p.doms[0].res.unknown_ns, 0);
	assert_int_equal(p.doms[0].res.opp_ns[1], 400 * MS);
	/* the TVD's residency from 50 ms into the window */
	assert_int_equal(p.doms[0].res.cut_opp_ns[1], 350 * MS);
	trace_profile_free(&p);
	platform_free(pl);
}

static void waking_only(void **state)
{
	struct platform *pl = sym4();
	struct trace_profile p;
	char *text = strdup(trace_text), *s;

	(void)state;
	/* every sched_wakeup made a sched_waking */
	while ((s = strstr(text, "sched_wakeup:")))
		memcpy(s, "sched_waking:", 13);
	assert_int_equal(profile(text, 0, -1, NULL, &p, pl), 0);
	assert_int_equal(p.total_wakeups, 0);
	assert_int_equal(profile_task_activations(&p, trace_profile_task(&p, 0)), 3);
	trace_profile_free(&p);
	platform_free(pl);
	free(text);
}

static void bad_input(void **state)
{
	struct platform *pl = sym4();
	struct trace_profile p;
	char *text = strdup(trace_text), *s = strstr(text, "state=1000000");

	(void)state;
	/* a frequency sym4 lacks */
	memcpy(s, "state=1000001", 13);
	assert_int_equal(profile(text, 0, -1, NULL, &p, pl), PROFILE_BAD_INPUT);
	trace_profile_free(&p);
	/* no sched_switch */
	assert_int_equal(profile("          <idle>-0     [000] d..2.  1.200000: cpu_frequency: state=1000000 cpu_id=0\n",
				 0, -1, NULL, &p, pl), PROFILE_BAD_INPUT);
	trace_profile_free(&p);
	/* a window after the trace */
	assert_int_equal(profile(trace_text, 5, -1, NULL, &p, pl),
			 PROFILE_BAD_INPUT);
	trace_profile_free(&p);
	platform_free(pl);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_trace),
		cmocka_unit_test(window_clips),
		cmocka_unit_test(waking_only),
		cmocka_unit_test(bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
