/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The utilization signal of a task or of a CPU's class runqueue: every
 * update of it goes through these functions (the simulator never writes
 * the fields), so the arithmetic behind them can change alone.
 *
 * *** SIMPLIFIED, NOT KERNEL-EXACT PELT ***
 * A continuous-time exponential average with PELT's half-life (32 periods
 * of 1024 us, y^32 = 1/2): while the entity runs, the signal moves towards
 * the capacity it runs at (frequency- and CPU-invariant, as PELT's scaled
 * time); otherwise it decays towards 0. It has PELT's time constants and
 * invariance but not its 1024 us segmentation, integer tables or util_est
 * (the signals issue replaces it with kernel/sched/pelt.c's arithmetic).
 */
#ifndef CAPSIM_UTIL_AVG_H
#define CAPSIM_UTIL_AVG_H

#include <stdint.h>

struct sig {
	double util;		/* 0 .. 1024 */
	uint64_t last;		/* ns of the last update */
};

/* The value after @delta_ns spent running at @cap (0: not running) */
double sig_advance(double util, uint64_t delta_ns, unsigned int cap);

/* Advance @s to @now; @cap as for sig_advance() */
static inline void sig_update(struct sig *s, uint64_t now, unsigned int cap)
{
	if (now > s->last)
		s->util = sig_advance(s->util, now - s->last, cap);
	s->last = now;
}

static inline unsigned long sig_value(const struct sig *s)
{
	return (unsigned long)(s->util + 0.5);
}

/* Start @s at @util at @now (a new task's initial value) */
static inline void sig_set(struct sig *s, unsigned long util, uint64_t now)
{
	s->util = (double)util;
	s->last = now;
}

/* A task's share @util leaves (detach) or joins (attach) a runqueue's */
static inline void sig_detach(struct sig *rq, unsigned long util)
{
	rq->util = rq->util > (double)util ? rq->util - (double)util : 0;
}

static inline void sig_attach(struct sig *rq, unsigned long util)
{
	rq->util += (double)util;
	if (rq->util > 1024)
		rq->util = 1024;
}

#endif
