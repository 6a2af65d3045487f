// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "trace_scan.h"

#define IDLE_EXIT 4294967295ULL

static void grow_cpus(struct scan *sc, int cpu)
{
	int n = sc->ncpus, i;

	if (cpu < n)
		return;
	sc->ncpus = cpu + 1;
	sc->cpu_curr = xrealloc(sc->cpu_curr, (size_t)sc->ncpus * sizeof(int));
	sc->cpu_idle = xrealloc(sc->cpu_idle, (size_t)sc->ncpus * sizeof(bool));
	sc->cpu_min = xrealloc(sc->cpu_min, (size_t)sc->ncpus * sizeof(unsigned int));
	sc->cpu_max = xrealloc(sc->cpu_max, (size_t)sc->ncpus * sizeof(unsigned int));
	sc->cpu_dom = xrealloc(sc->cpu_dom, (size_t)sc->ncpus * sizeof(int));
	for (i = n; i < sc->ncpus; i++) {
		sc->cpu_curr[i] = -1;
		sc->cpu_idle[i] = false;
		sc->cpu_min[i] = 0;
		sc->cpu_max[i] = 1024;
		sc->cpu_dom[i] = -1;
	}
	for (i = 0; i < sc->ntasks; i++)
		sc->tasks[i]->cpu_ns = xrealloc(sc->tasks[i]->cpu_ns,
			(size_t)sc->ncpus * sizeof(uint64_t));
	for (i = 0; i < sc->ntasks; i++)
		memset(sc->tasks[i]->cpu_ns + n, 0,
		       (size_t)(sc->ncpus - n) * sizeof(uint64_t));
	if (!sc->pl) {
		/* Without a platform each CPU is its own domain, its OPPs the
		 * frequencies the trace shows. */
		sc->doms = xrealloc(sc->doms, (size_t)sc->ncpus * sizeof(*sc->doms));
		memset(sc->doms + n, 0, (size_t)(sc->ncpus - n) * sizeof(*sc->doms));
		for (i = n; i < sc->ncpus; i++) {
			sc->doms[i].ncpus = 1;
			sc->doms[i].cpus = xmalloc(sizeof(int));
			sc->doms[i].cpus[0] = i;
			sc->doms[i].capacity = 1024;
			sc->doms[i].band_max = 1024;
			sc->cpu_dom[i] = i;
		}
		sc->ndoms = sc->ncpus;
	}
}

static void setup_platform(struct scan *sc)
{
	const struct platform *pl = sc->pl;
	int i, j;

	if (!pl)
		return;
	grow_cpus(sc, pl->ncpus - 1);
	sc->ndoms = pl->ndomains;
	sc->doms = xcalloc((size_t)pl->ndomains, sizeof(*sc->doms));
	for (i = 0; i < pl->ndomains; i++) {
		const struct pdomain *pd = &pl->domains[i];
		struct scan_domain *d = &sc->doms[i];

		d->ncpus = pd->ncpus;
		d->cpus = xmalloc((size_t)pd->ncpus * sizeof(int));
		memcpy(d->cpus, pd->cpus, (size_t)pd->ncpus * sizeof(int));
		d->nopps = pd->nopps;
		d->khz = xmalloc((size_t)pd->nopps * sizeof(unsigned int));
		for (j = 0; j < pd->nopps; j++)
			d->khz[j] = pd->opps[j].khz;
		d->residency_ns = xcalloc((size_t)pd->nopps, sizeof(uint64_t));
		d->capacity = pl->cpus[pd->cpus[0]].capacity;
		d->cur_khz = pd->opps[0].khz;
		d->band_max = 1024;
		for (j = 0; j < pd->ncpus; j++)
			sc->cpu_dom[pd->cpus[j]] = i;
	}
}

/* Index of @khz in the domain's OPPs; a frequency the table lacks (a
 * kernel trace without its platform) is added in order. */
static int opp_index(struct scan_domain *d, unsigned int khz)
{
	int i;

	for (i = 0; i < d->nopps; i++)
		if (d->khz[i] == khz)
			return i;
	d->khz = xrealloc(d->khz, (size_t)(d->nopps + 1) * sizeof(unsigned int));
	d->residency_ns = xrealloc(d->residency_ns,
				   (size_t)(d->nopps + 1) * sizeof(uint64_t));
	for (i = d->nopps; i > 0 && d->khz[i - 1] > khz; i--) {
		d->khz[i] = d->khz[i - 1];
		d->residency_ns[i] = d->residency_ns[i - 1];
	}
	d->khz[i] = khz;
	d->residency_ns[i] = 0;
	d->nopps++;
	return i;
}

unsigned int scan_clamp_khz(const struct scan *sc, const struct scan_domain *d,
			    unsigned int cap)
{
	unsigned int fmax;
	double raw;
	int i;

	if (!d->nopps)
		return 0;
	fmax = d->khz[d->nopps - 1];
	if (cap >= d->capacity)
		return fmax;
	raw = (double)fmax * cap / d->capacity;
	if (sc->order_410)
		raw *= 1.25;
	for (i = 0; i < d->nopps; i++)
		if (d->khz[i] >= raw)
			return d->khz[i];
	return fmax;
}

static struct scan_task *task_get(struct scan *sc, int pid, const char *comm)
{
	struct scan_task *t;
	int i;

	if (pid <= 0)
		return NULL;
	if (pid >= sc->pid_cap) {
		int cap = sc->pid_cap ? sc->pid_cap : 4096;

		while (cap <= pid)
			cap *= 2;
		sc->pid_idx = xrealloc(sc->pid_idx, (size_t)cap * sizeof(int));
		for (i = sc->pid_cap; i < cap; i++)
			sc->pid_idx[i] = -1;
		sc->pid_cap = cap;
	}
	if (sc->pid_idx[pid] >= 0)
		return sc->tasks[sc->pid_idx[pid]];
	t = xcalloc(1, sizeof(*t));
	t->pid = pid;
	t->comm = xstrdup(comm ? comm : "?");
	t->cpu = -1;
	t->since = sc->now;
	t->gidx = -1;
	t->cpu_ns = xcalloc((size_t)(sc->ncpus ? sc->ncpus : 1), sizeof(uint64_t));
	sc->tasks = xrealloc(sc->tasks, (size_t)(sc->ntasks + 1) * sizeof(*sc->tasks));
	sc->pid_idx[pid] = sc->ntasks;
	sc->tasks[sc->ntasks++] = t;
	return t;
}

static void set_state(struct scan *sc, struct scan_task *t, int state, int cpu)
{
	if (t->state == state && (state != LANE_RUNNING || t->cpu == cpu))
		return;
	if ((t->state == LANE_RUNNING || t->state == LANE_RUNNABLE) &&
	    sc->now > t->since && sc->hooks.segment)
		sc->hooks.segment(sc->hooks.arg, t, t->since, sc->now, t->state,
				  t->cpu);
	t->state = state;
	t->since = sc->now;
	if (state == LANE_RUNNING)
		t->cpu = cpu;
}

static bool group_clamped(const struct scan_group *g)
{
	return g->min > 0 || g->max < 1024;
}

/* Account [sc->now, to) on every CPU and domain */
static void advance(struct scan *sc, uint64_t to)
{
	uint64_t dt = to - sc->now;
	int c, i;

	if (to <= sc->now)
		return;
	for (i = 0; i < sc->ndoms; i++) {
		struct scan_domain *d = &sc->doms[i];

		if (d->cur_khz)
			d->residency_ns[opp_index(d, d->cur_khz)] += dt;
	}
	for (c = 0; c < sc->ncpus; c++) {
		struct scan_task *t;
		struct scan_domain *d;

		if (sc->cpu_curr[c] < 0)
			continue;
		t = sc->tasks[sc->cpu_curr[c]];
		t->cpu_ns[c] += dt;
		t->run_ns += dt;
		if (t->gidx < 0 || sc->cpu_dom[c] < 0 ||
		    !group_clamped(&sc->groups[t->gidx]))
			continue;
		d = &sc->doms[sc->cpu_dom[c]];
		t->clamped_ns += dt;
		if (d->cur_khz <= scan_clamp_khz(sc, d, sc->groups[t->gidx].max) &&
		    d->cur_khz >= scan_clamp_khz(sc, d, sc->groups[t->gidx].min))
			t->in_band_ns += dt;
	}
	sc->now = to;
}

static void domain_hook(struct scan *sc, int i)
{
	struct scan_domain *d = &sc->doms[i];

	if (sc->hooks.domain && d->cur_khz)
		sc->hooks.domain(sc->hooks.arg, i, sc->now, d->cur_khz,
				 scan_clamp_khz(sc, d, d->band_min),
				 scan_clamp_khz(sc, d, d->band_max),
				 d->has_band);
}

static void flush_domains(struct scan *sc)
{
	int i;

	for (i = 0; i < sc->ndoms; i++) {
		struct scan_domain *d = &sc->doms[i];

		if (!d->dirty)
			continue;
		d->dirty = false;
		domain_hook(sc, i);
	}
}

static void recompute_band(struct scan *sc, int cpu)
{
	struct scan_domain *d;
	unsigned int mn = 0, mx = 0;
	bool any = false;
	int i;

	if (cpu < 0 || cpu >= sc->ncpus || sc->cpu_dom[cpu] < 0)
		return;
	d = &sc->doms[sc->cpu_dom[cpu]];
	for (i = 0; i < d->ncpus; i++) {
		int c = d->cpus[i];

		if (c >= sc->ncpus || sc->cpu_idle[c])
			continue;
		any = true;
		if (sc->cpu_min[c] > mn)
			mn = sc->cpu_min[c];
		if (sc->cpu_max[c] > mx)
			mx = sc->cpu_max[c];
	}
	if (!any)
		return;		/* an idle domain keeps its last band */
	if (mn != d->band_min || mx != d->band_max) {
		d->band_min = mn;
		d->band_max = mx;
		d->dirty = true;
	}
}

static void apply_writes(struct scan *sc, uint64_t upto)
{
	while (sc->next_write < sc->nwrites &&
	       sc->writes[sc->next_write].at_ns <= upto) {
		const struct scan_group_write *w = &sc->writes[sc->next_write++];
		int i;

		advance(sc, w->at_ns > sc->now ? w->at_ns : sc->now);
		for (i = 0; i < sc->ngroups; i++) {
			if (strcmp(sc->groups[i].path, w->group))
				continue;
			if (w->attr)
				sc->groups[i].max = w->value;
			else
				sc->groups[i].min = w->value;
		}
	}
}

static void on_switch(struct scan *sc, const struct ftrace_event *ev)
{
	const char *st = ftrace_get(ev, "prev_state");
	int64_t prev, next;
	struct scan_task *t;

	if (!ftrace_get_i64(ev, "prev_pid", &prev) ||
	    !ftrace_get_i64(ev, "next_pid", &next))
		return;
	t = task_get(sc, (int)prev, ftrace_get(ev, "prev_comm"));
	if (t) {
		if (st && st[0] == 'R') {
			set_state(sc, t, LANE_RUNNABLE, -1);
		} else {
			set_state(sc, t, st && st[0] == 'X' ? LANE_DEAD :
				  LANE_SLEEPING, -1);
			if (t->resp_open) {
				samples_add(&t->resp,
					    (int64_t)(sc->now - t->resp_start));
				t->resp_open = false;
			}
		}
	}
	t = task_get(sc, (int)next, ftrace_get(ev, "next_comm"));
	sc->cpu_curr[ev->cpu] = t ? sc->pid_idx[t->pid] : -1;
	if (t) {
		if (t->wlat_open) {
			samples_add(&t->wlat, (int64_t)(sc->now - t->woken));
			t->wlat_open = false;
		}
		set_state(sc, t, LANE_RUNNING, ev->cpu);
	}
}

static void on_wake(struct scan *sc, const struct ftrace_event *ev,
		    bool waking)
{
	struct scan_task *t;
	int64_t pid;

	if (!ftrace_get_i64(ev, "pid", &pid))
		return;
	t = task_get(sc, (int)pid, ftrace_get(ev, "comm"));
	if (!t)
		return;
	if (!t->resp_open) {
		t->resp_open = true;
		t->resp_start = sc->now;
	}
	if (waking)
		return;
	if (t->state != LANE_RUNNING) {
		t->wlat_open = true;
		t->woken = sc->now;
		set_state(sc, t, LANE_RUNNABLE, -1);
	}
}

static void on_cpu_event(struct scan *sc, const struct ftrace_event *ev)
{
	int64_t cpu, v, mn, mx;

	if (!strcmp(ev->name, "cpu_frequency")) {
		if (!ftrace_get_i64(ev, "cpu_id", &cpu) ||
		    !ftrace_get_i64(ev, "state", &v) || cpu < 0 || cpu > 4095)
			return;
		grow_cpus(sc, (int)cpu);
		if (sc->cpu_dom[cpu] >= 0) {
			struct scan_domain *d = &sc->doms[sc->cpu_dom[cpu]];

			if (d->cur_khz != (unsigned int)v) {
				d->cur_khz = (unsigned int)v;
				opp_index(d, d->cur_khz);
				d->dirty = true;
			}
		}
	} else if (!strcmp(ev->name, "cpu_idle")) {
		if (!ftrace_get_i64(ev, "cpu_id", &cpu) ||
		    !ftrace_get_i64(ev, "state", &v) || cpu < 0 || cpu > 4095)
			return;
		grow_cpus(sc, (int)cpu);
		sc->cpu_idle[cpu] = (unsigned long long)v != IDLE_EXIT;
		recompute_band(sc, (int)cpu);
	} else if (!strcmp(ev->name, "cap_clamp_cpu")) {
		if (!ftrace_get_i64(ev, "cpu", &cpu) ||
		    !ftrace_get_i64(ev, "min", &mn) ||
		    !ftrace_get_i64(ev, "max", &mx) || cpu < 0 || cpu > 4095)
			return;
		grow_cpus(sc, (int)cpu);
		sc->has_clamp_lines = true;
		sc->cpu_min[cpu] = (unsigned int)mn;
		sc->cpu_max[cpu] = (unsigned int)mx;
		if (sc->cpu_dom[cpu] >= 0)
			sc->doms[sc->cpu_dom[cpu]].has_band = true;
		recompute_band(sc, (int)cpu);
		if (sc->cpu_dom[cpu] >= 0)
			sc->doms[sc->cpu_dom[cpu]].dirty = true;
	} else if (!strcmp(ev->name, "capsim_util")) {
		int64_t cfs = 0, rt = 0, dl = 0;

		if (!ftrace_get_i64(ev, "cpu", &cpu) || cpu < 0 ||
		    cpu >= sc->ncpus)
			return;
		ftrace_get_i64(ev, "util_cfs", &cfs);
		ftrace_get_i64(ev, "util_rt", &rt);
		ftrace_get_i64(ev, "util_dl", &dl);
		sc->has_util_lines = true;
		if (sc->hooks.util)
			sc->hooks.util(sc->hooks.arg, (int)cpu, sc->now,
				       (unsigned int)(cfs + rt + dl),
				       sc->cpu_min[cpu], sc->cpu_max[cpu]);
	}
}

static void on_event(struct scan *sc, const struct ftrace_event *ev)
{
	if (ev->cpu >= 0 && ev->cpu < 4096)
		grow_cpus(sc, ev->cpu);
	if (!strcmp(ev->name, "sched_switch"))
		on_switch(sc, ev);
	else if (!strcmp(ev->name, "sched_waking"))
		on_wake(sc, ev, true);
	else if (!strcmp(ev->name, "sched_wakeup") ||
		 !strcmp(ev->name, "sched_wakeup_new"))
		on_wake(sc, ev, false);
	else
		on_cpu_event(sc, ev);
}

static void finish(struct scan *sc)
{
	int i;

	if (sc->end_ns > sc->t_last)
		sc->t_last = sc->end_ns;
	apply_writes(sc, sc->t_last);
	advance(sc, sc->t_last);
	flush_domains(sc);
	/* close the open lane segments at the end of the trace */
	for (i = 0; i < sc->ntasks; i++)
		set_state(sc, sc->tasks[i], LANE_DEAD, -1);
	for (i = 0; i < sc->ndoms; i++)
		domain_hook(sc, i);
}

int scan_trace(struct scan *sc, const char *path)
{
	FILE *f = fopen(path, "r");
	struct ftrace_event ev;
	char *line = NULL;
	size_t cap = 0;
	bool started = false;
	long lineno = 0;

	if (!f) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	setup_platform(sc);
	while (getline(&line, &cap, f) > 0) {
		const char *err;
		int col, r;

		lineno++;
		if (sc->sched_only && !strstr(line, ": sched_"))
			continue;
		r = ftrace_parse_line(line, &ev, &err, &col);
		if (r < 0) {
			fprintf(stderr, "%s:%ld:%d: error: %s\n", path, lineno,
				col, err);
			free(line);
			fclose(f);
			return -1;
		}
		if (!r)
			continue;
		sc->events++;
		if (!started) {
			started = true;
			sc->t_first = sc->now = ev.ts_ns;
		}
		if (ev.ts_ns > sc->now) {
			flush_domains(sc);
			apply_writes(sc, ev.ts_ns);
			advance(sc, ev.ts_ns);
		}
		on_event(sc, &ev);
		sc->t_last = sc->now;
	}
	sc->lines = lineno;
	free(line);
	fclose(f);
	if (!started) {
		fprintf(stderr, "capsim: %s: no trace events\n", path);
		return -1;
	}
	finish(sc);
	return 0;
}

void scan_add_task(struct scan *sc, int pid, const char *comm,
		   const char *name, const char *group)
{
	struct scan_task *t = task_get(sc, pid, comm);
	int i;

	if (!t)
		return;
	free(t->name);
	t->name = name ? xstrdup(name) : NULL;
	free(t->group);
	t->group = group ? xstrdup(group) : NULL;
	for (i = 0; group && i < sc->ngroups; i++)
		if (!strcmp(sc->groups[i].path, group))
			t->gidx = i;
}

struct scan_task *scan_find_task(const struct scan *sc, const char *name)
{
	int i;

	for (i = 0; i < sc->ntasks; i++)
		if ((sc->tasks[i]->name && !strcmp(sc->tasks[i]->name, name)) ||
		    !strcmp(sc->tasks[i]->comm, name))
			return sc->tasks[i];
	return NULL;
}

void scan_free(struct scan *sc)
{
	int i;

	for (i = 0; i < sc->ntasks; i++) {
		struct scan_task *t = sc->tasks[i];

		free(t->comm);
		free(t->name);
		free(t->group);
		samples_free(&t->resp);
		samples_free(&t->wlat);
		free(t->cpu_ns);
		free(t);
	}
	free(sc->tasks);
	for (i = 0; i < sc->ndoms; i++) {
		free(sc->doms[i].cpus);
		free(sc->doms[i].khz);
		free(sc->doms[i].residency_ns);
	}
	free(sc->doms);
	free(sc->cpu_dom);
	free(sc->pid_idx);
	free(sc->cpu_curr);
	free(sc->cpu_idle);
	free(sc->cpu_min);
	free(sc->cpu_max);
	for (i = 0; i < sc->ngroups; i++)
		free(sc->groups[i].path);
	free(sc->groups);
	for (i = 0; i < sc->nwrites; i++)
		free(sc->writes[i].group);
	free(sc->writes);
}
