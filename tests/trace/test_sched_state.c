/*
 * The schedule state machine (src/trace/sched_state.c) on a small trace
 * in the kernel's text, read through trace_reader: the intervals it
 * reports, wake-ups with their waker, migrations, frequency (unknown
 * until the first event, devlib's marker until the kernel's), idle,
 * comms, tgid and prio, and a CPU beyond the limit refused.
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

#include "sched_state.h"
#include "trace_reader.h"

/* What the ops saw, as text lines, compared whole */
struct seen {
	char buf[4096];
	size_t len;
};

static void say(struct seen *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s->len += (size_t)vsnprintf(s->buf + s->len, sizeof(s->buf) - s->len,
				    fmt, ap);
	va_end(ap);
}

static void on_interval(void *arg, const struct sched_task *t, uint64_t t0,
			uint64_t t1, enum sched_task_state st, int cpu)
{
	static const char *const names[] = { "S", "R", "RUN", "X" };

	say(arg, "int %d %s %llu-%llu cpu%d\n", t->pid, names[st],
	    (unsigned long long)t0 / 1000, (unsigned long long)t1 / 1000, cpu);
}

static void on_wakeup(void *arg, struct sched_task *t, int waker, int target,
		      bool waking)
{
	say(arg, "wake %d by %d to %d%s\n", t->pid, waker, target,
	    waking ? " (waking)" : "");
}

static void on_migrate(void *arg, struct sched_task *t, int from, int to)
{
	say(arg, "migrate %d %d->%d\n", t->pid, from, to);
}

static int on_freq(void *arg, const struct ftrace_event *ev, int cpu,
		   uint64_t t0, uint64_t t1, unsigned int old)
{
	say(arg, "freq cpu%d %llu-%llu %u%s\n", cpu,
	    (unsigned long long)t0 / 1000, (unsigned long long)t1 / 1000, old,
	    ev ? "" : " (end)");
	return 0;
}

static void on_idle(void *arg, int cpu, uint64_t t0, uint64_t t1, int state)
{
	say(arg, "idle cpu%d %llu-%llu %d\n", cpu, (unsigned long long)t0 / 1000,
	    (unsigned long long)t1 / 1000, state);
}

/* Feed @text to a state machine bounded to @cpus CPUs: 0, or the feed's
 * failure; @ss is left for the caller to look at and free */
static int feed(const char *text, int cpus, struct sched_state *ss,
		struct seen *seen)
{
	char path[] = "/tmp/test_sched_state.XXXXXX";
	int fd = mkstemp(path), r;
	struct trace_reader rd = { 0 };
	struct ftrace_event ev;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(ss, 0, sizeof(*ss));
	memset(seen, 0, sizeof(*seen));
	ss->ops = (struct sched_state_ops){
		.arg = seen, .interval = on_interval, .wakeup = on_wakeup,
		.migrate = on_migrate, .freq = on_freq, .idle = on_idle,
	};
	ss->cpu_limit = cpus;
	assert_int_equal(trace_reader_open(&rd, path), 0);
	sched_state_init(ss, &rd);
	while ((r = trace_reader_next(&rd, &ev)) > 0)
		if ((r = sched_state_feed(ss, &ev)) != 0)
			break;
	if (!r)
		sched_state_finish(ss, ss->now);
	trace_reader_close(&rd);
	unlink(path);
	return r;
}

static const char trace[] =
	"# tracer: nop\n"
	"  rtapp-100 ( 100) [000] d..2. 1.000000: cpu_frequency_devlib: state=500000 cpu_id=0\n"
	"  rtapp-100 ( 100) [000] d..2. 1.000010: sched_waking: comm=worker pid=101 prio=120 target_cpu=001\n"
	"  rtapp-100 ( 100) [000] d..2. 1.000020: sched_wakeup: comm=worker pid=101 prio=120 target_cpu=001\n"
	"  <idle>-0 (-----) [001] d..2. 1.000030: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=101 next_prio=110\n"
	"  <idle>-0 (-----) [000] d..2. 1.000040: cpu_frequency: state=900000 cpu_id=0\n"
	"  <idle>-0 (-----) [000] d..2. 1.000045: cpu_frequency_devlib: state=100000 cpu_id=0\n"
	"  worker-101 ( 100) [001] d..2. 1.000050: sched_switch: prev_comm=worker prev_pid=101 prev_prio=110 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	"  <idle>-0 (-----) [001] d..2. 1.000060: cpu_idle: state=1 cpu_id=1\n"
	"  <idle>-0 (-----) [000] d..2. 1.000070: sched_wakeup: comm=worker pid=101 prio=120 target_cpu=000\n"
	"  <idle>-0 (-----) [001] d..2. 1.000080: cpu_idle: state=4294967295 cpu_id=1\n"
	"  <idle>-0 (-----) [000] d..2. 1.000090: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker2 next_pid=101 next_prio=120\n"
	"  worker2-101 ( 100) [000] d..2. 1.000100: sched_switch: prev_comm=worker2 prev_pid=101 prev_prio=120 prev_state=X ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";

static void schedule_of_a_trace(void **state)
{
	struct sched_state ss;
	struct seen seen;
	struct sched_task *t;

	(void)state;
	assert_int_equal(feed(trace, 2, &ss, &seen), 0);
	assert_string_equal(seen.buf,
		"freq cpu0 1000000-1000000 0\n"
		"wake 101 by 100 to 1 (waking)\n"
		"wake 101 by 100 to 1\n"
		"int 101 S 1000010-1000020 cpu-1\n"
		"int 101 R 1000020-1000030 cpu-1\n"
		"freq cpu0 1000000-1000040 500000\n"
		"int 101 RUN 1000030-1000050 cpu1\n"
		"idle cpu1 1000030-1000060 -1\n"
		"wake 101 by 0 to 0\n"
		"int 101 S 1000050-1000070 cpu1\n"
		"idle cpu1 1000060-1000080 1\n"
		"int 101 R 1000070-1000090 cpu1\n"
		"migrate 101 1->0\n"
		"int 101 RUN 1000090-1000100 cpu0\n"
		"idle cpu0 1000000-1000100 -1\n"
		"freq cpu0 1000040-1000100 900000 (end)\n"
		"idle cpu1 1000080-1000100 -1\n"
		"freq cpu1 1000000-1000100 0 (end)\n");
	t = sched_state_find(&ss, 101);
	assert_non_null(t);
	assert_int_equal(t->state, SCHED_DEAD);
	assert_int_equal(t->ncomms, 2);
	assert_string_equal(t->comms[0], "worker");
	assert_string_equal(t->comms[1], "worker2");
	assert_int_equal(t->tgid, 100);
	assert_int_equal(t->prio, 120);
	assert_int_equal(ss.cpus[0].khz, 900000);	/* devlib's ignored */
	assert_int_equal(ss.cpus[0].curr, SCHED_CPU_IDLE);
	assert_int_equal(ss.cpus[1].curr, SCHED_CPU_IDLE);
	assert_int_equal(ss.switches, 4);
	assert_null(sched_state_find(&ss, 0));	/* the idle task: no task */
	sched_state_free(&ss);
}

static void unknown_until_seen(void **state)
{
	struct sched_state ss;
	struct seen seen;

	(void)state;
	assert_int_equal(feed(trace, 4, &ss, &seen), 0);
	assert_int_equal(ss.ncpus, 2);
	sched_state_grow(&ss, 3);
	assert_int_equal(ss.cpus[3].curr, SCHED_CPU_UNKNOWN);
	assert_int_equal(ss.cpus[3].khz, 0);
	assert_int_equal(ss.cpus[3].idle, SCHED_IDLE_NONE);
	sched_state_free(&ss);
}

static void cpu_beyond_the_limit(void **state)
{
	struct sched_state ss;
	struct seen seen;

	(void)state;
	assert_int_equal(feed(trace, 1, &ss, &seen), SCHED_BAD_INPUT);
	sched_state_free(&ss);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(schedule_of_a_trace),
		cmocka_unit_test(unknown_until_seen),
		cmocka_unit_test(cpu_beyond_the_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
