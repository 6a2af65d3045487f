// SPDX-License-Identifier: GPL-2.0
/*
 * A platform file from what a trace shows (platform_infer.h): one pass
 * for the CPUs, frequencies, idle states and capacities, domain_infer()
 * for which CPUs change frequency together.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain_infer.h"
#include "platform_infer.h"
#include "sched_state.h"
#include "trace_reader.h"

#define IDLE_EXIT 4294967295ll

struct cpu_seen {
	bool seen;
	unsigned int *khz;	/* the frequencies it was set to, sorted */
	int nkhz;
	int max_idle;		/* deepest cpu_idle index, -1 none */
	long long cap_orig;	/* from a capacity event, 0 none */
};

struct seen {
	struct cpu_seen *cpus;
	int ncpus;
	bool too_many;		/* a CPU past PLATFORM_INFER_MAX_OPPS */
};

static struct cpu_seen *cpu_at(struct seen *s, int64_t cpu)
{
	int i;

	if (cpu < 0 || cpu >= SCHED_CPU_MAX)
		return NULL;
	if (cpu >= s->ncpus) {
		s->cpus = xrealloc(s->cpus, (size_t)(cpu + 1) *
				   sizeof(*s->cpus));
		for (i = s->ncpus; i <= cpu; i++)
			s->cpus[i] = (struct cpu_seen){ .max_idle = -1 };
		s->ncpus = (int)cpu + 1;
	}
	s->cpus[cpu].seen = true;
	return &s->cpus[cpu];
}

/* Add @khz to @c's sorted set */
static void add_khz(struct seen *s, struct cpu_seen *c, unsigned int khz)
{
	int lo = 0, hi = c->nkhz;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (c->khz[mid] < khz)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nkhz && c->khz[lo] == khz)
		return;
	if (c->nkhz == PLATFORM_INFER_MAX_OPPS) {
		s->too_many = true;
		return;
	}
	c->khz = xrealloc(c->khz, (size_t)(c->nkhz + 1) * sizeof(*c->khz));
	memmove(c->khz + lo + 1, c->khz + lo,
		(size_t)(c->nkhz - lo) * sizeof(*c->khz));
	c->khz[lo] = khz;
	c->nkhz++;
}

static void take(struct seen *s, const struct ftrace_event *ev)
{
	int64_t cpu, v;
	struct cpu_seen *c;

	cpu_at(s, ev->cpu);
	if (!strcmp(ev->name, "cpu_frequency") ||
	    !strcmp(ev->name, "cpu_frequency_devlib")) {
		if (ftrace_get_i64(ev, "cpu_id", &cpu) &&
		    ftrace_get_i64(ev, "state", &v) && v > 0 &&
		    v <= 100000000 && (c = cpu_at(s, cpu)))
			add_khz(s, c, (unsigned int)v);
	} else if (!strcmp(ev->name, "cpu_idle")) {
		if (ftrace_get_i64(ev, "cpu_id", &cpu) &&
		    ftrace_get_i64(ev, "state", &v) && v != IDLE_EXIT &&
		    v >= 0 && v < 16 && (c = cpu_at(s, cpu)) &&
		    v > c->max_idle)
			c->max_idle = (int)v;
	} else if (strstr(ev->name, "cpu_capacity")) {
		if (ftrace_get_i64(ev, "cpu", &cpu) &&
		    ftrace_get_i64(ev, "capacity_orig", &v) && v > 0 &&
		    v <= 1024 && (c = cpu_at(s, cpu)))
			c->cap_orig = v;
	}
}

static int read_seen(const char *path, struct seen *s)
{
	struct trace_reader rd = { 0 };
	struct ftrace_event ev;
	int k = trace_reader_open(&rd, path);

	if (k)
		return k;
	while ((k = trace_reader_next(&rd, &ev)) > 0)
		take(s, &ev);
	trace_reader_close(&rd);
	return k < 0 ? k : 0;
}

/* What each domain is made of, before it is written */
struct idom {
	int *cpus;
	int ncpus;
	unsigned int *khz;	/* the union of its CPUs' frequencies */
	int nkhz;
	unsigned int cap;	/* its CPUs' capacity */
	int max_idle;
};

static void dom_add_cpu(struct idom *d, int cpu, const struct cpu_seen *c)
{
	int i, j;

	d->cpus = xrealloc(d->cpus, (size_t)(d->ncpus + 1) * sizeof(int));
	d->cpus[d->ncpus++] = cpu;
	if (c->max_idle > d->max_idle)
		d->max_idle = c->max_idle;
	for (i = 0; i < c->nkhz; i++) {
		for (j = 0; j < d->nkhz && d->khz[j] < c->khz[i]; j++)
			;
		if (j < d->nkhz && d->khz[j] == c->khz[i])
			continue;
		d->khz = xrealloc(d->khz, (size_t)(d->nkhz + 1) *
				  sizeof(*d->khz));
		memmove(d->khz + j + 1, d->khz + j,
			(size_t)(d->nkhz - j) * sizeof(*d->khz));
		d->khz[j] = c->khz[i];
		d->nkhz++;
	}
}

static unsigned int dom_top(const struct idom *d)
{
	return d->nkhz ? d->khz[d->nkhz - 1] : 0;
}

/* The domains: domain_infer()'s, then one for the CPUs it left out */
static int make_domains(const char *path, const struct seen *s,
			struct idom **out, int *nout, bool *nofreq)
{
	struct domain_guess g;
	struct idom *d;
	int k = domain_infer(path, &g), n, i;

	if (k)
		return k;
	n = g.ndoms;
	d = xcalloc((size_t)n + 1, sizeof(*d));
	for (i = 0; i <= n; i++)
		d[i].max_idle = -1;
	*nofreq = false;
	for (i = 0; i < s->ncpus; i++) {
		int dom = i < g.ncpus ? g.dom[i] : -1;

		if (dom < 0) {
			dom = n;
			*nofreq = true;
		}
		dom_add_cpu(&d[dom], i, &s->cpus[i]);
	}
	domain_guess_free(&g);
	*nout = n + (*nofreq ? 1 : 0);
	*out = d;
	return 0;
}

/* A domain's capacity events: the largest capacity_orig of its CPUs */
static long long dom_cap_orig(const struct seen *s, const struct idom *d)
{
	long long m = 0;
	int j;

	for (j = 0; j < d->ncpus; j++)
		if (s->cpus[d->cpus[j]].cap_orig > m)
			m = s->cpus[d->cpus[j]].cap_orig;
	return m;
}

/*
 * The capacities: from capacity events when every domain has one (a
 * CPU that never balanced prints none; its domain's CPUs share its
 * capacity), else by top frequency; *by_freq says which
 */
static void set_capacities(const struct seen *s, struct idom *d, int nd,
			   bool *by_freq)
{
	unsigned int fmax = 0;
	long long cmax = 0;
	bool all = true;
	int i;

	for (i = 0; i < nd; i++) {
		long long m = dom_cap_orig(s, &d[i]);

		all &= m > 0;
		if (m > cmax)
			cmax = m;
		if (dom_top(&d[i]) > fmax)
			fmax = dom_top(&d[i]);
	}
	*by_freq = !all;
	for (i = 0; i < nd; i++) {
		double c;

		if (all)	/* scaled so the system's largest is 1024 */
			c = 1024.0 * (double)dom_cap_orig(s, &d[i]) /
			    (double)cmax;
		else
			c = fmax && dom_top(&d[i]) ?
			    1024.0 * dom_top(&d[i]) / fmax : 1024;
		d[i].cap = (unsigned int)lround(c);
		if (d[i].cap < 1)
			d[i].cap = 1;
	}
}

static void put_cpu_list(struct strbuf *out, const struct idom *d)
{
	int j;

	sb_putc(out, '[');
	for (j = 0; j < d->ncpus; j++)
		sb_printf(out, "%s%d", j ? ", " : "", d->cpus[j]);
	sb_putc(out, ']');
}

/* The synthetic power of OPP @k of @d (platform_infer.h) */
static unsigned int opp_power(const struct idom *d, int k)
{
	double f = d->khz[k], lo = d->khz[0], hi = dom_top(d);
	double v = hi > lo ? 0.6 + 0.4 * (f - lo) / (hi - lo) : 1.0;
	/* C: the system's top OPP (1.0 V) at 1000 mW x capacity / 1024 */
	double cf = 1000.0 * d->cap / 1024.0 / (hi ? hi : 1);

	return (unsigned int)lround(cf * f * v * v);
}

static void put_domain(struct strbuf *out, const struct idom *d, int id,
		       unsigned int nofreq_khz)
{
	int k;

	sb_printf(out, "    { \"id\": %d, \"cpus\": ", id);
	put_cpu_list(out, d);
	sb_puts(out, ",\n      \"opps\": [\n");
	if (!d->nkhz) {
		sb_printf(out, "        { \"khz\": %u, \"capacity\": %u, \"power_mw\": %u }\n",
			  nofreq_khz, d->cap,
			  (unsigned int)lround(1000.0 * d->cap / 1024.0));
	}
	for (k = 0; k < d->nkhz; k++) {
		unsigned long long cap = (unsigned long long)d->cap *
					 d->khz[k] / dom_top(d);

		sb_printf(out, "        { \"khz\": %u, \"capacity\": %llu, \"power_mw\": %u }%s\n",
			  d->khz[k], cap ? cap : 1, opp_power(d, k),
			  k + 1 < d->nkhz ? "," : "");
	}
	sb_puts(out, "      ],\n      \"idle\": [\n");
	for (k = 0; k <= (d->max_idle < 0 ? 0 : d->max_idle); k++) {
		unsigned int lat = k ? 100u * (unsigned int)k : 1;

		sb_printf(out, "        { \"name\": \"state%d\", \"power_mw\": %d, \"exit_latency_us\": %u, \"target_residency_us\": %u }%s\n",
			  k, k ? 0 : 1, lat, k ? 4 * lat : 1,
			  k < d->max_idle ? "," : "");
	}
	sb_puts(out, "      ] }");
}

int platform_infer(const char *path, const char *name, struct strbuf *out)
{
	struct seen s = { 0 };
	struct idom *d = NULL;
	unsigned int fmax = 0;
	bool nofreq = false, by_freq = false;
	int nd = 0, k, i, c, *dom_of;

	k = read_seen(path, &s);
	if (!k && !s.ncpus) {
		fprintf(stderr, "capsim: %s: no event names a CPU: no platform to infer\n",
			path);
		k = TRACE_FILE_BAD;
	}
	if (!k && s.too_many) {
		fprintf(stderr, "capsim: %s: a CPU shows more than %d frequencies: not a cpufreq table\n",
			path, PLATFORM_INFER_MAX_OPPS);
		k = TRACE_FILE_BAD;
	}
	if (!k)
		k = make_domains(path, &s, &d, &nd, &nofreq);
	if (k)
		goto out;
	set_capacities(&s, d, nd, &by_freq);
	for (i = 0; i < nd; i++)
		if (dom_top(&d[i]) > fmax)
			fmax = dom_top(&d[i]);

	sb_printf(out, "{\n  \"name\": \"%s\",\n", name);
	sb_puts(out, "  \"description\": \"inferred from a trace by capsim platform infer\",\n");
	sb_printf(out, "  \"source\": \"CPUs, domains and OPP frequencies: the trace; capacities: %s; OPP capacities: capacity x kHz / top kHz, rounded down (the kernel EM's performance); power_mw: SYNTHETIC (C f V^2, V 0.6 to 1.0 V over each domain's OPPs); idle states: the indices cpu_idle shows, latencies and powers ASSUMED%s\",\n",
		  by_freq ? "ASSUMED by each domain's top frequency (equal work per cycle)" :
			    "the trace's capacity events (capacity_orig)",
		  nofreq ? "; the CPUs without frequency events: one domain, one OPP at the system's top frequency, ASSUMED" : "");
	sb_puts(out, "  \"cpus\": [\n");
	dom_of = xcalloc((size_t)s.ncpus, sizeof(*dom_of));
	for (i = 0; i < nd; i++)
		for (c = 0; c < d[i].ncpus; c++)
			dom_of[d[i].cpus[c]] = i;
	for (c = 0; c < s.ncpus; c++)
		sb_printf(out, "    { \"id\": %d, \"capacity\": %u, \"domain\": %d }%s\n",
			  c, d[dom_of[c]].cap, dom_of[c],
			  c + 1 < s.ncpus ? "," : "");
	free(dom_of);
	sb_puts(out, "  ],\n  \"domains\": [\n");
	for (i = 0; i < nd; i++) {
		put_domain(out, &d[i], i, fmax ? fmax : 1000000);
		sb_puts(out, i + 1 < nd ? ",\n" : "\n");
	}
	sb_puts(out, "  ]\n}\n");
out:
	for (i = 0; i < nd; i++) {
		free(d[i].cpus);
		free(d[i].khz);
	}
	free(d);
	for (i = 0; i < s.ncpus; i++)
		free(s.cpus[i].khz);
	free(s.cpus);
	return k;
}
