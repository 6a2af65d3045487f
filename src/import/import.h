/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `capsim import`: a trace becomes an rt-app workload (docs/import.md).
 *
 * The steps, one file each:
 *   import_model.c       the trace read once through src/trace's schedule
 *                        (sched_state.h): per task its activations (wake-up,
 *                        waker, work done), CPUs, prio, busy time
 *   import_work.c        wall time on a CPU at a frequency -> work, in
 *                        capsim's `run` unit (ns at capacity 1024)
 *   import_phases.c      the change-point rule: where a task's period or
 *                        duty cycle changes, a new phase
 *   import_period.c      per phase: periodic (`timer`) or a run/sleep
 *                        sequence (bounded)
 *   import_sleep.c       a sleep's length: to the wake-up, less its delay
 *                        out of an idle state
 *   import_loop.c        k wake-ups per period that repeat -> one rt-app
 *                        loop of k run/sleep steps
 *   import_runtime.c     bursts that keep their wall time across speeds
 *                        -> rt-app `runtime` instead of `run`
 *   import_deps.c        A wakes B repeatedly -> `resume`/`suspend`;
 *                        A and B waking each other -> both ways
 *   import_barrier.c     loop tasks woken at one step of every pass by
 *                        the last of them to arrive -> rt-app `barrier`
 *   import_background.c  kernel threads and tasks below --min-busy folded
 *                        into one periodic load per CPU
 *   import_names.c       each task's name, unique; comms cut at 15 bytes
 *   import_clamp.c       task groups and their clamps from cap_clamp_*,
 *                        their paths ones capsim takes
 *   import_uclamp.c      a task's uclamp from LISA's lisa__uclamp_util_se
 *   import_rtapp.c       the rt-app JSON written (safe_write.h: aside, renamed)
 *   import_validate.c    ... checked as `capsim validate` checks it first
 *   import_explain.c     --explain: per task what was inferred and why
 *   import_cmd.c         the command line
 */
#ifndef CAPSIM_IMPORT_H
#define CAPSIM_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "platform.h"
#include "sched_state.h"
#include "strmap.h"

/* The rules' constants, named in docs/import.md */
#define IMPORT_PERIODIC_CV 0.10	/* wake-up intervals' CV under it: timer */
#define IMPORT_PERIODIC_MIN 4	/* ... over at least this many activations */
#define IMPORT_PERIODIC_SHARE 0.90	/* or this share of them ... */
#define IMPORT_PERIODIC_TOL 0.10	/* ... within 10 % of their median */
#define IMPORT_CP_BLOCK 8	/* change points: blocks of activations */
#define IMPORT_CP_PERIOD 0.15	/* a block's mean interval off by 15 % */
#define IMPORT_CP_DUTY 0.25	/* ... or its duty cycle off by 25 % */
#define IMPORT_CP_PAUSE 4	/* an interval over 4 x the median: a pause */
#define IMPORT_SEQ_MAX 32	/* a sequence longer is summarized */
#define IMPORT_STEPS_MAX 1024	/* a phase's varying runs kept one by
				 * one up to this many activations */
#define IMPORT_DEP_SHARE 0.80	/* a waker of >= 80 % of the wake-ups */
#define IMPORT_DEP_MIN 4	/* ... of at least this many */
#define IMPORT_HOG_SHARE 0.90	/* busy >= 90 % of its time, no sleep */
#define IMPORT_BG_PERIOD_US 10000	/* the background's period */
#define IMPORT_MIN_BUSY_PCT 0.5	/* --min-busy's default */
#define IMPORT_CPU_MAX 256	/* CPUs an import handles */
#define IMPORT_LOOP_KMAX 8	/* loops of 2..8 steps are looked for */
#define IMPORT_LOOP_TOL 0.10	/* each step's spread under 10 % */
#define IMPORT_LOOP_MIN 4	/* ... over at least 4 whole loops */
#define IMPORT_RT_MIN 8		/* runtime: >= 8 activations at speeds ... */
#define IMPORT_RT_SPEED 0.18	/* ... >= 0.18 (log, 20 %) off their group's */
#define IMPORT_RT_SE 0.10	/* ... the slope's standard error <= 0.10 */
#define IMPORT_RT_TOL 0.25	/* slope within 0.25 of 0: wall; of -1: work */
#define IMPORT_BARRIER_TOL_NS 50000	/* a barrier's wake-ups within 50 us */
#define IMPORT_BARRIER_RUN_ON_NS 1000	/* its waker runs on >= 1 us of work */
#define IMPORT_BARRIER_TASKS 4	/* tasks linked by barriers, at most */

/* One activation: from a wake-up to the next */
struct import_act {
	uint64_t wake;		/* ns: its first sched_waking/wakeup */
	uint64_t end;		/* ns: when it last stopped running */
	double work;		/* ns at capacity 1024 done in it */
	double work_at_wake;	/* work done when it woke its dependant
				 * (< 0: it woke none) */
	double wall;		/* ns it ran in it (wall time) */
	double wall_at_wake;	/* ... when it woke its dependant */
	int waker;		/* task index of the waker; -1: none (an
				 * interrupt, a timer, the idle task) */
	bool unknown_khz;	/* some of it ran at an unknown frequency */
	uint64_t wake_delay;	/* ns of the wake-up spent leaving an idle
				 * state (import_sleep.c) */
};

/* What import_runtime.c found: are the task's bursts work or wall time */
enum import_bound {
	IMPORT_BOUND_NO_EVIDENCE,	/* too few activations or speeds: run */
	IMPORT_BOUND_UNCLEAR,		/* neither spread explains it: run */
	IMPORT_BOUND_WORK,		/* wall x speed ~ constant: run */
	IMPORT_BOUND_WALL,		/* wall ~ constant: runtime */
};

struct import_bound_fit {
	enum import_bound verdict;
	int n;			/* activations of known speed compared */
	int distinct;		/* ... of them >= IMPORT_RT_SPEED off their
				 * group's speed */
	double slope;		/* log wall time against log speed: 0 wall
				 * time, -1 work (NAN: no fit) */
	double se;		/* ... its standard error */
};

/* What a phase became */
enum import_kind {
	IMPORT_PERIODIC,	/* run + timer */
	IMPORT_RUNSLEEP,	/* regular sleeps: loop of run + sleep */
	IMPORT_SEQUENCE,	/* the measured run/sleep steps */
	IMPORT_SUMMARY,		/* a long irregular sequence: mean run/sleep */
	IMPORT_SUSPENDED,	/* suspend (woken by its waker's resume) + run */
	IMPORT_HOG,		/* never sleeps: runs throughout */
	IMPORT_LOOP,		/* k run/sleep steps per loop (import_loop.c) */
};

/* One step of a loop: a run, then a sleep (or, the last, a timer) */
struct import_step {
	double run_us;		/* mean work (capsim `run`) */
	double interval_us;	/* mean wake-up to next wake-up */
	double sleep_us;	/* mean sleep (import_sleep_us()) */
	double spread;		/* max of its run's and interval's spread */
	double resume_frac;	/* share of its run before it resumes its
				 * dependants (< 0: it resumes none) */
	int barrier_wait;	/* its wait is this barrier (an index in
				 * import_model's barriers; -1: a sleep or
				 * the timer) */
	int barrier_arrive;	/* it arrives last at this barrier ... */
	double barrier_frac;	/* ... after this share of its run */
};

/* A barrier import_barrier.c found: @waker arrives last at step @step of
 * its loop, the others (users - 1) wait for it there */
struct import_barrier {
	char *name;
	int waker, step, users;
};

/* What import_loop.c found: activations [head, head + k * loops) are
 * loops of k steps; those before and after are measured steps */
struct import_loop {
	int k, head, loops, tail;
	struct import_step steps[IMPORT_LOOP_KMAX];
	double spread;		/* the worst step's spread */
	double flat_spread;	/* the same figure with one step (k = 1) */
	bool timer;		/* the last step waits for a timer ... */
	double period_us;	/* ... of the median loop period */
	double period_cv, last_sleep_cv;
	int aligned;		/* activations its first pass was moved by
				 * so that its barriers' users pass together
				 * (import_barrier.c) */
};

struct import_phase {
	int first, n;		/* its activations [first, first + n) */
	int loops;		/* rt-app loops it becomes */
	enum import_kind kind;
	double period_us;	/* mean wake-up interval (PERIODIC: median) */
	double cv;		/* the intervals' coefficient of variation */
	double near_share;	/* ... the share within 10 % of the median */
	double run_us;		/* mean work per activation (capsim `run`) */
	double sleep_us;	/* mean sleep (RUNSLEEP, SUMMARY) */
	double sleep_cv;	/* the sleeps' CV */
	double run_cv;		/* the work per activation's CV */
	bool runs_vary;		/* varying runs written one by one: after
				 * regular sleeps (SEQUENCE), or each
				 * under the timer (PERIODIC) */
};

struct import_task {
	struct sched_task st;	/* first: sched_state's part */
	struct import_act *acts;
	int nacts, acts_cap;
	double pre_work;	/* work before its first wake-up */
	double pre_wall;	/* ... its wall time */
	double work;		/* all its work in the window */
	uint64_t busy_ns;	/* wall time running in the window */
	uint64_t unknown_khz_ns;/* ... of which at an unknown frequency */
	uint64_t acct;		/* running time accounted up to */
	bool woken;		/* woken since its last sleep began */
	uint64_t first_seen;	/* its first moment in the window */
	double *cpu_work;	/* per CPU (for the background) */
	int cpu_work_n;
	uint64_t cpus_ran[IMPORT_CPU_MAX / 64];	/* CPUs it ran on */
	int group;		/* cap_clamp group index, -1 none */
	long uclamp_samples;	/* lisa__uclamp_util_se while it ran */
	int uclamp_min, uclamp_max;	/* ... the lowest of each */
	bool uclamp_pending;	/* its last sample, kept until its stint
				 * ends: dropped if it ends blocking */
	int uclamp_pend_min, uclamp_pend_max;
	size_t comm_cut;	/* bytes its longest comm had over 15 */
	/* inferred */
	char *name;		/* unique, from comm (and pid when shared) */
	int name_shared;	/* tasks its comm's name had (COMM-PID), or 0 */
	int name_suffix;	/* > 1: COMM-PID-N, that being taken too */
	bool selected;		/* matches --tasks */
	bool kthread;		/* a kernel thread's name */
	bool folded;		/* in the background */
	const char *fold_why;
	int waker;		/* the task whose resume wakes it, -1 */
	int nresumes;		/* tasks it resumes */
	int *resumes;
	double resume_frac;	/* share of its work before it resumes */
	int partner;		/* the other task of a two-way pair (each
				 * follows the other, import_deps.c), -1 */
	int start_acts;		/* ... its activations before this one are
				 * its start, timed by sleeps and ending with
				 * the resume: its first, and any before the
				 * first its partner woke; -1: no pair */
	struct import_phase *phases;
	int nphases;
	struct import_loop *loop;	/* a repeating loop (IMPORT_LOOP) */
	int loop_best_k;	/* no loop: the closest k tried, its spread */
	double loop_best_spread, loop_flat_spread;
	struct import_bound_fit bound;	/* run or runtime (import_runtime.c) */
};

/* A group seen in cap_clamp_write/enqueue events */
struct import_group {
	long long id;
	char *path;		/* the workload's (import_clamp.c), NULL: the
				 * trace never names it */
	bool renamed;		/* ... not the trace's: */
	char *trace_path;	/* the trace's then */
	int min, max;		/* at the window's start (-1: not said) */
	long line;		/* the trace's line that set them */
	int col;
	int nwrites;		/* writes inside the window (events) */
	struct import_write *writes;
};

struct import_write {
	uint64_t at;		/* ns from the window's start */
	bool max;
	int value;
};

struct import_opts {
	const char *trace;
	const char *platform;	/* NULL: PLATFORM_DEFAULT */
	const char *platform_ref;	/* capsim.platform: the file's absolute
					 * path (NULL: the platform's name) */
	double from_s, to_s;	/* window from the trace's start; to < 0 open */
	const char *tasks;	/* regex or NULL */
	double min_busy_pct;
	bool explain;
	const char *out;
	bool unchecked;		/* written without import_validate(): the
				 * fuzz harness runs validate's checks itself,
				 * and a failure is its finding */
};

struct import_model {
	const struct import_opts *o;
	struct platform *pl;
	struct sched_state ss;
	bool started;		/* the first event is read */
	uint64_t t0;		/* the trace's first event */
	uint64_t ws, we;	/* the window, absolute ns */
	bool window_open;	/* --window without an end: we = last event */
	long switches;		/* sched_switch in the window */
	struct import_group *groups;
	int ngroups, groups_cap;
	struct strmap group_ids, group_paths;	/* groups by id, by path */
	long comms_cut;		/* tasks whose comm was over 15 bytes */
	long long comm_bytes_cut;	/* ... the bytes cut (the longest
					 * comm of each) */
	int nbg;		/* background tasks made */
	double *bg_work;	/* per CPU, ns at 1024, over the window */
	int ncpus;
	int ev_cpu;		/* the CPU of the event being fed */
	int *idle_left;		/* per CPU: its last idle state (-1 none) */
	uint64_t *idle_left_at;	/* ... and when it left it */
	struct import_barrier *barriers;	/* import_barrier.c */
	int nbarriers;
};

static inline struct import_task *import_task(const struct import_model *m,
					      int idx)
{
	return (struct import_task *)m->ss.tasks[idx];
}

/* import_model.c: read the trace; 0, or an exit status (reported) */
int import_read(struct import_model *m);
void import_model_free(struct import_model *m);

/* import_work.c: the capacity CPU @cpu has at @khz (0: unknown, taken as
 * its full capacity) on the model's platform */
unsigned int import_capacity(const struct import_model *m, int cpu,
			     unsigned int khz);

/* import_sleep.c: a wake-up's delay on @cpu out of its idle state, in
 * ns; the sleep before activation @i + 1 of @t less that delay, in us;
 * the idle states the model's CPUs leave (sched_state's ops.idle) */
uint64_t import_wake_delay_ns(const struct import_model *m, int cpu);
double import_sleep_us(const struct import_task *t, int i);
void import_sleep_idle(struct import_model *m, int cpu, uint64_t t1,
		       int state);

/* import_names.c: every comm cut at the kernel's 15 bytes (counted, and
 * said on stderr), then each task's unique name; a task's last comm */
void import_cap_comms(struct import_model *m);
void import_name_tasks(struct import_model *m);
const char *import_last_comm(const struct import_task *t);

/* import_phases.c: split each task's activations at its change points */
void import_phases(struct import_model *m, struct import_task *t);
/* import_period.c: what each phase of @t becomes; doubles in ascending
 * order for qsort() (the medians of import_period.c and import_loop.c) */
void import_classify(struct import_model *m, struct import_task *t);
int import_cmp_double(const void *a, const void *b);
/* import_deps.c: the waker each task follows, the tasks each resumes;
 * where in its activations @t resumes them (its share of their run) */
void import_deps(struct import_model *m);
void import_resume_frac(struct import_task *t);
/* import_loop.c: a loop of k steps per period in @t's activations, which
 * then becomes its one phase (kind IMPORT_LOOP); after import_deps() */
void import_loops(struct import_model *m, struct import_task *t);
/* ... @t's loop found again with its first pass at activation @head
 * (import_barrier.c's alignment); false (and @t unchanged) when that
 * misses the loop criterion */
bool import_loop_at(struct import_task *t, int head);
/* import_runtime.c: whether @t's bursts are wall time (rt-app `runtime`);
 * after import_loops(); when they are, its activations count wall time
 * from then on and its phases and loop are found again on it */
void import_runtime(struct import_model *m, struct import_task *t);
/* import_barrier.c: barriers between loop tasks (after import_runtime():
 * it may shift a loop's first pass so that its users' passes align) */
void import_barriers(struct import_model *m);
/* import_background.c: which tasks fold, and the per-CPU load */
void import_fold(struct import_model *m, bool (*selected)(void *, const char *),
		 void *arg);
/* import_clamp.c: cap_clamp_* events (sched_state's ops.event) */
int import_clamp_event(struct import_model *m, const struct ftrace_event *ev);
/* ... after the trace: each group's range at the window's start within
 * its parent's; 0, or 2 (said, at the trace's line) */
int import_clamp_check(const struct import_model *m);
void import_clamp_free(struct import_model *m);
/* import_uclamp.c: lisa__uclamp_util_se (sched_state's ops.event), a
 * task switched out (ops.switched) and the end of the trace */
void import_uclamp_event(struct import_model *m, const struct ftrace_event *ev);
void import_uclamp_switched(struct import_task *prev, const char *prev_state);
void import_uclamp_finish(struct import_model *m);
/* import_rtapp.c: the workload written to @m->o->out; an exit status */
int import_write_rtapp(const struct import_model *m);
/* import_validate.c: the workload's @text, to be written at @path (from
 * @trace), one `capsim validate` takes; false when not (said) */
bool import_validate(const char *text, size_t len, const char *path,
		     const char *trace);
/* import_explain.c */
void import_explain(const struct import_model *m, FILE *f);

#endif
