// SPDX-License-Identifier: GPL-2.0
/*
 * The signal trace events, behind --trace-signals, in LISA's formats (its
 * kernel module's lisa__* events), so LISA's analyses read a capsim trace
 * as they read a kernel's. Each is emitted where 6.12's bare tracepoint
 * fires: pelt_se_tp after a task's signal crossed a period, pelt_cfs_tp
 * after the queue's did (and at attach/detach), pelt_rt_tp/pelt_dl_tp,
 * sched_util_est_se_tp at util_est_update(), sched_util_est_cfs_tp at
 * util_est_enqueue()/dequeue(). LISA prints the uclamp events beside the
 * PELT ones (under --policy uclamp). update_time is last_update_time in
 * ns of the PELT clock. A task's path is "(null)" (LISA's for a task
 * entity), the root cfs_rq's "/". sched_cpu_capacity_tp fires where
 * update_cpu_capacity() sets rq->cpu_capacity, in the periodic balance.
 */
#include "sim.h"

static bool on(const struct sim *s)
{
	return s->o.trace_signals && ftrace_writer_on(&s->tr);
}

void sig_trace_se(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	if (!on(s))
		return;
	trace_lisa__sched_pelt_se(s, c->id, &(struct te_lisa__sched_pelt_se){
		.cpu = c->id, .path = "(null)", .comm = t->comm, .pid = t->pid,
		.load = t->avg.load_avg, .util = t->avg.util_avg,
		.update_time = t->avg.last_update_time,
		.runnable = t->avg.runnable_avg });
	/*
	 * The same tracepoint, with the exact state a replay starts from:
	 * the sums and the position in the period, not only the averages,
	 * and the inputs of the interval the update just closed.
	 */
	trace_capsim_pelt_se(s, c->id, &(struct te_capsim_pelt_se){
		.cpu = c->id, .pid = t->pid,
		.update_time = t->avg.last_update_time,
		.load_sum = t->avg.load_sum,
		.runnable_sum = (unsigned int)t->avg.runnable_sum,
		.util_sum = t->avg.util_sum,
		.period_contrib = t->avg.period_contrib,
		.on_rq = t->se.on_rq ? 1 : 0, .running = c->cfs.curr == t });
	if (s->clamp->uclamp_used)
		trace_lisa__uclamp_util_se(s, c->id,
					   &(struct te_lisa__uclamp_util_se){
			.pid = t->pid, .comm = t->comm, .cpu = c->id,
			.util_avg = t->avg.util_avg,
			.uclamp_avg = uclamp_rq_util_with(&c->uclamp,
							  t->avg.util_avg, NULL),
			.uclamp_min = uclamp_cpu_value(&c->uclamp, UCLAMP_MIN),
			.uclamp_max = uclamp_cpu_value(&c->uclamp, UCLAMP_MAX) });
}

void sig_trace_cfs(struct sim *s, struct sim_cpu *c)
{
	const struct pelt_avg *a = &c->cfs.avg;

	if (!on(s))
		return;
	trace_lisa__sched_pelt_cfs(s, c->id, &(struct te_lisa__sched_pelt_cfs){
		.cpu = c->id, .path = "/", .load = a->load_avg,
		.util = a->util_avg, .update_time = a->last_update_time,
		.runnable = a->runnable_avg });
	if (s->clamp->uclamp_used)
		sig_trace_uclamp_cfs(s, c);
}

/*
 * LISA's uclamp_util_cfs: the root cfs_rq's util and the rq's clamps
 * (rq->uclamp[].value, what effective_cpu_util() hands schedutil). LISA
 * prints it at pelt_cfs_tp (above, with --trace-signals); the uclamp
 * policy prints it too at every change of the rq's clamps, in every
 * trace, so that a plot has uclamp's per-CPU range without the signals
 * (docs/traces.md, "Clamp bands").
 */
void sig_trace_uclamp_cfs(struct sim *s, struct sim_cpu *c)
{
	const struct pelt_avg *a = &c->cfs.avg;

	trace_lisa__uclamp_util_cfs(s, c->id, &(struct te_lisa__uclamp_util_cfs){
		.cpu = c->id, .util_avg = a->util_avg,
		.uclamp_avg = uclamp_rq_util_with(&c->uclamp, a->util_avg, NULL),
		.uclamp_min = uclamp_cpu_value(&c->uclamp, UCLAMP_MIN),
		.uclamp_max = uclamp_cpu_value(&c->uclamp, UCLAMP_MAX) });
}

void sig_trace_class_rq(struct sim *s, struct sim_cpu *c, bool rt)
{
	const struct pelt_avg *a = rt ? &c->rt.avg : &c->dl.avg;

	if (!on(s))
		return;
	if (rt)
		trace_lisa__sched_pelt_rt(s, c->id, &(struct te_lisa__sched_pelt_rt){
			.cpu = c->id, .load = a->load_avg, .util = a->util_avg,
			.update_time = a->last_update_time,
			.runnable = a->runnable_avg });
	else
		trace_lisa__sched_pelt_dl(s, c->id, &(struct te_lisa__sched_pelt_dl){
			.cpu = c->id, .load = a->load_avg, .util = a->util_avg,
			.update_time = a->last_update_time,
			.runnable = a->runnable_avg });
}

void sig_trace_util_est_se(struct sim *s, struct sim_cpu *c,
			   struct sim_task *t)
{
	if (!on(s))
		return;
	trace_lisa__sched_util_est_se(s, c->id,
				      &(struct te_lisa__sched_util_est_se){
		.cpu = c->id, .path = "(null)", .comm = t->comm, .pid = t->pid,
		.util = t->avg.util_avg,
		.util_est = pelt_task_util_est(&t->avg) });
}

void sig_trace_util_est_cfs(struct sim *s, struct sim_cpu *c)
{
	if (!on(s))
		return;
	trace_lisa__sched_util_est_cfs(s, c->id,
				       &(struct te_lisa__sched_util_est_cfs){
		.cpu = c->id, .path = "/", .util = c->cfs.avg.util_avg,
		.util_est = c->cfs.avg.util_est });
}

/*
 * update_cpu_capacity() (fair.c, from update_group_capacity() in the
 * periodic load balance): rq->cpu_capacity = scale_rt_capacity(), the
 * CPU's capacity less its RT and DL utilization (no IRQ or thermal and
 * cpufreq pressure here, get_actual_cpu_capacity() is the capacity), at
 * least 1; then sched_cpu_capacity_tp. LISA's module prints it with the
 * original capacity and the current one, cap_scale(orig, arch_freq_scale)
 * (rq_cpu_current_capacity() in its sched_helpers.h), the frequency scale
 * being what the PELT clock uses (pelt_freq_scale(): cur * 1024 / max).
 */
void sig_trace_cpu_capacity(struct sim *s, struct sim_cpu *c)
{
	const struct pdomain *pd = c->dom->pd;
	unsigned long orig = c->capacity, used, cap, fs;

	if (!on(s))
		return;
	used = c->rt.avg.util_avg + c->dl.avg.util_avg;
	cap = used >= orig ? 1 : orig - used;
	fs = pelt_freq_scale(pd->opps[c->dom->cur_opp].khz,
			     pd->opps[pd->nopps - 1].khz);
	trace_lisa__sched_cpu_capacity(s, c->id,
				       &(struct te_lisa__sched_cpu_capacity){
		.cpu = c->id, .capacity = cap, .capacity_orig = orig,
		.capacity_curr = (orig * fs) >> 10 });
}
