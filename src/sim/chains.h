/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload's chains (capsim.chains, or inferred from resume/suspend)
 * followed through a run by causality: the first task's activation for
 * period k carries frame k, and every wake-up one stage of the chain gives
 * the next hands the frame on, so a stage's completion belongs to the
 * frame whose earlier stage woke it. A resume that finds the next stage
 * still busy (no waiter) loses its frame. The exact rules are in
 * docs/simulator.md, "Chains and frames".
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

/* One stage of a frame: the activation of the stage's task that worked
 * for it, from the wake-up that handed it the frame to its completion */
struct chain_stage {
	uint64_t wake;		/* ns: its wake-up (a first task that did
				 * not sleep: when it passed its timer) */
	uint64_t end;		/* ns: it completed */
	uint64_t run_ns;	/* CPU time between the two */
	uint64_t wlat_ns;	/* sched_wakeup to running; 0 without sleep */
	double khz;		/* its mean frequency over run_ns (0: none) */
	int task;		/* the simulated task (instance), by idx */
	int cpu;		/* the CPU it completed on */
	bool begun;		/* the frame reached this stage */
	bool done;		/* and the stage completed */
};

/* One frame a first task's activation began (the others never did) */
struct chain_frame {
	uint64_t k;		/* its index: trigger = origin + k * period */
	uint64_t done;		/* ns: the last stage's completion, if finished */
	uint64_t lost_at;	/* ns: the resume that found no waiter */
	int lost_stage;		/* the stage that resume was for */
	bool finished;
	bool lost;		/* lost: that stage never began */
};

/* A chain task's frame in hand (one per instance of the chain's tasks) */
struct chain_carry {
	bool active;		/* working for frame f at stage */
	bool pending;		/* a timer-paced first task passed its timer:
				 * frame pending_k begins at its wake-up */
	bool waiting_run;	/* woken, not yet running: wlat to measure */
	int stage;
	size_t f;		/* index into chain_run.f */
	uint64_t pending_k;
	uint64_t run0;		/* the task's runtime_ns when the stage began */
	double khz0;		/* and its run_khz_ns */
};

struct chain_run {
	const struct wl_chain *wc;
	bool origin_known;	/* the trigger of period 0 is known */
	uint64_t origin;
	/* the first task waits on the start timer: its frame is the timer
	 * expiry's period, whether it slept or not; else its wake-up's */
	bool timer_paced;
	int **susp;		/* per stage: the resources its task suspends */
	int *nsusp;		/* on, so a resume to them is for that stage */
	int *slot;		/* per simulated task: its carry, -1: none */
	struct chain_carry *carry;
	int ncarry;
	bool any_frame;		/* last_k is the last frame begun */
	uint64_t last_k;
	struct chain_frame *f;	/* the begun frames, by k */
	struct chain_stage *st;	/* their stages: f[i]'s at st[i * ntasks] */
	size_t n, cap;
	/* the results (chains_close()) */
	bool closed;
	uint64_t judged, late, dropped, lost;
	struct samples lat;	/* ns, of the finished judged frames */
};

void chains_init(struct sim *s);
void chains_free(struct sim *s);
/* Timer resource @res's first period starts at @first (task.c) */
void chains_timer_armed(struct sim *s, int res, uint64_t first);
/* @t starts (sched_wakeup_new) */
void chains_task_started(struct sim *s, const struct sim_task *t);
/* @t is woken by @waker (NULL: a timer, no task) */
void chains_woken(struct sim *s, const struct sim_task *t,
		  const struct sim_task *waker);
/* @t is switched in */
void chains_task_in(struct sim *s, const struct sim_task *t);
/* @t passed timer @res whose expiry was @expiry; it sleeps until then if
 * @sleeps. Called before it blocks. */
void chains_timer_pass(struct sim *s, const struct sim_task *t, int res,
		       uint64_t expiry, bool sleeps);
/* @t resumed @res and nobody waited there */
void chains_resume_lost(struct sim *s, const struct sim_task *t, int res);
/* @t switched out asleep (or dead: @exited), ending its activation */
void chains_task_done(struct sim *s, const struct sim_task *t, bool exited);
/* The run is over: judge every frame whose deadline has passed; a chain
 * that lost frames says so (a warning, once) */
void chains_close(struct sim *s);

/* The frames judged: those whose deadline is within the run (0 to the
 * result - 1; the begun ones are cr->f[], the others never began) */
uint64_t chain_judged(const struct sim *s, const struct chain_run *cr);
uint64_t chain_trigger(const struct chain_run *cr, uint64_t k);
/* Stage @stage of begun frame @i */
const struct chain_stage *chain_stage_of(const struct chain_run *cr,
					 size_t i, int stage);
/* Late: not finished, or after its deadline */
bool chain_frame_late(const struct chain_run *cr, const struct chain_frame *f);
/* A finished frame's latency, ns: its last stage's completion - T_k */
int64_t chain_frame_latency(const struct chain_run *cr,
			    const struct chain_frame *f);
/* jank %: late or never done, of the judged frames (0 without any) */
double chain_jank_pct(const struct chain_run *cr);

#endif
