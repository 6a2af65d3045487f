// SPDX-License-Identifier: GPL-2.0
/*
 * How long a task slept, as a workload would say it: from its last running
 * moment to its wake-up, less the wake-up's delay out of an idle state.
 *
 * A timer that expires on a CPU in an idle state is served only once the
 * CPU has left the state, so the trace's sched_waking comes the state's
 * exit latency after the expiry (capsim logs it that way; a kernel logs
 * cpu_idle's exit first, then the interrupt's waking). The trace's sleep
 * holds that latency; replayed as `sleep`, the simulator adds it again
 * (src/sim/sim.c, timer_expiry()), so every interval of a run-then-sleep
 * task grew by it: 0.15 ms of sym4's deepest state per 30 ms of game.json's
 * streams, 2 activations in 100. So a wake-up with no waker task (a timer,
 * an interrupt) on a CPU that is idle in state k, or left it at most k's
 * exit latency before, is taken to be delayed by k's exit latency on the
 * platform (the latency a replay on that platform adds back). A wake-up by
 * a task, or on a busy CPU, has no such delay.
 */
#include "import.h"

/* ops.idle: CPU @cpu held idle @state over [t0, t1) */
void import_sleep_idle(struct import_model *m, int cpu, uint64_t t1,
		       int state)
{
	if (cpu < 0 || cpu >= m->ncpus || state == SCHED_IDLE_NONE)
		return;
	m->idle_left[cpu] = state;
	m->idle_left_at[cpu] = t1;
}

/* State @state's exit latency in ns on CPU @cpu's domain (0: none known) */
static uint64_t exit_latency_ns(const struct import_model *m, int cpu,
				int state)
{
	const struct pdomain *d = &m->pl->domains[m->pl->cpus[cpu].domain];

	if (state < 0 || state >= d->nidle)
		return 0;
	return (uint64_t)d->idle[state].exit_latency_us * 1000;
}

uint64_t import_wake_delay_ns(const struct import_model *m, int cpu)
{
	const struct sched_cpu *c;
	uint64_t lat;

	if (cpu < 0 || cpu >= m->ncpus || cpu >= m->ss.ncpus)
		return 0;
	c = &m->ss.cpus[cpu];
	if (c->curr != SCHED_CPU_IDLE)
		return 0;
	if (c->idle != SCHED_IDLE_NONE)
		return exit_latency_ns(m, cpu, c->idle);
	/* the kernel's order: cpu_idle's exit, then the waking */
	lat = exit_latency_ns(m, cpu, m->idle_left[cpu]);
	return m->idle_left_at[cpu] + lat >= m->ss.now ? lat : 0;
}

double import_sleep_us(const struct import_task *t, int i)
{
	uint64_t d = t->acts[i + 1].wake - t->acts[i].end;
	uint64_t delay = t->acts[i + 1].wake_delay;

	return (double)(d > delay ? d - delay : 0) / 1000.0;
}
