/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's clamp choices, one registry each: the clamp policies (--policy,
 * capsim.policy) with the traits the commands ask of them, the clamp
 * orders (--clamp-order, capsim.clamp_order) and the RFC's domain rules
 * (--domain-rule, capsim.domain_rule), and the documented default of each.
 *
 * The only place their names are spelled and compared: every layer parses,
 * prints and lists them (in "allowed ..." messages) through these tables,
 * and asks a policy's traits rather than its name. The model maps a policy
 * to its ops (src/sim/policy.c), and sim_opts_resolve() (src/sim/setup.c)
 * applies the defaults to a run. Adding a policy: its row in
 * clamp_names.c, its enumerator here, its ops in src/sim/policy.c.
 *
 * Each enum's 0 is "unset": no choice made, the workload's then the
 * default applies. The rows are in the order the what-if commands run
 * and messages list them.
 */
#ifndef CAPSIM_CLAMP_NAMES_H
#define CAPSIM_CLAMP_NAMES_H

#include <stdbool.h>
#include <stddef.h>

enum clamp_policy {
	POLICY_UNSET,
	POLICY_RFC,	/* the seed RFC's group capacity_min/max */
	POLICY_NONE,	/* stock 6.12 schedutil, no clamp */
	POLICY_UCLAMP,	/* mainline utilization clamping (6.12) */
	POLICY_END,	/* one past the last row */
};

enum clamp_order {
	CLAMP_ORDER_UNSET,
	CLAMP_ORDER_612,	/* sugov_effective_cpu_perf(): headroom, then min/max */
	CLAMP_ORDER_410,	/* RFC on 4.10 get_next_freq(): clamp, then headroom */
	CLAMP_ORDER_END,
};

/* The RFC's rule for a shared frequency domain's range */
enum domain_rule {
	DOMAIN_RULE_UNSET,
	DOMAIN_RULE_RFC,	/* patch 4 as posted: the calling CPU always counts */
	DOMAIN_RULE_NONIDLE,	/* the core's: a CPU with nothing RUNNABLE never counts */
	DOMAIN_RULE_END,
};

/* A run's choices when neither an option nor its workload makes them */
#define CLAMP_POLICY_DEFAULT POLICY_RFC
#define CLAMP_ORDER_DEFAULT CLAMP_ORDER_612
#define DOMAIN_RULE_DEFAULT DOMAIN_RULE_NONIDLE

/* What the commands ask of a policy instead of its name */
struct clamp_policy_info {
	enum clamp_policy id;
	const char *name;
	/*
	 * The RFC's capacity range (the groups' capacity_min/max, the
	 * core's per-CPU aggregate, composed over a shared domain by the
	 * domain rule) bounds the governor: a kernel run writes
	 * cpu.capacity_*, so its trace carries clamp ops, and each decision
	 * follows the RFC's rule (xcheck's levels 1, 2 and 4's causes).
	 */
	bool capacity_range;
	/*
	 * uclamp values clamp: the tasks' util_min/util_max and the groups'
	 * cpu.uclamp.* (the workload's capacity_* scaled to percent); other
	 * policies ignore a task's util_min/util_max.
	 */
	bool uclamp_values;
};

#define for_each_clamp_policy(p) \
	for ((p) = POLICY_UNSET + 1; (p) < POLICY_END; (p)++)

/* @p's row, or NULL for POLICY_UNSET and out of range */
const struct clamp_policy_info *clamp_policy_info(enum clamp_policy p);
/* The row named @name, or NULL when no policy has that name */
const struct clamp_policy_info *clamp_policy_find(const char *name);
/* Whether @pi clamps at all (false for none, and for NULL) */
bool clamp_policy_clamps(const struct clamp_policy_info *pi);

/* 0 and *@out set, or -1 for a name no row has (*@out untouched) */
int clamp_policy_parse(const char *s, enum clamp_policy *out);
int clamp_order_parse(const char *s, enum clamp_order *out);
int domain_rule_parse(const char *s, enum domain_rule *out);
/* The name, or NULL for the unset value and out of range */
const char *clamp_policy_name(enum clamp_policy p);
const char *clamp_order_name(enum clamp_order o);
const char *domain_rule_name(enum domain_rule r);

/* Which registry a list is made of */
enum clamp_names_kind {
	CLAMP_NAMES_POLICY,
	CLAMP_NAMES_ORDER,
	CLAMP_NAMES_RULE,
};

/* Room for any list below */
#define CLAMP_NAMES_LIST_MAX 160

/*
 * The names of @kind in row order into @buf (@len bytes, truncated if
 * short), for the messages that say what is allowed; returns @buf. Plain,
 * for the options: "rfc, none, uclamp". @quoted, for the workload's keys:
 * "\"rfc\", \"none\" or \"uclamp\"", each clamp order and domain rule with
 * what it means in parentheses.
 */
const char *clamp_names_list(enum clamp_names_kind kind, bool quoted,
			     char *buf, size_t len);

#endif
