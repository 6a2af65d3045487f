// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clamp_names.h"
#include "diag.h"
#include "ftrace.h"
#include "run_metrics.h"
#include "workload.h"

static bool is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

static double jnum(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A summary task's pid, or -1: a cast of any double to int is undefined
 * behaviour, and a pid above the kernel's limit names no traced task */
static int summary_pid(json_t *o)
{
	double p = jnum(o, "pid");

	return p > 0 && p <= FTRACE_PID_MAX ? (int)p : -1;
}

static const char *jstr(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A group's clamp at creation: its own values, else its parent's (the
 * core links a child with its parent's values, then applies the writes) */
static unsigned int group_value(const struct workload *wl, const char *path,
				int attr)
{
	char *p = xstrdup(path), *slash;
	unsigned int v = attr ? 1024 : 0;
	bool found = false;

	while (!found) {
		int i;

		for (i = 0; i < wl->ngroups && !found; i++) {
			const struct wl_group *g = &wl->groups[i];

			if (strcmp(g->path, p))
				continue;
			if (attr && g->max_set) {
				v = g->max;
				found = true;
			} else if (!attr && g->min_set) {
				v = g->min;
				found = true;
			}
		}
		slash = strrchr(p, '/');
		if (!slash || slash == p) {
			if (!strcmp(p, "/"))
				break;
			p[1] = '\0';	/* up to the root */
		} else {
			*slash = '\0';
		}
	}
	free(p);
	return v;
}

static void add_group(struct scan *sc, const struct workload *wl,
		      const char *path)
{
	int i;

	for (i = 0; i < sc->ngroups; i++)
		if (!strcmp(sc->groups[i].path, path))
			return;
	sc->groups = xrealloc(sc->groups, (size_t)(sc->ngroups + 1) *
			      sizeof(*sc->groups));
	sc->groups[sc->ngroups].path = xstrdup(path);
	sc->groups[sc->ngroups].min = wl ? group_value(wl, path, 0) : 0;
	sc->groups[sc->ngroups].max = wl ? group_value(wl, path, 1) : 1024;
	sc->ngroups++;
}

/* The clamps the run applied: the workload's groups, then the writes the
 * summary lists as accepted. */
static void setup_groups(struct scan *sc, json_t *sum, const char *base)
{
	const char *wrel = jstr(json_object_get(sum, "workload"), "file");
	char *wfile = wrel && base && wrel[0] != '/' ?
		      xasprintf("%s/%s", base, wrel) : wrel ? xstrdup(wrel) : NULL;
	json_t *tasks = json_object_get(sum, "tasks");
	json_t *writes = json_object_get(sum, "group_writes"), *v;
	struct workload *wl = NULL;
	struct diag d;
	size_t i;

	diag_init(&d, true);
	if (wfile && is_file(wfile))
		wl = workload_load(wfile, &d);
	json_array_foreach(tasks, i, v) {
		const char *g = jstr(v, "group");

		if (g)
			add_group(sc, wl, g);
	}
	json_array_foreach(writes, i, v) {
		const char *g = jstr(v, "group"), *attr = jstr(v, "attr"),
			   *res = jstr(v, "result");
		struct scan_group_write *w;

		if (!g || !attr || !res || strcmp(res, "ok"))
			continue;
		sc->writes = xrealloc(sc->writes, (size_t)(sc->nwrites + 1) *
				      sizeof(*sc->writes));
		w = &sc->writes[sc->nwrites++];
		w->at_ns = (uint64_t)llround(jnum(v, "at_ms") * 1e6);
		w->group = xstrdup(g);
		w->attr = !strcmp(attr, "capacity_max");
		w->value = (unsigned int)jnum(v, "value");
	}
	workload_free(wl);
	diag_free(&d);
	free(wfile);
}

static void pcts(struct samples *s, double out[3])
{
	static const double p[3] = { 50, 95, 99 };
	int k;

	for (k = 0; k < 3; k++)
		out[k] = s->n ? (double)samples_pct(s, p[k]) / 1e3 : NAN;
}

static void fill_task(struct run_metrics *m, struct task_metrics *tm,
		      struct scan_task *st, json_t *js, int ncpus)
{
	int c;

	json_t *jpid = json_object_get(js, "pid"),
	       *jact = json_object_get(js, "activations");

	/* a summary edited by hand: a field missing or of another type is
	 * unknown (a double out of an int's range must not be cast) */
	tm->pid = st ? st->st.pid : json_is_integer(jpid) ?
		  (int)json_integer_value(jpid) : -1;
	if (js && jstr(js, "name"))
		tm->name = xstrdup(jstr(js, "name"));
	else if (st)
		tm->name = xasprintf("%s-%d", st->st.ncomms ?
				     st->st.comms[st->st.ncomms - 1] :
				     st->st.comm, st->st.pid);
	else
		tm->name = xstrdup("?");
	if (st && st->st.ncomms) {
		tm->ncomms = st->st.ncomms;
		tm->comms = xcalloc((size_t)st->st.ncomms, sizeof(char *));
		for (c = 0; c < st->st.ncomms; c++)
			tm->comms[c] = xstrdup(st->st.comms[c]);
	}
	tm->group = js && jstr(js, "group") ? xstrdup(jstr(js, "group")) : NULL;
	tm->activations = json_is_integer(jact) ?
			  (long)json_integer_value(jact) : -1;
	tm->misses = js && json_is_integer(json_object_get(js, "deadline_misses")) ?
		     (long)json_integer_value(json_object_get(js, "deadline_misses")) : -1;
	if (js) {
		json_t *w = json_object_get(js, "wakeup_latency_us");

		tm->wlat_us[0] = jnum(w, "p50");
		tm->wlat_us[1] = jnum(w, "p95");
		tm->wlat_us[2] = jnum(w, "p99");
	} else if (st) {
		pcts(&st->wlat, tm->wlat_us);
	} else {
		tm->wlat_us[0] = tm->wlat_us[1] = tm->wlat_us[2] = NAN;
	}
	/* a traced task's share of the CPUs up to the last it ran on: a
	 * kernel trace's 100 000 tasks times 4 096 CPUs would be 3.2 GB */
	tm->ncpu_pct = st ? scan_task_last_cpu(st) + 1 : ncpus;
	if (tm->ncpu_pct > ncpus)
		tm->ncpu_pct = ncpus;
	tm->cpu_pct = xcalloc((size_t)(tm->ncpu_pct ? tm->ncpu_pct : 1),
			      sizeof(double));
	tm->in_band_pct = NAN;
	tm->resp_us[0] = tm->resp_us[1] = tm->resp_us[2] = NAN;
	if (!st)
		return;
	tm->nresp = (long)st->resp.n;
	pcts(&st->resp, tm->resp_us);
	tm->run_s = (double)st->run_ns / 1e9;
	for (c = 0; c < tm->ncpu_pct; c++)
		tm->cpu_pct[c] = st->run_ns ? 100.0 * (double)scan_task_cpu_ns(st, c) /
				 (double)st->run_ns : 0;
	if (st->clamped_ns)
		tm->in_band_pct = 100.0 * (double)st->in_band_ns /
				  (double)st->clamped_ns;
	(void)m;
}

static void fill_domains(struct run_metrics *m, struct scan *sc, json_t *sum)
{
	json_t *jd = json_object_get(sum, "domains");
	int i, j;

	m->ndoms = sc->ndoms;
	m->doms = xcalloc((size_t)(sc->ndoms ? sc->ndoms : 1), sizeof(*m->doms));
	for (i = 0; i < sc->ndoms; i++) {
		struct scan_domain *d = &sc->doms[i];
		struct dom_metrics *dm = &m->doms[i];
		json_t *o = json_array_get(jd, (size_t)i);
		uint64_t tot = 0;
		double avg = 0;

		dm->id = i;
		for (j = 0; j < d->ncpus; j++) {
			size_t n = strlen(dm->cpus);

			snprintf(dm->cpus + n, sizeof(dm->cpus) - n, "%s%d",
				 j ? "," : "", d->cpus[j]);
		}
		dm->nopps = d->nopps;
		dm->khz = xcalloc((size_t)(d->nopps ? d->nopps : 1), sizeof(unsigned int));
		dm->res_pct = xcalloc((size_t)(d->nopps ? d->nopps : 1), sizeof(double));
		tot = freq_residency_window_ns(&d->res) - d->res.unknown_ns;
		/* shares of the whole trace, the unknown stretch included
		 * (freq_residency.h); the average of the time whose frequency
		 * is known */
		for (j = 0; j < d->nopps; j++) {
			dm->khz[j] = d->khz[j];
			dm->res_pct[j] = freq_residency_pct(&d->res, j);
			if (tot)
				avg += 100.0 * (double)d->res.opp_ns[j] /
				       (double)tot / 100.0 * d->khz[j] / 1000.0;
		}
		dm->unknown_pct = freq_residency_pct(&d->res, -1);
		dm->avg_mhz = avg;
		dm->energy_mj = o ? jnum(o, "energy_mj") : NAN;
		/* the summary's average is the run's own accounting: prefer it */
		if (o && !isnan(jnum(o, "avg_khz")))
			dm->avg_mhz = jnum(o, "avg_khz") / 1000.0;
	}
}

/* Every task of the summary carries its response times (capsim run
 * measures them since they are in summary.json) */
static bool summary_has_response(json_t *sum)
{
	json_t *jt = json_object_get(sum, "tasks"), *v;
	size_t i;

	if (!json_is_array(jt) || !json_is_array(json_object_get(sum, "domains")))
		return false;
	json_array_foreach(jt, i, v)
		if (!json_is_object(json_object_get(v, "response_us")))
			return false;
	return true;
}

/* seconds keyed by a number (kHz or CPU id) -> that number's index */
static int key_index(const char *key, int n)
{
	char *end;
	long k = strtol(key, &end, 10);

	return *end || k < 0 || k >= n ? -1 : (int)k;
}

/*
 * The figures summary.json holds, the response times included: what a
 * sweep needs, without reading the point's trace. The per-CPU residency
 * comes from cpu_residency_s, the domains' from residency_s; only the
 * in-band share needs the trace (NAN here).
 */
static void load_from_summary(struct run_metrics *m, json_t *sum)
{
	json_t *jt = json_object_get(sum, "tasks"),
	       *jd = json_object_get(sum, "domains"), *v, *r;
	const char *key;
	size_t i;
	int c;

	m->ncpus = (int)json_array_size(json_object_get(sum, "cpus"));
	m->ntasks = (int)json_array_size(jt);
	m->tasks = xcalloc((size_t)(m->ntasks ? m->ntasks : 1), sizeof(*m->tasks));
	json_array_foreach(jt, i, v) {
		struct task_metrics *tm = &m->tasks[i];
		json_t *jr = json_object_get(v, "response_us");

		fill_task(m, tm, NULL, v, m->ncpus);
		tm->nresp = (long)json_integer_value(json_object_get(jr, "count"));
		tm->resp_us[0] = jnum(jr, "p50");
		tm->resp_us[1] = jnum(jr, "p95");
		tm->resp_us[2] = jnum(jr, "p99");
		tm->run_s = jnum(v, "runtime_s");
		json_object_foreach(json_object_get(v, "cpu_residency_s"), key, r) {
			c = key_index(key, m->ncpus);
			if (c >= 0 && tm->run_s > 0)
				tm->cpu_pct[c] = 100.0 * json_number_value(r) / tm->run_s;
		}
	}
	m->ndoms = (int)json_array_size(jd);
	m->doms = xcalloc((size_t)(m->ndoms ? m->ndoms : 1), sizeof(*m->doms));
	json_array_foreach(jd, i, v) {
		struct dom_metrics *dm = &m->doms[i];
		json_t *res = json_object_get(v, "residency_s");
		double tot = 0;
		size_t k;

		dm->id = (int)i;
		json_array_foreach(json_object_get(v, "cpus"), k, r) {
			size_t n = strlen(dm->cpus);

			snprintf(dm->cpus + n, sizeof(dm->cpus) - n, "%s%d",
				 k ? "," : "", (int)json_integer_value(r));
		}
		/* the OPPs in the summary's order: ascending kHz */
		dm->nopps = (int)json_object_size(res);
		dm->khz = xcalloc((size_t)(dm->nopps ? dm->nopps : 1), sizeof(unsigned int));
		dm->res_pct = xcalloc((size_t)(dm->nopps ? dm->nopps : 1), sizeof(double));
		c = 0;
		json_object_foreach(res, key, r) {
			dm->khz[c] = (unsigned int)strtoul(key, NULL, 10);
			dm->res_pct[c++] = json_number_value(r);
			tot += json_number_value(r);
		}
		for (c = 0; c < dm->nopps; c++)
			dm->res_pct[c] = tot > 0 ? 100.0 * dm->res_pct[c] / tot : 0;
		dm->avg_mhz = jnum(v, "avg_khz") / 1000.0;
		dm->energy_mj = jnum(v, "energy_mj");
	}
}

/* An integer field of @o, or -1 where it is none */
static long jcount(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/* summary.json's "chains" (only a workload with capsim.chains has it) */
static void load_chains(struct run_metrics *m, json_t *sum)
{
	json_t *jc = json_object_get(sum, "chains"), *v;
	const char *name;

	m->nchains = 0;
	m->chains = xcalloc(json_object_size(jc) + 1, sizeof(*m->chains));
	json_object_foreach(jc, name, v) {
		struct chain_metrics *cm = &m->chains[m->nchains++];
		json_t *jl = json_object_get(v, "latency_us");

		cm->name = xstrdup(name);
		cm->periods = jcount(v, "periods");
		cm->late = jcount(v, "late");
		cm->dropped = jcount(v, "dropped");
		cm->lost = jcount(v, "lost_resumes");
		cm->period_us = jnum(v, "period_us");
		cm->deadline_us = jnum(v, "deadline_us");
		cm->jank_pct = jnum(v, "jank_pct");
		cm->inferred = json_is_true(json_object_get(v, "inferred"));
		cm->lat_us[0] = jnum(jl, "p50");
		cm->lat_us[1] = jnum(jl, "p95");
		cm->lat_us[2] = jnum(jl, "p99");
	}
}

void run_metrics_from_summary(struct run_metrics *m, json_t *sum)
{
	json_t *jp = json_object_get(sum, "platform");

	memset(m, 0, sizeof(*m));
	m->has_summary = true;
	m->workload = xstrdup(jstr(json_object_get(sum, "workload"), "name") ?
			      jstr(json_object_get(sum, "workload"), "name") :
			      "?");
	m->platform = xstrdup(jstr(jp, "name") ? jstr(jp, "name") :
			      "unknown platform");
	m->policy = xstrdup(jstr(sum, "policy") ? jstr(sum, "policy") : "?");
	m->sim_s = jnum(sum, "simulated_s");
	m->energy_mj = jnum(sum, "energy_mj");
	load_from_summary(m, sum);
	load_chains(m, sum);
}

static struct platform *pick_platform(const struct metrics_opts *o,
				      json_t *sum)
{
	json_t *jp = json_object_get(sum, "platform");
	const char *name = o && o->platform ? o->platform : NULL;
	struct platform *p = NULL;
	struct diag d;

	diag_init(&d, true);
	if (name) {
		diag_free(&d);
		diag_init(&d, false);	/* the user's choice: say what is wrong */
		p = platform_load(name, &d);
	} else if (jp) {
		const char *origin = jstr(jp, "origin");

		if (origin && strcmp(origin, "embedded") && is_file(origin))
			p = platform_load(origin, &d);
		if (!p && jstr(jp, "name"))
			p = platform_load(jstr(jp, "name"), &d);
	}
	diag_free(&d);
	return p;
}

int run_metrics_load(struct run_metrics *m, const char *path,
		     const struct metrics_opts *o)
{
	char *trace, *sumpath;
	struct platform *pl = NULL;
	struct domain_guess guess = { 0 };
	const struct clamp_policy_info *pi;
	enum clamp_order order;
	struct scan sc;
	json_t *sum = NULL, *jt;
	json_error_t jerr;
	int i, ret = -1;

	memset(m, 0, sizeof(*m));
	memset(&sc, 0, sizeof(sc));
	if (is_dir(path)) {
		trace = xasprintf("%s/trace.txt", path);
		sumpath = xasprintf("%s/summary.json", path);
	} else {
		const char *slash = strrchr(path, '/');

		trace = xstrdup(path);
		sumpath = slash ? xasprintf("%.*s/summary.json",
					    (int)(slash - path), path) :
			  xstrdup("summary.json");
		/* a lone trace next to some other run's summary: not ours */
		if (strcmp(slash ? slash + 1 : path, "trace.txt")) {
			free(sumpath);
			sumpath = NULL;
		}
	}
	if (sumpath && is_file(sumpath)) {
		sum = json_load_file(sumpath, 0, &jerr);
		if (!sum) {
			fprintf(stderr, "%s:%d:%d: error: %s\n", sumpath,
				jerr.line, jerr.column, jerr.text);
			goto out;
		}
	}
	if (sum && o && o->summary_first && !o->platform &&
	    summary_has_response(sum)) {
		run_metrics_from_summary(m, sum);
		m->trace_path = xstrdup(trace);
		m->summary_path = xstrdup(sumpath);
		ret = 0;
		goto out;
	}
	pl = pick_platform(o, sum);
	if (o && o->platform && !pl)
		goto out;
	sc.pl = pl;
	/* without a platform: the domains the trace's frequency events
	 * show (docs/traces.md), named as inferred */
	if (!pl && !(o && o->sched_only)) {
		i = domain_infer(trace, &guess);
		if (i) {
			ret = i == TRACE_FILE_BAD ? SCAN_BAD_INPUT : -1;
			goto out;
		}
		sc.guess = &guess;
	}
	if (sum && jstr(sum, "clamp_order") &&
	    !clamp_order_parse(jstr(sum, "clamp_order"), &order))
		sc.order_410 = order == CLAMP_ORDER_410;
	/* the band of the range the run's policy applied: uclamp's rq
	 * clamps where uclamp values clamp, else the RFC's range */
	pi = sum && jstr(sum, "policy") ? clamp_policy_find(jstr(sum, "policy")) :
	     NULL;
	sc.band = !sum ? SCAN_BAND_AUTO :
		  pi && pi->uclamp_values ? SCAN_BAND_UCLAMP : SCAN_BAND_RFC;
	if (o) {
		sc.hooks = o->hooks;
		sc.sched_only = o->sched_only;
	}
	jt = json_object_get(sum, "tasks");
	if (sum) {
		size_t k;
		json_t *v;

		setup_groups(&sc, sum, o ? o->base_dir : NULL);
		if (!isnan(jnum(sum, "simulated_s")))
			sc.end_ns = (uint64_t)llround(jnum(sum, "simulated_s") * 1e9);
		json_array_foreach(jt, k, v)
			scan_add_task(&sc, summary_pid(v), jstr(v, "comm"),
				      jstr(v, "name"), jstr(v, "group"));
	}
	i = scan_trace(&sc, trace);
	if (i) {
		ret = i;	/* SCAN_BAD_INPUT: the caller's exit 2 */
		goto out;
	}
	if (!sum && !sc.ss.switches) {
		/* a trace with neither task nor frequency is no schedule
		 * (docs/traces.md); frequencies alone still plot */
		for (i = 0; i < sc.ndoms && !sc.doms[i].cur_khz; i++)
			;
		fprintf(stderr, "capsim: %s: no sched_switch event, so no task lanes%s (record sched:sched_switch)\n",
			trace, i < sc.ndoms ? "" : " and no frequency event: nothing to plot");
		if (i == sc.ndoms) {
			ret = SCAN_BAD_INPUT;
			goto out;
		}
	}

	m->has_summary = sum != NULL;
	m->trace_path = xstrdup(trace);
	m->summary_path = sum ? xstrdup(sumpath) : NULL;
	m->workload = xstrdup(sum && jstr(json_object_get(sum, "workload"), "name") ?
			      jstr(json_object_get(sum, "workload"), "name") :
			      "kernel trace");
	if (pl) {
		m->platform = xstrdup(pl->name);
	} else if (guess.ndoms) {
		char *s = domain_guess_str(&guess);

		m->platform = xasprintf("inferred: %s", s);
		free(s);
	} else {
		m->platform = xstrdup("unknown platform");
	}
	m->policy = xstrdup(sum && jstr(sum, "policy") ? jstr(sum, "policy") :
			    "kernel");
	m->band = sc.band_used;
	m->sim_s = (double)(sc.t_last - sc.t_first) / 1e9;
	if (sum && !isnan(jnum(sum, "simulated_s")))
		m->sim_s = jnum(sum, "simulated_s");
	m->energy_mj = sum ? jnum(sum, "energy_mj") : NAN;
	m->ncpus = sc.ncpus;
	if (sum) {
		m->ntasks = (int)json_array_size(jt);
		m->tasks = xcalloc((size_t)(m->ntasks ? m->ntasks : 1),
				   sizeof(*m->tasks));
		for (i = 0; i < m->ntasks; i++) {
			json_t *v = json_array_get(jt, (size_t)i);
			int pid = summary_pid(v);
			struct scan_task *st = scan_task_by_pid(&sc, pid);

			fill_task(m, &m->tasks[i], st, v, sc.ncpus);
		}
	} else {
		/* a kernel trace: every task that ran */
		m->tasks = xcalloc((size_t)(sc.ss.ntasks ? sc.ss.ntasks : 1),
				   sizeof(*m->tasks));
		for (i = 0; i < sc.ss.ntasks; i++) {
			if (!scan_task_at(&sc, i)->run_ns &&
			    !(o && o->kernel_all_tasks))
				continue;
			fill_task(m, &m->tasks[m->ntasks++], scan_task_at(&sc, i), NULL,
				  sc.ncpus);
		}
	}
	fill_domains(m, &sc, sum);
	for (i = 0; pl && i < m->ndoms && i < pl->ndomains; i++)
		if (pl->domains[i].name)
			m->doms[i].name = xstrdup(pl->domains[i].name);
	load_chains(m, sum);
	ret = 0;
out:
	scan_free(&sc);
	domain_guess_free(&guess);
	platform_free(pl);
	json_decref(sum);
	free(trace);
	free(sumpath);
	return ret;
}

double task_cpu_pct(const struct task_metrics *t, int cpu)
{
	return cpu >= 0 && cpu < t->ncpu_pct ? t->cpu_pct[cpu] : 0;
}

void run_metrics_free(struct run_metrics *m)
{
	int i, j;

	for (i = 0; i < m->ntasks; i++) {
		free(m->tasks[i].name);
		free(m->tasks[i].group);
		for (j = 0; j < m->tasks[i].ncomms; j++)
			free(m->tasks[i].comms[j]);
		free(m->tasks[i].comms);
		free(m->tasks[i].cpu_pct);
	}
	free(m->tasks);
	for (i = 0; i < m->ndoms; i++) {
		free(m->doms[i].name);
		free(m->doms[i].khz);
		free(m->doms[i].res_pct);
	}
	free(m->doms);
	for (i = 0; i < m->nchains; i++)
		free(m->chains[i].name);
	free(m->chains);
	free(m->workload);
	free(m->platform);
	free(m->policy);
	free(m->trace_path);
	free(m->summary_path);
	memset(m, 0, sizeof(*m));
}

const struct chain_metrics *run_metrics_chain(const struct run_metrics *m,
					      const char *name)
{
	int i;

	for (i = 0; i < m->nchains; i++)
		if (!strcmp(m->chains[i].name, name))
			return &m->chains[i];
	return NULL;
}

int run_metrics_main_task(const struct run_metrics *m)
{
	int i, best = -1;
	long most = -1;

	for (i = 0; i < m->ntasks; i++) {
		long a = m->tasks[i].activations >= 0 ? m->tasks[i].activations :
			 m->tasks[i].nresp;

		if (a > most && m->tasks[i].nresp) {
			most = a;
			best = i;
		}
	}
	return best;
}
