// SPDX-License-Identifier: GPL-2.0
/*
 * CFS as 6.12 runs it, simplified: EEVDF with one base slice per task.
 * Virtual time advances at delta * NICE_0 / weight; a task is eligible when
 * its vruntime is at or below the weighted average; the eligible task with
 * the earliest virtual deadline runs; with RUN_TO_PARITY the running task
 * keeps the CPU until its deadline passes. Lag is saved at dequeue (clamped
 * as update_entity_lag() does) and restored at enqueue (place_entity(),
 * PLACE_LAG and PLACE_DEADLINE_INITIAL). Not modelled: group scheduling,
 * DELAY_DEQUEUE, custom slices.
 */
#include "sim.h"

/* kernel/sched/core.c: sched_prio_to_weight[], nice -20 .. 19 */
static const unsigned long prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
};

#define NICE_0_LOAD 1024UL
#define WEIGHT_IDLEPRIO 3UL

unsigned long cfs_weight(enum wl_policy pol, int nice)
{
	if (pol == WL_SCHED_IDLE)
		return WEIGHT_IDLEPRIO;
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	return prio_to_weight[nice + 20];
}

static int64_t calc_delta_fair(uint64_t delta, const struct sim_task *t)
{
	return (int64_t)(delta * NICE_0_LOAD / t->se.node.weight);
}

#define for_each_cfs_task(t, c) \
	list_for_each_entry(t, &(c)->cfs.tasks, run_node)

static struct sim_task *task_of(struct cfs_node *n)
{
	return container_of(n, struct sim_task, se.node);
}

/* The weighted average vruntime of the queue (avg_vruntime()) */
static int64_t avg_vruntime(const struct sim_cpu *c)
{
	if (!c->cfs.nr)
		return c->cfs.avg_vruntime_empty;
	return cfs_tree_avg_vruntime(&c->cfs.tree);
}

/* update_load_avg()'s flags */
#define DO_ATTACH	0x4
#define DO_DETACH	0x8

/*
 * update_load_avg(): the task's entity (unless it is detached: it
 * migrated, or is new) and its queue, at the queue's PELT clock, then
 * the entity joins (DO_ATTACH) or leaves (DO_DETACH) the queue's sums.
 * The entity's on_rq and the queue's load and nr are as the caller left
 * them, as in the kernel's enqueue_entity()/dequeue_entity().
 */
static void update_load_avg(struct sim *s, struct sim_cpu *c,
			    struct sim_task *t, int flags)
{
	uint64_t now = sig_clock_pelt(s, c);
	unsigned long w = t->se.node.weight;

	/* the tracepoints fire when an average was recomputed */
	if (t->avg.last_update_time &&
	    pelt_update_se(now, &t->avg, t->se.on_rq, c->cfs.curr == t, w))
		sig_trace_se(s, c, t);
	if (pelt_update_cfs_rq(now, &c->cfs.avg, &c->cfs.removed,
			       (unsigned long)c->cfs.tree.load,
			       (unsigned int)c->cfs.nr, c->cfs.curr != NULL))
		sig_trace_cfs(s, c);
	if (!t->avg.last_update_time && (flags & DO_ATTACH)) {
		pelt_attach(&c->cfs.avg, &t->avg, w);
		sig_trace_cfs(s, c);
	} else if (flags & DO_DETACH) {
		pelt_detach(&c->cfs.avg, &t->avg, w);
		sig_trace_cfs(s, c);
	}
	sim_signals_changed(s, c);
}

static void enqueue_fair(struct sim *s, struct sim_cpu *c, struct sim_task *t,
			 int flags)
{
	int64_t avg, lag = t->se.vlag, vslice;
	uint64_t W = c->cfs.tree.load;

	(void)flags;
	/* enqueue_task_fair(): its estimate joins before schedutil looks */
	if (s->util_est) {	/* util_est_enqueue(): sched_feat(UTIL_EST) */
		pelt_util_est_enqueue(&c->cfs.avg, &t->avg);
		sim_signals_changed(s, c);
		sig_trace_util_est_cfs(s, c);
	}
	/* enqueue_entity(): the signals first, the task not yet counted */
	update_load_avg(s, c, t, DO_ATTACH);
	avg = avg_vruntime(c);
	/* PLACE_LAG: inflate the lag by the weight the entity adds */
	if (W)
		lag = lag * (int64_t)(W + t->se.node.weight) / (int64_t)W;
	t->se.node.vruntime = avg - lag;
	vslice = calc_delta_fair(s->base_slice_ns, t);
	/* PLACE_DEADLINE_INITIAL for a new task: half a slice */
	if (t->state == TS_NEW || !t->wakeups)
		vslice /= 2;
	t->se.node.deadline = t->se.node.vruntime + vslice;
	t->se.protect = false;
	cfs_tree_insert(&c->cfs.tree, &t->se.node);
	list_add_tail(&t->run_node, &c->cfs.tasks);
	if (++c->cfs.nr == 2)
		s->nr_cfs_overloaded++;
	t->se.on_rq = true;
}

static void dequeue_fair(struct sim *s, struct sim_cpu *c, struct sim_task *t,
			 int flags)
{
	int64_t avg, limit;
	uint64_t span = 2 * s->base_slice_ns;

	/*
	 * dequeue_task_fair(): the estimate leaves, and a task going to
	 * sleep updates it from util_avg as last computed, before
	 * dequeue_entity() updates the signals while the task still counts
	 */
	if (s->util_est) {	/* util_est_dequeue(), util_est_update() */
		pelt_util_est_dequeue(&c->cfs.avg, &t->avg);
		sim_signals_changed(s, c);
		sig_trace_util_est_cfs(s, c);
		if (flags & DEQUEUE_SLEEP &&
		    pelt_util_est_update(&t->avg, c->capacity))
			sig_trace_util_est_se(s, c, t);
	}
	update_load_avg(s, c, t, flags & DEQUEUE_MIGRATING ? DO_DETACH : 0);
	t->se.on_rq = false;
	avg = avg_vruntime(c);
	/* update_entity_lag(): the lag, clamped to a few slices */
	if (span < s->tick_ns)
		span = s->tick_ns;
	limit = calc_delta_fair(span, t);
	t->se.vlag = avg - t->se.node.vruntime;
	if (t->se.vlag > limit)
		t->se.vlag = limit;
	if (t->se.vlag < -limit)
		t->se.vlag = -limit;
	cfs_tree_erase(&c->cfs.tree, &t->se.node);
	list_del_init(&t->run_node);
	if (c->cfs.nr-- == 2)
		s->nr_cfs_overloaded--;
	if (!c->cfs.nr)
		c->cfs.avg_vruntime_empty = avg;
}

static void update_curr_fair(struct sim *s, struct sim_cpu *c,
			     struct sim_task *t, uint64_t delta,
			     unsigned int cap)
{
	int64_t v = t->se.node.vruntime + calc_delta_fair(delta, t);
	int64_t d = t->se.node.deadline;

	(void)cap;
	/* update_deadline(): a new slice once the deadline is reached */
	if (v >= d) {
		d = v + calc_delta_fair(s->base_slice_ns, t);
		t->se.protect = false;
	}
	/*
	 * The running task's entity is in its own CPU's tree only while it
	 * is queued: one that went to sleep or is migrating away (t->cpu
	 * already the destination) must not move this CPU's sums (found by
	 * fuzz-sim: the queue's average drifted until no entity was
	 * eligible, and the pick found none)
	 */
	if (t->se.on_rq && t->cpu == c->id) {
		cfs_tree_update(&c->cfs.tree, &t->se.node, v, d);
	} else if (t->se.on_rq) {
		cfs_tree_update(&s->cpus[t->cpu].cfs.tree, &t->se.node, v, d);
	} else {
		t->se.node.vruntime = v;
		t->se.node.deadline = d;
	}
}

/* pick_eevdf() */
static struct sim_task *pick_fair(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *curr = c->curr;

	(void)s;
	if (!c->cfs.nr)
		return NULL;
	if (c->cfs.nr == 1)
		return list_first_entry(&c->cfs.tasks, struct sim_task,
					run_node);
	if (curr && curr->cls == &fair_sched_class &&
	    curr->state == TS_RUNNABLE && curr->cpu == c->id &&
	    curr->se.protect &&
	    cfs_tree_eligible(&c->cfs.tree, curr->se.node.vruntime) &&
	    curr->pending_migrate < 0)
		return curr;
	/* the minimum vruntime is always eligible, so there is a pick */
	return task_of(cfs_tree_pick(&c->cfs.tree));
}

/* set_next_entity(): the signals up to now, then it is cfs_rq->curr */
static void set_next_fair(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	if (t->se.on_rq)
		update_load_avg(s, c, t, 0);
	c->cfs.curr = t;
	t->se.protect = true;
}

/* put_prev_entity(): a still-queued task's running time is accounted */
static void put_prev_fair(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	if (t->se.on_rq && t->cpu == c->id)
		update_load_avg(s, c, t, 0);
	if (c->cfs.curr == t)
		c->cfs.curr = NULL;
}

/* check_preempt_wakeup_fair() */
static bool check_preempt_fair(struct sim *s, struct sim_cpu *c,
			       struct sim_task *t)
{
	struct sim_task *curr = c->curr;

	if (curr->policy == WL_SCHED_IDLE && t->policy != WL_SCHED_IDLE)
		return true;
	if (t->policy != WL_SCHED_OTHER)
		return false;
	sim_update_curr(s, c);
	return pick_fair(s, c) == t;
}

static bool tick_fair(struct sim *s, struct sim_cpu *c)
{
	/* entity_tick() */
	update_load_avg(s, c, c->curr, 0);
	if (c->cfs.nr < 2)
		return false;
	return pick_fair(s, c) != c->curr;
}

/* yield_task_fair(): push the deadline one slice out */
static void yield_fair(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	sim_update_curr(s, c);
	cfs_tree_update(&c->cfs.tree, &t->se.node, t->se.node.vruntime,
			t->se.node.deadline +
			calc_delta_fair(s->base_slice_ns, t));
	t->se.protect = false;
	sim_resched(s, c);
}

/*
 * Newidle balance (sched_balance_newidle(), folded): the first waiting
 * task, in enqueue order, of the CPU with the most CFS tasks that has one
 * allowed here.
 */
static struct sim_task *pull_fair(struct sim *s, struct sim_cpu *c)
{
	struct sim_cpu *busiest = NULL;
	struct sim_task *t;
	int i, most = 1;

	/* only a CPU with two or more queued has one waiting: none, stop */
	if (!s->nr_cfs_overloaded ||
	    (s->nr_cfs_overloaded == 1 && c->cfs.nr >= 2))
		return NULL;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *o = &s->cpus[i];

		if (o == c || o->cfs.nr <= most)
			continue;
		for_each_cfs_task(t, o) {
			if (task_waiting(t) && t->allowed[c->id]) {
				busiest = o;
				most = o->cfs.nr;
				break;
			}
		}
	}
	if (!busiest)
		return NULL;
	for_each_cfs_task(t, busiest)
		if (task_waiting(t) && t->allowed[c->id])
			return t;
	return NULL;
}

/*
 * Misfit (update_misfit_status() + active balance, folded into the
 * tick): the running task has outgrown this CPU and an idle bigger one
 * exists.
 */
static bool push_fair(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *cur = c->curr;
	struct sim_cpu *best = NULL;
	int i;

	if (!s->pl->asym || !cur || cur->cls != &fair_sched_class ||
	    cur->state != TS_RUNNABLE || cur->pending_migrate >= 0 ||
	    task_util_fits(s, cur, c, task_util_est(s, cur)) > 0)	/* task_fits_cpu() */
		return false;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *d = &s->cpus[i];

		if (d->capacity > c->capacity && cpu_idle(d) &&
		    cur->allowed[i] && (!best || d->capacity > best->capacity))
			best = d;
	}
	if (!best)
		return false;
	sim_migrate(s, cur, best, c->id, MIG_MISFIT);
	return true;
}

/*
 * sched_fork()'s init_entity_runnable_average() and wake_up_new_task()'s
 * post_init_entity_util_avg(); the enqueue that follows attaches it.
 */
static void task_new_fair(struct sim *s, struct sim_task *t, struct sim_cpu *c)
{
	(void)s;
	pelt_init_entity(&t->avg, t->se.node.weight);
	pelt_post_init(&t->avg, &c->cfs.avg, c->capacity, t->se.node.weight);
}

/*
 * remove_entity_load_avg(): a task leaving while asleep (it is not on the
 * queue's sums' books any more) syncs to its queue's last update and
 * leaves its share in cfs_rq->removed, for the queue's next update.
 */
static void remove_entity(struct sim *s, struct sim_task *t,
			  struct sim_cpu *src)
{
	task_util(s, t);	/* sync_entity_load_avg() */
	pelt_remove(&src->cfs.removed, &t->avg);
}

/*
 * migrate_task_rq_fair(): a queued task was detached by its dequeue
 * (DEQUEUE_MIGRATING); a waking one is removed, then decays on to the
 * idle source's estimated clock (migrate_se_pelt_lag()). Either way it
 * is attached at its enqueue on @dst (last_update_time = 0).
 */
static void migrate_signals_fair(struct sim *s, struct sim_task *t,
				 struct sim_cpu *src, struct sim_cpu *dst)
{
	(void)dst;
	if (t->state != TS_RUNNABLE && t->avg.last_update_time) {
		remove_entity(s, t, src);
		if (!src->curr) {
			uint64_t now = sig_clock_pelt(s, src);

			/* __update_load_avg_blocked_se(): pelt_se_tp too */
			if (now > src->cfs.avg.last_update_time &&
			    pelt_update_blocked_se(now, &t->avg,
						   t->se.node.weight))
				sig_trace_se(s, src, t);
		}
	}
	t->avg.last_update_time = 0;
}

/* task_dead_fair() */
static void task_dead_fair(struct sim *s, struct sim_task *t)
{
	if (t->avg.last_update_time)
		remove_entity(s, t, &s->cpus[t->cpu]);
}

static struct list_head *fair_tasks(struct sim_cpu *c)
{
	return &c->cfs.tasks;
}

static int kprio_fair(const struct sim_task *t)
{
	return 120 + t->prio;
}

const struct sim_class fair_sched_class = {
	.name = "fair",
	.id = 2,
	.enqueue = enqueue_fair,
	.dequeue = dequeue_fair,
	.pick = pick_fair,
	.set_next = set_next_fair,
	.put_prev = put_prev_fair,
	.update_curr = update_curr_fair,
	.check_preempt = check_preempt_fair,
	.tick = tick_fair,
	.yield = yield_fair,
	.select_rq = select_fair_rq,
	.task_new = task_new_fair,
	.migrate_signals = migrate_signals_fair,
	.task_dead = task_dead_fair,
	.pull = pull_fair,
	.push = push_fair,
	.kprio = kprio_fair,
	.tasks = fair_tasks,
	.push_to_idle = true,
	.uclamp_enabled = true,
	.iowait_boost = true,
};
