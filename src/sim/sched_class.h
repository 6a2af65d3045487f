/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduling classes as an ops table, like the kernel's struct
 * sched_class: the core (sim.c) and the balancer reach DEADLINE, RT and
 * CFS only through these hooks, walking the classes in priority order
 * (for_each_class(), as core.c does). Each class keeps its own state in
 * the task (t->se, t->rt, t->dl) and in the CPU (c->cfs, c->rt, c->dl).
 */
#ifndef CAPSIM_SCHED_CLASS_H
#define CAPSIM_SCHED_CLASS_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/list.h>

struct sim;
struct sim_cpu;
struct sim_task;

/* enqueue/dequeue flags, a subset of the kernel's ENQUEUE_ / DEQUEUE_ */
#define ENQUEUE_WAKEUP	0x01	/* the task wakes up (or is new) */
#define ENQUEUE_RESTORE	0x02	/* back after a DEQUEUE_SAVE */
#define ENQUEUE_MIGRATED 0x04	/* a queued task moved from another CPU */
#define DEQUEUE_SLEEP	0x01	/* the task blocks or exits */
#define DEQUEUE_SAVE	0x02	/* an attribute change: enqueued again */
#define DEQUEUE_MIGRATING 0x04	/* task_on_rq_migrating(): it moves CPU */

struct sim_class {
	const char *name;
	/* index into per-class arrays (signals); 0 is the highest class */
	int id;

	void (*enqueue)(struct sim *s, struct sim_cpu *c, struct sim_task *t,
			int flags);
	void (*dequeue)(struct sim *s, struct sim_cpu *c, struct sim_task *t,
			int flags);
	/* the task the class would run next on @c, or NULL; no side effect */
	struct sim_task *(*pick)(struct sim *s, struct sim_cpu *c);
	/*
	 * @t starts running on @c (set_next_task); c->curr is still the
	 * previous task (NULL: idle), as rq->curr is in __schedule()
	 */
	void (*set_next)(struct sim *s, struct sim_cpu *c, struct sim_task *t);
	/* @t stops running on @c (put_prev_task); NULL: nothing to do */
	void (*put_prev)(struct sim *s, struct sim_cpu *c, struct sim_task *t);
	/* @t ran @delta ns at capacity @cap (update_curr) */
	void (*update_curr)(struct sim *s, struct sim_cpu *c,
			    struct sim_task *t, uint64_t delta,
			    unsigned int cap);
	/* @t, of the class of @c's curr, was enqueued: preempt curr? */
	bool (*check_preempt)(struct sim *s, struct sim_cpu *c,
			      struct sim_task *t);
	/* the tick while @c's curr is of this class: reschedule? */
	bool (*tick)(struct sim *s, struct sim_cpu *c);
	/* sched_yield() of the running @t */
	void (*yield)(struct sim *s, struct sim_cpu *c, struct sim_task *t);
	/* wake-up or fork placement, @prev an allowed CPU */
	struct sim_cpu *(*select_rq)(struct sim *s, struct sim_task *t,
				     struct sim_cpu *prev, bool fork);
	/*
	 * ns until the class's own budget of the running @t runs out at
	 * capacity @cap (UINT64_MAX: none), and what happens then: true if
	 * the class took the task off the CPU (throttled it).
	 */
	uint64_t (*budget_ns)(const struct sim_task *t, unsigned int cap);
	bool (*budget_expired)(struct sim *s, struct sim_cpu *c,
			       struct sim_task *t);
	/*
	 * The signals: a new task's initial utilization before its first
	 * enqueue on @c (post_init_entity_util_avg()), and its share of the
	 * runqueue signals moving from @src to @dst with it (detach/attach);
	 * called while t->cpu is still @src (migrate_task_rq() before
	 * __set_task_cpu()).
	 * NULL: the class's tasks carry no per-task share.
	 */
	void (*task_new)(struct sim *s, struct sim_task *t, struct sim_cpu *c);
	void (*migrate_signals)(struct sim *s, struct sim_task *t,
				struct sim_cpu *src, struct sim_cpu *dst);
	/* @t exited (task_dead): its share leaves its runqueue's signals */
	void (*task_dead)(struct sim *s, struct sim_task *t);
	/* newidle balance: a waiting task of another CPU to pull to @c */
	struct sim_task *(*pull)(struct sim *s, struct sim_cpu *c);
	/* tick balance: push a waiting task of @c away; true if one moved */
	bool (*push)(struct sim *s, struct sim_cpu *c);
	/* the class's queued tasks of @c (incl. curr), in enqueue order */
	struct list_head *(*tasks)(struct sim_cpu *c);
	/* the tick pushes its waiting tasks to idle CPUs (nohz balance) */
	bool push_to_idle;
	/*
	 * uclamp_enabled of the kernel's struct sched_class: the class's
	 * RUNNABLE tasks count in their CPU's uclamp buckets (fair and RT,
	 * not DEADLINE)
	 */
	bool uclamp_enabled;
	/*
	 * A task's unset uclamp_min is sysctl_sched_uclamp_util_min_rt_default
	 * rather than 0 (uclamp_update_util_min_rt_default(): RT only)
	 */
	bool uclamp_min_rt_default;
	/*
	 * A wake-up from I/O asks schedutil for its boost: only
	 * enqueue_task_fair() passes SCHED_CPUFREQ_IOWAIT for p->in_iowait
	 */
	bool iowait_boost;
	/* the priority as the kernel prints it (prio= in sched events) */
	int (*kprio)(const struct sim_task *t);
};

extern const struct sim_class dl_sched_class;
extern const struct sim_class rt_sched_class;
extern const struct sim_class fair_sched_class;

#define NR_SCHED_CLASSES 3

/* The classes from the highest to the lowest priority */
extern const struct sim_class *const sim_classes[NR_SCHED_CLASSES];

#define for_each_class(cls) \
	for (const struct sim_class *const *cls##_it = sim_classes; \
	     cls##_it < sim_classes + NR_SCHED_CLASSES && \
	     ((cls) = *cls##_it, 1); cls##_it++)

/* sched_class_above(): is @a a higher-priority class than @b? */
static inline bool sched_class_above(const struct sim_class *a,
				     const struct sim_class *b)
{
	return a->id < b->id;
}

#endif
