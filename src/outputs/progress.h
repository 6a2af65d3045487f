/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A one-line progress report on stderr for long commands (a run's
 * simulated time, a comparison's or a sweep's points): a bar, done/total,
 * rate, ETA, redrawn at most 5 times a second (a terminal with TERM=dumb:
 * the same without the bar). Silent unless stderr is a terminal, and
 * with --quiet, so scripts and logs never see it.
 */
#ifndef CAPSIM_PROGRESS_H
#define CAPSIM_PROGRESS_H

#include <stdbool.h>

struct progress {
	bool on;
	bool bar;		/* [####....] before the figures */
	const char *what;	/* "run", "compare", "sweep" */
	const char *unit;	/* "s simulated", "points" */
	double total;
	double t0;		/* wall clock at the start */
	double last_draw;
	bool drawn;
};

void progress_init(struct progress *p, bool quiet, const char *what,
		   const char *unit, double total);
void progress_update(struct progress *p, double done);
/* Erase the line, so what follows starts on a clean one */
void progress_end(struct progress *p);

/* Monotonic wall clock in seconds */
double progress_now(void);

/* The sim's callback (struct sim.progress): @arg is a struct progress */
void progress_sim_cb(void *arg, unsigned long long now_ns,
		     unsigned long long end_ns);

#endif
