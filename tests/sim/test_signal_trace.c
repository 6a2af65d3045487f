// SPDX-License-Identifier: GPL-2.0
/*
 * --trace-signals: LISA's events where 6.12's tracepoints fire, and the
 * schedutil decision event with every input a replay needs: each
 * capsim_sugov line is recomputed here by the pure governor from the
 * capsim_sugov_cpu lines before it, and must give the same target.
 */
#include "simtest.h"
#include "ftrace.h"

static const char workload[] =
	"{ \"tasks\": { \"ui\": { \"run\": 3000, \"timer\": { \"ref\": \"u\", \"period\": 16000 } },\n"
	"  \"bg\": { \"instance\": 2, \"taskgroup\": \"/bg\", \"run\": 20000, \"sleep\": 20000 },\n"
	"  \"rt\": { \"policy\": \"SCHED_FIFO\", \"priority\": 5, \"run\": 500, \"timer\": { \"ref\": \"r\", \"period\": 10000 } } },\n"
	"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"uclamp_max\": \"40\" } } } }";

static struct run *traced(enum clamp_policy p, bool signals, FILE *f)
{
	struct sim_opts o = { .clamp_policy = p, .order = CLAMP_ORDER_612,
			      .trace_signals = signals,
			      .duration_ns = 2000000000ULL };
	struct run *r;

	ck_assert(ftruncate(fileno(f), 0) == 0);
	rewind(f);
	r = run_with(workload, "juno-r0", &o, f);
	RUN_OK(r);
	rewind(f);
	return r;
}

/* The value of " key=" in @line */
static unsigned long long field(const char *line, const char *key)
{
	char pat[40];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	ck_assert_msg(p != NULL, "no %s in %s", key, line);
	return strtoull(p + strlen(pat), NULL, 10);
}

static void replay_decisions(enum clamp_policy pol)
{
	FILE *f = tmpfile();
	struct run *r = traced(pol, true, f);
	struct sugov_cpu_input cpu[8];
	char line[1024];
	int n = 0, decisions = 0, changes = 0;

	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "capsim_sugov_cpu:")) {
			struct sugov_cpu_input *c = &cpu[n++];

			ck_assert_int_le(n, 8);
			*c = (struct sugov_cpu_input){
				.util_cfs = field(line, "util_cfs"),
				.util_rt = field(line, "util_rt"),
				.util_dl = field(line, "util_dl"),
				.bw_dl = field(line, "bw_dl"),
				.rt_runnable = field(line, "rt_runnable"),
				.dl_runnable = field(line, "dl_runnable"),
				.idle = field(line, "idle"),
				.clamp = { field(line, "clamp_min"),
					   field(line, "clamp_max") },
				.rt_floor = field(line, "rt_floor"),
				.boost = field(line, "boost") };
		} else if (strstr(line, "capsim_sugov:")) {
			int dom = (int)field(line, "dom");
			const struct pdomain *pd = r->s->doms[dom].pd;
			struct sugov_input in = {
				.order = CLAMP_ORDER_612,
				.scale = r->s->cpus[pd->cpus[0]].capacity,
				.max_khz = pd->opps[pd->nopps - 1].khz,
				.ncpus = n, .cpu = cpu };
			struct sugov_output out;
			int caller = 0;

			ck_assert_int_eq(n, pd->ncpus);
			for (int j = 0; j < n; j++)
				if (pd->cpus[j] == (int)field(line, "caller"))
					caller = j;
			ck_assert_uint_eq(sugov_next_perf(&in, caller, &out),
					  field(line, "target_khz"));
			ck_assert_uint_eq(out.perf, field(line, "perf"));
			decisions++;
			changes += (int)field(line, "changed");
			n = 0;
		}
	}
	/* every decision is there, not only the changes */
	ck_assert_int_gt(changes, 10);
	ck_assert_int_gt(decisions, changes);
	run_free(r);
	fclose(f);
}

START_TEST(decisions_replay_from_the_trace)
{
	replay_decisions(POLICY_UCLAMP);
	replay_decisions(POLICY_NONE);
}
END_TEST

/*
 * The LISA events: present only with --trace-signals; update_time is a
 * PELT clock time, advanced in 1024 ns units from a 1024-aligned start;
 * utilizations within the scale; uclamp events under uclamp only.
 */
START_TEST(lisa_events)
{
	FILE *f = tmpfile();
	struct run *r = traced(POLICY_UCLAMP, false, f);
	char line[1024];
	int se = 0, cfs = 0, rt = 0, est = 0, ucl = 0, sugov_plain = 0;
	int ranges = 0;

	/* without the signals only uclamp's rq ranges (the band of
	 * freq.png under uclamp), printed when they change */
	while (fgets(line, sizeof(line), f)) {
		bool range = strstr(line, "lisa__uclamp_util_cfs:") != NULL;

		ck_assert_msg(range || !strstr(line, "lisa__"), "%s", line);
		ranges += range;
		sugov_plain += strstr(line, "capsim_sugov:") != NULL;
	}
	ck_assert_int_gt(sugov_plain, 0);
	ck_assert_int_gt(ranges, 0);
	run_free(r);

	r = traced(POLICY_UCLAMP, true, f);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "lisa__sched_pelt_se:")) {
			ck_assert(strstr(line, " path=(null) comm="));
			ck_assert_uint_eq(field(line, "update_time") % 1024, 0);
			ck_assert_uint_le(field(line, "util"), 1024);
			se++;
		} else if (strstr(line, "lisa__sched_pelt_cfs:")) {
			ck_assert(strstr(line, " path=/ load="));
			ck_assert_uint_eq(field(line, "update_time") % 1024, 0);
			cfs++;
		} else if (strstr(line, "lisa__sched_pelt_rt:")) {
			rt++;
		} else if (strstr(line, "lisa__sched_util_est_se:")) {
			est++;
		} else if (strstr(line, "lisa__uclamp_util_cfs:")) {
			ck_assert_uint_le(field(line, "uclamp_avg"), 1024);
			ucl++;
		}
	}
	ck_assert(se > 100 && cfs > 100 && rt > 10 && est > 10 && ucl > 100);
	run_free(r);
	/* no uclamp events under rfc */
	r = traced(POLICY_RFC, true, f);
	while (fgets(line, sizeof(line), f))
		ck_assert(!strstr(line, "lisa__uclamp"));
	run_free(r);
	fclose(f);
}
END_TEST

/*
 * capsim_pelt_se: right after each task's lisa__sched_pelt_se, the same
 * update (cpu, pid, update_time), with sums that give LISA's averages
 * (___update_load_avg(): util = util_sum / divider, divider
 * LOAD_AVG_MAX - 1024 + period_contrib) and inputs that are flags.
 */
START_TEST(capsim_pelt_se_follows_lisa)
{
	FILE *f = tmpfile();
	struct run *r = traced(POLICY_NONE, true, f);
	char line[1024], prev[1024] = "";
	int n = 0;

	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "capsim_pelt_se:")) {
			unsigned long long div = 47742 - 1024 +
				field(line, "period_contrib");

			ck_assert_msg(strstr(prev, "lisa__sched_pelt_se:"),
				      "%s", line);
			ck_assert_uint_eq(field(line, "pid"), field(prev, "pid"));
			ck_assert_uint_eq(field(line, "cpu"), field(prev, "cpu"));
			ck_assert_uint_eq(field(line, "update_time"),
					  field(prev, "update_time"));
			ck_assert_uint_eq(field(line, "util_sum") / div,
					  field(prev, "util"));
			ck_assert_uint_eq(field(line, "runnable_sum") / div,
					  field(prev, "runnable"));
			ck_assert_uint_le(field(line, "period_contrib"), 1023);
			ck_assert_uint_le(field(line, "on_rq"), 1);
			ck_assert_uint_le(field(line, "running"),
					  field(line, "on_rq"));
			n++;
		} else if (strstr(prev, "lisa__sched_pelt_se:")) {
			ck_abort_msg("no capsim_pelt_se after %s", prev);
		}
		memcpy(prev, line, sizeof(prev));
	}
	ck_assert_int_gt(n, 100);
	run_free(r);
	fclose(f);
}
END_TEST

/*
 * A task woken onto another CPU from an idle one decays on to the idle
 * source's clock (migrate_se_pelt_lag()); 6.12's
 * __update_load_avg_blocked_se() fires pelt_se_tp there too when a
 * period was crossed: an update of the task, asleep, on the source CPU,
 * after its sched_migrate_task line (the placement's sync comes before
 * it; the removal's sync names the destination, see
 * tests/xcheck/test_migration_sync.c: when that is fixed, this test must
 * also tell the two apart by update_time).
 */
START_TEST(migration_lag_update_is_traced)
{
	FILE *f = tmpfile();
	struct run *r = traced(POLICY_NONE, true, f);
	char line[1024];
	int64_t mig_pid = -1, mig_src = -1;
	uint64_t mig_ts = 0;
	int lag = 0;

	while (fgets(line, sizeof(line), f)) {
		struct ftrace_event ev;
		const char *err;
		int col;
		int64_t pid, on_rq, cpu;

		if (ftrace_parse_line(line, &ev, &err, &col) != 1)
			continue;
		if (!strcmp(ev.name, "sched_migrate_task")) {
			ck_assert(ftrace_get_i64(&ev, "pid", &mig_pid));
			ck_assert(ftrace_get_i64(&ev, "orig_cpu", &mig_src));
			mig_ts = ev.ts_ns;
		} else if (!strcmp(ev.name, "capsim_pelt_se") &&
			   ftrace_get_i64(&ev, "on_rq", &on_rq) && !on_rq &&
			   ftrace_get_i64(&ev, "pid", &pid) &&
			   ftrace_get_i64(&ev, "cpu", &cpu) &&
			   pid == mig_pid && ev.ts_ns == mig_ts &&
			   cpu == mig_src) {
			lag++;
		}
	}
	ck_assert_int_gt(lag, 0);
	run_free(r);
	fclose(f);
}
END_TEST

/*
 * lisa__sched_cpu_capacity: at the ticking CPU's periodic balance
 * (update_cpu_capacity()), capacity = orig - RT util - DL util (at least
 * 1), orig the CPU's, curr = orig scaled by the CPU's frequency as LISA's
 * rq_cpu_current_capacity() does; the RT and DL utilizations are the last
 * lisa__sched_pelt_rt/_dl of that CPU, the frequency its last
 * cpu_frequency (the domain's lowest OPP before the first).
 */
START_TEST(cpu_capacity_event)
{
	FILE *f = tmpfile();
	struct run *r = traced(POLICY_RFC, true, f);
	unsigned long rt[8] = { 0 }, dl[8] = { 0 }, khz[8];
	char line[1024];
	int n = 0, reduced = 0, below_max = 0, i;

	for (i = 0; i < r->s->ncpus; i++)
		khz[i] = r->s->cpus[i].dom->pd->opps[0].khz;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "lisa__sched_pelt_rt:")) {
			rt[field(line, "cpu")] = field(line, "util");
		} else if (strstr(line, "lisa__sched_pelt_dl:")) {
			dl[field(line, "cpu")] = field(line, "util");
		} else if (strstr(line, "cpu_frequency:")) {
			khz[field(line, "cpu_id")] = field(line, "state");
		} else if (strstr(line, "lisa__sched_cpu_capacity:")) {
			int cpu = (int)field(line, "cpu");
			const struct pdomain *pd = r->s->cpus[cpu].dom->pd;
			unsigned long orig = r->s->cpus[cpu].capacity;
			unsigned long used = rt[cpu] + dl[cpu];
			unsigned long max_khz = pd->opps[pd->nopps - 1].khz;

			ck_assert_uint_eq(field(line, "capacity_orig"), orig);
			ck_assert_uint_eq(field(line, "capacity"),
					  used >= orig ? 1 : orig - used);
			ck_assert_uint_eq(field(line, "capacity_curr"),
					  (orig * ((khz[cpu] << 10) / max_khz)) >> 10);
			reduced += field(line, "capacity") < orig;
			below_max += khz[cpu] < max_khz;
			n++;
		}
	}
	/* 2 s, each busy CPU about every 32 ms; the FIFO task shows */
	ck_assert_int_gt(n, 60);
	ck_assert_int_gt(reduced, 0);
	ck_assert_int_gt(below_max, 0);
	run_free(r);
	/* not without --trace-signals */
	r = traced(POLICY_RFC, false, f);
	while (fgets(line, sizeof(line), f))
		ck_assert(!strstr(line, "lisa__sched_cpu_capacity"));
	run_free(r);
	fclose(f);
}
END_TEST

int main(void)
{
	return check_main("signal-trace", 120, CHECK_TESTS(
			  decisions_replay_from_the_trace,
			  lisa_events,
			  capsim_pelt_se_follows_lisa,
			  migration_lag_update_is_traced,
			  cpu_capacity_event));
}
