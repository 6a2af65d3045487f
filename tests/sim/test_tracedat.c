// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat: a simulated run converted by capsim run --trace-dat, read
 * back by Debian's trace-cmd (`trace-cmd report -N`: the kernel's print
 * fmts, no plugins), must hold every event of trace.txt with the same
 * time, CPU, task and fields. Also the converter's errors.
 */
#include <sys/wait.h>

#include "clitest.h"
#include "ftrace.h"
#include "trace_reader.h"
#include "tracedat.h"

/* Every event the simulator writes: FIFO and CFS, an I/O wait (D), task
 * exits (X), preemptions (R+), migrations, a group path long enough that
 * its record needs rt's long form, idle gaps longer than 2^27 ns (time
 * extends), and --trace-util's capsim_util. */
static const char workload[] =
"{ \"global\": { \"duration\": 3 },\n"
"  \"tasks\": {\n"
"    \"a_task_with_a_long_name\": { \"instance\": 2, \"run\": 3000, \"sleep\": 7000 },\n"
"    \"rt\": { \"policy\": \"SCHED_FIFO\", \"priority\": 20, \"run\": 500, \"timer\": { \"ref\": \"t\", \"period\": 4000 } },\n"
"    \"io\": { \"run\": 1000, \"iorun\": 20000, \"loop\": 50 },\n"
"    \"mover\": { \"taskgroup\": \"/" "g0123456789g0123456789g0123456789g0123456789g0123456789g0123456789g0123456789g0123456789\",\n"
"               \"phases\": { \"a\": { \"cpus\": [0], \"run\": 2000 }, \"b\": { \"cpus\": [3], \"run\": 2000 },\n"
"                           \"c\": { \"sleep\": 400000 } } } },\n"
"  \"capsim\": { \"events\": [ { \"at_ms\": 1500, \"group\": \"/" "g0123456789g0123456789g0123456789g0123456789g0123456789g0123456789g0123456789g0123456789\", \"capacity_max\": 300 } ] } }\n";

struct line {
	char *text;		/* owns the strings of ev */
	struct ftrace_event ev;
	size_t seq;		/* order in its file */
};

struct lines {
	struct line *v;
	size_t n;
	size_t cap;
};

static void add_line(struct lines *l, const char *s)
{
	struct line *x;
	const char *msg;
	char *body;
	int col;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		ck_assert(l->v);
	}
	x = &l->v[l->n];
	x->text = xstrdup(s);
	x->seq = l->n;
	/* a marker in either face (trace.txt's "tracing_mark_write: TEXT",
	 * trace-cmd's "print: 0x0: TEXT") is compared as the event its text
	 * names, the way the trace reader sees it */
	if (ftrace_parse_head(x->text, &x->ev, &body, &msg, &col) == 1) {
		trace_marker_event(&body, &x->ev);
		ftrace_split_fields(body, &x->ev);
		l->n++;
	}
	else
		free(x->text);
}

/* trace-cmd merges the CPUs by time: compare in (time, CPU) order, each
 * CPU's events in their own order */
static int by_time_cpu(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->ev.ts_ns != y->ev.ts_ns)
		return x->ev.ts_ns < y->ev.ts_ns ? -1 : 1;
	if (x->ev.cpu != y->ev.cpu)
		return x->ev.cpu - y->ev.cpu;
	return x->seq < y->seq ? -1 : 1;
}

static void read_lines(FILE *f, struct lines *l)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&buf, &cap, f)) > 0) {
		if (buf[n - 1] == '\n')
			buf[n - 1] = '\0';
		add_line(l, buf);
	}
	free(buf);
	qsort(l->v, l->n, sizeof(*l->v), by_time_cpu);
}

static void free_lines(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
}

static void same_event(const struct line *a, const struct line *b)
{
	int i;

	ck_assert_msg(a->ev.ts_ns == b->ev.ts_ns && a->ev.cpu == b->ev.cpu &&
		      a->ev.pid == b->ev.pid && !strcmp(a->ev.comm, b->ev.comm) &&
		      !strcmp(a->ev.name, b->ev.name) &&
		      a->ev.nr_fields == b->ev.nr_fields,
		      "trace.txt event %zu: %s %s-%d [%d] %lu, trace-cmd: %s %s-%d [%d] %lu",
		      a->seq, a->ev.name, a->ev.comm, a->ev.pid, a->ev.cpu,
		      (unsigned long)a->ev.ts_ns, b->ev.name, b->ev.comm,
		      b->ev.pid, b->ev.cpu, (unsigned long)b->ev.ts_ns);
	for (i = 0; i < a->ev.nr_fields; i++)
		ck_assert_msg(!strcmp(a->ev.fields[i].key, b->ev.fields[i].key) &&
			      !strcmp(a->ev.fields[i].val, b->ev.fields[i].val),
			      "%s at %lu: %s=%s in trace.txt, %s=%s from trace-cmd",
			      a->ev.name, (unsigned long)a->ev.ts_ns,
			      a->ev.fields[i].key, a->ev.fields[i].val,
			      b->ev.fields[i].key, b->ev.fields[i].val);
}

static void count_event(const struct lines *l, const char *name,
			const char *key, const char *val, size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < l->n; i++) {
		const char *v = key ? ftrace_get(&l->v[i].ev, key) : NULL;

		if (!strcmp(l->v[i].ev.name, name) &&
		    (!key || (v && strstr(v, val))))
			(*n)++;
	}
}

START_TEST(trace_cmd_reads_every_event)
{
	struct lines txt = { NULL, 0, 0 }, rep = { NULL, 0, 0 };
	const char *must[][3] = {
		{ "sched_switch", "prev_state", "R+" },
		{ "sched_switch", "prev_state", "D" },
		{ "sched_switch", "prev_state", "X" },
		{ "sched_switch", "prev_state", "S" },
		{ "sched_waking", NULL, NULL }, { "sched_wakeup", NULL, NULL },
		{ "sched_wakeup_new", NULL, NULL },
		{ "sched_migrate_task", NULL, NULL },
		{ "cpu_frequency", NULL, NULL },
		{ "cpu_idle", "state", "4294967295" },
		{ "cap_clamp_cpu", NULL, NULL },
		{ "cap_clamp_write", "path", "/g0123456789g" },
		{ "capsim_sugov", NULL, NULL }, { "capsim_util", NULL, NULL },
	};
	size_t i, n;
	FILE *f;
	int rc;
	char *err;

	remove_run_dir("out-dat");
	put_file("dat.json", workload);
	err = cli_stderr(&rc, "run", "dat.json", "--trace-dat", "--trace-util",
			 "-o", "out-dat", "--quiet", NULL);
	ck_assert_msg(rc == 0, "%s", err);
	free(err);

	f = fopen("out-dat/trace.txt", "r");
	ck_assert(f);
	read_lines(f, &txt);
	fclose(f);
	f = popen("trace-cmd report -N out-dat/trace.dat 2>&1", "r");
	ck_assert(f);
	read_lines(f, &rep);
	ck_assert_int_eq(pclose(f), 0);

	/* the workload reaches every kind of event */
	for (i = 0; i < ARRAY_SIZE(must); i++) {
		count_event(&txt, must[i][0], must[i][1], must[i][2], &n);
		ck_assert_msg(n > 0, "no %s %s=%s in trace.txt", must[i][0],
			      must[i][1] ? must[i][1] : "",
			      must[i][2] ? must[i][2] : "");
	}
	ck_assert_uint_gt(txt.n, 10000);
	ck_assert_uint_eq(txt.n, rep.n);
	for (i = 0; i < txt.n; i++)
		same_event(&txt.v[i], &rep.v[i]);
	free_lines(&txt);
	free_lines(&rep);
}
END_TEST

static void expect_convert_error(const char *text, const char *want)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	FILE *out = tmpfile();
	char err[256] = "";

	ck_assert(in && out);
	ck_assert_int_eq(tracedat_convert(in, "t.txt", out, err, sizeof(err)),
			 -1);
	ck_assert_msg(strstr(err, want), "expected \"%s\", got \"%s\"", want,
		      err);
	fclose(in);
	fclose(out);
}

#define LINE(ev) "          <idle>-0       [000]     0.000100: " ev "\n"

START_TEST(converter_errors)
{
	expect_convert_error("# tracer: nop\n" LINE("sched_stat_runtime: comm=a pid=1 runtime=5"),
			     "t.txt:2:1: event \"sched_stat_runtime\" has no format");
	expect_convert_error(LINE("capsim_sugov: dom=0 util=1 perf=1 min=0 max=1024 target_khz=1 khz=1 rate=5"),
			     "t.txt:1:1: capsim_sugov: field \"rate\" is not in the event's format (add it to src/trace/trace_events.def)");
	expect_convert_error(LINE("cpu_idle: state=1"),
			     "cpu_idle: no field \"cpu_id\"");
	expect_convert_error(LINE("cpu_idle: state=x cpu_id=0"),
			     "cpu_idle: state=x is not a valid value");
	expect_convert_error(LINE("sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=Q ==> next_comm=b next_pid=2 next_prio=120"),
			     "prev_state=Q is not a valid value");
	expect_convert_error("          <idle>-0       [000]     0.000200: cpu_idle: state=1 cpu_id=0\n"
			     "          <idle>-0       [000]     0.000100: cpu_idle: state=1 cpu_id=0\n",
			     "t.txt:2:1: time goes back on CPU 0");
	expect_convert_error("# nothing\n", "no CPU");
}
END_TEST

START_TEST(trace_dat_command)
{
	int rc;
	char *err;

	put_file("bad.txt", LINE("bogus_event: x=1"));
	unlink("bad.dat");
	err = cli_stderr(&rc, "trace-dat", "bad.txt", "bad.dat", NULL);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "bad.txt: error: bad.txt:1:1: event \"bogus_event\" has no format"),
		      "%s", err);
	ck_assert(!exists("bad.dat"));
	free(err);
	expect_short_usage("capsim: trace-dat needs IN.txt and OUT.dat\n",
			   "trace-dat", "trace-dat", "bad.txt", NULL);
	ck_assert_int_eq(cli("trace-dat", "--help", NULL), 0);
	/* a trace.dat of a trace.dat's source is the same file */
	put_file("ok.txt", LINE("cpu_idle: state=1 cpu_id=0"));
	ck_assert_int_eq(cli("trace-dat", "ok.txt", "ok.dat", NULL), 0);
	ck_assert(exists("ok.dat"));
}
END_TEST

int main(void)
{
	if (system("trace-cmd --help >/dev/null 2>&1") != 0 &&
	    system("command -v trace-cmd >/dev/null 2>&1") != 0) {
		printf("SKIP: trace-cmd is not installed (scripts/deps.sh core installs it)\n");
		return 77;	/* meson: skipped */
	}
	return check_main("tracedat", 300, CHECK_TESTS(
		trace_cmd_reads_every_event,
		converter_errors,
		trace_dat_command));
}
