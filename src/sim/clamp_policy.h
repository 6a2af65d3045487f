/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clamp-policy seam: what a clamping model does at each point where
 * the scheduler consults it, so that a model plugs in without touching
 * the core (sim.c), as uclamp plugs into core.c and schedutil in the
 * kernel.
 *
 * The RFC's capacity range of every CPU is always tracked by the clamp
 * core (src/core) and traced (cap_clamp_cpu), whatever the policy
 * (clamp_track.c): the policy decides what the governor and placement
 * make of it. One file per policy, its ops found by enum clamp_policy in
 * policy.c (names and traits: src/input/clamp_names.c):
 *  rfc  - the group capacity_min/max ranges, per CPU and composed over a
 *         shared domain (the core's domain rule), bound the frequency; a
 *         runnable RT class asks for the scale clamped by its CPU's range
 *         (RFC patch 5) (clamp_rfc.c);
 *  none - stock 6.12 schedutil: no clamp; RT forces the top OPP
 *         (clamp_none.c);
 *  uclamp - mainline utilization clamping (6.12): per-task util_min/max
 *         restricted by the group's uclamp values and the system defaults,
 *         bucketed MAX per CPU (clamp_uclamp.c, uclamp_rq.c); RT's boost
 *         is its uclamp_min (1024 by default).
 */
#ifndef CAPSIM_CLAMP_POLICY_H
#define CAPSIM_CLAMP_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "clamp_names.h"
#include "schedutil.h"
#include "uclamp_rq.h"

struct sim;
struct sim_cpu;
struct sim_domain;
struct sim_task;

struct host_group;

struct clamp_policy_ops {
	/*
	 * @t becomes RUNNABLE on / leaves @c, or moves to group @g (RUNNABLE
	 * or not). A CPU whose range changes is traced and, for a move or a
	 * write, kicks schedutil (the host's range-changed callback).
	 */
	void (*enqueue)(struct sim *s, struct sim_cpu *c, struct sim_task *t);
	void (*dequeue)(struct sim *s, struct sim_cpu *c, struct sim_task *t);
	void (*move)(struct sim *s, struct sim_task *t, struct host_group *g);
	/*
	 * A group's value is written: the write alone, 0 or -EINVAL (the
	 * policy's rules: rfc and none refuse what the core refuses, uclamp
	 * restricts a wider child instead), then, if it was accepted, its
	 * effects on the RUNNABLE tasks. The workload's initial values go
	 * through group_set too, before any task exists.
	 */
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
	 * Placement (feec, the wake-up fit, misfit): the clamp range of @t
	 * itself that its estimates widen the CPU's by (uclamp_eff_value()
	 * of both ids), and util_fits_cpu() of @t with @util on @c of
	 * @capacity (1 fits, 0 not, -1 only the util fits and the clamp
	 * not). NULL: the task has no range of its own ({ 0,
	 * SCHED_CAPACITY_SCALE }) and the fit is fits_capacity().
	 */
	void (*task_range)(struct sim *s, struct sim_task *t,
			   unsigned int out[UCLAMP_CNT]);
	int (*task_fits)(struct sim *s, struct sim_task *t, struct sim_cpu *c,
			 unsigned long util, unsigned long capacity);
	/*
	 * Mainline's order at a wake-up: enqueue_task() calls the class's
	 * ->enqueue_task(), whose schedutil update decides, and only then
	 * uclamp_rq_inc() (dequeue_task(): uclamp_rq_dec() first, so the
	 * class's update already sees the task's clamp gone, as here). The
	 * RFC's series enqueues its clamp first (patch 4).
	 */
	bool inc_after_class_update;
	/*
	 * The kernel's uclamp_is_used() (the sched_uclamp_used static key):
	 * the per-CPU uclamp buckets (c->uclamp) are kept and the CPU's range
	 * (cpu_clamp()'s clamp) is the rq's clamp that effective_cpu_util()
	 * reads, so EAS's estimates see it too and the signal trace prints
	 * LISA's uclamp events. Else the range reaches schedutil only (the
	 * RFC feeds its range to the governor) or is none, and EAS and the
	 * energy model see { 0, SCHED_CAPACITY_SCALE } and the policy's RT
	 * floor.
	 */
	bool uclamp_used;
};

extern const struct clamp_policy_ops clamp_policy_rfc;
extern const struct clamp_policy_ops clamp_policy_none;
extern const struct clamp_policy_ops clamp_policy_uclamp;

/*
 * The RFC's range every policy keeps (clamp_track.c): the core's
 * aggregate per CPU and its group rules, the ops rfc and none use as
 * they are and uclamp calls beside its own.
 */
void clamp_track_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t);
void clamp_track_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t);
void clamp_track_move(struct sim *s, struct sim_task *t, struct host_group *g);
int clamp_track_group_set(struct sim *s, struct host_group *g, int attr,
			  uint64_t value);
void clamp_track_group_apply(struct sim *s, struct host_group *g);

/* policy.c: the ops of @p, or NULL for POLICY_UNSET and out of range */
const struct clamp_policy_ops *clamp_policy_ops(enum clamp_policy p);

#endif
