// SPDX-License-Identifier: GPL-2.0
/* capsim's trace.txt read back through the project's ftrace reader
 * (src/trace): every line parses, timestamps never go back, the events
 * carry the kernel's fields, and the frequency story matches the summary. */
#include "simtest.h"

#include "ftrace.h"

struct tally {
	long lines, events, sw, wake, waking, wnew, mig, freq, idle, clamp;
	uint64_t last_ts;
	int sugov_cpu[16];	/* per domain, the CPU of the last decision */
};

static void read_back(FILE *f, struct sim *s, struct tally *t)
{
	char line[1024];

	memset(t, 0, sizeof(*t));
	memset(t->sugov_cpu, 0xff, sizeof(t->sugov_cpu));
	ck_assert(s->ndoms <= 16);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		struct ftrace_event ev;
		const char *err = NULL;
		int col = 0, r;
		int64_t v;

		line[strcspn(line, "\n")] = '\0';
		t->lines++;
		/* as the kernel prints it: no padding, the exact count line */
		ck_assert_msg(!*line || line[strlen(line) - 1] != ' ',
			      "line %ld ends in a space: '%s'", t->lines, line);
		if (t->lines == 3) {
			char want[128];

			snprintf(want, sizeof(want),
				 "# entries-in-buffer/entries-written: %lu/%lu   #P:%d",
				 (unsigned long)s->tr.entries,
				 (unsigned long)s->tr.entries, s->ncpus);
			ck_assert_str_eq(line, want);
		}
		r = ftrace_parse_line(line, &ev, &err, &col);
		ck_assert_msg(r >= 0, "line %ld col %d: %s: %s", t->lines, col, err,
			      line);
		if (!r)
			continue;
		t->events++;
		ck_assert_msg(ev.ts_ns >= t->last_ts, "time went back at line %ld",
			      t->lines);
		t->last_ts = ev.ts_ns;
		ck_assert(ev.cpu >= 0 && ev.cpu < s->ncpus);
		if (!strcmp(ev.name, "sched_switch")) {
			t->sw++;
			ck_assert(ftrace_get(&ev, "prev_comm") && ftrace_get(&ev, "next_comm"));
			ck_assert(ftrace_get(&ev, "prev_state"));
			ck_assert(ftrace_get_i64(&ev, "next_prio", &v));
		} else if (!strcmp(ev.name, "sched_wakeup")) {
			t->wake++;
			ck_assert(ftrace_get_i64(&ev, "target_cpu", &v));
		} else if (!strcmp(ev.name, "sched_waking")) {
			t->waking++;
		} else if (!strcmp(ev.name, "sched_wakeup_new")) {
			t->wnew++;
		} else if (!strcmp(ev.name, "sched_migrate_task")) {
			t->mig++;
			ck_assert(ftrace_get_i64(&ev, "dest_cpu", &v));
		} else if (!strcmp(ev.name, "cpu_frequency")) {
			const struct pdomain *pd;
			int64_t cpu, i, ok = 0;

			t->freq++;
			ck_assert(ftrace_get_i64(&ev, "state", &v));
			ck_assert(ftrace_get_i64(&ev, "cpu_id", &cpu));
			pd = s->cpus[cpu].dom->pd;
			for (i = 0; i < pd->nopps; i++)
				ok |= pd->opps[i].khz == (unsigned int)v;
			ck_assert_msg(ok, "%lld kHz is not an OPP", (long long)v);
			/* a change (not the initial state) is printed on the
			 * CPU whose update decided it, in its context, for
			 * every cpu_id of the domain */
			if (t->sugov_cpu[s->cpus[cpu].dom->idx] >= 0)
				ck_assert_msg(ev.cpu == t->sugov_cpu[s->cpus[cpu].dom->idx],
					      "line %ld: cpu_frequency on [%03d], decided on %d",
					      t->lines, ev.cpu,
					      t->sugov_cpu[s->cpus[cpu].dom->idx]);
		} else if (!strcmp(ev.name, "capsim_sugov")) {
			int d;

			ck_assert(ftrace_get_i64(&ev, "dom", &v));
			for (d = 0; d < s->ndoms && s->doms[d].pd->id != v; d++)
				;
			ck_assert(d < s->ndoms);
			t->sugov_cpu[d] = ev.cpu;
		} else if (!strcmp(ev.name, "cpu_idle")) {
			t->idle++;
		} else if (!strcmp(ev.name, "cap_clamp_cpu")) {
			int64_t mn, mx;

			t->clamp++;
			ck_assert(ftrace_get_i64(&ev, "min", &mn));
			ck_assert(ftrace_get_i64(&ev, "max", &mx));
			ck_assert(mn >= 0 && mx <= 1024);
		}
	}
}

static void check_workload(const char *file, const char *platform)
{
	const char *root = getenv("CAPSIM_SRCDIR");
	char *path = xasprintf("%s/%s", root ? root : "../..", file);
	size_t len;
	char *text = read_file(path, &len);
	FILE *f = tmpfile();
	struct run *r;
	struct tally t;
	uint64_t transitions = 0;
	int d;

	ck_assert_msg(text, "cannot read %s", path);
	r = run_text(text, platform, POLICY_RFC, CLAMP_ORDER_612, 3, f);
	RUN_OK(r);
	read_back(f, r->s, &t);
	ck_assert_uint_eq((uint64_t)t.events, r->s->tr.entries);
	ck_assert_int_gt(t.sw, 10);
	ck_assert_int_eq(t.wnew, r->s->ntasks);
	ck_assert_int_eq(t.wake, t.waking);
	for (d = 0; d < r->s->ndoms; d++)
		transitions += r->s->doms[d].transitions * r->s->doms[d].pd->ncpus;
	/* one line per CPU of the domain per change, plus the initial state */
	ck_assert_int_eq(t.freq, (long)transitions + r->s->ncpus);
	ck_assert_uint_eq(kcompat_warn_count, 0);
	fclose(f);
	run_free(r);
	free(text);
	free(path);
}

START_TEST(traces_read_back_sym4)
{
	check_workload("traces/whatif-bg-cap.json", "sym4");
	check_workload("traces/video-playback.json", "sym4");
	check_workload("traces/audio.json", "sym4");
}
END_TEST

START_TEST(traces_read_back_asymmetric)
{
	check_workload("traces/bg-batch-capped.json", "juno-r0");
	check_workload("traces/rt-capped.json", "sd855");
	check_workload("traces/video-playback.json", "sd855");
}
END_TEST

/*
 * The boost acts while the task is RUNNABLE only: walk the trace keeping
 * the task's state and the domain's frequency, and measure the time at the
 * top OPP while it sleeps and below the top while it is runnable.
 */
START_TEST(boost_follows_runnable_in_the_trace)
{
	static const char text[] =
		"{ \"tasks\": { \"ui\": { \"taskgroup\": \"/top-app\", \"run\": 1000,\n"
		"      \"timer\": { \"ref\": \"vsync\", \"period\": 20000 } },\n"
		"   \"noise\": { \"run\": 300, \"sleep\": 3700 } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/top-app\": { \"capacity_min\": 1024 } } } }";
	FILE *f = tmpfile();
	struct run *r = run_text(text, "sym4", POLICY_RFC, CLAMP_ORDER_612, 4, f);
	uint64_t last = 0, top_sleeping = 0, low_running = 0, runnable_ns = 0;
	bool runnable = false, top = false;
	char line[1024];
	long wakeups = 0;

	RUN_OK(r);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		struct ftrace_event ev;
		const char *err, *v;
		int col;
		int64_t x;

		if (ftrace_parse_line(line, &ev, &err, &col) != 1)
			continue;
		if (runnable && !top)
			low_running += ev.ts_ns - last;
		if (!runnable && top)
			top_sleeping += ev.ts_ns - last;
		if (runnable)
			runnable_ns += ev.ts_ns - last;
		last = ev.ts_ns;
		if (!strcmp(ev.name, "cpu_frequency") &&
		    ftrace_get_i64(&ev, "cpu_id", &x) && x == 0) {
			ftrace_get_i64(&ev, "state", &x);
			top = x == 2500000;
		} else if ((!strcmp(ev.name, "sched_wakeup") ||
			    !strcmp(ev.name, "sched_wakeup_new")) &&
			   !strcmp(ftrace_get(&ev, "comm"), "ui")) {
			runnable = true;
			wakeups++;
		} else if (!strcmp(ev.name, "sched_switch") &&
			   !strcmp(ftrace_get(&ev, "prev_comm"), "ui") &&
			   (v = ftrace_get(&ev, "prev_state")) && v[0] != 'R') {
			runnable = false;
		}
	}
	ck_assert_int_ge(wakeups, 199);
	/* the frequency follows within the 1 ms rate limit, both ways */
	ck_assert_msg(top_sleeping <= (uint64_t)wakeups * 50000ULL,
		      "%.3f ms at the top while ui sleeps", top_sleeping / 1e6);
	ck_assert_msg(low_running <= runnable_ns / 20,
		      "%.3f of %.3f ms runnable below the top", low_running / 1e6,
		      runnable_ns / 1e6);
	fclose(f);
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("trace", 120, CHECK_TESTS(
			  traces_read_back_sym4,
			  traces_read_back_asymmetric,
			  boost_follows_runnable_in_the_trace));
}
