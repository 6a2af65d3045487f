// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "sched_state.h"
#include "trace_reader.h"
#include "trace_scan.h"

/* The scan's domain of CPU @cpu's inferred domain, if a CPU below it has
 * one already; else -1 (a new domain) */
static int guessed_domain(const struct scan *sc, int cpu)
{
	const struct domain_guess *g = sc->guess;
	int j;

	if (!g || cpu >= g->ncpus || g->dom[cpu] < 0)
		return -1;
	for (j = 0; j < cpu; j++)
		if (g->dom[j] == g->dom[cpu])
			return sc->cpu_dom[j];
	return -1;
}

/* The schedule names CPUs [n, to): the analysis' own arrays follow */
static void cpus_grown(void *arg, int n, int to)
{
	struct scan *sc = arg;
	int i;

	sc->ncpus = to;
	sc->busy = xrealloc(sc->busy, (size_t)sc->ncpus * sizeof(int));
	sc->busy_pos = xrealloc(sc->busy_pos, (size_t)sc->ncpus * sizeof(int));
	sc->cpu_min = xrealloc(sc->cpu_min, (size_t)sc->ncpus * sizeof(unsigned int));
	sc->cpu_max = xrealloc(sc->cpu_max, (size_t)sc->ncpus * sizeof(unsigned int));
	sc->cpu_dom = xrealloc(sc->cpu_dom, (size_t)sc->ncpus * sizeof(int));
	for (i = n; i < sc->ncpus; i++) {
		sc->busy_pos[i] = -1;
		sc->cpu_min[i] = 0;
		sc->cpu_max[i] = 1024;
		sc->cpu_dom[i] = -1;
	}
	if (!sc->pl) {
		/* Without a platform a CPU joins its inferred domain
		 * (sc->guess), else is one of its own; the OPPs are the
		 * frequencies the trace shows. At most a domain per CPU. */
		sc->doms = xrealloc(sc->doms, (size_t)sc->ncpus * sizeof(*sc->doms));
		for (i = n; i < sc->ncpus; i++) {
			int d = guessed_domain(sc, i);
			struct scan_domain *sd;

			if (d < 0) {
				d = sc->ndoms++;
				memset(&sc->doms[d], 0, sizeof(sc->doms[d]));
				freq_residency_init(&sc->doms[d].res, 0, 0);
				sc->doms[d].capacity = 1024;
				sc->doms[d].band_max = 1024;
			}
			sd = &sc->doms[d];
			sd->cpus = xrealloc(sd->cpus, (size_t)(sd->ncpus + 1) *
					    sizeof(int));
			sd->cpus[sd->ncpus++] = i;
			sc->cpu_dom[i] = d;
		}
		sc->freq_doms = xrealloc(sc->freq_doms, (size_t)sc->ndoms *
					 sizeof(int));
	}
}

/* CPU @cpu now runs task index @idx (-1: none); busy follows */
static void set_curr(struct scan *sc, int cpu, int idx)
{
	if (idx >= 0 && sc->busy_pos[cpu] < 0) {
		sc->busy_pos[cpu] = sc->nbusy;
		sc->busy[sc->nbusy++] = cpu;
	} else if (idx < 0 && sc->busy_pos[cpu] >= 0) {
		int at = sc->busy_pos[cpu], last = sc->busy[--sc->nbusy];

		sc->busy[at] = last;
		sc->busy_pos[last] = at;
		sc->busy_pos[cpu] = -1;
	}
}

/* Domain @i's frequency is now @khz, an OPP of its table */
static void set_freq(struct scan *sc, int i, unsigned int khz, int opp)
{
	struct scan_domain *d = &sc->doms[i];

	if (!d->cur_khz) {
		/* until now its frequency was unknown (docs/traces.md) */
		sc->freq_doms[sc->nfreq_doms++] = i;
		d->known_from = sc->now;
	}
	d->cur_khz = khz;
	d->cur_opp = opp;
}

static void setup_platform(struct scan *sc)
{
	const struct platform *pl = sc->pl;
	int i, j;

	sc->ss.cpu_limit = pl ? pl->ncpus : SCAN_CPU_MAX;
	if (!pl)
		return;
	sc->ss.platform = pl->name;
	sc->ss.platform_ncpus = pl->ncpus;
	sched_state_grow(&sc->ss, pl->ncpus - 1);
	sc->ndoms = pl->ndomains;
	sc->doms = xcalloc((size_t)pl->ndomains, sizeof(*sc->doms));
	sc->freq_doms = xcalloc((size_t)pl->ndomains, sizeof(int));
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
		freq_residency_init(&d->res, pd->nopps, 0);
		d->capacity = pl->cpus[pd->cpus[0]].capacity;
		d->band_max = 1024;
		for (j = 0; j < pd->ncpus; j++)
			sc->cpu_dom[pd->cpus[j]] = i;
	}
}

/* Index of @khz in the domain's OPPs; a frequency the table lacks (a
 * kernel trace without its platform) is added in order, up to
 * SCAN_OPP_MAX (then -1). */
static int opp_index(struct scan_domain *d, unsigned int khz)
{
	int i;

	for (i = 0; i < d->nopps; i++)
		if (d->khz[i] == khz)
			return i;
	if (d->nopps >= SCAN_OPP_MAX)
		return -1;
	d->khz = xrealloc(d->khz, (size_t)(d->nopps + 1) * sizeof(unsigned int));
	for (i = d->nopps; i > 0 && d->khz[i - 1] > khz; i--)
		d->khz[i] = d->khz[i - 1];
	d->khz[i] = khz;
	freq_residency_insert_opp(&d->res, i);
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

/* The entry of @cpu in the task's running time, added if new (kept sorted
 * by CPU) */
static uint64_t *cpu_time_of(struct scan_task *t, int cpu)
{
	int lo = 0, hi = t->ncpu_time;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (t->cpu_time[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->ncpu_time && t->cpu_time[lo].cpu == cpu)
		return &t->cpu_time[lo].ns;
	t->cpu_time = xrealloc(t->cpu_time, (size_t)(t->ncpu_time + 1) *
			       sizeof(*t->cpu_time));
	memmove(t->cpu_time + lo + 1, t->cpu_time + lo,
		(size_t)(t->ncpu_time - lo) * sizeof(*t->cpu_time));
	t->cpu_time[lo].cpu = cpu;
	t->cpu_time[lo].ns = 0;
	t->ncpu_time++;
	return &t->cpu_time[lo].ns;
}

uint64_t scan_task_cpu_ns(const struct scan_task *t, int cpu)
{
	int i;

	for (i = 0; i < t->ncpu_time; i++)
		if (t->cpu_time[i].cpu == cpu)
			return t->cpu_time[i].ns;
	return 0;
}

int scan_task_last_cpu(const struct scan_task *t)
{
	return t->ncpu_time ? t->cpu_time[t->ncpu_time - 1].cpu : -1;
}

struct scan_task *scan_task_by_pid(const struct scan *sc, int pid)
{
	return (struct scan_task *)sched_state_find(&sc->ss, pid);
}

struct scan_task *scan_task_at(const struct scan *sc, int i)
{
	return (struct scan_task *)sc->ss.tasks[i];
}

/* A task's interval ended: a lane segment when it ran or waited */
static void on_interval(void *arg, const struct sched_task *t, uint64_t t0,
			uint64_t t1, enum sched_task_state state, int cpu)
{
	struct scan *sc = arg;

	if ((state == SCHED_RUNNING || state == SCHED_RUNNABLE) &&
	    sc->hooks.segment)
		sc->hooks.segment(sc->hooks.arg, (const struct scan_task *)t,
				  t0, t1, (int)state, cpu);
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
	for (i = 0; i < sc->nfreq_doms; i++) {
		struct scan_domain *d = &sc->doms[sc->freq_doms[i]];

		freq_residency_add(&d->res, d->cur_opp, sc->now - sc->t_first,
				   to - sc->t_first);
	}
	for (i = 0; i < sc->nbusy; i++) {
		struct scan_task *t;
		struct scan_domain *d;

		c = sc->busy[i];
		t = scan_task_at(sc, sc->ss.cpus[c].curr);
		*cpu_time_of(t, c) += dt;
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

		if (c >= sc->ncpus || sc->ss.cpus[c].idle != SCHED_IDLE_NONE)
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

/*
 * The writes up to trace time @upto; their times count from the run's
 * start, which is the trace's first event (capsim's trace clock does not
 * start at 0: SIM_TRACE_CLOCK_NS)
 */
static void apply_writes(struct scan *sc, uint64_t upto)
{
	while (sc->next_write < sc->nwrites &&
	       sc->t_first + sc->writes[sc->next_write].at_ns <= upto) {
		const struct scan_group_write *w = &sc->writes[sc->next_write++];
		uint64_t at = sc->t_first + w->at_ns;
		int i;

		advance(sc, at > sc->now ? at : sc->now);
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

/* A switch on @cpu: the response of a task that left asleep ends, the
 * wake-up latency of the one coming in */
static void on_switch(void *arg, int cpu, struct sched_task *prev,
		      const char *prev_state, struct sched_task *next)
{
	struct scan *sc = arg;
	struct scan_task *t = (struct scan_task *)prev;

	if (t && !(prev_state && prev_state[0] == 'R') && t->resp_open) {
		samples_add(&t->resp, (int64_t)(sc->now - t->resp_start));
		t->resp_open = false;
	}
	t = (struct scan_task *)next;
	set_curr(sc, cpu, next ? next->idx : -1);
	if (t && t->wlat_open) {
		samples_add(&t->wlat, (int64_t)(sc->now - t->woken));
		t->wlat_open = false;
	}
}

/* A wake-up opens the task's response; a sched_wakeup of a task not
 * running, its wake-up latency */
static void on_wake(void *arg, struct sched_task *st, int waker,
		    int target_cpu, bool waking)
{
	struct scan *sc = arg;
	struct scan_task *t = (struct scan_task *)st;

	(void)waker;
	(void)target_cpu;
	if (!t->resp_open) {
		t->resp_open = true;
		t->resp_start = sc->now;
	}
	if (!waking && st->state != SCHED_RUNNING) {
		t->wlat_open = true;
		t->woken = sc->now;
	}
}

/* CPU @cpu's domain runs at @khz: an OPP of its platform's table, or
 * without one a frequency added to the table the trace builds */
static int set_cpu_freq(struct scan *sc, const struct ftrace_event *ev,
			int cpu, unsigned int khz)
{
	struct scan_domain *d = &sc->doms[sc->cpu_dom[cpu]];
	int opp = -1, i;

	if (sc->pl) {
		for (i = 0; i < d->nopps; i++)
			if (d->khz[i] == khz)
				opp = i;
		if (opp < 0)
			return sched_state_bad(&sc->ss, ftrace_get(ev, "state"),
				   "CPU %d at %u kHz: not an OPP of its domain in %s (%u..%u kHz, %d OPPs): the trace is of another platform",
				   cpu, khz, sc->pl->name, d->khz[0],
				   d->khz[d->nopps - 1], d->nopps);
	} else {
		opp = opp_index(d, khz);
		if (opp < 0)
			return sched_state_bad(&sc->ss, ftrace_get(ev, "state"),
				   "CPU %d's domain shows more than %d distinct frequencies",
				   cpu, SCAN_OPP_MAX);
	}
	if (d->cur_khz != khz)
		d->dirty = true;
	set_freq(sc, sc->cpu_dom[cpu], khz, opp);
	return 0;
}

/* A CPU's frequency set by the trace (not at the end): its domain's */
static int on_freq(void *arg, const struct ftrace_event *ev, int cpu,
		   uint64_t t0, uint64_t t1, unsigned int old_khz)
{
	struct scan *sc = arg;

	(void)t0;
	(void)t1;
	(void)old_khz;
	if (!ev || sc->cpu_dom[cpu] < 0)
		return 0;
	return set_cpu_freq(sc, ev, cpu, sc->ss.cpus[cpu].khz);
}

/* A CPU entered or left idle: its domain's band counts it or not */
static void on_idle(void *arg, int cpu, uint64_t t0, uint64_t t1, int state)
{
	(void)t0;
	(void)t1;
	(void)state;
	recompute_band(arg, cpu);
}

/*
 * A CPU's range event (cap_clamp_cpu's min/max, or lisa__uclamp_util_cfs'
 * uclamp_min/uclamp_max) of source @src: the band's if the band follows
 * that source (AUTO: the first source seen)
 */
static int on_range(struct scan *sc, const struct ftrace_event *ev,
		    enum scan_band src, const char *fmin, const char *fmax)
{
	int64_t mn, mx;
	int cpu, r;

	if ((r = sched_state_field_cpu(&sc->ss, ev, "cpu", &cpu)) <= 0)
		return r;
	if (!ftrace_get_i64(ev, fmin, &mn) || !ftrace_get_i64(ev, fmax, &mx))
		return 0;
	sched_state_grow(&sc->ss, cpu);
	if (src == SCAN_BAND_RFC)
		sc->has_clamp_lines = true;
	else
		sc->has_uclamp_lines = true;
	if (sc->band_used == SCAN_BAND_AUTO)
		sc->band_used = src;
	if (sc->band_used != src)
		return 0;
	sc->cpu_min[cpu] = (unsigned int)mn;
	sc->cpu_max[cpu] = (unsigned int)mx;
	if (sc->cpu_dom[cpu] >= 0)
		sc->doms[sc->cpu_dom[cpu]].has_band = true;
	recompute_band(sc, cpu);
	if (sc->cpu_dom[cpu] >= 0)
		sc->doms[sc->cpu_dom[cpu]].dirty = true;
	return 0;
}

/* The events that are the analysis' own: idle (for the band), clamps,
 * utilization */
static int on_event(void *arg, const struct ftrace_event *ev)
{
	struct scan *sc = arg;
	int cpu, r;

	/* its events: cap_*, capsim_*, LISA's lisa__uclamp_util_cfs */
	if (ev->name[0] != 'c' && ev->name[0] != 'l')
		return 0;
	if (!strcmp(ev->name, "cap_clamp_cpu")) {
		return on_range(sc, ev, SCAN_BAND_RFC, "min", "max");
	} else if (!strcmp(ev->name, "lisa__uclamp_util_cfs")) {
		return on_range(sc, ev, SCAN_BAND_UCLAMP, "uclamp_min",
				"uclamp_max");
	} else if (!strcmp(ev->name, "capsim_util")) {
		int64_t cfs = 0, rt = 0, dl = 0;

		if ((r = sched_state_field_cpu(&sc->ss, ev, "cpu", &cpu)) <= 0)
			return r;
		if (cpu >= sc->ncpus)
			return 0;
		ftrace_get_i64(ev, "util_cfs", &cfs);
		ftrace_get_i64(ev, "util_rt", &rt);
		ftrace_get_i64(ev, "util_dl", &dl);
		sc->has_util_lines = true;
		if (sc->hooks.util)
			sc->hooks.util(sc->hooks.arg, cpu, sc->now,
				       (unsigned int)(cfs + rt + dl),
				       sc->cpu_min[cpu], sc->cpu_max[cpu]);
	}
	return 0;
}

/* A task the schedule met: in no group until the summary names one */
static void on_task_new(void *arg, struct sched_task *st)
{
	(void)arg;
	((struct scan_task *)st)->gidx = -1;
}

/* The schedule's ops, set once (scan_add_task may come first) */
static void bind(struct scan *sc)
{
	if (sc->ss.ops.task_size)
		return;
	sc->ss.ops = (struct sched_state_ops){
		.arg = sc,
		.task_size = sizeof(struct scan_task),
		.task_new = on_task_new,
		.cpus_grown = cpus_grown,
		.interval = on_interval,
		.wakeup = on_wake,
		.switched = on_switch,
		.freq = on_freq,
		.idle = on_idle,
		.event = on_event,
	};
}

static void finish(struct scan *sc)
{
	int i;

	if (sc->end_ns > sc->t_last)
		sc->t_last = sc->end_ns;
	apply_writes(sc, sc->t_last);
	advance(sc, sc->t_last);
	flush_domains(sc);
	for (i = 0; i < sc->ndoms; i++) {
		struct scan_domain *d = &sc->doms[i];

		d->res.unknown_ns = (d->cur_khz ? d->known_from : sc->t_last) -
				    sc->t_first;
	}
	/* close the open lane segments at the end of the trace */
	sched_state_finish(&sc->ss, sc->now);
	for (i = 0; i < sc->ndoms; i++)
		domain_hook(sc, i);
}

int scan_trace(struct scan *sc, const char *path)
{
	struct trace_reader rd = { .sched_only = sc->sched_only };
	struct ftrace_event ev;
	bool started = false;
	int ret = 0, r;

	r = trace_reader_open(&rd, path);
	if (r)
		return r == TRACE_FILE_IO ? -1 : SCAN_BAD_INPUT;
	bind(sc);
	sched_state_init(&sc->ss, &rd);
	setup_platform(sc);
	sc->band_used = sc->band;
	while ((r = trace_reader_next(&rd, &ev)) > 0) {
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
		ret = sched_state_feed(&sc->ss, &ev);
		if (ret)
			break;
		sc->t_last = sc->now;
	}
	if (r < 0)
		ret = r == TRACE_FILE_BAD ? SCAN_BAD_INPUT : -1;
	sc->lines = rd.lineno;
	sc->lost = rd.lost;
	trace_reader_close(&rd);
	sched_state_init(&sc->ss, NULL);
	if (ret)
		return ret;
	if (!started) {
		fprintf(stderr, "capsim: %s: no trace events\n", path);
		return SCAN_BAD_INPUT;
	}
	finish(sc);
	return 0;
}

void scan_add_task(struct scan *sc, int pid, const char *comm,
		   const char *name, const char *group)
{
	struct scan_task *t;
	int i;

	bind(sc);
	t = (struct scan_task *)sched_state_task(&sc->ss, pid, comm);
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

void scan_free(struct scan *sc)
{
	int i;

	for (i = 0; i < sc->ss.ntasks; i++) {
		struct scan_task *t = scan_task_at(sc, i);

		free(t->name);
		free(t->group);
		samples_free(&t->resp);
		samples_free(&t->wlat);
		free(t->cpu_time);
	}
	sched_state_free(&sc->ss);
	for (i = 0; i < sc->ndoms; i++) {
		free(sc->doms[i].cpus);
		free(sc->doms[i].khz);
		freq_residency_free(&sc->doms[i].res);
	}
	free(sc->doms);
	free(sc->cpu_dom);
	free(sc->busy);
	free(sc->busy_pos);
	free(sc->freq_doms);
	free(sc->cpu_min);
	free(sc->cpu_max);
	for (i = 0; i < sc->ngroups; i++)
		free(sc->groups[i].path);
	free(sc->groups);
	for (i = 0; i < sc->nwrites; i++)
		free(sc->writes[i].group);
	free(sc->writes);
}
