/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xcheck level 1, and the in-guest check of a kernel trace: replay the
 * cap_clamp events (read with the project's one ftrace reader, src/trace)
 * per CPU in seq order through the user-space clamp core (src/core, via
 * its host src/clamphost), and compare the range (and task count) the
 * kernel reported after every operation with the core's. Group writes
 * (cap_clamp_write) go through the core's rules on a group tree built
 * from the trace's paths: the kernel's ret and values must be the core's.
 */
#ifndef CAPSIM_CLAMP_REPLAY_H
#define CAPSIM_CLAMP_REPLAY_H

#include <stdbool.h>
#include <stdio.h>

struct clamp_replay_result {
	long events;		/* cap_clamp_{enqueue,dequeue,update,cpu} */
	long ops;		/* enqueue, dequeue, update */
	long checked;		/* ops compared (the CPU was in sync) */
	long compared;		/* ops and cpu ranges compared */
	long matched;		/* ... equal to the core's */
	long mismatches;
	long gaps;		/* seq gaps: lost events, or tracing turned
				 * on while the CPU had tasks */
	long resyncs;		/* the CPU emptied (nr=0) after a gap */
	long unsynced_end;	/* CPUs still out of sync at the end */
	int cpus;
	long writes;		/* cap_clamp_write lines */
	long writes_matched;
};

/*
 * Replay @file into @res; the first problems go to @log (may be NULL).
 * Returns 0, or -1 when the file cannot be read or is no trace (said on
 * stderr, file:line:col): any format trace_reader.h reads.
 */
int clamp_replay_trace(const char *file, FILE *log,
		       struct clamp_replay_result *res);
/* The same, the file named @name in messages (the user's path for a copy) */
int clamp_replay_named(const char *file, const char *name, FILE *log,
		       struct clamp_replay_result *res);
/* every range compared matched, every gap resynced, at most 1 % of the
 * ops unchecked (the writes are counted, not judged: see the .c) */
bool clamp_replay_passed(const struct clamp_replay_result *r);
/* the one-line summary ("replay: events=... mismatches=...") */
void clamp_replay_print(FILE *out, const struct clamp_replay_result *r);

#endif
