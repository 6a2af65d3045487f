/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Residency read back from a trace.txt through the project's ftrace reader
 * (src/trace), independently of the simulator's own counters: the
 * cpu_frequency lines of one CPU, from the first to @end_ns (simulated
 * time: the trace's clock is SIM_TRACE_CLOCK_NS ahead).
 */
#ifndef CAPSIM_SIMTRACE_H
#define CAPSIM_SIMTRACE_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ftrace.h"
#include "sim.h"

struct trace_res {
	unsigned int khz[32];
	uint64_t ns[32];
	int n;
	long changes;		/* cpu_frequency lines of the CPU */
};

static inline void trace_res_add(struct trace_res *r, unsigned int khz,
				 uint64_t ns)
{
	int i;

	for (i = 0; i < r->n && r->khz[i] != khz; i++)
		;
	if (i == r->n) {
		ck_assert(r->n < 32);
		r->khz[r->n] = khz;
		r->ns[r->n++] = 0;
	}
	r->ns[i] += ns;
}

static inline void trace_residency(FILE *f, int cpu, uint64_t end_ns,
				   struct trace_res *r)
{
	char line[1024];
	uint64_t since = 0;
	int64_t khz = -1;

	memset(r, 0, sizeof(*r));
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		struct ftrace_event ev;
		const char *err;
		int col;
		int64_t id, st;

		if (ftrace_parse_line(line, &ev, &err, &col) != 1 ||
		    strcmp(ev.name, "cpu_frequency") ||
		    !ftrace_get_i64(&ev, "cpu_id", &id) || id != cpu)
			continue;
		ck_assert(ftrace_get_i64(&ev, "state", &st));
		ck_assert(ev.ts_ns >= SIM_TRACE_CLOCK_NS);
		ev.ts_ns -= SIM_TRACE_CLOCK_NS;
		if (khz >= 0)
			trace_res_add(r, (unsigned int)khz, ev.ts_ns - since);
		khz = st;
		since = ev.ts_ns;
		r->changes++;
	}
	ck_assert_msg(khz >= 0, "no cpu_frequency line for CPU %d", cpu);
	ck_assert(end_ns >= since);
	trace_res_add(r, (unsigned int)khz, end_ns - since);
}

/* Seconds at @khz, above @khz */
static inline double tr_at(const struct trace_res *r, unsigned int khz)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (r->khz[i] == khz)
			return (double)r->ns[i] / 1e9;
	return 0;
}

static inline double tr_above(const struct trace_res *r, unsigned int khz)
{
	uint64_t ns = 0;
	int i;

	for (i = 0; i < r->n; i++)
		if (r->khz[i] > khz)
			ns += r->ns[i];
	return (double)ns / 1e9;
}

#endif
