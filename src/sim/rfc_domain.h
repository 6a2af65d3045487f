/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RFC's frequency-domain rule on its own: a shared domain's range
 * composed from its CPUs' clamp-core aggregates. A pure function of the
 * core's per-CPU state, so that the rfc policy (clamp_rfc.c), xcheck's
 * recomputed decisions (src/xcheck/decision_replay.c) and the tests use
 * the one rule without the simulator around it.
 */
#ifndef CAPSIM_RFC_DOMAIN_H
#define CAPSIM_RFC_DOMAIN_H

#include <stdbool.h>

#include "clamp_names.h"
#include "schedutil.h"

struct cap_clamp_cpu;

/*
 * The RFC's range of a shared domain from its CPUs' aggregates, @caller
 * the index of the CPU whose update this is; @rule: DOMAIN_RULE_NONIDLE,
 * the core's (a CPU with nothing RUNNABLE never counts), or
 * DOMAIN_RULE_RFC, RFC patch 4 as posted (the caller always counts).
 */
void rfc_domain_compose(const struct cap_clamp_cpu *const *cpus,
			const bool *idle, int n, int caller,
			enum domain_rule rule,
			struct sugov_range *out);

#endif
