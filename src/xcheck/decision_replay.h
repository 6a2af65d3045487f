/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xcheck level 2: every schedutil decision a trace logged (the
 * capsim_sugov_cpu lines of each CPU of the policy, then capsim_sugov, on
 * the deciding CPU, as both the simulator and the guest kernel write
 * them) recomputed from its logged inputs alone:
 *  - the range: under the RFC's policy, the domain's range composed by
 *    the clamp core's rule (cap_clamp_domain_start()/_add(): a CPU
 *    counts when it has RUNNABLE entities and, unless it is the caller,
 *    is not idle) from the logged per-CPU ranges; under uclamp and none,
 *    the caller's own range;
 *  - util, perf and the raw target frequency: the pure governor's
 *    sugov_next_perf() (src/sim/schedutil.c) on the logged inputs;
 *  - the next frequency: the target resolved to the lowest OPP at or
 *    above it, or the policy's previous next frequency when the target
 *    equals the cached one and no update is forced (get_next_freq()).
 */
#ifndef CAPSIM_DECISION_REPLAY_H
#define CAPSIM_DECISION_REPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "platform.h"

struct decision_replay_opts {
	const struct platform *pl;
	bool domain_clamp;	/* the RFC's policy: one range per domain */
};

struct decision_replay_result {
	long decisions;		/* capsim_sugov lines */
	long recomputed;	/* ... with every CPU's input line */
	long matched;		/* range, util, perf, target and OPP equal */
	long range_mismatch, perf_mismatch, khz_mismatch;
	long remote_race;	/* equal with a remote CPU's previous line:
				 * its signal moved between the decision's
				 * read and the trace's (not in matched) */
	long incomplete;	/* input lines missing: not recomputed */
	long seeded;		/* a domain's first decision: its range and
				 * perf checked (and counted in matched), its
				 * next frequency taken as the state */
	long changed;		/* decisions that changed the frequency */
};

/* 0, or -1 when the file cannot be read or is no trace (said on stderr,
 * file:line:col): any format trace_reader.h reads */
int decision_replay_trace(const char *file,
			  const struct decision_replay_opts *o, FILE *log,
			  struct decision_replay_result *r);
/* The same, the file named @name in messages (the user's path for a copy) */
int decision_replay_named(const char *file, const char *name,
			  const struct decision_replay_opts *o, FILE *log,
			  struct decision_replay_result *r);

#endif
