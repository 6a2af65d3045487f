// SPDX-License-Identifier: GPL-2.0
/*
 * The xcheck report: xcheck.json (every figure, for scripts and the test
 * suite), xcheck.md (the same for people, with each level's gate and
 * what explains the differences), and the plots' data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gnuplot.h"
#include "safe_write.h"
#include "xcheck.h"

static double pct(long a, long b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static json_t *lat_json(struct e2e_task *t)
{
	json_t *doms;

	if (!t || !t->wlat.n)
		return json_null();
	doms = json_array();
	for (int d = 0; d < E2E_MAX_DOMS; d++)
		json_array_append_new(doms,
				      json_real((double)t->dom_run_ns[d] / 1e9));
	return json_pack("{s:I,s:f,s:f,s:f,s:o}", "wakeups",
			 (json_int_t)t->wakeups,
			 "p50_ms", ms(samples_pct(&t->wlat, 50)),
			 "p95_ms", ms(samples_pct(&t->wlat, 95)),
			 "run_s", (double)t->run_ns / 1e9,
			 "run_s_per_domain", doms);
}

static json_t *run_json(const struct xcheck *x, const struct e2e_run *r)
{
	json_t *o = json_object(), *doms = json_array(), *others = json_array();
	json_t *causes = json_array();
	json_t *gaps = json_array();
	const struct platform *pl = x->pl;

	/* per domain, shares of the window (0..1) by OPP in kHz and
	 * "unknown", the stretch before its first known frequency, for which
	 * no OPP is assumed (freq_residency.h, docs/traces.md) */
	for (int d = 0; d < pl->ndomains; d++) {
		json_t *res = json_object();

		json_object_set_new(res, "unknown", json_real(
			freq_residency_pct(&r->res[d], -1) / 100.0));
		for (int i = 0; i < pl->domains[d].nopps; i++) {
			char k[32];

			snprintf(k, sizeof(k), "%u", pl->domains[d].opps[i].khz);
			json_object_set_new(res, k, json_real(
				freq_residency_pct(&r->res[d], i) / 100.0));
		}
		json_array_append_new(doms, res);
	}
	for (int i = 0; i < r->nothers; i++) {
		const struct e2e_other *e = &r->others[i];

		if (!e->enqueues && !e->run_ns)
			continue;
		json_array_append_new(others, json_pack(
			"{s:s,s:I,s:f,s:f,s:f}", "comm", e->comm,
			"enqueues", (json_int_t)e->enqueues,
			"runnable_s", (double)e->runnable_ns / 1e9,
			"lift_s", (double)e->lift_ns / 1e9,
			"run_s", (double)e->run_ns / 1e9));
	}
	json_object_set_new(o, "residency", doms);
	json_object_set_new(o, "busy_s", json_real((double)r->busy_ns / 1e9));
	json_object_set_new(o, "above_max_s",
			    json_real((double)r->above_ns / 1e9));
	json_object_set_new(o, "below_min_s",
			    json_real((double)r->below_ns / 1e9));
	json_object_set_new(o, "energy_mj", json_real(r->energy_mj));
	json_object_set_new(o, "freq_changes", json_integer(r->freq_changes));
	json_object_set_new(o, "lifted_s",
			    json_real((double)r->lifted_ns / 1e9));
	json_object_set_new(o, "other_tasks", others);
	json_object_set_new(o, "above_max_unexplained_s",
			    json_real((double)r->unexplained_ns / 1e9));
	for (int g = 0; g < E2E_GAPS; g++)
		if (r->gap_ns[g])
			json_array_append_new(gaps, json_pack("{s:s,s:f,s:f}",
				"why", e2e_gap_name(g),
				"s", (double)r->gap_ns[g] / 1e9,
				"first_ts", (double)r->gap_first[g] / 1e9));
	json_object_set_new(o, "above_max_unexplained_by", gaps);
	for (int i = 0; i < r->ncauses; i++) {
		const struct e2e_cause *c = &r->causes[i];

		json_array_append_new(causes, json_pack(
			"{s:s?,s:i,s:s?,s:i,s:f}",
			"range_from", c->lifter.comm, "range_cpu", c->lifter.cpu,
			"demand_from", c->demand.comm,
			"demand_cpu", c->demand.cpu,
			"s", (double)c->ns / 1e9));
	}
	json_object_set_new(o, "above_max_causes", causes);
	return o;
}

static json_t *l3_json(const struct pelt_replay_result *r)
{
	json_t *o = json_object();
	static const char *const names[] = { "uniform", "changes" };

	for (int c = 0; c < PELT_REPLAY_NCLASSES; c++) {
		const struct pelt_replay_stats *st = &r->cls[c];

		json_object_set_new(o, names[c], json_pack(
			"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			"intervals", (json_int_t)st->n,
			"exact", (json_int_t)st->exact,
			"util_exact", (json_int_t)st->util_exact,
			"explained_by_one_update",
			(json_int_t)st->split_explained,
			"explained_by_delayed_dequeue",
			(json_int_t)st->delay_explained,
			"explained_by_jitter", (json_int_t)st->jitter_explained,
			"max_util_diff", (json_int_t)st->max_util_diff,
			"p99_util_diff", (json_int_t)st->p99_util_diff));
	}
	json_object_set_new(o, "events", json_integer((json_int_t)r->events));
	json_object_set_new(o, "skipped_migrated", json_integer(
		(json_int_t)r->skipped[PELT_SKIP_MIGRATED]));
	json_object_set_new(o, "skipped_other", json_integer(
		(json_int_t)(r->skipped[PELT_SKIP_CHAIN] +
			     r->skipped[PELT_SKIP_GAP])));
	return o;
}

static void md_l3(FILE *f, const struct pelt_replay_result *r,
		  const char *side)
{
	const struct pelt_replay_stats *a = &r->cls[PELT_REPLAY_UNIFORM];
	const struct pelt_replay_stats *b = &r->cls[PELT_REPLAY_CHANGES];

	fprintf(f, "| %s | %lu | %lu (%.2f %%) | %lu + %lu | %lu | %lu | %lu (%lu exact) | %lu / %lu | %lu |\n",
		side, a->n, a->exact, pct((long)a->exact, (long)a->n),
		a->split_explained, a->delay_explained, a->util_exact,
		a->max_util_diff, b->n, b->exact, b->p99_util_diff,
		b->max_util_diff, r->skipped[PELT_SKIP_MIGRATED]);
}

/* A task's running time in @r, in s; -1 when @r lacks it */
static double run_s(const struct e2e_run *r, const char *comm)
{
	struct e2e_task *t = r ? e2e_task(r, comm) : NULL;

	return t ? (double)t->run_ns / 1e9 : -1;
}

/* @b's difference to @a in % of @a; 0 when @a is none */
static double diff_pct(double a, double b)
{
	return a > 0 && b >= 0 ? 100.0 * (b - a) / a : 0;
}

/* Level 4's run the gate compares with: with the other tasks, if any */
static const struct e2e_run *l4_run(const struct xcheck *x)
{
	return x->has_simk ? &x->simk : &x->sim;
}

/*
 * Level 5 beside level 4: residency TVD per domain and each workload
 * task's running time, the guest's, level 4's run's and the imported
 * run's
 */
static json_t *l5_json(const struct xcheck *x)
{
	json_t *tvd, *tvd4, *tasks;

	if (!x->trace_driven || !x->has_simi)
		return json_pack("{s:b,s:b,s:s?}", "pass", x->pass[5],
				 "ran", false, "why", x->trace_driven ?
				 x->simi_why : "--no-trace-driven");
	tvd = json_array();
	tvd4 = json_array();
	tasks = json_object();
	for (int d = 0; d < x->pl->ndomains; d++) {
		json_array_append_new(tvd, json_real(x->tvd_trace[d]));
		json_array_append_new(tvd4, json_real(x->tvd[d]));
	}
	for (int i = 0; i < x->sim.ntasks; i++) {
		const char *c = x->sim.tasks[i].comm;
		double g = run_s(&x->guest, c), s4 = run_s(l4_run(x), c);
		double s5 = run_s(&x->simi, c);

		json_object_set_new(tasks, c, json_pack(
			"{s:f,s:f,s:f,s:f,s:f}", "guest_run_s", g,
			"level4_run_s", s4, "level5_run_s", s5,
			"level4_run_diff_pct", diff_pct(g, s4),
			"level5_run_diff_pct", diff_pct(g, s5)));
	}
	return json_pack("{s:b,s:b,s:s,s:b,s:f,s:o,s:o,s:o,s:o}",
			 "pass", x->pass[5], "ran", true,
			 "workload", "sim-imported.json",
			 "gated", !x->pol->uclamp_values,
			 "tvd_limit", x->lim.tvd_trace,
			 "residency_tvd", tvd, "level4_residency_tvd", tvd4,
			 "sim", run_json(x, &x->simi), "tasks", tasks);
}

static json_t *build_json(const struct xcheck *x)
{
	json_t *root, *tasks = json_object(), *tvd = json_array();
	json_t *tvdp = json_array(), *tvdk = json_array();
	const struct clamp_replay_result *l1 = &x->l1;
	const struct decision_replay_result *l2 = &x->l2, *l2s = &x->l2_sim;

	for (int i = 0; i < x->sim.ntasks; i++) {
		struct e2e_task *s = &x->sim.tasks[i];

		json_object_set_new(tasks, s->comm, json_pack("{s:o,s:o,s:o}",
			"guest", lat_json(e2e_task(&x->guest, s->comm)),
			"sim", lat_json(s),
			"sim_kthreads", x->has_simk ?
			lat_json(e2e_task(&x->simk, s->comm)) : json_null()));
	}
	for (int d = 0; d < x->pl->ndomains; d++) {
		double known;

		json_array_append_new(tvd, json_real(x->tvd[d]));
		json_array_append_new(tvdp, json_real(x->tvd_plain[d]));
		/* the gate's distance is over the time both runs know */
		e2e_tvd(&x->guest, l4_run(x), d, &known);
		json_array_append_new(tvdk, json_real(known));
	}
	root = json_pack("{s:s,s:s,s:s,s:s,s:s,s:f,s:i,s:b,s:s?}",
		"workload", x->workload, "platform", x->pl->name,
		"policy", x->policy, "guest_trace", x->guest_trace,
		"sim_trace", x->sim_trace, "duration_s", x->duration_s,
		"hz", x->hz, "pass", x->pass[0], "failed", x->why);
	json_object_set_new(root, "level1", json_pack(
		"{s:b,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f}",
		"pass", x->pass[1], "events", (json_int_t)l1->events,
		"ops", (json_int_t)l1->ops, "checked", (json_int_t)l1->checked,
		"compared", (json_int_t)l1->compared,
		"matched", (json_int_t)l1->matched,
		"gaps", (json_int_t)l1->gaps, "resyncs", (json_int_t)l1->resyncs,
		"writes", (json_int_t)l1->writes,
		"writes_matched", (json_int_t)l1->writes_matched,
		"matched_pct", pct(l1->matched, l1->compared)));
	json_object_set_new(root, "level2", json_pack(
		"{s:b,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f},s:{s:I,s:I,s:I,s:f}}",
		"pass", x->pass[2],
		"guest", "remote_race", (json_int_t)l2->remote_race,
		"decisions", (json_int_t)l2->decisions,
		"recomputed", (json_int_t)l2->recomputed,
		"matched", (json_int_t)l2->matched,
		"range_mismatch", (json_int_t)l2->range_mismatch,
		"perf_mismatch", (json_int_t)l2->perf_mismatch,
		"khz_mismatch", (json_int_t)l2->khz_mismatch,
		"incomplete", (json_int_t)l2->incomplete,
		"matched_pct", pct(l2->matched, l2->recomputed),
		"sim", "decisions", (json_int_t)l2s->decisions,
		"recomputed", (json_int_t)l2s->recomputed,
		"matched", (json_int_t)l2s->matched,
		"matched_pct", pct(l2s->matched, l2s->recomputed)));
	json_object_set_new(root, "level3", json_pack(
		"{s:b,s:o,s:o,s:{s:f,s:I,s:I,s:I}}", "pass", x->pass[3],
		"guest", l3_json(x->l3), "sim", l3_json(x->l3_sim),
		"limits", "uniform_util_exact", x->lim.uniform_util_exact,
		"uniform_max", (json_int_t)x->lim.uniform_max,
		"changes_p99", (json_int_t)x->lim.changes_p99,
		"changes_max", (json_int_t)x->lim.changes_max));
	json_object_set_new(root, "level4", json_pack(
		"{s:b,s:f,s:o,s:o,s:o,s:i,s:o,s:o,s:o,s:o}", "pass", x->pass[4],
		"tvd_limit", x->lim.tvd, "residency_tvd", tvd,
		"residency_tvd_without_kthreads", tvdp,
		"residency_tvd_known_s", tvdk,
		"kthreads_modelled", x->nkthreads,
		"guest", run_json(x, &x->guest), "sim", run_json(x, &x->sim),
		"sim_kthreads", x->has_simk ? run_json(x, &x->simk) :
		json_null(), "tasks", tasks));
	json_object_set_new(root, "level5", l5_json(x));
	return root;
}

/* OPP @i's share of the window in %, @i < 0 the unknown stretch's */
static double share(const struct e2e_run *r, int d, int i)
{
	return freq_residency_pct(&r->res[d], i);
}

static void md_lat(FILE *f, const struct e2e_run *r, const char *comm)
{
	struct e2e_task *t = r ? e2e_task(r, comm) : NULL;

	if (t && t->wlat.n)
		fprintf(f, " %.3f / %.3f ms (%ld) |",
			ms(samples_pct(&t->wlat, 50)),
			ms(samples_pct(&t->wlat, 95)), t->wakeups);
	else
		fprintf(f, " - |");
}

static void md_who(FILE *f, const struct e2e_who *w)
{
	if (w->cpu < 0)
		fprintf(f, " every CPU idle: no range |");
	else if (w->comm)
		fprintf(f, " %s (CPU %d) |", w->comm, w->cpu);
	else
		fprintf(f, " nothing RUNNABLE (CPU %d) |", w->cpu);
}

/* Why CPUs were busy above their capacity_max, per run */
static void md_causes(FILE *f, const struct e2e_run *const runs[3])
{
	static const char *const names[3] = {
		"guest", "simulator + other tasks", "simulator"
	};

	fprintf(f, "Busy time above a CPU's capacity_max, by the schedutil decision that chose the frequency: whose range let it through (the non-idle CPU with the highest capacity_max, named by its RUNNABLE task with the highest one, or the task dequeued there last) and whose demand asked for it (the CPU with the highest utilization, or RT's floor while RT is runnable). Under the RFC's rule only an uncapped task RUNNABLE in the domain lets a capped CPU run faster, or a decision taken while every CPU was idle (no range applies) whose frequency holds until the next decision; time that no decision's range explains is counted apart (the gate).\n\n");
	fprintf(f, "| run | range from | demand from | time |\n| --- | --- | --- | ---: |\n");
	for (int j = 0; j < 3; j++) {
		const struct e2e_run *r = runs[j];

		if (!r)
			continue;
		for (int i = 0; i < r->ncauses && i < 8; i++) {
			fprintf(f, "| %s |", names[j]);
			md_who(f, &r->causes[i].lifter);
			md_who(f, &r->causes[i].demand);
			fprintf(f, " %.3f s |\n",
				(double)r->causes[i].ns / 1e9);
		}
		if (r->ncauses > 8)
			fprintf(f, "| %s | %d more | | |\n", names[j],
				r->ncauses - 8);
		fprintf(f, "| %s | no range allowed it | | %.3f s |\n",
			names[j], (double)r->unexplained_ns / 1e9);
		for (int g = 0; g < E2E_GAPS; g++)
			if (r->gap_ns[g])
				fprintf(f, "| %s | ... %s (first at %.6f s) | | %.3f s |\n",
					names[j], e2e_gap_name(g),
					(double)r->gap_first[g] / 1e9,
					(double)r->gap_ns[g] / 1e9);
	}
	fprintf(f, "\n");
}

static void md_level4(FILE *f, const struct xcheck *x)
{
	const struct e2e_run *g = &x->guest, *s = &x->sim;
	const struct e2e_run *k = x->has_simk ? &x->simk : NULL;
	const struct e2e_run *runs[3] = { g, k, s };

	fprintf(f, "## Level 4: end to end\n\n");
	if (k)
		fprintf(f, "Gate: residency total-variation distance <= %.3f per domain, between the guest and the simulation with the guest's other tasks modelled: %d kernel threads and helper processes, each periodic at the rate and with the mean run time the guest trace shows, in the root group, pinned to its CPU when per-CPU (`sim-kthreads.json`).\n\n",
			x->lim.tvd, x->nkthreads);
	else
		fprintf(f, "Gate: residency total-variation distance <= %.3f per domain, between the guest and the plain simulation.\n\n",
			x->lim.tvd);
	if (x->pol->capacity_range)
		fprintf(f, "And, in each run, the causes (below): busy time above a CPU's capacity_max that no range of the decision choosing the frequency allowed at most 1 %% of the time above, or 1 ms.\n\n");
	fprintf(f, "| figure | guest | simulator + other tasks | simulator |\n| --- | ---: | ---: | ---: |\n");
	for (int d = 0; d < x->pl->ndomains; d++) {
		const struct pdomain *pd = &x->pl->domains[d];

		double known;

		e2e_tvd(g, k ? k : s, d, &known);
		fprintf(f, "| domain %d residency TVD to the guest, over the %.3f s both know | |",
			d, known);
		if (k)
			fprintf(f, " %.3f |", x->tvd[d]);
		else
			fprintf(f, " - |");
		fprintf(f, " %.3f |\n", x->tvd_plain[d]);
		/* shares of the window, the unknown stretch a row like the
		 * others (freq_residency.h) */
		for (int i = -1; i < pd->nopps; i++) {
			if (i < 0)
				fprintf(f, "| domain %d frequency unknown |", d);
			else
				fprintf(f, "| domain %d at %u MHz |", d,
					pd->opps[i].khz / 1000);
			for (int j = 0; j < 3; j++)
				if (runs[j])
					fprintf(f, " %.1f %% |", share(runs[j], d, i));
				else
					fprintf(f, " - |");
			fprintf(f, "\n");
		}
	}
#define ROW(title, expr, fmt) do {					\
		fprintf(f, "| %s |", title);				\
		for (int j = 0; j < 3; j++) {				\
			const struct e2e_run *r = runs[j];		\
			if (r)						\
				fprintf(f, " " fmt " |", expr);		\
			else						\
				fprintf(f, " - |");			\
		}							\
		fprintf(f, "\n");					\
	} while (0)
	ROW("busy CPU time", (double)r->busy_ns / 1e9, "%.3f s");
	ROW("... above its CPU's capacity_max", (double)r->above_ns / 1e9,
	    "%.3f s");
	ROW("... of it that its decision's range did not allow",
	    (double)r->unexplained_ns / 1e9, "%.3f s");
	ROW("... below its CPU's capacity_min", (double)r->below_ns / 1e9,
	    "%.3f s");
	ROW("energy (busy x power)", r->energy_mj, "%.1f mJ");
	ROW("frequency changes", r->freq_changes, "%ld");
#undef ROW
	for (int i = 0; i < s->ntasks; i++) {
		fprintf(f, "| %s wake-up latency p50 / p95 |", s->tasks[i].comm);
		for (int j = 0; j < 3; j++)
			md_lat(f, runs[j], s->tasks[i].comm);
		fprintf(f, "\n");
		/* running time, and where: EAS's placement shows here */
		fprintf(f, "| %s running time |", s->tasks[i].comm);
		for (int j = 0; j < 3; j++) {
			struct e2e_task *t = runs[j] ?
				e2e_task(runs[j], s->tasks[i].comm) : NULL;

			if (!t) {
				fprintf(f, " - |");
				continue;
			}
			fprintf(f, " %.3f s", (double)t->run_ns / 1e9);
			for (int d = 0; x->pl->ndomains > 1 &&
			     d < x->pl->ndomains && d < E2E_MAX_DOMS; d++)
				fprintf(f, "%s%.0f %% on %d", d ? ", " : " (",
					t->run_ns ? 100.0 * (double)t->dom_run_ns[d] / (double)t->run_ns : 0, d);
			fprintf(f, "%s |", x->pl->ndomains > 1 ? ")" : "");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n### Where the differences come from\n\n");
	if (g->causes_kept)
		md_causes(f, runs);
	else
		fprintf(f, "The causes of time above a cap are kept for platforms of at most 64 CPUs (each decision's lines are held per CPU pair); this one has %d.\n\n",
			x->pl->ncpus);
	if (!g->has_ops) {
		fprintf(f, "The guest trace has no clamp ops: who lifted a domain is unknown.\n\n");
		return;
	}
	fprintf(f, "The RFC's shared-domain rule takes the MAX of the maxes of every CPU with a RUNNABLE task, kernel threads included. Tasks outside the workload in the guest, by the time they were RUNNABLE and by the time their capacity_max (uncapped: the root group) lifted their domain above every workload task's max (the simulator has none of them):\n\n");
	fprintf(f, "| task | enqueues | RUNNABLE | lifting its domain | running |\n| --- | ---: | ---: | ---: | ---: |\n");
	for (int i = 0; i < g->nothers; i++) {
		const struct e2e_other *e = &g->others[i];

		if (!e->enqueues)
			continue;
		fprintf(f, "| %s | %ld | %.1f ms | %.1f ms | %.1f ms |\n",
			e->comm, e->enqueues, (double)e->runnable_ns / 1e6,
			(double)e->lift_ns / 1e6, (double)e->run_ns / 1e6);
	}
	fprintf(f, "\n");
}

static void md_level5(FILE *f, const struct xcheck *x)
{
	const struct e2e_run *k = l4_run(x);

	fprintf(f, "## Level 5: trace-driven\n\n");
	if (!x->has_simi) {
		fprintf(f, "Not run: %s.\n\n", x->trace_driven ? x->simi_why :
			"--no-trace-driven");
		return;
	}
	fprintf(f, "The guest's own trace imported (`capsim import`, `sim-imported.json`: each task's runs as the guest ran them, as work at the frequency and capacity they ran at; kernel threads and tasks under 0.5 %% busy folded into a per-CPU load) and simulated on the same platform, policy and tick (`sim-imported/`), compared with the guest as level 4 compares. Level 4 runs the workload as written, so the emulator's stretching of short bursts beside busy vCPUs counts there as model error; here both sides run the guest's bursts. Gate: %s (level 4's gate is separate and unchanged).\n\n",
		!x->pol->uclamp_values ? "residency TVD per domain at most the limit below" :
		"none under uclamp: the guest trace shows no uclamp value, so the imported tasks run unclamped");
	if (!x->pol->uclamp_values)
		fprintf(f, "Limit: %.3f.\n\n", x->lim.tvd_trace);
	fprintf(f, "| figure | level 4: guest to %s | level 5: guest to the imported run |\n| --- | ---: | ---: |\n",
		x->has_simk ? "simulator + other tasks" : "simulator");
	for (int d = 0; d < x->pl->ndomains; d++)
		fprintf(f, "| domain %d residency TVD | %.3f | %.3f |\n", d,
			x->tvd[d], x->tvd_trace[d]);
	fprintf(f, "| busy CPU time (guest %.3f s) | %.3f s | %.3f s |\n",
		(double)x->guest.busy_ns / 1e9, (double)k->busy_ns / 1e9,
		(double)x->simi.busy_ns / 1e9);
	fprintf(f, "| energy (guest %.1f mJ) | %.1f mJ | %.1f mJ |\n",
		x->guest.energy_mj, k->energy_mj, x->simi.energy_mj);
	for (int i = 0; i < x->sim.ntasks; i++) {
		const char *c = x->sim.tasks[i].comm;
		double g = run_s(&x->guest, c), s4 = run_s(k, c);
		double s5 = run_s(&x->simi, c);

		fprintf(f, "| %s running time (guest %.3f s) |", c, g);
		if (s4 >= 0)
			fprintf(f, " %.3f s (%+.1f %%) |", s4, diff_pct(g, s4));
		else
			fprintf(f, " - |");
		if (s5 >= 0)
			fprintf(f, " %.3f s (%+.1f %%) |\n", s5,
				diff_pct(g, s5));
		else
			fprintf(f, " - |\n");
	}
	fprintf(f, "\n");
}

int xcheck_report(const struct xcheck *x, const char *dir)
{
	json_t *root = build_json(x);
	char *jp = xasprintf("%s/xcheck.json", dir);
	char *mp = xasprintf("%s/xcheck.md", dir);
	const struct clamp_replay_result *l1 = &x->l1;
	const struct decision_replay_result *l2 = &x->l2;
	FILE *f;
	int ret = -1;

	f = safe_fopen(jp);
	if (f && json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS)) {
		safe_fdiscard(f);
		f = NULL;
	}
	if (!f || safe_fclose(f)) {
		fprintf(stderr, "capsim: cannot write %s/xcheck.json\n",
			x->outdir);
		goto out;
	}
	f = safe_fopen(mp);
	if (!f) {
		fprintf(stderr, "capsim: cannot write %s/xcheck.md: %s\n",
			x->outdir, strerror(errno));
		goto out;
	}
	fprintf(f, "# xcheck: %s on %s, policy %s: %s\n\n", x->workload,
		x->pl->name, x->policy, x->pass[0] ? "pass" : "FAIL");
	if (x->why)
		fprintf(f, "Failed: %s.\n\n", x->why);
	fprintf(f, "Guest trace `%s`, simulator trace `%s` (tick %d Hz, the guest's); the window is %.1f s from each trace's first event of a workload task.\n\n",
		x->guest_trace, x->sim_trace, x->hz, x->duration_s);
	fprintf(f, "## Level 1: clamp ops replayed through src/core\n\n");
	fprintf(f, "%ld of %ld ranges match (%.2f %%): %ld ops (%ld checked) and their `cap_clamp_cpu` ranges on %d CPUs; %ld seq gaps (tracing turned on while a CPU had tasks), each resynced when its CPU emptied (%ld); group writes: %ld of %ld as the core decides. Gate: 100 %%, at most 1 %% of the ops unchecked.\n\n",
		l1->matched, l1->compared, pct(l1->matched, l1->compared),
		l1->ops, l1->checked, l1->cpus, l1->gaps, l1->resyncs,
		l1->writes_matched, l1->writes);
	fprintf(f, "## Level 2: schedutil decisions recomputed\n\n");
	fprintf(f, "Guest: %ld of %ld decisions recomputed equal (%.2f %%; range %ld, util/perf/target %ld, next frequency %ld differ; %ld without their input lines; %ld equal once a remote CPU's utilization is taken between its previous line and this one, or its whole previous line: its signal or its RUNNABLE state moved between the decision's unlocked read and the trace's). Simulator: %ld of %ld. Gate: every decision equal or a remote read race, races at most 1 in 1000.\n\n",
		l2->matched, l2->recomputed, pct(l2->matched, l2->recomputed),
		l2->range_mismatch, l2->perf_mismatch, l2->khz_mismatch,
		l2->incomplete, l2->remote_race, x->l2_sim.matched,
		x->l2_sim.recomputed);
	fprintf(f, "## Level 3: PELT replayed\n\n");
	fprintf(f, "Each task's signal between two consecutive `capsim_pelt_se` events on one CPU, replayed by the simulator's pelt.c from the first one's exact sums over the PELT-clock interval the two `update_time`s give, with the task's states in between rebuilt from the sched events. Uniform: no state change inside, the replay is exact unless the kernel made an update that crossed no period (so was not logged): one such update is searched for (and 6.12's delayed dequeue). With changes: their places are estimated from the trace clock (microseconds; the PELT clock counts 1024 ns units, scaled by capacity and frequency while busy). Gate: the logged util reproduced in >= %.1f %% of the uniform intervals, none off by more than %lu; with changes, |util diff| p99 <= %lu and max <= %lu.\n\n",
		100 * x->lim.uniform_util_exact, x->lim.uniform_max,
		x->lim.changes_p99, x->lim.changes_max);
	fprintf(f, "| trace | uniform | exact | explained (one update + delayed dequeue) | util exact | max util diff | with changes | p99 / max util diff | skipped (migrated) |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	md_l3(f, x->l3, "guest");
	md_l3(f, x->l3_sim, "simulator");
	fprintf(f, "\nThe guest's intervals furthest off, with their cause when one is found:\n\n```\n");
	for (int c = 0; c < PELT_REPLAY_NCLASSES; c++)
		for (int i = 0; i < x->l3->cls[c].nworst && i < 4; i++)
			pelt_replay_print_interval(f, &x->l3->cls[c].worst[i]);
	fprintf(f, "```\n\n");
	md_level4(f, x);
	md_level5(f, x);
	fprintf(f, "Plots: `xcheck-freq.png` (frequency and clamp bands, guest above the simulator), `xcheck-residency.png` (residency side by side).\n");
	if (safe_fclose(f)) {
		fprintf(stderr, "capsim: cannot write %s/xcheck.md: %s\n",
			x->outdir, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	json_decref(root);
	free(jp);
	free(mp);
	return ret;
}

/*
 * plot-SIDE.dat's lines ("f DOM T KHZ", "b CPU T MIN_KHZ MAX_KHZ") split
 * into a file per domain and per CPU, plot-SIDE-fDOM.dat and
 * plot-SIDE-bCPU.dat, which xcheck.gp plots by name: gnuplot runs no
 * filter command (a '<' file name) to pick them. Every file is created,
 * empty when its domain or CPU has no line. 0 or -1 (reported).
 */
static int split_timeline(const char *dir, const char *side,
			  const struct platform *pl)
{
	int nd = pl->ndomains, n = pl->ndomains + pl->ncpus, ret = 0;
	char *in = xasprintf("%s/plot-%s.dat", dir, side);
	FILE *f = fopen(in, "r"), **out = xcalloc((size_t)n, sizeof(FILE *));
	char line[256];

	if (!f) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", in,
			strerror(errno));
		ret = -1;
	}
	for (int i = 0; i < n && !ret; i++) {
		char *path = xasprintf("%s/plot-%s-%c%d.dat", dir, side,
				       i < nd ? 'f' : 'b', i < nd ? i : i - nd);

		out[i] = safe_fopen(path);
		if (!out[i]) {
			fprintf(stderr, "capsim: cannot write %s: %s\n", path,
				strerror(errno));
			ret = -1;
		}
		free(path);
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		char kind;
		int idx, slot = -1;

		if (sscanf(line, "%c %d", &kind, &idx) != 2)
			continue;
		if (kind == 'f' && idx >= 0 && idx < nd)
			slot = idx;
		else if (kind == 'b' && idx >= 0 && idx < pl->ncpus)
			slot = nd + idx;
		if (slot >= 0)
			fputs(line, out[slot]);
	}
	for (int i = 0; i < n; i++)
		if (out[i] && safe_fclose(out[i]) && !ret) {
			fprintf(stderr, "capsim: cannot write the plot data of %s in %s\n",
				side, dir);
			ret = -1;
		}
	if (f)
		fclose(f);
	free(out);
	free(in);
	return ret;
}

int xcheck_plots(const struct xcheck *x, const char *dir, bool quiet)
{
	const char *sdir = plot_scripts_dir();
	char *vp = xasprintf("%s/plot-vars.gp", dir), *script = NULL;
	FILE *f;
	int ret = -1;

	if (!sdir)
		goto out;
	for (int d = 0; d < x->pl->ndomains; d++) {
		const struct pdomain *pd = &x->pl->domains[d];
		char *rp = xasprintf("%s/plot-residency-dom%d.dat", dir, d);
		const struct e2e_run *g = &x->guest, *s = &x->sim;

		f = safe_fopen(rp);
		free(rp);
		if (!f)
			goto out;
		for (int i = 0; i < pd->nopps; i++)
			fprintf(f, "%u %.3f %.3f %.3f\n", pd->opps[i].khz / 1000,
				share(g, d, i), share(s, d, i),
				x->has_simk ? share(&x->simk, d, i) : 0);
		if (safe_fclose(f))
			goto out;
	}
	f = safe_fopen(vp);
	if (!f)
		goto out;
	fprintf(f, "ndoms = %d\nncpus = %d\nduration = %.3f\nfmaxmhz = %u\n",
		x->pl->ndomains, x->pl->ncpus, x->duration_s,
		x->pl->domains[x->pl->ndomains - 1].opps[x->pl->domains[x->pl->ndomains - 1].nopps - 1].khz / 1000);
	fprintf(f, "hassimk = %d\narray tvd[%d]\narray tvdp[%d]\n",
		x->has_simk, x->pl->ndomains, x->pl->ndomains);
	for (int d = 0; d < x->pl->ndomains; d++)
		fprintf(f, "tvd[%d] = %.3f\ntvdp[%d] = %.3f\n", d + 1,
			x->tvd[d], d + 1, x->tvd_plain[d]);
	{
		char *t = xasprintf("%s on %s, policy %s", x->workload,
				    x->pl->name, x->policy);
		char *q = gp_quote(t);

		fprintf(f, "runtitle = %s\n", q);
		free(q);
		free(t);
	}
	if (safe_fclose(f))
		goto out;
	if (split_timeline(dir, "guest", x->pl) ||
	    split_timeline(dir, "sim", x->pl))
		goto out;
	script = xasprintf("%s/xcheck.gp", sdir);
	for (int k = 0; k < 2; k++) {
		const char *fmt = k ? "svg" : "png";
		char *qs = gp_quote(sdir);
		/* gnuplot runs in @dir: its files by their names there */
		char *vars = xasprintf("datadir='.'; scriptsdir=%s; fmt='%s'",
				       qs, fmt);
		const char *const outs[2][3] = {
			{ "xcheck-freq.png", "xcheck-residency.png", NULL },
			{ "xcheck-freq.svg", "xcheck-residency.svg", NULL },
		};

		free(qs);
		if (plot_gnuplot(dir, vars, script, fmt, outs[k], quiet)) {
			free(vars);
			goto out;
		}
		free(vars);
	}
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "capsim: xcheck: the plots failed\n");
	free(vp);
	free(script);
	return ret;
}
