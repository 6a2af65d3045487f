// SPDX-License-Identifier: GPL-2.0
/*
 * --policy uclamp: mainline utilization clamping as 6.12 implements it,
 * behind the clamp-policy seam. The RFC's range stays tracked and traced
 * by the clamp core (clamp_track.c), as for every policy; the governor and
 * placement see uclamp's values:
 *  - a task's effective clamps (uclamp_eff_get()): its request (util_min/
 *    util_max, an RT task's unset min at sysctl_sched_uclamp_util_min_rt_
 *    default), restricted by its group's effective uclamp unless in the
 *    root group (uclamp_tg_restrict()), bounded by the system defaults;
 *  - a group's effective uclamp: its request no wider than its parent's
 *    (cpu_util_update_eff()); a group range given as capacity_min/max is
 *    taken as is (capacity units are uclamp's units);
 *  - per CPU, the bucketed MAX of its RUNNABLE fair and RT tasks
 *    (uclamp_rq.c; DEADLINE has no uclamp_enabled);
 *  - the governor gets the CPU's min/max and no separate RT floor
 *    (effective_cpu_util() with uclamp in use).
 */
#include "clamp_policy.h"
#include "sim.h"

static struct uclamp_group *ugroup(struct sim *s, struct host_group *g)
{
	for (int i = 0; i < s->nugroups; i++)
		if (s->ugroups[i].g == g)
			return &s->ugroups[i];
	s->ugroups = xrealloc(s->ugroups,
			      (size_t)(s->nugroups + 1) * sizeof(*s->ugroups));
	s->ugroups[s->nugroups] = (struct uclamp_group){
		.g = g, .req = { 0, UCLAMP_SCALE } };
	return &s->ugroups[s->nugroups++];
}

/* tg->uclamp_req[] of @g (@attr a CAP_CLAMP_ id) */
static void group_request(struct sim *s, struct host_group *g, int attr,
			  unsigned int value)
{
	ugroup(s, g)->req[attr == CAP_CLAMP_MAX ? UCLAMP_MAX : UCLAMP_MIN] =
		value;
}

/* tg->uclamp[]: the effective values down the hierarchy */
static void group_effective(struct sim *s, struct host_group *g,
			    unsigned int out[UCLAMP_CNT])
{
	unsigned int parent[UCLAMP_CNT];

	if (!g->parent) {
		/*
		 * init_uclamp(): the root group (no cpu.uclamp files) is
		 * 1024 for both, so it restricts no child's min or max
		 */
		out[UCLAMP_MIN] = out[UCLAMP_MAX] = UCLAMP_SCALE;
		return;
	}
	group_effective(s, g->parent, parent);
	uclamp_group_effective(ugroup(s, g)->req, parent, out);
}

/* uclamp_eff_get() of @t now */
static void task_effective(struct sim *s, struct sim_task *t,
			   unsigned int out[UCLAMP_CNT])
{
	unsigned int req[UCLAMP_CNT], tg[UCLAMP_CNT];
	unsigned int sys[UCLAMP_CNT] = { s->uclamp.util_min,
					 s->uclamp.util_max };
	bool root = !t->group->parent;

	req[UCLAMP_MIN] = t->uclamp_user[UCLAMP_MIN] ?
			  t->uclamp_req[UCLAMP_MIN] :
			  t->cls->uclamp_min_rt_default ?
			  s->uclamp.util_min_rt_default : 0;
	req[UCLAMP_MAX] = t->uclamp_user[UCLAMP_MAX] ?
			  t->uclamp_req[UCLAMP_MAX] : UCLAMP_SCALE;
	if (!root)
		group_effective(s, t->group, tg);
	uclamp_task_effective(req, root ? NULL : tg, sys, out);
}

/* uclamp_rq_inc() */
static void clamp_inc(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	if (!t->cls->uclamp_enabled)
		return;
	task_effective(s, t, t->uclamp_eff);
	uclamp_cpu_inc(&c->uclamp, t->uclamp_eff);
	t->uclamp_active = true;
}

/* uclamp_rq_dec() */
static void clamp_dec(struct sim_cpu *c, struct sim_task *t)
{
	if (!t->uclamp_active)
		return;
	uclamp_cpu_dec(&c->uclamp, t->uclamp_eff);
	t->uclamp_active = false;
}

/*
 * The CPU's range as schedutil reads it (rq->uclamp[].value), kept
 * before an inc, a dec or both, and traced if they changed it: LISA's
 * lisa__uclamp_util_cfs, the event a device's trace carries the same
 * values in, so that a plot draws uclamp's band from either
 * (docs/traces.md, "Clamp bands"). Once per change: a task's clamps
 * re-read (dec then inc) print no transient range.
 */
struct range_before {
	unsigned int min, max;
};

static struct range_before range_now(const struct sim_cpu *c)
{
	return (struct range_before){
		uclamp_cpu_value(&c->uclamp, UCLAMP_MIN),
		uclamp_cpu_value(&c->uclamp, UCLAMP_MAX) };
}

static void trace_if_changed(struct sim *s, struct sim_cpu *c,
			     struct range_before was)
{
	if (uclamp_cpu_value(&c->uclamp, UCLAMP_MIN) != was.min ||
	    uclamp_cpu_value(&c->uclamp, UCLAMP_MAX) != was.max)
		sig_trace_uclamp_cfs(s, c);
}

static void uclamp_enqueue(struct sim *s, struct sim_cpu *c,
			   struct sim_task *t)
{
	struct range_before was = range_now(c);

	clamp_inc(s, c, t);
	trace_if_changed(s, c, was);
	clamp_track_enqueue(s, c, t);
}

static void uclamp_dequeue(struct sim *s, struct sim_cpu *c,
			   struct sim_task *t)
{
	struct range_before was = range_now(c);

	clamp_dec(c, t);
	trace_if_changed(s, c, was);
	clamp_track_dequeue(s, c, t);
}

/*
 * uclamp_update_active(): a RUNNABLE task's clamps are re-read, its
 * buckets moved, and schedutil told of its CPU.
 */
static void update_active(struct sim *s, struct sim_task *t)
{
	struct sim_cpu *c = &s->cpus[t->cpu];
	struct range_before was;

	if (t->state != TS_RUNNABLE)
		return;
	was = range_now(c);
	clamp_dec(c, t);
	clamp_inc(s, c, t);
	trace_if_changed(s, c, was);
}

/* sched_move_task(): dequeued and enqueued again in the new group */
static void uclamp_move(struct sim *s, struct sim_task *t,
			struct host_group *g)
{
	update_active(s, t);
	clamp_track_move(s, t, g);
}

/*
 * cpu_uclamp_write(): any value 0 .. 1024 is accepted, a child wider than
 * its parent too (it is restricted, not refused). The RFC's core gets
 * the write for its own tracking; its verdict is not this policy's.
 */
static int uclamp_group_set(struct sim *s, struct host_group *g, int attr,
			    uint64_t value)
{
	group_request(s, g, attr, (unsigned int)value);
	if (!clamp_track_group_set(s, g, attr, value))
		clamp_track_group_apply(s, g);
	return 0;
}

static bool in_subtree(const struct host_group *x, const struct host_group *g)
{
	for (; x; x = x->parent)
		if (x == g)
			return true;
	return false;
}

/* uclamp_update_active_tasks() of the group and its descendants */
static void uclamp_group_apply(struct sim *s, struct host_group *g)
{
	for (int i = 0; i < s->ntasks; i++) {
		struct sim_task *t = s->tasks[i];

		if (t->state == TS_RUNNABLE && in_subtree(t->group, g)) {
			update_active(s, t);
			sim_cpufreq_update(s, &s->cpus[t->cpu]);
		}
	}
}

static void uclamp_task_update(struct sim *s, struct sim_task *t)
{
	update_active(s, t);
	if (t->state == TS_RUNNABLE)
		sim_cpufreq_update(s, &s->cpus[t->cpu]);
}

/*
 * util_fits_cpu() with uclamp: the task's effective clamps, max-aggregated
 * with the CPU's unless the CPU's are idle (UCLAMP_FLAG_IDLE)
 */
static int uclamp_task_fits(struct sim *s, struct sim_task *t,
			    struct sim_cpu *c, unsigned long util,
			    unsigned long capacity)
{
	unsigned int eff[UCLAMP_CNT];
	unsigned long lo, hi;

	task_effective(s, t, eff);
	lo = eff[UCLAMP_MIN];
	hi = eff[UCLAMP_MAX];
	if (!c->uclamp.idle) {
		if (uclamp_cpu_value(&c->uclamp, UCLAMP_MIN) > lo)
			lo = uclamp_cpu_value(&c->uclamp, UCLAMP_MIN);
		if (uclamp_cpu_value(&c->uclamp, UCLAMP_MAX) > hi)
			hi = uclamp_cpu_value(&c->uclamp, UCLAMP_MAX);
	}
	return uclamp_util_fits_cpu(util, lo, hi, capacity, c->capacity,
				    c->capacity);
}

/* effective_cpu_util() with uclamp in use: the rq's clamps, no RT floor */
static void uclamp_cpu_clamp(struct sim *s, struct sim_cpu *c,
			     struct sugov_cpu_input *in, unsigned long scale)
{
	(void)s;
	(void)scale;
	in->clamp.min = uclamp_cpu_value(&c->uclamp, UCLAMP_MIN);
	in->clamp.max = uclamp_cpu_value(&c->uclamp, UCLAMP_MAX);
	in->rt_floor = 0;
}

const struct clamp_policy_ops clamp_policy_uclamp = {
	.enqueue = uclamp_enqueue,
	.dequeue = uclamp_dequeue,
	.move = uclamp_move,
	.group_set = uclamp_group_set,
	.group_apply = uclamp_group_apply,
	.task_update = uclamp_task_update,
	.cpu_clamp = uclamp_cpu_clamp,
	.task_range = task_effective,
	.task_fits = uclamp_task_fits,
	.inc_after_class_update = true,
	.uclamp_used = true,
};
