// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain_infer.h"
#include "sched_state.h"
#include "trace_reader.h"
#include "util.h"

/* Per CPU: its signature so far, hashed (FNV-1a over (burst, kHz)) */
struct cpu_sig {
	bool seen, kernel;	/* a frequency; a kernel cpu_frequency */
	bool in_burst;
	unsigned int khz;	/* its last in the current burst */
	uint64_t hash;
	long nbursts;
};

struct infer {
	struct cpu_sig *cpus;
	int ncpus;
	int *members;		/* the current burst's CPUs */
	int nmembers;
	long burst;
	uint64_t last_ts;
	bool open;
};

static uint64_t fnv(uint64_t h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8) {
		h ^= v & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

static void close_burst(struct infer *in)
{
	int i;

	for (i = 0; i < in->nmembers; i++) {
		struct cpu_sig *c = &in->cpus[in->members[i]];

		c->hash = fnv(fnv(c->hash, (uint64_t)in->burst), c->khz);
		c->nbursts++;
		c->in_burst = false;
	}
	in->nmembers = 0;
	in->burst++;
	in->open = false;
}

static void grow(struct infer *in, int cpu)
{
	int i;

	if (cpu < in->ncpus)
		return;
	in->cpus = xrealloc(in->cpus, (size_t)(cpu + 1) * sizeof(*in->cpus));
	in->members = xrealloc(in->members, (size_t)(cpu + 1) * sizeof(int));
	for (i = in->ncpus; i <= cpu; i++)
		in->cpus[i] = (struct cpu_sig){ .hash = 0xcbf29ce484222325ull };
	in->ncpus = cpu + 1;
}

/* One frequency event: @cpu set to @khz at @ts */
static void take(struct infer *in, uint64_t ts, int cpu, unsigned int khz,
		 bool devlib)
{
	struct cpu_sig *c;

	grow(in, cpu);
	c = &in->cpus[cpu];
	if (devlib && c->kernel)
		return;
	if (in->open && ts - in->last_ts > DOMAIN_BURST_NS)
		close_burst(in);
	in->open = true;
	in->last_ts = ts;
	c->seen = true;
	c->kernel |= !devlib;
	c->khz = khz;
	if (!c->in_burst) {
		c->in_burst = true;
		in->members[in->nmembers++] = cpu;
	}
}

int domain_infer(const char *path, struct domain_guess *g)
{
	/* the kernel's events and devlib's markers both hold it */
	struct trace_reader rd = { .only = "cpu_frequency" };
	struct infer in = { 0 };
	struct ftrace_event ev;
	int k, i, j;

	memset(g, 0, sizeof(*g));
	k = trace_reader_open(&rd, path);
	if (k)
		return k;
	while ((k = trace_reader_next(&rd, &ev)) > 0) {
		int64_t cpu, khz;
		bool devlib = !strcmp(ev.name, "cpu_frequency_devlib");

		if ((!devlib && strcmp(ev.name, "cpu_frequency")) ||
		    !ftrace_get_i64(&ev, "cpu_id", &cpu) ||
		    !ftrace_get_i64(&ev, "state", &khz) || cpu < 0 ||
		    cpu >= SCHED_CPU_MAX || khz <= 0 || khz > UINT32_MAX)
			continue;	/* the scan says what is wrong */
		take(&in, ev.ts_ns, (int)cpu, (unsigned int)khz, devlib);
	}
	trace_reader_close(&rd);
	if (k < 0) {
		free(in.cpus);
		free(in.members);
		return k;
	}
	close_burst(&in);
	g->ncpus = in.ncpus;
	g->dom = xcalloc((size_t)(in.ncpus ? in.ncpus : 1), sizeof(int));
	for (i = 0; i < in.ncpus; i++) {
		g->dom[i] = -1;
		if (!in.cpus[i].seen)
			continue;
		for (j = 0; j < i; j++)
			if (g->dom[j] >= 0 && in.cpus[j].hash == in.cpus[i].hash &&
			    in.cpus[j].nbursts == in.cpus[i].nbursts)
				break;
		g->dom[i] = j < i ? g->dom[j] : g->ndoms++;
	}
	free(in.cpus);
	free(in.members);
	return 0;
}

char *domain_guess_str(const struct domain_guess *g)
{
	size_t cap = 64, len = 0;
	char *s = xmalloc(cap);
	int d, i;

	s[0] = '\0';
	for (d = 0; d < g->ndoms; d++) {
		int run = -1, prev = -2;

		for (i = 0; i <= g->ncpus; i++) {
			bool in = i < g->ncpus && g->dom[i] == d;
			char part[32] = "";

			if (in && run < 0) {
				snprintf(part, sizeof(part), "%s%d",
					 prev >= 0 ? "," : (d ? ",{" : "{"), i);
				run = i;
			} else if (!in && run >= 0) {
				if (i - 1 > run)
					snprintf(part, sizeof(part), "-%d", i - 1);
				prev = run;
				run = -1;
			}
			if (len + strlen(part) + 2 > cap)
				s = xrealloc(s, cap *= 2);
			memcpy(s + len, part, strlen(part) + 1);
			len += strlen(part);
		}
		memcpy(s + len, "}", 2);
		len++;
	}
	return s;
}

void domain_guess_free(struct domain_guess *g)
{
	free(g->dom);
	memset(g, 0, sizeof(*g));
}
