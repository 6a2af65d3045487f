/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capsim xcheck, level 3: signal replay. A pure function over a trace
 * (a kernel's or capsim's, --trace-signals; any format src/trace reads)
 * that carries capsim_pelt_se events: for each pair of consecutive events of one task
 * on one CPU it starts from the first one's exact struct sched_avg, runs
 * src/sim/pelt.c's integer PELT over the interval with the task's inputs
 * (on_rq, running) rebuilt from the sched events between them, and
 * compares with the second one.
 *
 * Why the replay can be exact: pelt_se_tp fires only when an update
 * crossed a period boundary, so every update between two logged events
 * (an enqueue, dequeue, pick or put that did not cross) lies before the
 * first boundary after the first event; the inputs of the last stretch
 * are the second event's own on_rq/running (6.12 prints them before it
 * changes them). The PELT-clock length of the interval is exact (the
 * difference of update_time); only the positions of the state changes
 * inside are estimated, from trace time, the CPU's capacity and its
 * current frequency.
 */
#ifndef CAPSIM_PELT_REPLAY_H
#define CAPSIM_PELT_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct platform;
struct pelt_replay_interval;

/* The classes of intervals */
enum pelt_replay_class {
	/* no state change of the task inside: should be bit-exact */
	PELT_REPLAY_UNIFORM,
	/* state changes inside, at positions estimated from trace time */
	PELT_REPLAY_CHANGES,
	PELT_REPLAY_NCLASSES,
};

/* Why an interval was not replayed (class (c)) */
enum pelt_replay_skip {
	PELT_SKIP_MIGRATED,	/* the task moved CPU between the events */
	PELT_SKIP_CHAIN,	/* update_time not after the first event's by
				 * whole 1024 ns units: re-attached, reset */
	PELT_SKIP_GAP,		/* lost events, or too many changes to keep */
	PELT_SKIP_NREASONS,
};

struct pelt_replay_opts {
	/* capacities and OPP tables (required): cpu i is platform CPU i */
	const struct platform *platform;
	/*
	 * Look for what makes an inexact interval exact, to name causes:
	 * for a uniform one, the single unlogged update inside the first
	 * period (the kernel's tick, or a put/pick of the same state) in
	 * place of the estimated ticks; for one with changes, the changes
	 * moved within PELT_REPLAY_TICK_SLACK of their estimates; with
	 * delay_dequeue, a delayed dequeue.
	 */
	bool split_search;
	/*
	 * The tick period when the tick's times are known (capsim ticks at
	 * multiples of it on busy CPUs): entity_tick() updates the running
	 * task's signal there, unlogged unless it crossed a period, so the
	 * replay makes the same update. 0: not known (a kernel's trace).
	 */
	uint64_t tick_ns;
	/*
	 * The kernel may have kept a task that switched out asleep on its
	 * queue (6.12's DELAY_DEQUEUE, a kernel trace; capsim does not
	 * model it): an inexact interval with such a switch is searched
	 * for the place of the delayed dequeue that makes it exact.
	 */
	bool delay_dequeue;
	/* called for every replayed interval (may be NULL) */
	void (*on_interval)(const struct pelt_replay_interval *iv, void *arg);
	void *arg;
};

/* The state both sides agree on, and where they differ */
struct pelt_replay_sig {
	uint64_t update_time;
	uint64_t load_sum;
	uint64_t runnable_sum;
	uint32_t util_sum;
	uint32_t period_contrib;
	unsigned long load_avg, runnable_avg, util_avg;
};

struct pelt_replay_interval {
	int pid;
	char comm[16];
	int cpu;
	enum pelt_replay_class cls;
	uint64_t ts0_ns, ts1_ns;	/* trace time of the two events */
	int nchanges;			/* state changes inside */
	int nticks;			/* known ticks inside */
	bool flags_mismatch;		/* rebuilt inputs != logged ones */
	bool load_known;		/* the weight was inferred */
	bool exact;			/* every sum and average equal */
	/* class (a): the single unlogged update that explains it (in
	 * place of the ticks' estimated ones), in 1024 ns units after
	 * ts0's update, 0 for none at all; -1 none found or not tried */
	int split_units;
	/* class (b): exact with each change moved by at most
	 * PELT_REPLAY_TICK_SLACK units from its estimated place */
	bool jitter;
	/* where a delayed dequeue makes it exact (delay_dequeue); -1 */
	int delayed_units;
	/* the first known tick inside, estimated, in the same units; -1 */
	int tick_units;
	struct pelt_replay_sig expected;	/* the replay */
	struct pelt_replay_sig logged;		/* the second event */
	unsigned long util_diff;		/* |expected - logged| util_avg */
	uint64_t util_sum_diff;
};

#define PELT_REPLAY_WORST 8
/*
 * How far (1024 ns units) a tick's or a change's true place may be from
 * its estimate: the trace's microsecond timestamps and the PELT clock's
 * unknown place inside its unit at the chain's start make up to 1.5
 * units.
 */
#define PELT_REPLAY_TICK_SLACK 2
#define PELT_REPLAY_HIST 1025	/* util diffs 0 .. 1024 (and above) */

struct pelt_replay_stats {
	unsigned long n, exact, util_exact, split_explained;
	/* of those, the update found within the slack of a known tick */
	unsigned long split_at_tick;
	unsigned long delay_explained;	/* by a delayed dequeue */
	unsigned long jitter_explained;	/* class (b): see .jitter */
	unsigned long max_util_diff, p99_util_diff;
	uint64_t max_util_sum_diff;
	unsigned long max_load_diff, max_runnable_diff;
	unsigned long hist[PELT_REPLAY_HIST];
	int nworst;
	struct pelt_replay_interval worst[PELT_REPLAY_WORST];
};

struct pelt_replay_result {
	unsigned long events;		/* capsim_pelt_se of tasks read */
	unsigned long first;		/* events that start a chain */
	unsigned long flags_mismatch;
	unsigned long skipped[PELT_SKIP_NREASONS];
	struct pelt_replay_stats cls[PELT_REPLAY_NCLASSES];
};

/*
 * Replay the trace at @path, any format src/trace/trace_reader.h reads
 * (ftrace text, trace-cmd report text, systrace, trace.dat), or the text
 * of the open stream @f. Returns 0, or -1 with a message on stderr
 * (unreadable file, "FILE:LINE:COL: error: ..." for a malformed line, a
 * timestamp going back, a CPU beyond the platform). @r is filled in
 * either way up to the point reached.
 */
int pelt_replay_trace(const char *path, const struct pelt_replay_opts *o,
		      struct pelt_replay_result *r);
/* The same, the file named @name in messages (the user's path for a copy) */
int pelt_replay_named(const char *path, const char *name,
		      const struct pelt_replay_opts *o,
		      struct pelt_replay_result *r);
int pelt_replay_stream(FILE *f, const char *name,
		       const struct pelt_replay_opts *o,
		       struct pelt_replay_result *r);

/* A human-readable report: per class the figures, then the worst ones */
void pelt_replay_print(FILE *out, const struct pelt_replay_result *r);
/* One interval, as the report lists it */
void pelt_replay_print_interval(FILE *out,
				const struct pelt_replay_interval *iv);

#endif
