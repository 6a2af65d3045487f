/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clamp-policy seam: what a clamping model does at each point where
 * the scheduler consults it, so that a model plugs in without touching
 * the core (sim.c), as uclamp plugs into core.c and schedutil in the
 * kernel.
 *
 * The RFC's capacity range of every CPU is always tracked by the clamp
 * core (src/core) and traced (cap_clamp_cpu), whatever the policy: the
 * policy decides what the governor and placement make of it.
 *  rfc  - the group capacity_min/max ranges, per CPU and composed over a
 *         shared domain (the core's domain rule), bound the frequency; a
 *         runnable RT class asks for the scale clamped by its CPU's range
 *         (RFC patch 5);
 *  none - stock 6.12 schedutil: no clamp; RT forces the top OPP.
 *  uclamp - mainline utilization clamping (6.12): per-task util_min/max
 *         restricted by the group's uclamp values and the system defaults,
 *         bucketed MAX per CPU (clamp_uclamp.c, uclamp_rq.c); RT's boost
 *         is its uclamp_min (1024 by default).
 */
#ifndef CAPSIM_CLAMP_POLICY_H
#define CAPSIM_CLAMP_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "policy.h"
#include "schedutil.h"

struct sim;
struct sim_cpu;
struct sim_domain;
struct sim_task;

struct host_group;

struct clamp_policy_ops {
	const char *name;
	/*
	 * @t becomes RUNNABLE on / leaves @c, or moves to group @g (RUNNABLE
	 * or not); a group's value is written (0 or -EINVAL, the RFC's
	 * rules). A CPU whose range changes is traced and, for a move or a
	 * write, kicks schedutil (the host's range-changed callback).
	 */
	void (*enqueue)(struct sim *s, struct sim_cpu *c, struct sim_task *t);
	void (*dequeue)(struct sim *s, struct sim_cpu *c, struct sim_task *t);
	void (*move)(struct sim *s, struct sim_task *t, struct host_group *g);
	/* the write alone, then (if it was accepted) its effects */
	int (*group_set)(struct sim *s, struct host_group *g, int attr,
			 uint64_t value);
	void (*group_apply)(struct sim *s, struct host_group *g);
	/* @t's own clamp request changed (util_min/util_max); may be NULL */
	void (*task_update)(struct sim *s, struct sim_task *t);
	/* the governor's per-CPU values: the CPU's range, the RT floor */
	void (*cpu_clamp)(struct sim *s, struct sim_cpu *c,
			  struct sugov_cpu_input *in, unsigned long scale);
	/*
	 * A range for a whole frequency domain, @caller the CPU whose update
	 * this is: true and @r set, or false when the policy clamps per CPU.
	 */
	bool (*domain_range)(struct sim *s, struct sim_domain *d, int caller,
			     struct sugov_range *r);
	/*
	 * Mainline's order at a wake-up: enqueue_task() calls the class's
	 * ->enqueue_task(), whose schedutil update decides, and only then
	 * uclamp_rq_inc() (dequeue_task(): uclamp_rq_dec() first, so the
	 * class's update already sees the task's clamp gone, as here). The
	 * RFC's series enqueues its clamp first (patch 4).
	 */
	bool inc_after_class_update;
	/*
	 * The CPU's range (cpu_clamp()'s clamp) is the rq's clamp that
	 * effective_cpu_util() reads (uclamp_is_used()), so EAS's estimates
	 * see it too; else it reaches schedutil only (the RFC feeds its
	 * range to the governor) or is none, and EAS and the energy model
	 * see { 0, SCHED_CAPACITY_SCALE } and the policy's RT floor.
	 */
	bool util_clamp;
};

extern const struct clamp_policy_ops clamp_policy_rfc;
extern const struct clamp_policy_ops clamp_policy_none;
extern const struct clamp_policy_ops clamp_policy_uclamp;

/* uclamp: a group's request from the workload (@attr a CAP_CLAMP_ id) */
void uclamp_group_request(struct sim *s, struct host_group *g, int attr,
			  unsigned int value);

/* rfc's host bookkeeping, which every policy keeps (tracked, traced) */
void rfc_track_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t);
void rfc_track_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t);
void rfc_track_move(struct sim *s, struct sim_task *t, struct host_group *g);

/* The ops of @p, or NULL when the build has none for it */
const struct clamp_policy_ops *clamp_policy_ops(enum clamp_policy p);

#endif
