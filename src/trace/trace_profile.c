// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_profile.h"

struct profile_task *trace_profile_task(const struct trace_profile *p, int i)
{
	return (struct profile_task *)p->ss.tasks[i];
}

const char *profile_task_name(const struct profile_task *t)
{
	return t->st.ncomms ? t->st.comms[t->st.ncomms - 1] : t->st.comm;
}

long profile_task_activations(const struct trace_profile *p,
			      const struct profile_task *t)
{
	return p->total_wakeups ? t->wakeups : t->wakings;
}

double trace_profile_window_s(const struct trace_profile *p)
{
	return (double)(p->win_end - p->win_start) / 1e9;
}

static bool in_window(const struct trace_profile *p, uint64_t t)
{
	return t >= p->win_start && t < p->win_end;
}

/* The part of [t0, t1) inside [lo, hi), in ns */
static uint64_t clipped(uint64_t t0, uint64_t t1, uint64_t lo, uint64_t hi)
{
	if (t0 < lo)
		t0 = lo;
	if (t1 > hi)
		t1 = hi;
	return t1 > t0 ? t1 - t0 : 0;
}

static void on_interval(void *arg, const struct sched_task *st, uint64_t t0,
			uint64_t t1, enum sched_task_state state, int cpu)
{
	struct trace_profile *p = arg;
	struct profile_task *t = (struct profile_task *)st;
	uint64_t ns = clipped(t0, t1, p->win_start, p->win_end);

	if (!ns || (state != SCHED_RUNNING && state != SCHED_RUNNABLE))
		return;
	if (state == SCHED_RUNNING) {
		t->busy_ns += ns;
		if (cpu >= 0 && cpu < p->pl->ncpus)
			p->cpu_busy_ns[cpu] += ns;
	}
	if (p->segment) {
		uint64_t a = t0 > p->win_start ? t0 : p->win_start;

		p->segment(p->arg, t, (double)(a - p->win_start) / 1e9,
			   (double)(a + ns - p->win_start) / 1e9, state, cpu);
	}
}

/* A wake-up opens the task's response unless one is open (a sched_waking
 * then its sched_wakeup are one wake-up) */
static void on_wakeup(void *arg, struct sched_task *st, int waker,
		      int target_cpu, bool waking)
{
	struct trace_profile *p = arg;
	struct profile_task *t = (struct profile_task *)st;
	bool in = in_window(p, p->ss.now);

	(void)waker;
	(void)target_cpu;
	if (in && waking) {
		t->wakings++;
		p->total_wakings++;
	} else if (in) {
		t->wakeups++;
		p->total_wakeups++;
	}
	if (!t->resp_open) {
		t->resp_open = true;
		t->resp_counts = in;
		t->resp_start = p->ss.now;
	}
}

/* A task switched out asleep ends its response */
static void on_switched(void *arg, int cpu, struct sched_task *prev,
			const char *prev_state, struct sched_task *next)
{
	struct trace_profile *p = arg;
	struct profile_task *t = (struct profile_task *)prev;

	(void)cpu;
	(void)next;
	if (!t || (prev_state && prev_state[0] == 'R') || !t->resp_open)
		return;
	if (t->resp_counts)
		samples_add(&t->resp, (int64_t)(p->ss.now - t->resp_start));
	t->resp_open = false;
}

/* Domain @d's frequency held [since, @now) at its khz: counted */
static void domain_account(struct trace_profile *p, int d, uint64_t now)
{
	struct profile_domain *pd = &p->doms[d];
	const struct pdomain *pld = &p->pl->domains[d];
	uint64_t t0 = pd->since > p->win_start ? pd->since : p->win_start;
	uint64_t t1 = now < p->win_end ? now : p->win_end;
	int k = -1;

	if (t1 <= t0)
		return;
	if (pd->khz)
		for (k = 0; k < pld->nopps && pld->opps[k].khz != pd->khz; k++)
			;
	freq_residency_add(&pd->res, k, t0 - p->win_start, t1 - p->win_start);
}

static int on_freq(void *arg, const struct ftrace_event *ev, int cpu,
		   uint64_t t0, uint64_t t1, unsigned int old_khz)
{
	struct trace_profile *p = arg;
	unsigned int khz = p->ss.cpus[cpu].khz;
	const struct pdomain *pld;
	int d, k;

	(void)t0;
	(void)t1;
	(void)old_khz;
	if (!ev)
		return 0;	/* the end: the domains are closed after */
	d = p->pl->cpus[cpu].domain;
	pld = &p->pl->domains[d];
	for (k = 0; k < pld->nopps && pld->opps[k].khz != khz; k++)
		;
	if (k == pld->nopps)
		return sched_state_bad(&p->ss, ftrace_get(ev, "state"),
			"CPU %d at %u kHz: not an OPP of its domain in %s (%u..%u kHz, %d OPPs): the trace is of another platform",
			cpu, khz, p->pl->name, pld->opps[0].khz,
			pld->opps[pld->nopps - 1].khz, pld->nopps);
	if (p->doms[d].khz == khz)
		return 0;
	domain_account(p, d, p->ss.now);
	p->doms[d].khz = khz;
	p->doms[d].since = p->ss.now;
	if (p->domain_freq && p->ss.now < p->win_end)
		p->domain_freq(p->arg, d, p->ss.now > p->win_start ?
			       (double)(p->ss.now - p->win_start) / 1e9 : 0,
			       khz);
	return 0;
}

/* The window in absolute ns, once the origin is known (@first: the first
 * event's timestamp) */
static void set_window(struct trace_profile *p, uint64_t first)
{
	uint64_t origin = p->origin_ns >= 0 ? (uint64_t)p->origin_ns : first;
	int d;

	p->win_start = origin + (uint64_t)(p->from_s * 1e9 + 0.5);
	p->win_end = p->to_s >= 0 ? origin + (uint64_t)(p->to_s * 1e9 + 0.5) :
		     UINT64_MAX;
	/* from the window's start, or the first event, the frequency is
	 * unknown until a frequency event says it */
	for (d = 0; d < p->pl->ndomains; d++)
		p->doms[d].since = p->win_start < first ? p->win_start : first;
}

static void setup(struct trace_profile *p, struct trace_reader *rd)
{
	const struct platform *pl = p->pl;
	int d;

	p->ss.ops = (struct sched_state_ops){
		.arg = p,
		.task_size = sizeof(struct profile_task),
		.interval = on_interval,
		.wakeup = on_wakeup,
		.switched = on_switched,
		.freq = on_freq,
	};
	p->ss.cpu_limit = pl->ncpus;
	p->ss.platform = pl->name;
	p->ss.platform_ncpus = pl->ncpus;
	sched_state_init(&p->ss, rd);
	sched_state_grow(&p->ss, pl->ncpus - 1);
	p->cpu_busy_ns = xcalloc((size_t)pl->ncpus, sizeof(uint64_t));
	p->doms = xcalloc((size_t)pl->ndomains, sizeof(*p->doms));
	for (d = 0; d < pl->ndomains; d++)
		freq_residency_init(&p->doms[d].res, pl->domains[d].nopps,
				    p->tvd_from_ns ? p->tvd_from_ns[d] : 0);
}

/* After the last event: the window's end known, everything closed */
static int finish(struct trace_profile *p, const char *path, uint64_t last)
{
	int d;

	/* a trace's own window ends with its last event; a window from a
	 * given origin or a simulated run's (keep_to) is kept: the run went
	 * on to its duration after its last event */
	if (p->win_end == UINT64_MAX ||
	    (p->origin_ns < 0 && !p->keep_to && p->win_end > last))
		p->win_end = last;
	if (p->win_start >= p->win_end) {
		fprintf(stderr, "capsim: %s: the window from %.3f s is outside the trace (%.3f s long)\n",
			path, p->from_s, (double)(last - p->ss.t_first) / 1e9);
		return PROFILE_BAD_INPUT;
	}
	sched_state_finish(&p->ss, last > p->win_end ? last : p->win_end);
	for (d = 0; d < p->pl->ndomains; d++)
		domain_account(p, d, p->ss.now);
	return 0;
}

int trace_profile_read(struct trace_profile *p, const char *path)
{
	struct trace_reader rd = { 0 };
	struct ftrace_event ev;
	bool started = false;
	uint64_t last = 0;
	int ret = 0, r;

	r = trace_reader_open(&rd, path);
	if (r)
		return r == TRACE_FILE_IO ? -1 : PROFILE_BAD_INPUT;
	setup(p, &rd);
	while ((r = trace_reader_next(&rd, &ev)) > 0) {
		if (!started) {
			started = true;
			set_window(p, ev.ts_ns);
		}
		ret = sched_state_feed(&p->ss, &ev);
		if (ret)
			break;
		last = ev.ts_ns;
	}
	if (r < 0)
		ret = r == TRACE_FILE_BAD ? PROFILE_BAD_INPUT : -1;
	trace_reader_close(&rd);
	sched_state_init(&p->ss, NULL);
	if (ret)
		return ret == SCHED_BAD_INPUT ? PROFILE_BAD_INPUT : ret;
	if (!started || !p->ss.switches) {
		fprintf(stderr, "capsim: %s: %s: no task's schedule to compare\n",
			path, started ? "no sched_switch event" : "no trace events");
		return PROFILE_BAD_INPUT;
	}
	return finish(p, path, last);
}

void trace_profile_free(struct trace_profile *p)
{
	int i;

	for (i = 0; i < p->ss.ntasks; i++)
		samples_free(&trace_profile_task(p, i)->resp);
	sched_state_free(&p->ss);
	if (p->doms)
		for (i = 0; i < p->pl->ndomains; i++)
			freq_residency_free(&p->doms[i].res);
	free(p->doms);
	free(p->cpu_busy_ns);
	p->doms = NULL;
	p->cpu_busy_ns = NULL;
}
