// SPDX-License-Identifier: GPL-2.0
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "chains_out.h"
#include "escape.h"
#include "fastfmt.h"
#include "jdump.h"
#include "summary.h"

#ifndef CAPSIM_VERSION
#define CAPSIM_VERSION "unknown"
#endif

json_t *summary_pct_obj(struct samples *sm)
{
	json_t *o = json_object();

	json_object_set_new(o, "count", json_integer((json_int_t)sm->n));
	if (!sm->n)
		return o;
	json_object_set_new(o, "p50", json_real((double)samples_pct(sm, 50) / 1e3));
	json_object_set_new(o, "p95", json_real((double)samples_pct(sm, 95) / 1e3));
	json_object_set_new(o, "p99", json_real((double)samples_pct(sm, 99) / 1e3));
	json_object_set_new(o, "max", json_real((double)samples_max(sm) / 1e3));
	json_object_set_new(o, "min", json_real((double)sm->v[0] / 1e3));
	return o;
}

static double sim_seconds(const struct sim *s)
{
	return (double)s->now / 1e9;
}

/*
 * summary.json's task objects are written straight into the buffer
 * (jdump.h's object writer), member by member in the order the jansson
 * tree was built in: building then freeing a tree per task cost ~5 G of
 * a 100 000-task run's 20.6 G instructions. tests/sim/test_summary_task.c
 * keeps that tree as the reference and compares the bytes.
 */

/* summary_pct_obj()'s object, written */
static void put_pct(struct jdump_obj *o, const char *key, struct samples *sm)
{
	struct jdump_obj p;

	jdump_obj_object(o, key, &p);
	jdump_obj_int(&p, "count", (int64_t)sm->n);
	if (sm->n) {
		jdump_obj_real(&p, "p50", (double)samples_pct(sm, 50) / 1e3);
		jdump_obj_real(&p, "p95", (double)samples_pct(sm, 95) / 1e3);
		jdump_obj_real(&p, "p99", (double)samples_pct(sm, 99) / 1e3);
		jdump_obj_real(&p, "max", (double)samples_max(sm) / 1e3);
		jdump_obj_real(&p, "min", (double)sm->v[0] / 1e3);
	}
	jdump_obj_close(&p);
}

/* Migrations by reason: why a task moved (EAS, misfit, balance, ...) */
static void put_migrations(struct jdump_obj *o, const struct sim_task *t)
{
	struct jdump_obj m;
	int r;

	jdump_obj_object(o, "migrations_by_reason", &m);
	for (r = 0; r < NR_MIG_REASONS; r++)
		jdump_obj_int(&m, mig_reason_name[r], (int64_t)t->mig[r]);
	jdump_obj_close(&m);
}

/* A CPU's or domain's id as a key: "%d" */
static void id_key(char key[16], int id)
{
	uint64_t mag = id < 0 ? (uint64_t)0 - (uint64_t)(int64_t)id : (uint64_t)id;

	*fastfmt_u64(key, mag, id < 0, 0, ' ', false) = '\0';
}

static int cmp_cpu_time(const void *a, const void *b)
{
	const struct cpu_time *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Seconds run per CPU, keyed by CPU id, in CPU order; @ct has room for
 * the task's CPUs */
static void put_cpu_residency(struct jdump_obj *o, const struct sim_task *t,
			      struct cpu_time *ct)
{
	struct jdump_obj m;
	char key[16];
	int i;

	if (t->ncpu_time)	/* a task that never ran has no array */
		memcpy(ct, t->cpu_time, (size_t)t->ncpu_time * sizeof(*ct));
	qsort(ct, (size_t)t->ncpu_time, sizeof(*ct), cmp_cpu_time);
	jdump_obj_object(o, "cpu_residency_s", &m);
	for (i = 0; i < t->ncpu_time; i++) {
		id_key(key, ct[i].cpu);
		jdump_obj_real(&m, key, (double)ct[i].ns / 1e9);
	}
	jdump_obj_close(&m);
}

/* Seconds run per frequency domain, keyed by domain id (platform.c
 * refuses a repeated id) */
static void put_domain_residency(struct jdump_obj *o, const struct sim *s,
				 const struct sim_task *t)
{
	struct jdump_obj m;
	char key[16];
	int d, i;

	jdump_obj_object(o, "domain_residency_s", &m);
	for (d = 0; d < s->ndoms; d++) {
		uint64_t ns = 0;
		bool ran = false;

		for (i = 0; i < t->ncpu_time; i++) {
			if (s->cpus[t->cpu_time[i].cpu].dom != &s->doms[d])
				continue;
			ns += t->cpu_time[i].ns;
			ran = true;
		}
		if (!ran)
			continue;
		id_key(key, s->doms[d].pd->id);
		jdump_obj_real(&m, key, (double)ns / 1e9);
	}
	jdump_obj_close(&m);
}

/*
 * The columns of `perf sched latency`: run time, switches, average and
 * maximum wake-up delay (sched_wakeup to running) and when the maximum
 * ended.
 */
static void put_sched_latency(struct jdump_obj *o, const struct sim_task *t)
{
	struct jdump_obj m;
	double sum = 0;
	size_t i;

	for (i = 0; i < t->wlat.n; i++)
		sum += (double)t->wlat.v[i];
	jdump_obj_object(o, "sched_latency", &m);
	jdump_obj_real(&m, "runtime_ms", (double)t->runtime_ns / 1e6);
	jdump_obj_int(&m, "switches", (int64_t)t->switches);
	if (t->wlat.n) {
		jdump_obj_real(&m, "avg_delay_ms", sum / (double)t->wlat.n / 1e6);
		jdump_obj_real(&m, "max_delay_ms", (double)t->wlat_max / 1e6);
		jdump_obj_real(&m, "max_delay_at_s",
			       (double)t->wlat_max_at / 1e9);
	} else {
		jdump_obj_null(&m, "avg_delay_ms");
		jdump_obj_null(&m, "max_delay_ms");
		jdump_obj_null(&m, "max_delay_at_s");
	}
	jdump_obj_close(&m);
}

void summary_task_write(struct strbuf *sb, struct sim *s, struct sim_task *t,
			int depth, struct cpu_time *ct)
{
	struct jdump_obj o;

	jdump_obj_open(&o, sb, depth);
	/* a name jansson refuses (a multi-byte character cut at 15 bytes
	 * in comm) leaves its key out, as json_string()'s NULL did */
	jdump_obj_string(&o, "name", t->name);
	jdump_obj_string(&o, "comm", t->comm);
	jdump_obj_int(&o, "pid", t->pid);
	jdump_obj_string(&o, "group", t->group->path);
	jdump_obj_string(&o, "policy", wl_policy_name(t->policy));
	jdump_obj_int(&o, "priority", t->prio);
	jdump_obj_int(&o, "activations", (int64_t)t->activations);
	jdump_obj_int(&o, "completed", (int64_t)t->completed);
	if (t->timed)
		jdump_obj_int(&o, "deadline_misses", (int64_t)t->misses);
	else
		jdump_obj_null(&o, "deadline_misses");
	put_pct(&o, "wakeup_latency_us", &t->wlat);
	put_pct(&o, "response_us", &t->resp);
	put_pct(&o, "timer_latency_us", &t->tlat);
	put_pct(&o, "slack_us", &t->slack);
	jdump_obj_real(&o, "runtime_s", (double)t->runtime_ns / 1e9);
	jdump_obj_int(&o, "migrations", (int64_t)t->migrations);
	put_migrations(&o, t);
	put_cpu_residency(&o, t, ct);
	put_domain_residency(&o, s, t);
	put_sched_latency(&o, t);
	jdump_obj_int(&o, "preemptions", (int64_t)t->preempted);
	/* summary.json's schema: only a DEADLINE task has a throttle count */
	if (t->cls == &dl_sched_class)
		jdump_obj_int(&o, "dl_throttled", (int64_t)t->dl.throttles);
	jdump_obj_string(&o, "state",
		t->state == TS_DEAD ? "exited" : t->state == TS_SLEEPING ?
		"sleeping" : t->state == TS_NEW ? "not started" : "runnable");
	jdump_obj_close(&o);
}

/*
 * summary.json is jansson's dump of one tree, but the tree of 100 000
 * tasks was most of a short run's memory (a 1 024-CPU run's peak RSS
 * 849 MB, 230 MB without it) and time: the tasks' array is left
 * out of the tree (a marker stands in its place), and each task's object
 * is written in turn where the marker is, at the depth of an array's
 * elements there, by summary_task_write() (the same bytes as jansson's
 * dump of the object, its reals without printf where exact).
 * The bytes are the whole tree's dump (JSON_INDENT(2): an element at
 * depth 2 starts on a new line with 4 spaces; an empty array is "[]").
 * A dumped string never holds a raw newline, so the marker's line is
 * found by its newline and key.
 */
#define DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(9))
#define TASKS_MARK "\001capsim-tasks\001"
#define TASKS_LINE "\n  \"tasks\": \"\\u0001capsim-tasks\\u0001\""

static int dump_with_tasks(struct sim *s, json_t *root, FILE *f)
{
	char *all = json_dumps(root, DUMP_FLAGS), *at;
	struct cpu_time *ct;
	struct strbuf sb;
	int i;

	if (!all || !(at = strstr(all, TASKS_LINE))) {
		free(all);
		return -1;
	}
	at += strlen("\n  \"tasks\": ");
	fwrite(all, 1, (size_t)(at - all), f);
	fputs(s->ntasks ? "[\n    " : "[", f);
	sb_init(&sb);
	/* a task runs on at most every CPU once (account_cpu_time()) */
	ct = xcalloc((size_t)s->ncpus + 1, sizeof(*ct));
	for (i = 0; i < s->ntasks; i++) {
		sb.len = 0;
		summary_task_write(&sb, s, s->tasks[i], 2, ct);
		fwrite(sb.buf, 1, sb.len, f);
		if (i < s->ntasks - 1)
			fputs(",\n    ", f);
	}
	free(ct);
	sb_free(&sb);
	fputs(s->ntasks ? "\n  ]" : "]", f);
	fputs(at + strlen("\"\\u0001capsim-tasks\\u0001\""), f);
	fputc('\n', f);
	free(all);
	return ferror(f) ? -1 : 0;
}

int summary_write(struct sim *s, const struct run_info *ri, FILE *f)
{
	json_t *root = json_object(), *a, *o;
	char hex[65];
	struct host_group *g;
	double total = 0, em_total = 0;
	size_t k;
	int i, j;

	json_object_set_new(root, "capsim_version", json_string(CAPSIM_VERSION));
	o = json_object();
	json_object_set_new(o, "name", json_string(s->wl->name));
	json_object_set_new(o, "file", json_string(ri->workload_file));
	jdoc_sha256(&s->wl->doc, hex);
	json_object_set_new(o, "sha256", json_string(hex));
	json_object_set_new(root, "workload", o);
	o = json_object();
	json_object_set_new(o, "name", json_string(s->pl->name));
	json_object_set_new(o, "origin", json_string(s->pl->origin));
	json_object_set_new(o, "sha256", json_string(s->pl->sha256));
	json_object_set_new(root, "platform", o);
	json_object_set_new(root, "policy",
			    json_string(clamp_policy_name(s->o.clamp_policy)));
	json_object_set_new(root, "clamp_order",
			    json_string(clamp_order_name(s->o.order)));
	json_object_set_new(root, "domain_rule",
			    json_string(domain_rule_name(s->o.domain_rule)));
	json_object_set_new(root, "seed", json_integer((json_int_t)s->o.seed));
	json_object_set_new(root, "hz", json_integer(s->o.hz));
	json_object_set_new(root, "clamp_backend",
			    json_string(clamp_host_backend(&s->host)));
	json_object_set_new(root, "trace_util", json_boolean(s->o.trace_util));
	json_object_set_new(root, "trace_signals",
			    json_boolean(s->o.trace_signals));
	json_object_set_new(root, "signal", json_string("PELT, 6.12 integer arithmetic"));
	json_object_set_new(root, "simulated_s", json_real(sim_seconds(s)));
	json_object_set_new(root, "events", json_integer((json_int_t)s->nevents));
	json_object_set_new(root, "trace_entries",
			    json_integer((json_int_t)s->tr.entries));

	a = json_array();
	for (k = 0; k < s->diag->nwarn; k++)
		json_array_append_new(a, json_string(s->diag->warn[k]));
	if (s->diag->hidden_warnings) {
		char *more = xasprintf("... and %d more warnings",
				       s->diag->hidden_warnings);

		json_array_append_new(a, json_string(more));
		free(more);
	}
	json_object_set_new(root, "warnings", a);

	/* the tasks are written one by one, after the rest: see below */
	json_object_set_new(root, "tasks", json_string(TASKS_MARK));

	a = json_array();
	for (i = 0; i < s->ndoms; i++) {
		struct sim_domain *d = &s->doms[i];
		json_t *res = json_object(), *cpus = json_array();
		double e = 0, avg = 0;
		char khz[32], gov[32];

		o = json_object();
		json_object_set_new(o, "id", json_integer(d->pd->id));
		governor_format(&d->governor, gov, sizeof(gov));
		json_object_set_new(o, "governor", json_string(gov));
		/* a CPU of the domain above 80 % of its capacity (EAS) */
		json_object_set_new(o, "overutilized_s",
				    json_real((double)d->ou_ns / 1e9));
		for (j = 0; j < d->pd->ncpus; j++) {
			json_array_append_new(cpus, json_integer(d->pd->cpus[j]));
			e += cpu_energy_mj(s, &s->cpus[d->pd->cpus[j]]);
		}
		json_object_set_new(o, "cpus", cpus);
		for (j = 0; j < d->pd->nopps; j++) {
			snprintf(khz, sizeof(khz), "%u", d->pd->opps[j].khz);
			json_object_set_new(res, khz,
					    json_real((double)d->residency_ns[j] / 1e9));
			if (s->now)
				avg += (double)d->residency_ns[j] *
				       d->pd->opps[j].khz / (double)s->now;
		}
		json_object_set_new(o, "residency_s", res);
		json_object_set_new(o, "avg_khz", json_real(avg));
		json_object_set_new(o, "transitions", json_integer((json_int_t)d->transitions));
		json_object_set_new(o, "energy_mj", json_real(e));
		/* the energy model's estimate, integrated (energy.c) */
		json_object_set_new(o, "em_energy_mj",
				    json_real(em_energy_mj(d)));
		em_total += em_energy_mj(d);
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "domains", a);
	/* EAS's system-wide flag: any CPU overutilized, as of each tick */
	json_object_set_new(root, "overutilized_s",
			    json_real((double)s->ou_ns / 1e9));

	a = json_array();
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		uint64_t busy = 0, idle = 0;
		json_t *ir = json_object();
		double e = cpu_energy_mj(s, c);

		for (j = 0; j < c->dom->pd->nopps; j++)
			busy += c->busy_ns[j];
		for (j = 0; j < c->dom->pd->nidle; j++) {
			idle += c->idle_ns[j];
			json_object_set_new(ir, c->dom->pd->idle[j].name,
					    json_real((double)c->idle_ns[j] / 1e9));
		}
		o = json_object();
		json_object_set_new(o, "id", json_integer(c->id));
		json_object_set_new(o, "domain", json_integer(c->dom->pd->id));
		json_object_set_new(o, "capacity", json_integer(c->capacity));
		json_object_set_new(o, "busy_s", json_real((double)busy / 1e9));
		json_object_set_new(o, "idle_s", json_real((double)idle / 1e9));
		json_object_set_new(o, "idle_residency_s", ir);
		json_object_set_new(o, "energy_mj", json_real(e));
		json_array_append_new(a, o);
		total += e;
	}
	json_object_set_new(root, "cpus", a);
	json_object_set_new(root, "energy_mj", json_real(total));
	json_object_set_new(root, "em_energy_mj", json_real(em_total));

	a = json_array();
	list_for_each_entry(g, &s->host.groups, node) {
		o = json_object();
		json_object_set_new(o, "path", json_string(g->path));
		json_object_set_new(o, "capacity_min",
				    json_integer(g->cg.value[CAP_CLAMP_MIN]));
		json_object_set_new(o, "capacity_max",
				    json_integer(g->cg.value[CAP_CLAMP_MAX]));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "groups", a);
	a = json_array();
	for (i = 0; i < s->ngw; i++) {
		o = json_object();
		json_object_set_new(o, "at_ms", json_real((double)s->gw[i].at_ns / 1e6));
		json_object_set_new(o, "group", json_string(s->gw[i].group));
		json_object_set_new(o, "attr", json_string(s->gw[i].attr ?
				    "capacity_max" : "capacity_min"));
		json_object_set_new(o, "value", json_integer((json_int_t)s->gw[i].value));
		json_object_set_new(o, "result", json_string(s->gw[i].ret ?
				    "-EINVAL (rejected)" : "ok"));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "group_writes", a);
	/* only with chains: today's summaries stay as they were */
	if (s->nchains)
		json_object_set_new(root, "chains", chains_json(s));

	i = dump_with_tasks(s, root, f);
	json_decref(root);
	return i;
}

/* A percentile in ms, as every printed time, "-" without samples (as
 * summary.json's count: 0) */
static void print_pct(FILE *f, int width, struct samples *sm, double p)
{
	if (sm->n)
		fprintf(f, "%*.3f ", width, (double)samples_pct(sm, p) / 1e6);
	else
		fprintf(f, "%*s ", width, "-");
}

void summary_print(struct sim *s, const struct run_info *ri, FILE *f)
{
	double total = 0;
	int i, j;

	fprintf(f, "capsim: %s on %s, policy %s (clamp order %s, domain rule %s), %.3f s simulated\n",
		s->wl->name, s->pl->name, clamp_policy_name(s->o.clamp_policy),
		clamp_order_name(s->o.order), domain_rule_name(s->o.domain_rule),
		sim_seconds(s));
	fprintf(f, "%-16s %6s %-10s %7s %7s %6s %8s %8s %9s %9s\n", "task", "pid",
		"group", "activ", "done", "miss", "wlat95ms", "tlat95ms",
		"slack50ms", "cpu_s");
	for (i = 0; i < s->ntasks; i++) {
		struct sim_task *t = s->tasks[i];
		char miss[16];

		if (t->timed)
			snprintf(miss, sizeof(miss), "%lu", (unsigned long)t->misses);
		else
			snprintf(miss, sizeof(miss), "-");
		fprintf(f, "%-16s %6d %-10s %7lu %7lu %6s ", t->name, t->pid,
			t->group->path, (unsigned long)t->activations,
			(unsigned long)t->completed, miss);
		print_pct(f, 8, &t->wlat, 95);
		print_pct(f, 8, &t->tlat, 95);
		print_pct(f, 9, &t->slack, 50);
		fprintf(f, "%9.3f\n", (double)t->runtime_ns / 1e9);
	}
	fprintf(f, "%-16s %9s %8s %12s %12s %7s  %s\n", "task", "runtime_ms",
		"switches", "avg_delay_ms", "max_delay_ms", "migr",
		"cpu residency (cpu:s)");
	for (i = 0; i < s->ntasks; i++) {
		struct sim_task *t = s->tasks[i];
		double sum = 0;
		size_t k;

		for (k = 0; k < t->wlat.n; k++)
			sum += (double)t->wlat.v[k];
		fprintf(f, "%-16s %9.1f %8lu ", t->name,
			(double)t->runtime_ns / 1e6, (unsigned long)t->switches);
		if (t->wlat.n)
			fprintf(f, "%12.3f %12.3f ", sum / (double)t->wlat.n / 1e6,
				(double)t->wlat_max / 1e6);
		else
			fprintf(f, "%12s %12s ", "-", "-");
		fprintf(f, "%7lu ", (unsigned long)t->migrations);
		for (j = 0; j < t->ncpu_time; j++)
			fprintf(f, " %d:%.3f", t->cpu_time[j].cpu,
				(double)t->cpu_time[j].ns / 1e9);
		fputc('\n', f);
	}
	fprintf(f, "%-6s %-12s %10s %6s  %s\n", "domain", "cpus", "avg_MHz",
		"trans", "residency (MHz: %)");
	for (i = 0; i < s->ndoms; i++) {
		struct sim_domain *d = &s->doms[i];
		char cpus[64] = "";
		double avg = 0;

		for (j = 0; j < d->pd->ncpus; j++) {
			size_t n = strlen(cpus);

			snprintf(cpus + n, sizeof(cpus) - n, "%s%d", j ? "," : "",
				 d->pd->cpus[j]);
		}
		for (j = 0; j < d->pd->nopps; j++)
			if (s->now)
				avg += (double)d->residency_ns[j] *
				       d->pd->opps[j].khz / (double)s->now;
		fprintf(f, "%-6d %-12s %10.1f %6lu ", d->pd->id, cpus, avg / 1000,
			(unsigned long)d->transitions);
		for (j = 0; j < d->pd->nopps; j++)
			fprintf(f, " %u:%.1f", d->pd->opps[j].khz / 1000,
				s->now ? 100.0 * (double)d->residency_ns[j] /
				(double)s->now : 0.0);
		fputc('\n', f);
	}
	for (i = 0; i < s->ncpus; i++)
		total += cpu_energy_mj(s, &s->cpus[i]);
	fprintf(f, "overutilized: %.3f s\n", (double)s->ou_ns / 1e9);
	fprintf(f, "energy: %.1f mJ", total);
	if (ri->trace_path)
		fprintf(f, "   trace: %s", ri->trace_path);
	if (ri->summary_path)
		fprintf(f, "   summary: %s", ri->summary_path);
	fputc('\n', f);
	for (i = 0; i < s->ngw; i++)
		fprintf(f, "group write at %.3f s: %s %s=%lu %s\n",
			(double)s->gw[i].at_ns / 1e9, s->gw[i].group,
			s->gw[i].attr ? "capacity_max" : "capacity_min",
			(unsigned long)s->gw[i].value,
			s->gw[i].ret ? "REJECTED (-EINVAL)" : "ok");
}

void summary_print_response(struct sim *s, FILE *f)
{
	int i;

	fprintf(f, "%-16s %7s %9s %9s %9s %9s\n", "task", "activ",
		"resp_n", "resp50_ms", "resp95_ms", "resp99_ms");
	for (i = 0; i < s->ntasks; i++) {
		struct sim_task *t = s->tasks[i];
		int k;

		fprintf(f, "%-16s %7lu %9zu", t->name,
			(unsigned long)t->activations, t->resp.n);
		for (k = 0; k < 3; k++) {
			static const double pct[] = { 50, 95, 99 };

			if (t->resp.n)
				fprintf(f, " %9.3f",
					(double)samples_pct(&t->resp, pct[k]) / 1e6);
			else
				fprintf(f, " %9s", "-");
		}
		fputc('\n', f);
	}
}

/*
 * activations.csv: one row per finished activation of each task, rt-app's
 * log columns (start, end, run time, period, slack, wake-up latency) in
 * ms from the start of the run, with the CPU and frequency it ended on,
 * then its phase (index, and name when the workload names its phases)
 * and the wake-up its work answers; docs/simulator.md has each column.
 */
/* "%.6f" of @ns / 1e6 and a comma, by hand when it can be exact */
static char *put_ms(char *p, int64_t ns)
{
	char *q = fastfmt_fixed6(p, ns);

	if (!q)
		q = p + sprintf(p, "%.6f", (double)ns / 1e6);
	*q++ = ',';
	return q;
}

int activations_write(struct sim *s, FILE *f)
{
	/* a row's numbers: 6 of at most 2 + 23 + 310 (a huge %.6f) bytes */
	char row[6 * 340 + 64];
	int i;
	size_t k;

	fputs("task,pid,activation,start_ms,end_ms,run_ms,period_ms,slack_ms,wu_lat_ms,cpu,khz,phase,phase_name,wakeup_ms\n",
	      f);
	for (i = 0; i < s->ntasks; i++) {
		const struct sim_task *t = s->tasks[i];

		for (k = 0; k < t->nacts; k++) {
			const struct activation *a = &t->acts[k];
			const struct wl_phase *ph;
			char *p = row;

			if (a->cpu < 0)		/* not finished by the end */
				continue;
			/* "%s,%d,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,[%.6f],%d,%u,%d,[%s],[%.6f]\n" */
			csv_put_field(f, t->name);
			*p++ = ',';
			p = fastfmt_u64(p, (uint64_t)(t->pid < 0 ? -(int64_t)t->pid :
					t->pid), t->pid < 0, 0, ' ', false);
			*p++ = ',';
			p = fastfmt_u64(p, k, false, 0, ' ', false);
			*p++ = ',';
			p = put_ms(p, (int64_t)a->start);
			p = put_ms(p, (int64_t)a->end);
			p = put_ms(p, (int64_t)a->run_ns);
			p = put_ms(p, (int64_t)a->period_ns);
			p = put_ms(p, a->slack_ns);
			if (a->wu_lat_ns >= 0)
				p = put_ms(p, a->wu_lat_ns);
			else
				*p++ = ',';
			p = fastfmt_u64(p, (uint64_t)(a->cpu < 0 ? -(int64_t)a->cpu :
					a->cpu), a->cpu < 0, 0, ' ', false);
			*p++ = ',';
			p = fastfmt_u64(p, a->khz, false, 0, ' ', false);
			*p++ = ',';
			p = fastfmt_u64(p, (uint64_t)a->phase, false, 0, ' ',
					false);
			*p++ = ',';
			fwrite(row, 1, (size_t)(p - row), f);
			ph = &t->wt->phases[a->phase];
			if (ph->named)
				csv_put_field(f, ph->name);
			p = row;
			*p++ = ',';
			if (a->wake_set) {
				p = put_ms(p, (int64_t)a->wake_ns);
				p--;	/* put_ms's comma: the row's last */
			}
			*p++ = '\n';
			fwrite(row, 1, (size_t)(p - row), f);
		}
	}
	return ferror(f) ? -1 : 0;
}
