// SPDX-License-Identifier: GPL-2.0
/*
 * A simulator deviation the signal replay found (a failing should_fail
 * test until move_signals() in src/sim/sim.c was fixed), kept as a
 * regression test:
 *
 * 6.12 set_task_cpu() calls migrate_task_rq_fair() before
 * __set_task_cpu(): a waking task's remove_entity_load_avg() ->
 * sync_entity_load_avg() decays it to its *source* queue's
 * cfs_rq_last_update_time(), and pelt_se_tp reports that queue's CPU.
 * capsim's move_signals() (src/sim/sim.c) set t->cpu = dst first, so
 * remove_entity() -> task_util() syncs the task to the *destination*
 * queue's last update: another CPU's PELT clock, stale when that CPU was
 * idle (traces/audio.json, ui at 0.051120: its sleep decays to CPU 2's
 * clock 19 ms behind, util 305 kept where the source's clock would have
 * decayed it). The trace shows it: the sync's capsim_pelt_se (the one of
 * the task at its sched_migrate_task's timestamp, on_rq=0) names the
 * destination, and its update_time is beyond what the source's clock can
 * have reached, or more than a period behind it.
 */
#include "simtest.h"
#include "ftrace.h"

static const char workload[] =
	"{ \"tasks\": { \"ui\": { \"run\": 3000, \"timer\": { \"ref\": \"u\", \"period\": 16000 } },\n"
	"  \"bg\": { \"instance\": 2, \"run\": 20000, \"sleep\": 20000 },\n"
	"  \"rt\": { \"policy\": \"SCHED_FIFO\", \"priority\": 5, \"run\": 500, \"timer\": { \"ref\": \"r\", \"period\": 10000 } } } }";

#define NCPU 8

/* the task's migrations, read first: the sync may print before its line */
struct mig {
	int64_t pid, src;
	uint64_t ts;
};

static int read_migrations(FILE *f, struct mig *m, int max)
{
	char *line = NULL;
	size_t cap = 0;
	int n = 0;

	while (getline(&line, &cap, f) > 0) {
		struct ftrace_event ev;
		const char *err;
		int col;

		if (ftrace_parse_line(line, &ev, &err, &col) != 1 ||
		    strcmp(ev.name, "sched_migrate_task") || n == max)
			continue;
		ck_assert(ftrace_get_i64(&ev, "pid", &m[n].pid));
		ck_assert(ftrace_get_i64(&ev, "orig_cpu", &m[n].src));
		m[n++].ts = ev.ts_ns;
	}
	free(line);
	rewind(f);
	return n;
}

static const struct mig *migration_at(const struct mig *m, int n,
				      int64_t pid, uint64_t ts)
{
	int i;

	for (i = 0; i < n; i++)
		if (m[i].pid == pid && m[i].ts == ts)
			return &m[i];
	return NULL;
}

START_TEST(wakeup_migration_syncs_on_the_source_queue)
{
	struct sim_opts so = { .clamp_policy = POLICY_NONE,
			       .order = CLAMP_ORDER_612, .trace_signals = true,
			       .duration_ns = 3000000000ULL };
	FILE *f = tmpfile();
	struct run *r = run_with(workload, "juno-r0", &so, f);
	/* the last update_time logged on each CPU, and when */
	uint64_t last_ut[NCPU] = { 0 }, last_ts[NCPU] = { 0 };
	static struct mig migs[4096];
	int nmig, syncs = 0, wrong_cpu = 0, wrong_clock = 0;
	char *line = NULL;
	size_t cap = 0;

	RUN_OK(r);
	rewind(f);
	nmig = read_migrations(f, migs, 4096);
	while (getline(&line, &cap, f) > 0) {
		struct ftrace_event ev;
		const struct mig *m;
		const char *err;
		int col;
		int64_t pid, cpu, ut, on_rq;

		if (ftrace_parse_line(line, &ev, &err, &col) != 1)
			continue;
		if (strncmp(ev.name, "lisa__sched_pelt_", 17) &&
		    strcmp(ev.name, "capsim_pelt_se"))
			continue;
		if (!ftrace_get_i64(&ev, "cpu", &cpu) || cpu < 0 ||
		    cpu >= NCPU || !ftrace_get_i64(&ev, "update_time", &ut))
			continue;
		if (!strcmp(ev.name, "capsim_pelt_se") &&
		    ftrace_get_i64(&ev, "pid", &pid) &&
		    ftrace_get_i64(&ev, "on_rq", &on_rq) && !on_rq &&
		    (m = migration_at(migs, nmig, pid, ev.ts_ns))) {
			uint64_t s = (uint64_t)m->src;

			syncs++;
			wrong_cpu += cpu != m->src;
			/* the source's clock: at most real time since its
			 * last logged update, less than a unit ahead of it */
			if (last_ts[s] &&
			    ((uint64_t)ut > last_ut[s] + (ev.ts_ns - last_ts[s]) +
			     1024 || (uint64_t)ut + 1024 * 1024 < last_ut[s]))
				wrong_clock++;
			continue;
		}
		last_ut[cpu] = (uint64_t)ut;
		last_ts[cpu] = ev.ts_ns;
	}
	fprintf(stderr, "wake-up migration syncs %d: on the destination's "
		"CPU %d, off the source's clock %d\n", syncs, wrong_cpu,
		wrong_clock);
	/* freed first: a regression must not leak under valgrind */
	free(line);
	run_free(r);
	fclose(f);
	ck_assert_int_ge(syncs, 5);
	ck_assert_int_eq(wrong_cpu, 0);
	ck_assert_int_eq(wrong_clock, 0);
}
END_TEST

int main(void)
{
	return check_main("migration-sync", 300, CHECK_TESTS(
			  wakeup_migration_syncs_on_the_source_queue));
}
