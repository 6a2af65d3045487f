/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-thread noise model: the tasks outside the workload that the
 * guest trace shows running (ksoftirqd/N, kworkers, rcu_sched, the
 * runner itself) added to the workload as periodic root-group tasks, at
 * the rate and with the mean run time the guest measured, pinned to
 * their CPU when their name says it (comm "name/N"). Under the RFC's
 * MAX-of-maxes rule each of their wake-ups uncaps a shared domain, so a
 * simulation without them cannot match a real kernel's residency.
 *
 * The tasks and their figures come from the trace's schedule
 * (src/trace/sched_state.h: sched_switch, sched_wakeup), so any trace
 * of the guest gives them: one with the clamp ops (cap_clamp_*) or one
 * without (a kernel that never had cpu.capacity_* written traces none).
 */
#ifndef CAPSIM_XCHECK_KTHREADS_H
#define CAPSIM_XCHECK_KTHREADS_H

#include <stdint.h>

#include "platform.h"

/* One other task, by name (the pids that had it summed) */
struct kthread {
	char *comm;		/* the last name its pid had: ksoftirqd/1 */
	long activations;	/* wake-ups from sleep inside the window */
	uint64_t run_ns;	/* running inside the window */
};

struct kthreads {
	struct kthread *tasks;
	int n;
};

/*
 * The tasks of @trace (named @name in messages) that ran or woke in
 * [@t0, @t1) and never had a name in @comms (the workload's), with what
 * they did there. 0, or -1 (reported).
 */
int kthreads_scan(const char *trace, const char *name,
		  const struct platform *pl, char *const *comms, int ncomms,
		  uint64_t t0, uint64_t t1, struct kthreads *k);
void kthreads_free(struct kthreads *k);

/*
 * Write @wfile plus one task per task of @k that woke in the window of
 * @window_s to @out (JSON), named @out_name in messages. Returns the
 * number of tasks added, or -1 (reported).
 */
int kthreads_workload(const char *wfile, const struct kthreads *k,
		      double window_s, int ncpus, const char *out,
		      const char *out_name);

#endif
