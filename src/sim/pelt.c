// SPDX-License-Identifier: GPL-2.0
/*
 * PELT's integer arithmetic (see pelt.h). Constants and the y^n table are
 * the kernel's (kernel/sched/sched-pelt.h); the code is written anew.
 */
#include "pelt.h"

/* runnable_avg_yN_inv[n] = y^n * 2^32, n < LOAD_AVG_PERIOD (sched-pelt.h) */
static const uint32_t pelt_yN_inv[PELT_LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

/* sub_positive(): subtract, stopping at 0 */
static uint64_t sub_pos64(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static unsigned long sub_pos(unsigned long a, unsigned long b)
{
	return a > b ? a - b : 0;
}

/* max_t(u32, a, b): both truncated to 32 bits first, as the kernel does */
static uint32_t max_u32(uint64_t a, uint64_t b)
{
	uint32_t x = (uint32_t)a, y = (uint32_t)b;

	return x > y ? x : y;
}

/* decay_load(): y^n = (1/2)^(n/32) * y^(n%32), the latter from the table */
uint64_t pelt_decay_load(uint64_t val, uint64_t n)
{
	unsigned int local_n;

	if (n > PELT_LOAD_AVG_PERIOD * 63)
		return 0;
	local_n = (unsigned int)n;
	if (local_n >= PELT_LOAD_AVG_PERIOD) {
		val >>= local_n / PELT_LOAD_AVG_PERIOD;
		local_n %= PELT_LOAD_AVG_PERIOD;
	}
	/* mul_u64_u32_shr(val, yN_inv, 32) */
	return (uint64_t)(((unsigned __int128)val * pelt_yN_inv[local_n]) >> 32);
}

/*
 * __accumulate_pelt_segments(): d1 (the end of the period last updated)
 * decayed p times, the p-1 full periods between, d3 (the current one)
 * undecayed.
 */
uint32_t pelt_accumulate_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint32_t c1, c2, c3 = d3;

	c1 = (uint32_t)pelt_decay_load(d1, periods);
	c2 = PELT_LOAD_AVG_MAX -
	     (uint32_t)pelt_decay_load(PELT_LOAD_AVG_MAX, periods) - 1024;
	return c1 + c2 + c3;
}

/* accumulate_sum(): decay the sums by the periods crossed, then add */
static uint64_t accumulate_sum(uint64_t delta, struct pelt_avg *sa,
			       unsigned long load, unsigned long runnable,
			       int running)
{
	uint32_t contrib = (uint32_t)delta;	/* no period crossed */
	uint64_t periods;

	delta += sa->period_contrib;
	periods = delta / 1024;
	if (periods) {
		sa->load_sum = pelt_decay_load(sa->load_sum, periods);
		sa->runnable_sum = pelt_decay_load(sa->runnable_sum, periods);
		sa->util_sum = (uint32_t)pelt_decay_load(sa->util_sum, periods);
		delta %= 1024;
		/* with !load, runnable and running are 0: contrib unused */
		if (load)
			contrib = pelt_accumulate_segments(periods,
					1024 - sa->period_contrib,
					(uint32_t)delta);
	}
	sa->period_contrib = (uint32_t)delta;
	if (load)
		sa->load_sum += (uint64_t)load * contrib;
	if (runnable)
		sa->runnable_sum += ((uint64_t)runnable * contrib)
				    << PELT_CAPACITY_SHIFT;
	if (running)
		sa->util_sum += contrib << PELT_CAPACITY_SHIFT;
	return periods;
}

/* ___update_load_sum(): the time since the last update, in 1024 ns units */
bool pelt_update_load_sum(uint64_t now, struct pelt_avg *sa,
			  unsigned long load, unsigned long runnable,
			  int running)
{
	uint64_t delta = now - sa->last_update_time;

	if ((int64_t)delta < 0) {	/* time went backwards */
		sa->last_update_time = now;
		return false;
	}
	delta >>= 10;
	if (!delta)
		return false;
	sa->last_update_time += delta << 10;
	/* running is a subset of runnable, runnable of load */
	if (!load)
		runnable = running = 0;
	return accumulate_sum(delta, sa, load, runnable, running) != 0;
}

/*
 * ___update_load_avg(): the averages from the sums, dividing by the
 * largest sum possible at this position in the current period.
 */
void pelt_update_load_avg(struct pelt_avg *sa, unsigned long load)
{
	uint32_t divider = pelt_divider(sa);

	sa->load_avg = (unsigned long)(load * sa->load_sum / divider);
	sa->runnable_avg = (unsigned long)(sa->runnable_sum / divider);
	sa->util_avg = sa->util_sum / divider;
}

/* cfs_se_util_change(): util_avg moved, util_est may update at dequeue */
static void se_util_change(struct pelt_avg *se)
{
	if (se->util_est & PELT_UTIL_AVG_UNCHANGED)
		se->util_est &= ~PELT_UTIL_AVG_UNCHANGED;
}

/* __update_load_avg_se(): a task's se_runnable() is its on_rq */
bool pelt_update_se(uint64_t now, struct pelt_avg *se, bool on_rq,
		    bool running, unsigned long weight)
{
	if (!pelt_update_load_sum(now, se, on_rq, on_rq, running))
		return false;
	pelt_update_load_avg(se, weight);
	se_util_change(se);
	return true;
}

/* __update_load_avg_blocked_se() */
bool pelt_update_blocked_se(uint64_t now, struct pelt_avg *se,
			    unsigned long weight)
{
	if (!pelt_update_load_sum(now, se, 0, 0, 0))
		return false;
	pelt_update_load_avg(se, weight);
	return true;
}

/* update_cfs_rq_load_avg() + __update_load_avg_cfs_rq() */
bool pelt_update_cfs_rq(uint64_t now, struct pelt_avg *sa,
			struct pelt_removed *removed,
			unsigned long load_weight, unsigned int nr_queued,
			bool curr)
{
	bool decayed = false;

	if (removed->nr) {
		uint32_t divider = pelt_divider(sa);
		unsigned long r;

		r = removed->load_avg;
		sa->load_avg = sub_pos(sa->load_avg, r);
		sa->load_sum = sub_pos64(sa->load_sum, (uint64_t)r * divider);
		sa->load_sum = max_u32(sa->load_sum,
				       (uint64_t)sa->load_avg * PELT_MIN_DIVIDER);

		/*
		 * Rounding may leave the entity's util_sum one above its share
		 * of the queue's: keep util_sum at or above what util_avg
		 * needs with the smallest divider.
		 */
		r = removed->util_avg;
		sa->util_avg = sub_pos(sa->util_avg, r);
		sa->util_sum = (uint32_t)sub_pos64(sa->util_sum,
						   (uint64_t)r * divider);
		sa->util_sum = max_u32(sa->util_sum,
				       (uint64_t)sa->util_avg * PELT_MIN_DIVIDER);

		r = removed->runnable_avg;
		sa->runnable_avg = sub_pos(sa->runnable_avg, r);
		sa->runnable_sum = sub_pos64(sa->runnable_sum,
					     (uint64_t)r * divider);
		sa->runnable_sum = max_u32(sa->runnable_sum,
					   (uint64_t)sa->runnable_avg *
					   PELT_MIN_DIVIDER);
		removed->util_avg = removed->load_avg = 0;
		removed->runnable_avg = 0;
		removed->nr = 0;
		decayed = true;
	}
	if (pelt_update_load_sum(now, sa, load_weight, nr_queued, curr)) {
		pelt_update_load_avg(sa, 1);
		decayed = true;
	}
	return decayed;
}

/* update_rt_rq_load_avg(), update_dl_rq_load_avg(): running is all */
bool pelt_update_class_rq(uint64_t now, struct pelt_avg *rq, bool running)
{
	if (!pelt_update_load_sum(now, rq, running, running, running))
		return false;
	pelt_update_load_avg(rq, 1);
	return true;
}

/* init_entity_runnable_average() of a task */
void pelt_init_entity(struct pelt_avg *se, unsigned long weight)
{
	*se = (struct pelt_avg){ .load_avg = weight };
}

/*
 * post_init_entity_util_avg(): the queue's util per unit of load times
 * the task's weight, capped at half the capacity the queue leaves
 * unused (so successive new tasks take 1/2, 1/4, ... of it).
 */
void pelt_post_init(struct pelt_avg *se, const struct pelt_avg *rq,
		    unsigned long cpu_scale, unsigned long weight)
{
	long cap = ((long)cpu_scale - (long)rq->util_avg) / 2;

	if (cap > 0) {
		if (rq->util_avg) {
			se->util_avg = rq->util_avg * weight /
				       (rq->load_avg + 1);
			if (se->util_avg > (unsigned long)cap)
				se->util_avg = (unsigned long)cap;
		} else {
			se->util_avg = (unsigned long)cap;
		}
	}
	se->runnable_avg = se->util_avg;
}

/*
 * attach_entity_load_avg(): the entity takes the queue's position in the
 * period, its sums rebuilt from its averages with the queue's divider,
 * and joins the queue's sums (enqueue_load_avg() for the load).
 */
void pelt_attach(struct pelt_avg *rq, struct pelt_avg *se,
		 unsigned long weight)
{
	uint32_t divider = pelt_divider(rq);

	se->last_update_time = rq->last_update_time;
	se->period_contrib = rq->period_contrib;
	se->util_sum = (uint32_t)(se->util_avg * divider);
	se->runnable_sum = (uint64_t)se->runnable_avg * divider;
	se->load_sum = (uint64_t)se->load_avg * divider;
	if (weight < se->load_sum)
		se->load_sum /= weight;
	else
		se->load_sum = 1;
	rq->load_avg += se->load_avg;
	rq->load_sum += weight * se->load_sum;
	rq->util_avg += se->util_avg;
	rq->util_sum += se->util_sum;
	rq->runnable_avg += se->runnable_avg;
	rq->runnable_sum += se->runnable_sum;
}

/* detach_entity_load_avg() (with dequeue_load_avg()) */
void pelt_detach(struct pelt_avg *rq, const struct pelt_avg *se,
		 unsigned long weight)
{
	rq->load_avg = sub_pos(rq->load_avg, se->load_avg);
	rq->load_sum = sub_pos64(rq->load_sum, weight * se->load_sum);
	rq->load_sum = max_u32(rq->load_sum,
			       (uint64_t)rq->load_avg * PELT_MIN_DIVIDER);
	rq->util_avg = sub_pos(rq->util_avg, se->util_avg);
	rq->util_sum = (uint32_t)sub_pos64(rq->util_sum, se->util_sum);
	rq->util_sum = max_u32(rq->util_sum,
			       (uint64_t)rq->util_avg * PELT_MIN_DIVIDER);
	rq->runnable_avg = sub_pos(rq->runnable_avg, se->runnable_avg);
	rq->runnable_sum = sub_pos64(rq->runnable_sum, se->runnable_sum);
	rq->runnable_sum = max_u32(rq->runnable_sum,
				   (uint64_t)rq->runnable_avg *
				   PELT_MIN_DIVIDER);
}

/* remove_entity_load_avg(): the queue subtracts it at its next update */
void pelt_remove(struct pelt_removed *removed, const struct pelt_avg *se)
{
	removed->nr++;
	removed->util_avg += se->util_avg;
	removed->load_avg += se->load_avg;
	removed->runnable_avg += se->runnable_avg;
}

void pelt_util_est_enqueue(struct pelt_avg *rq, const struct pelt_avg *se)
{
	rq->util_est += pelt_task_util_est(se);
}

void pelt_util_est_dequeue(struct pelt_avg *rq, const struct pelt_avg *se)
{
	unsigned int est = pelt_task_util_est(se);

	rq->util_est -= est < rq->util_est ? est : rq->util_est;
}

#define UTIL_EST_WEIGHT_SHIFT	2
#define UTIL_EST_MARGIN		(PELT_CAPACITY_SCALE / 100)

bool pelt_util_est_update(struct pelt_avg *se, unsigned long cpu_scale)
{
	unsigned int ewma = se->util_est, diff;
	unsigned long dequeued = se->util_avg;

	if (ewma & PELT_UTIL_AVG_UNCHANGED)
		return false;
	if (ewma <= dequeued) {
		ewma = (unsigned int)dequeued;
		goto done;
	}
	diff = ewma - (unsigned int)dequeued;
	if (diff < UTIL_EST_MARGIN)
		goto done;
	/* above the CPU's capacity, util_avg says nothing of the need */
	if (dequeued > cpu_scale)
		return false;
	/* it waited more than it ran: keep the estimate */
	if (dequeued + UTIL_EST_MARGIN < se->runnable_avg)
		goto done;
	/* ewma = ewma - (ewma - dequeued) / 4, in integers */
	ewma <<= UTIL_EST_WEIGHT_SHIFT;
	ewma -= diff;
	ewma >>= UTIL_EST_WEIGHT_SHIFT;
done:
	se->util_est = ewma | PELT_UTIL_AVG_UNCHANGED;
	return true;
}

/* cap_scale() */
static uint64_t cap_scale(uint64_t v, unsigned long s)
{
	return (v * s) >> PELT_CAPACITY_SHIFT;
}

/* update_rq_clock_pelt(), _update_idle_rq_clock_pelt() for the idle case */
void pelt_clock_update(struct pelt_clock *clk, uint64_t delta, bool idle,
		       unsigned long cpu_scale, unsigned long freq_scale)
{
	clk->clock_task += delta;
	if (idle) {
		clk->clock_pelt = clk->clock_task;
		return;
	}
	/* the work really done: slower CPU or frequency, less PELT time */
	delta = cap_scale(delta, cpu_scale);
	delta = cap_scale(delta, freq_scale);
	clk->clock_pelt += delta;
}

/* update_idle_rq_clock_pelt() */
void pelt_clock_idle(struct pelt_clock *clk, uint32_t cfs_util_sum,
		     uint32_t rt_util_sum, uint32_t dl_util_sum)
{
	/* the upper bound of a full util_sum, ignoring period_contrib */
	uint32_t divider = ((PELT_LOAD_AVG_MAX - 1024) << PELT_CAPACITY_SHIFT) -
			   PELT_LOAD_AVG_MAX;
	uint32_t util_sum = cfs_util_sum + rt_util_sum + dl_util_sum;

	/*
	 * A rq that was always running had no idle time at full capacity
	 * either: the stolen idle time cannot be given back, it is lost.
	 */
	if (util_sum >= divider)
		clk->lost_idle_time += clk->clock_task - clk->clock_pelt;
	clk->clock_pelt = clk->clock_task;
}
