/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runs a workload, parsed by the simulator's own parser (src/sim/workload),
 * on the guest's kernel: creates the task groups with their settings,
 * forks a process per task instance (each joins its cgroup, sets its
 * policy, priority, uclamp values and affinity, per phase where the
 * workload changes them), runs the events and applies the timed group
 * changes. The RFC's capacity_min/max go to cpu.capacity_* (policy rfc),
 * or, scaled to percent, to cpu.uclamp.* (policy uclamp), or nowhere
 * (none): one workload, both policies of the one kernel.
 */
#ifndef CAPSIM_GUEST_RUNNER_H
#define CAPSIM_GUEST_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

#include "workload.h"

struct runner_opts {
	/* the clamp policy (src/input/clamp_names.h): its traits say what
	 * the groups' values are written to */
	enum clamp_policy policy;
	bool plan_only;		/* print what would be done, do nothing */
	const char *cgroot;	/* "/sys/fs/cgroup" */
	const char *trace_marker;	/* start/end marks in the trace */
	FILE *out;		/* the plan, the pids, the statistics */
};

/* 0 on success; 1 when the run failed (reason on stderr) */
int runner_run(const struct workload *wl, const struct runner_opts *o);

#endif
