/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-thread noise model: the tasks outside the workload that the
 * guest trace shows RUNNABLE (ksoftirqd/N, kworkers, rcu_sched, the
 * runner itself) added to the workload as periodic root-group tasks, at
 * the rate and with the mean run time the guest measured, pinned to
 * their CPU when their name says it (comm "name/N"). Under the RFC's
 * MAX-of-maxes rule each of their wake-ups uncaps a shared domain, so a
 * simulation without them cannot match a real kernel's residency.
 */
#ifndef CAPSIM_XCHECK_KTHREADS_H
#define CAPSIM_XCHECK_KTHREADS_H

#include "e2e.h"

/*
 * Write @wfile plus one task per other task of @guest with enqueues in
 * the window to @out (JSON), named @out_name in messages. Returns the
 * number of tasks added, or -1 (reported).
 */
int kthreads_workload(const char *wfile, const struct e2e_run *guest,
		      double window_s, int ncpus, const char *out,
		      const char *out_name);

#endif
