/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload's chains (capsim.chains) followed through a run: each
 * period's trigger, each task's completion in turn, the period's latency
 * and whether it was late (Perfetto FrameTimeline's jank). The exact rules
 * are in docs/simulator.md, "Chains and frames".
 */
#ifndef CAPSIM_CHAINS_H
#define CAPSIM_CHAINS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct sim;
struct sim_task;
struct wl_chain;

/*
 * Periods in flight at once: when one more starts, the oldest still open
 * is dropped (a frame that many periods behind is late anyway), so a
 * completion looks at a bounded number of periods
 */
#define CHAIN_MAX_OPEN 16

/* One period of a chain whose first task completed (the others never
 * started: late, never done) */
struct chain_period {
	uint64_t k;		/* its index: trigger = origin + k * period */
	uint64_t trigger;	/* ns */
	uint64_t ref;		/* wake-up of the last counted activation */
	uint64_t prev_done;	/* completion of the last counted stage */
	uint64_t done;		/* the last task's completion, if finished */
	int stage;		/* tasks finished so far */
	bool dropped;		/* overtaken by a later period: never done */
};

struct chain_run {
	const struct wl_chain *wc;
	bool origin_known;	/* the trigger of period 0 is known */
	uint64_t origin;
	struct chain_period *p;	/* the started periods, by index */
	size_t n, cap;
	size_t head;		/* periods before it are all closed */
	size_t nopen;		/* started, neither done nor dropped */
	/* the results (chains_close()) */
	bool closed;
	uint64_t judged, late, dropped;
	struct samples lat;	/* ns, of the finished judged periods */
};

void chains_init(struct sim *s);
void chains_free(struct sim *s);
/* Timer resource @res's first period starts at @first (task.c) */
void chains_timer_armed(struct sim *s, int res, uint64_t first);
/* @t switched out asleep, ending the activation it woke for at @woke_ns */
void chains_task_done(struct sim *s, const struct sim_task *t,
		      uint64_t woke_ns);
/* The run is over: judge every period whose deadline has passed */
void chains_close(struct sim *s);

/* The periods judged: those whose deadline is within the run (0 to the
 * result - 1; the started ones are cr->p[], the others never began) */
uint64_t chain_judged(const struct sim *s, const struct chain_run *cr);
uint64_t chain_trigger(const struct chain_run *cr, uint64_t k);
/* Whether started period @p is done, and late (not done, or after its
 * deadline) */
bool chain_period_done(const struct chain_run *cr,
		       const struct chain_period *p);
bool chain_period_late(const struct chain_run *cr,
		       const struct chain_period *p);
/* jank %: late or never done, of the judged periods (0 without any) */
double chain_jank_pct(const struct chain_run *cr);

#endif
