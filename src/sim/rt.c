// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_FIFO / SCHED_RR: the highest priority runs; equal priorities in
 * FIFO order (a woken task queues at the tail, a preempted one keeps its
 * place); RR rotates every RR_TIMESLICE (100 ms) of running.
 * Placement looks for a CPU where the task can run now (cpupri in
 * spirit); newidle balance pulls the highest waiting RT task; the tick
 * pushes a waiting one to a CPU that runs no RT or DL task.
 * Not modelled: RT throttling (sched_rt_runtime_us), RT group scheduling.
 */
#include "sim.h"

#define RR_TIMESLICE_NS (100 * NSEC_PER_MSEC)

#define for_each_rt_task(t, c) \
	list_for_each_entry(t, &(c)->rt.tasks, run_node)

static void enqueue_rt(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		       int flags)
{
	(void)flags;
	if (!t->rt.rr_left)
		t->rt.rr_left = RR_TIMESLICE_NS;
	list_add_tail(&t->run_node, &c->rt.tasks);
	if (!c->rt.nr++)
		s->nr_rt_cpus++;
}

static void dequeue_rt(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		       int flags)
{
	(void)flags;
	list_del_init(&t->run_node);
	if (!--c->rt.nr)
		s->nr_rt_cpus--;
}

static struct sim_task *pick_rt(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *best = NULL, *t;

	(void)s;
	for_each_rt_task(t, c)
		if (!best || t->prio > best->prio)
			best = t;
	return best;
}

/*
 * set_next_task_rt(): the class starts running; if the previous task was
 * of this class, its put_prev already updated the signal
 */
static void set_next_rt(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	(void)t;
	if (!c->curr || c->curr->cls != &rt_sched_class)
		sig_update_rt(s, c, false);
}

/* put_prev_task_rt(): the time it ran counts as running */
static void put_prev_rt(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	(void)t;
	sig_update_rt(s, c, true);
}

static void update_curr_rt(struct sim *s, struct sim_cpu *c,
			   struct sim_task *t, uint64_t delta,
			   unsigned int cap)
{
	(void)s;
	(void)c;
	(void)cap;
	t->rt.rr_left -= delta < t->rt.rr_left ? delta : t->rt.rr_left;
}

static bool check_preempt_rt(struct sim *s, struct sim_cpu *c,
			     struct sim_task *t)
{
	(void)s;
	return t->prio > c->curr->prio;
}

static bool has_peer(struct sim_cpu *c, struct sim_task *t)
{
	struct sim_task *o;

	for_each_rt_task(o, c)
		if (o != t && o->prio == t->prio)
			return true;
	return false;
}

/* task_tick_rt(): an RR task that used its slice goes behind its peers */
static bool tick_rt(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *t = c->curr;

	sig_update_rt(s, c, true);
	if (t->policy != WL_SCHED_RR || t->rt.rr_left)
		return false;
	t->rt.rr_left = RR_TIMESLICE_NS;
	if (!has_peer(c, t))
		return false;
	list_move_tail(&t->run_node, &c->rt.tasks);
	return true;
}

static void yield_rt(struct sim *s, struct sim_cpu *c, struct sim_task *t)
{
	list_move_tail(&t->run_node, &c->rt.tasks);
	sim_resched(s, c);
}

/*
 * select_task_rq_rt(), cpupri in spirit: the previous CPU if the task can
 * run there now, else the best of idle > running CFS only > running a
 * lower RT task.
 */
static struct sim_cpu *select_rq_rt(struct sim *s, struct sim_task *t,
				    struct sim_cpu *prev, bool fork)
{
	struct sim_cpu *best = NULL;
	int best_rank = -1, i;

	(void)fork;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[(prev->id + i) % s->ncpus];
		struct sim_task *cur = c->curr;
		int rank;

		if (!t->allowed[c->id])
			continue;
		if (cpu_idle(c))
			rank = 3;
		else if (!cur || cur->cls == &fair_sched_class)
			rank = c->rt.nr || c->dl.nr ? 0 : 2;
		else if (cur->cls == &rt_sched_class && cur->prio < t->prio)
			rank = 1;
		else
			rank = 0;
		if (c == prev && rank > 0)
			return c;
		if (rank > best_rank) {
			best_rank = rank;
			best = c;
		}
	}
	return best_rank > 0 ? best : prev;
}

/* pull_rt_task(): the highest waiting RT task that may run here */
static struct sim_task *pull_rt(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *pick = NULL, *t;
	int i;

	/* a waiting RT task is queued on some CPU: none, nothing to scan */
	if (!s->nr_rt_cpus || (s->nr_rt_cpus == 1 && c->rt.nr))
		return NULL;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *o = &s->cpus[i];

		if (o == c)
			continue;
		for_each_rt_task(t, o)
			if (task_waiting(t) && t->allowed[c->id] &&
			    (!pick || t->prio > pick->prio))
				pick = t;
	}
	return pick;
}

/* push_rt_task(): a waiting RT task goes where only CFS runs */
static bool push_rt(struct sim *s, struct sim_cpu *c)
{
	struct sim_task *t;
	int j;

	for_each_rt_task(t, c) {
		if (!task_waiting(t) || task_runs_next(s, c, t))
			continue;
		for (j = 0; j < s->ncpus; j++) {
			struct sim_cpu *d = &s->cpus[(c->id + j) % s->ncpus];

			if (d != c && t->allowed[d->id] && !d->rt.nr &&
			    !d->dl.nr) {
				sim_migrate(s, t, d, c->id, MIG_PUSH);
				return true;
			}
		}
	}
	return false;
}

static struct list_head *rt_tasks(struct sim_cpu *c)
{
	return &c->rt.tasks;
}

static int kprio_rt(const struct sim_task *t)
{
	return 99 - t->prio;
}

const struct sim_class rt_sched_class = {
	.name = "rt",
	.id = 1,
	.enqueue = enqueue_rt,
	.dequeue = dequeue_rt,
	.pick = pick_rt,
	.set_next = set_next_rt,
	.put_prev = put_prev_rt,
	.update_curr = update_curr_rt,
	.check_preempt = check_preempt_rt,
	.tick = tick_rt,
	.yield = yield_rt,
	.select_rq = select_rq_rt,
	.pull = pull_rt,
	.push = push_rt,
	.tasks = rt_tasks,
	.push_to_idle = true,
	.uclamp_enabled = true,
	.uclamp_min_rt_default = true,
	.kprio = kprio_rt,
};
