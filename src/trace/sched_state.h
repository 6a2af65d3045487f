/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The schedule a trace shows, rebuilt once: one state machine per task
 * and per CPU, fed by trace_reader's normalized events. Every analysis of
 * a trace (trace_scan.c for `capsim plot` and the what-if figures,
 * xcheck's end-to-end level) reads the schedule from here instead of
 * rebuilding it from sched_switch on its own.
 *
 * Per task (any pid but 0, the idle task): UNKNOWN until first seen, then
 * RUNNING on a CPU, RUNNABLE, SLEEPING or DEAD (switched out with X); the
 * comms it had, its tgid when the trace says it, its prio.
 * Per CPU: the task it runs (a task index, SCHED_CPU_IDLE, or
 * SCHED_CPU_UNKNOWN before the CPU's first sched_switch), its frequency
 * (0: unknown until its first cpu_frequency; devlib's
 * cpu_frequency_devlib markers stand in until the CPU has a kernel one),
 * its idle state (cpu_idle; SCHED_IDLE_NONE without one).
 *
 * A consumer keeps only what is its own: its per-task data in a struct
 * that starts with struct sched_task (ops.task_size), its per-CPU data
 * in its own arrays, and its figures through the ops below - the way the
 * kernel's sched_class or a discrete-event simulator's model ops hand a
 * model the events it handles. Memory grows with tasks and CPUs, never
 * with events.
 */
#ifndef CAPSIM_SCHED_STATE_H
#define CAPSIM_SCHED_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftrace.h"
#include "pid_map.h"
#include "trace_reader.h"

enum sched_task_state {
	SCHED_SLEEPING,		/* also a task first seen, until it runs
				 * or wakes: the state it is taken in */
	SCHED_RUNNABLE,
	SCHED_RUNNING,
	SCHED_DEAD,
	SCHED_UNKNOWN,		/* never the state of a task in the table */
};

/* The most CPUs a trace may name when no platform bounds them */
#define SCHED_CPU_MAX 4096

#define SCHED_CPU_IDLE (-1)
#define SCHED_CPU_UNKNOWN (-2)
#define SCHED_IDLE_NONE (-1)	/* cpu_idle's exit, or no cpu_idle seen */

/* The most names one pid is remembered by (a thread renamed by prctl, a
 * pid reused) */
#define SCHED_COMMS_MAX 8

struct sched_task {
	int pid;
	int idx;		/* its index in sched_state.tasks */
	int tgid;		/* -1: the trace does not say */
	int prio;		/* -1: the trace does not say */
	char *comm;		/* the first name seen ("?" if none) */
	char *comms[SCHED_COMMS_MAX];	/* every name seen, in order */
	int ncomms;
	enum sched_task_state state;
	int cpu;		/* where it runs or last ran, -1 never */
	uint64_t since;		/* the state's start */
};

struct sched_cpu {
	int curr;		/* task index, SCHED_CPU_IDLE or _UNKNOWN */
	unsigned int khz;	/* 0: unknown */
	uint64_t khz_since;
	bool kernel_freq;	/* a cpu_frequency seen: devlib's ignored */
	int idle;		/* cpu_idle state, or SCHED_IDLE_NONE */
	uint64_t idle_since;
};

struct sched_state;

/*
 * What a consumer is told. Every op may be NULL. Ops returning int stop
 * the feed with their nonzero value (a consumer's own bad input).
 */
struct sched_state_ops {
	void *arg;
	/* bytes per task, >= sizeof(struct sched_task): a consumer's task
	 * struct starts with one (0: just struct sched_task) */
	size_t task_size;
	/* a task entered the table (zeroed beyond struct sched_task) */
	void (*task_new)(void *arg, struct sched_task *t);
	/* CPUs [@from, @to) became known: a consumer's per-CPU arrays grow */
	void (*cpus_grown)(void *arg, int from, int to);
	/* a task's interval [t0, t1) in @state ended (RUNNING: on @cpu) */
	void (*interval)(void *arg, const struct sched_task *t, uint64_t t0,
			 uint64_t t1, enum sched_task_state state, int cpu);
	/* sched_waking (@waking) or sched_wakeup(_new) of @t by the event's
	 * own pid @waker toward @target_cpu (-1: not said); called before
	 * @t's state changes */
	void (*wakeup)(void *arg, struct sched_task *t, int waker,
		       int target_cpu, bool waking);
	/* a sched_switch on @cpu, after both tasks' states changed; @prev
	 * or @next NULL for the idle task; @prev_state the kernel's letters
	 * or NULL */
	void (*switched)(void *arg, int cpu, struct sched_task *prev,
			 const char *prev_state, struct sched_task *next);
	/* @t moved from CPU @from to @to (sched_migrate_task, or a switch-in
	 * on another CPU than it last ran on) */
	void (*migrate)(void *arg, struct sched_task *t, int from, int to);
	/* CPU @cpu's frequency is set to ss->cpus[cpu].khz by @ev (NULL at
	 * the end): [t0, t1) it ran at @old_khz (0: unknown); the intervals
	 * tile the trace, a repeated frequency closing one */
	int (*freq)(void *arg, const struct ftrace_event *ev, int cpu,
		    uint64_t t0, uint64_t t1, unsigned int old_khz);
	/* CPU @cpu's idle state @state (SCHED_IDLE_NONE: not idle) held
	 * [t0, t1): at each cpu_idle (then ss->cpus[cpu].idle is the new
	 * one, and t0 may be t1) and at the end */
	void (*idle)(void *arg, int cpu, uint64_t t0, uint64_t t1, int state);
	/* every event, after the state took it (cap_clamp_*, capsim_sugov,
	 * capsim_util ... are the consumer's) */
	int (*event)(void *arg, const struct ftrace_event *ev);
};

struct sched_state {
	/* inputs */
	struct sched_state_ops ops;
	int cpu_limit;		/* CPUs allowed: [0, cpu_limit); 0:
				 * SCHED_CPU_MAX */
	const char *platform;	/* the platform bounding them, for messages
				 * (NULL: the limit is the reader's own) */
	int platform_ncpus;

	/* state */
	uint64_t now;
	bool started;
	uint64_t t_first;
	struct sched_task **tasks;
	int ntasks;
	struct sched_cpu *cpus;
	int ncpus;		/* the largest CPU seen + 1 */
	long events;
	long switches;		/* sched_switch events read */

	/* private */
	struct pid_map pids;
	struct trace_reader *reader;	/* for file:line:col messages */
	const char *path;
};

/* sched_state_feed's result for bad input (reported file:line:col) */
#define SCHED_BAD_INPUT (-2)

/* Ready @ss (its inputs set, the rest zero) to be fed @r's events */
void sched_state_init(struct sched_state *ss, struct trace_reader *r);
/*
 * Take one event (a consumer accounts the time up to it first, with the
 * state as it was): the state changes it says, then ops.event. 0, or nonzero (an op's, or SCHED_BAD_INPUT for a pid
 * above FTRACE_PID_MAX, a CPU beyond the limit, a frequency out of range,
 * each reported as "FILE:LINE:COL: error: ...").
 */
int sched_state_feed(struct sched_state *ss, const struct ftrace_event *ev);
/* Close every open interval at @end (tasks end DEAD, CPUs' frequency and
 * idle intervals reported) */
void sched_state_finish(struct sched_state *ss, uint64_t end);
void sched_state_free(struct sched_state *ss);

/* Make CPUs [0, cpu] known (a platform's CPUs before the trace names
 * them) */
void sched_state_grow(struct sched_state *ss, int cpu);
/* The task with that pid (not 0), added if new with @comm (may be NULL)
 * as a name; NULL for a pid out of (0, FTRACE_PID_MAX] */
struct sched_task *sched_state_task(struct sched_state *ss, int pid,
				    const char *comm);
/* The task with that pid, or NULL */
struct sched_task *sched_state_find(const struct sched_state *ss, int pid);
/*
 * Field @key of the event being fed as a CPU (within cpu_limit) or a pid
 * (within FTRACE_PID_MAX): 1 with *out set; 0 when missing or not a
 * number (the event is skipped, as a kernel's odd line is);
 * SCHED_BAD_INPUT when out of range (reported)
 */
int sched_state_field_cpu(const struct sched_state *ss,
			  const struct ftrace_event *ev, const char *key,
			  int *out);
int sched_state_field_pid(const struct sched_state *ss,
			  const struct ftrace_event *ev, const char *key,
			  int *out);

/* "FILE:LINE:COL: error: ..." for the event being fed, with the column
 * of @at (a string of the event); returns SCHED_BAD_INPUT */
int sched_state_bad(const struct sched_state *ss, const char *at,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
