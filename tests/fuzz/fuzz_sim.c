// SPDX-License-Identifier: GPL-2.0
/*
 * A parsed workload simulated for a short, capped time, with the policy,
 * clamp order and domain rule it asks for: the scheduler, schedutil and
 * the clamp core on inputs nobody wrote by hand. Scale is not the point
 * here (the 10^5-task runs are their own tests): workloads of more than
 * MAX_INSTANCES task instances are skipped.
 */
#include <string.h>

#include "fuzz_case.h"

#define SIM_NS (50 * NSEC_PER_MSEC)
#define MAX_INSTANCES 64
/*
 * A run with no simulated time passing fails after this many events in a
 * row (64 per task and CPU if more): 2^20, capsim run's floor, took an
 * input 3.5 s under ASan and over libFuzzer's 10 s on a loaded machine.
 */
#define STUCK_EVENTS (1 << 14)
/*
 * Time that crawls is not a hang: three FIFO instances looping over a
 * barrier on two CPUs reach 50 ms after 1.2 M events, 11 s under ASan.
 * The harness stops each run after this many events.
 */
#define MAX_EVENTS (1 << 17)

/* The options `capsim run` would take from the workload; false to skip */
static bool run_opts(const struct workload *wl, struct sim_opts *o)
{
	int i, n = 0;

	for (i = 0; i < wl->ntasks; i++)
		n += wl->tasks[i].instances;
	if (n > MAX_INSTANCES)
		return false;
	sim_opts_resolve(o, wl);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the workload's choices, else capsim run's defaults (run_opts()) */
	struct sim_opts o = { .duration_ns = SIM_NS, .seed = size,
			      .stuck_events_min = STUCK_EVENTS,
			      .max_events = MAX_EVENTS };
	struct fuzz_case c;

	fuzz_case_load(&c, data, size);
	if (c.wl && run_opts(c.wl, &o))
		fuzz_case_platform(&c);
	if (c.pl)
		c.s = sim_create(c.pl, c.wl, &o, &c.d);
	if (c.s) {
		sim_run(c.s, NULL);
		fuzz_fail_on_warn();
		if (c.s->now > SIM_NS || !sim_pull_gates_consistent(c.s) ||
		    !sim_overutilized_consistent(c.s) ||
		    !sim_load_index_consistent(c.s))
			abort();
	}
	fuzz_case_free(&c);
	return 0;
}
