// SPDX-License-Identifier: GPL-2.0
/*
 * The analyses LISA and perf sched users look for, checked against what
 * the run did: per-task CPU and domain residency, migrations by reason,
 * time overutilized, the perf sched latency columns and the activation
 * records of activations.csv.
 */
#include "simtest.h"

#include "summary.h"

static struct run *run_opts(const char *text, const char *platform,
			    double duration_s)
{
	struct sim_opts o = { .clamp_policy = POLICY_RFC, .activations = true };
	struct run *r;

	o.duration_ns = (uint64_t)(duration_s * 1e9);
	r = run_with(text, platform, &o, NULL);
	RUN_OK(r);
	return r;
}

static uint64_t cpu_ns(const struct sim_task *t)
{
	uint64_t ns = 0;
	int i;

	for (i = 0; i < t->ncpu_time; i++)
		ns += t->cpu_time[i].ns;
	return ns;
}

static uint64_t mig_total(const struct sim_task *t)
{
	uint64_t n = 0;
	int r;

	for (r = 0; r < NR_MIG_REASONS; r++)
		n += t->mig[r];
	return n;
}

START_TEST(residency_adds_up_to_runtime)
{
	struct run *r = run_opts(
		"{ \"tasks\": { \"a\": { \"instance\": 6, \"run\": 3000, \"sleep\": 5000 },\n"
		"  \"hog\": { \"run\": 100000 } } }", "sd855", 2);
	int i;

	for (i = 0; i < r->s->ntasks; i++) {
		struct sim_task *t = r->s->tasks[i];

		ck_assert_uint_eq(cpu_ns(t), t->runtime_ns);
		ck_assert_uint_eq(mig_total(t), t->migrations);
		/* each CPU at most once */
		for (int j = 0; j < t->ncpu_time; j++)
			for (int k = j + 1; k < t->ncpu_time; k++)
				ck_assert_int_ne(t->cpu_time[j].cpu,
						 t->cpu_time[k].cpu);
	}
	run_free(r);
}
END_TEST

/* A small periodic task on juno-r0: EAS places it, on a LITTLE CPU */
START_TEST(eas_placement_is_named)
{
	struct run *r = run_opts(
		"{ \"tasks\": { \"small\": { \"cpus\": [1], \"loop\": 1,\n"
		"      \"run\": 2000, \"sleep\": 10000 },\n"
		"    \"t\": { \"delay\": 200000, \"run\": 1000, \"timer\": { \"ref\": \"t\", \"period\": 16000 } } } }",
		"juno-r0", 2);
	struct sim_task *t = task_named(r->s, "t");
	uint64_t little = 0;
	int i;

	for (i = 0; i < t->ncpu_time; i++)
		if (r->s->cpus[t->cpu_time[i].cpu].capacity < 1024)
			little += t->cpu_time[i].ns;
	/*
	 * One EAS move: t starts where fork balancing put it, its first
	 * wake-up goes to a LITTLE CPU, and from then on that CPU, its prev,
	 * is the most efficient one: every later wake-up stays.
	 */
	ck_assert_uint_gt(t->activations, 100);
	ck_assert_uint_eq(t->mig[MIG_EAS], 1);
	ck_assert_uint_eq(mig_total(t), 1);
	ck_assert_uint_eq(t->mig[MIG_MISFIT], 0);
	ck_assert(little * 10 > t->runtime_ns * 9);
	run_free(r);
}
END_TEST

/* A task outgrowing a LITTLE CPU is moved as a misfit */
START_TEST(misfit_migration_is_named)
{
	struct run *r = run_opts(
		"{ \"tasks\": { \"grow\": { \"phases\": {\n"
		"    \"small\": { \"loop\": 50, \"run\": 1000, \"sleep\": 15000 },\n"
		"    \"big\": { \"loop\": -1, \"run\": 100000 } } } } }",
		"juno-r0", 3);
	struct sim_task *t = task_named(r->s, "grow");

	/*
	 * Once: the endless "big" phase outgrows the LITTLE CPU it ran its
	 * small phase on, and on a big CPU, with nothing else to run, it
	 * stays.
	 */
	ck_assert_uint_eq(t->mig[MIG_MISFIT], 1);
	ck_assert_uint_eq(r->s->cpus[t->cpu].capacity, 1024);
	run_free(r);
}
END_TEST

START_TEST(affinity_migration_is_named)
{
	struct run *r = run_opts(
		"{ \"tasks\": { \"t\": { \"phases\": {\n"
		"    \"p0\": { \"cpus\": [0], \"run\": 5000 },\n"
		"    \"p1\": { \"cpus\": [2], \"run\": 5000 } } } } }", "sym4", 0.1);
	struct sim_task *t = task_named(r->s, "t");
	size_t i, ended;

	/*
	 * p0 allows only CPU 0, p1 only CPU 2, and the phases alternate: each
	 * activation after the first starts on the other CPU, one affinity
	 * move each.
	 */
	ck_assert_uint_ge(t->nacts, 10);
	ended = t->act_open ? t->nacts - 1 : t->nacts;
	for (i = 0; i < ended; i++)
		ck_assert_int_eq(t->acts[i].cpu, i % 2 ? 2 : 0);
	ck_assert_uint_eq(t->mig[MIG_AFFINITY], t->nacts - 1);
	ck_assert_uint_eq(mig_total(t), t->nacts - 1);
	run_free(r);
}
END_TEST

/* A hog keeps its CPU above 80 %: overutilized nearly all the run */
START_TEST(overutilized_time)
{
	struct run *hog = run_opts(
		"{ \"tasks\": { \"hog\": { \"run\": 1000000 } } }", "sym4", 2);
	struct run *light = run_opts(
		"{ \"tasks\": { \"t\": { \"run\": 1000, \"timer\": { \"ref\": \"t\", \"period\": 20000 } } } }",
		"sym4", 2);

	/* util needs ~50 ms to pass 80 % of 1024; then it stays there */
	ck_assert(hog->s->ou_ns > 1800000000ull && hog->s->ou_ns <= 2000000000ull);
	ck_assert_uint_eq(hog->s->ou_ns, hog->s->doms[0].ou_ns);
	ck_assert_uint_eq(light->s->ou_ns, 0);
	run_free(hog);
	run_free(light);
}
END_TEST

/* perf sched latency's columns from the wake-up delays */
START_TEST(sched_latency_columns)
{
	struct run *r = run_opts(
		"{ \"tasks\": { \"t\": { \"instance\": 6, \"run\": 2000, \"timer\": { \"ref\": \"t\", \"period\": 5000 } } } }",
		"sym4", 1);
	int i;

	for (i = 0; i < r->s->ntasks; i++) {
		struct sim_task *t = r->s->tasks[i];
		int64_t max = 0;
		size_t k;

		for (k = 0; k < t->wlat.n; k++)
			if (t->wlat.v[k] > max)
				max = t->wlat.v[k];
		ck_assert_int_eq(t->wlat_max, max);
		ck_assert_uint_le(t->wlat_max_at, r->s->now);
		/* every wake-up ends in a switch-in */
		ck_assert_uint_ge(t->switches, t->wlat.n);
	}
	run_free(r);
}
END_TEST

/* activations.csv: one row per finished activation, consistent fields */
START_TEST(activation_records)
{
	struct run *r = run_opts(
		"{ \"tasks\": { \"t\": { \"run\": 3000, \"timer\": { \"ref\": \"t\", \"period\": 10000 } } } }",
		"sym4", 1);
	struct sim_task *t = task_named(r->s, "t");
	FILE *f = tmpfile();
	char line[256];
	size_t rows = 0, k, done = 0;

	for (k = 0; k < t->nacts; k++) {
		const struct activation *a = &t->acts[k];

		if (a->cpu < 0)
			continue;
		done++;
		ck_assert_uint_ge(a->end, a->start);
		ck_assert_uint_le(a->run_ns, a->end - a->start);
		/* 3 ms of work at 1024 capacity or less: at least 3 ms */
		ck_assert_uint_ge(a->run_ns, 3000000);
		ck_assert_uint_eq(a->period_ns, 10000000);
		ck_assert(a->khz > 0);
	}
	ck_assert_uint_eq(done, t->completed);
	ck_assert_int_eq(activations_write(r->s, f), 0);
	rewind(f);
	ck_assert(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "task,pid,activation,start_ms,end_ms,run_ms,period_ms,slack_ms,wu_lat_ms,cpu,khz,phase,phase_name,wakeup_ms\n");
	while (fgets(line, sizeof(line), f))
		rows++;
	ck_assert_uint_eq(rows, t->completed);
	fclose(f);
	run_free(r);
}
END_TEST

/*
 * A task that opens each activation with a suspend starts it at the
 * resume's wake-up (not where its previous one ended), and every
 * activation names the wake-up its work answers.
 */
START_TEST(suspend_activation_starts_at_resume)
{
	struct run *r = run_opts(
		"{ \"tasks\": {"
		" \"ui\": { \"run\": 4000, \"resume\": \"rd\","
		"  \"timer\": { \"ref\": \"v\", \"period\": 16667 } },"
		" \"rd\": { \"suspend\": \"rd\", \"run\": 3000 } } }",
		"sym4", 0.5);
	struct sim_task *rd = task_named(r->s, "rd");
	size_t k, done = 0;

	for (k = 0; k < rd->nacts; k++) {
		const struct activation *a = &rd->acts[k];

		if (a->cpu < 0)
			continue;
		done++;
		ck_assert(a->wake_set);
		ck_assert_uint_eq(a->start, a->wake_ns);
		/* 3 ms of work, not the ~13 ms wait for the resume too */
		ck_assert_uint_lt(a->end - a->start, 10000000);
		if (k)
			ck_assert_uint_gt(a->start, rd->acts[k - 1].end);
	}
	ck_assert_uint_ge(done, 25);
	run_free(r);
}
END_TEST

/* activations.csv names each activation's phase: index and name */
START_TEST(activation_phases)
{
	struct run *r = run_opts(
		"{ \"tasks\": { \"t\": { \"phases\": {"
		" \"warm,up\": { \"loop\": 2, \"run\": 1000, \"sleep\": 1000 },"
		" \"steady\": { \"loop\": 3, \"run\": 2000, \"sleep\": 2000 } } },"
		" \"u\": { \"run\": 1000, \"sleep\": 9000 } } }",
		"sym4", 0.1);
	struct sim_task *t = task_named(r->s, "t");
	FILE *f = tmpfile();
	char line[512];
	int n_t = 0, n_u = 0;

	ck_assert_uint_ge(t->nacts, 5);
	ck_assert_int_eq(t->acts[1].phase, 0);
	ck_assert_int_eq(t->acts[2].phase, 1);
	/* the sleep's end is the wake-up the next run answers */
	ck_assert_uint_eq(t->acts[1].wake_ns, t->acts[0].end);
	ck_assert_int_eq(activations_write(r->s, f), 0);
	rewind(f);
	ck_assert(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "t,", 2)) {
			/* phase 0's name quoted, for its comma */
			ck_assert(strstr(line, n_t % 5 < 2 ?
					 ",0,\"warm,up\"," : ",1,steady,"));
			n_t++;
		} else if (!strncmp(line, "u,", 2)) {
			/* no "phases": the phase is unnamed */
			ck_assert(strstr(line, ",0,,"));
			n_u++;
		}
	}
	ck_assert_int_ge(n_t, 5);
	ck_assert_int_ge(n_u, 5);
	fclose(f);
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("analyses", 120, CHECK_TESTS(
			  residency_adds_up_to_runtime,
			  eas_placement_is_named,
			  misfit_migration_is_named,
			  affinity_migration_is_named,
			  overutilized_time,
			  sched_latency_columns,
			  activation_records,
			  suspend_activation_starts_at_resume,
			  activation_phases));
}
