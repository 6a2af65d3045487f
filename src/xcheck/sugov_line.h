/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One capsim_sugov_cpu line (patch 11's event, the simulator's too): a
 * CPU's inputs as a schedutil decision read them, logged on the deciding
 * CPU right before its capsim_sugov line. Read by level 2 (the decision
 * recomputed) and level 4 (its causes) alike.
 */
#ifndef CAPSIM_XCHECK_SUGOV_LINE_H
#define CAPSIM_XCHECK_SUGOV_LINE_H

#include <stdbool.h>

#include "ftrace.h"
#include "schedutil.h"

struct sugov_line {
	bool set;
	struct sugov_cpu_input in;
	unsigned int clamp_nr;	/* RUNNABLE entities in its clamp aggregate */
};

/* A field of a capsim_sugov(_cpu) line: present and not negative */
bool sugov_field(const struct ftrace_event *ev, const char *k,
		 unsigned long *out);

/* @ev's CPU id in @cpu (< @ncpus) and its inputs; false: a field missing */
bool sugov_line_parse(const struct ftrace_event *ev, int ncpus, int *cpu,
		      struct sugov_line *l);

/*
 * Whether @l (CPU @cpu) counts in the RFC's domain range of a decision
 * on @caller: RUNNABLE entities and, unless it is the caller, not idle
 * (the rule rfc_domain_compose() applies)
 */
static inline bool sugov_line_counts(const struct sugov_line *l, int cpu,
				     int caller)
{
	return l->clamp_nr && (!l->in.idle || cpu == caller);
}

#endif
