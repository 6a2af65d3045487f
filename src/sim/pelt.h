/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-entity load tracking as 6.12 computes it (kernel/sched/pelt.c,
 * pelt.h and the attach/detach/init helpers of fair.c), as pure integer
 * functions of their arguments: no simulator type, no clock but the
 * @now passed in, so that a test can step them by hand.
 *
 * Time is in ns of the PELT clock; the arithmetic works in units of
 * 1024 ns ("us") and periods of 1024 such units, with y^32 = 1/2.
 * The simulator (signals.c) decides when each function runs, at the
 * update points 6.12 uses.
 */
#ifndef CAPSIM_PELT_H
#define CAPSIM_PELT_H

#include <stdbool.h>
#include <stdint.h>

#define PELT_LOAD_AVG_PERIOD	32	/* y^LOAD_AVG_PERIOD = 1/2 */
#define PELT_LOAD_AVG_MAX	47742	/* 1024 * sum of y^n, n >= 0 */
#define PELT_MIN_DIVIDER	(PELT_LOAD_AVG_MAX - 1024)
#define PELT_CAPACITY_SHIFT	10
#define PELT_CAPACITY_SCALE	(1UL << PELT_CAPACITY_SHIFT)

/* util_est's "util_avg not updated since the last dequeue" flag */
#define PELT_UTIL_AVG_UNCHANGED	0x80000000U

/* struct sched_avg */
struct pelt_avg {
	uint64_t last_update_time;	/* ns of the PELT clock, 0: detached */
	uint64_t load_sum;
	uint64_t runnable_sum;
	uint32_t util_sum;
	uint32_t period_contrib;
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
	unsigned int util_est;
};

/* cfs_rq->removed: what tasks that left while blocked still owe */
struct pelt_removed {
	unsigned long util_avg, load_avg, runnable_avg;
	int nr;
};

/* The PELT clock of one runqueue (rq->clock_pelt, lost_idle_time) */
struct pelt_clock {
	uint64_t clock_task;		/* ns, rq_clock_task() */
	uint64_t clock_pelt;
	uint64_t lost_idle_time;
};

/* decay_load(): @val * y^@n */
uint64_t pelt_decay_load(uint64_t val, uint64_t n);

/* __accumulate_pelt_segments() */
uint32_t pelt_accumulate_segments(uint64_t periods, uint32_t d1, uint32_t d3);

/* ___update_load_sum(): true if a period boundary was crossed */
bool pelt_update_load_sum(uint64_t now, struct pelt_avg *sa,
			  unsigned long load, unsigned long runnable,
			  int running);

/* get_pelt_divider() */
static inline uint32_t pelt_divider(const struct pelt_avg *sa)
{
	return PELT_MIN_DIVIDER + sa->period_contrib;
}

/* ___update_load_avg() */
void pelt_update_load_avg(struct pelt_avg *sa, unsigned long load);

/*
 * A task's entity. __update_load_avg_se(): @on_rq and @running as the
 * kernel reads them (se->on_rq, cfs_rq->curr == se), @weight
 * se_weight(); __update_load_avg_blocked_se(): the same, dequeued.
 * True when a period was crossed (the averages were recomputed).
 */
bool pelt_update_se(uint64_t now, struct pelt_avg *se, bool on_rq,
		    bool running, unsigned long weight);
bool pelt_update_blocked_se(uint64_t now, struct pelt_avg *se,
			    unsigned long weight);

/*
 * update_cfs_rq_load_avg(): first the removed tasks' shares, then
 * __update_load_avg_cfs_rq() with the queue's @load_weight, its
 * @nr_queued tasks and whether it has a running entity. True if it
 * decayed or lost a removed share.
 */
bool pelt_update_cfs_rq(uint64_t now, struct pelt_avg *rq,
			struct pelt_removed *removed,
			unsigned long load_weight, unsigned int nr_queued,
			bool curr);

/* update_rt_rq_load_avg() / update_dl_rq_load_avg() */
bool pelt_update_class_rq(uint64_t now, struct pelt_avg *rq, bool running);

/* init_entity_runnable_average(): a new task, seen as heavy */
void pelt_init_entity(struct pelt_avg *se, unsigned long weight);

/*
 * post_init_entity_util_avg() of a fair task: its initial util from its
 * new CPU's cfs_rq (@rq) and the CPU's capacity @cpu_scale.
 */
void pelt_post_init(struct pelt_avg *se, const struct pelt_avg *rq,
		    unsigned long cpu_scale, unsigned long weight);

/*
 * attach_entity_load_avg() / detach_entity_load_avg() of a task entity
 * to / from its cfs_rq's sums (the rq is up to date at the same time).
 */
void pelt_attach(struct pelt_avg *rq, struct pelt_avg *se,
		 unsigned long weight);
void pelt_detach(struct pelt_avg *rq, const struct pelt_avg *se,
		 unsigned long weight);

/* remove_entity_load_avg(), after the entity was synced */
void pelt_remove(struct pelt_removed *removed, const struct pelt_avg *se);

/*
 * util_est (6.12: one value per task and per cfs_rq, the task's with the
 * UTIL_AVG_UNCHANGED flag while util_avg has not moved since its last
 * update). _task_util_est(): the value without the flag.
 */
static inline unsigned int pelt_task_util_est(const struct pelt_avg *se)
{
	return se->util_est & ~PELT_UTIL_AVG_UNCHANGED;
}

/* util_est_enqueue() / util_est_dequeue(): the queue's sum of estimates */
void pelt_util_est_enqueue(struct pelt_avg *rq, const struct pelt_avg *se);
void pelt_util_est_dequeue(struct pelt_avg *rq, const struct pelt_avg *se);

/*
 * util_est_update() of a task going to sleep on a CPU of capacity
 * @cpu_scale: a rise is taken at once; a fall within the 1% margin is
 * ignored, and so is one of a task that was waiting rather than running
 * (runnable above util by the margin) or that ran above the CPU's
 * capacity; else the EWMA moves a quarter of the way down. Nothing while
 * util_avg has not been recomputed since the last update. True when it
 * wrote the estimate (where 6.12's sched_util_est_se_tp fires).
 */
bool pelt_util_est_update(struct pelt_avg *se, unsigned long cpu_scale);

/*
 * update_rq_clock_pelt(): @delta ns of clock_task pass; on an idle rq
 * the PELT clock syncs to clock_task, else it advances by the delta
 * scaled by the CPU's capacity and its current frequency's
 * (arch_scale_cpu_capacity(), arch_scale_freq_capacity()).
 */
void pelt_clock_update(struct pelt_clock *clk, uint64_t delta, bool idle,
		       unsigned long cpu_scale, unsigned long freq_scale);

/*
 * update_idle_rq_clock_pelt(): the rq goes idle; with the sum of its
 * classes' util_sum at the maximum it had no idle time to steal, and
 * the difference is lost (lost_idle_time); then the sync.
 */
void pelt_clock_idle(struct pelt_clock *clk, uint32_t cfs_util_sum,
		     uint32_t rt_util_sum, uint32_t dl_util_sum);

/* rq_clock_pelt() */
static inline uint64_t pelt_clock_now(const struct pelt_clock *clk)
{
	return clk->clock_pelt - clk->lost_idle_time;
}

/* arch_set_freq_scale() from cpufreq: cur << 10 / max */
static inline unsigned long pelt_freq_scale(unsigned int cur_khz,
					    unsigned int max_khz)
{
	return (unsigned long)(((uint64_t)cur_khz << PELT_CAPACITY_SHIFT) /
			       max_khz);
}

#endif
