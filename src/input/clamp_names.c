// SPDX-License-Identifier: GPL-2.0
/*
 * The clamp registries (clamp_names.h): one row per policy, clamp order
 * and domain rule, indexed by its enumerator, in the order messages list
 * them and the what-if commands run them.
 */
#include <stdio.h>
#include <string.h>

#include "clamp_names.h"

static const struct clamp_policy_info policies[POLICY_END] = {
	[POLICY_RFC] = { .id = POLICY_RFC, .name = "rfc",
			 .capacity_range = true },
	[POLICY_NONE] = { .id = POLICY_NONE, .name = "none" },
	[POLICY_UCLAMP] = { .id = POLICY_UCLAMP, .name = "uclamp",
			    .uclamp_values = true },
};

/* A clamp order's or domain rule's name, and what it means in messages */
struct clamp_choice {
	const char *name;
	const char *what;
};

static const struct clamp_choice orders[CLAMP_ORDER_END] = {
	[CLAMP_ORDER_612] = { .name = "6.12", .what = "headroom, then clamp" },
	[CLAMP_ORDER_410] = { .name = "4.10", .what = "clamp, then headroom" },
};

static const struct clamp_choice rules[DOMAIN_RULE_END] = {
	[DOMAIN_RULE_RFC] = { .name = "rfc",
			      .what = "the calling CPU always counts" },
	[DOMAIN_RULE_NONIDLE] = { .name = "nonidle",
				  .what = "an idle CPU never counts" },
};

const struct clamp_policy_info *clamp_policy_info(enum clamp_policy p)
{
	return p > POLICY_UNSET && p < POLICY_END ? &policies[p] : NULL;
}

const struct clamp_policy_info *clamp_policy_find(const char *name)
{
	enum clamp_policy p;

	for_each_clamp_policy(p)
		if (!strcmp(name, policies[p].name))
			return &policies[p];
	return NULL;
}

bool clamp_policy_clamps(const struct clamp_policy_info *pi)
{
	return pi && (pi->capacity_range || pi->uclamp_values);
}

int clamp_policy_parse(const char *s, enum clamp_policy *out)
{
	const struct clamp_policy_info *pi = clamp_policy_find(s);

	if (!pi)
		return -1;
	*out = pi->id;
	return 0;
}

/* The row of @choices (@n of them, row 0 unset) named @s, or 0 */
static int choice_find(const struct clamp_choice *choices, int n,
		       const char *s)
{
	for (int i = 1; i < n; i++)
		if (!strcmp(s, choices[i].name))
			return i;
	return 0;
}

int clamp_order_parse(const char *s, enum clamp_order *out)
{
	int i = choice_find(orders, CLAMP_ORDER_END, s);

	if (!i)
		return -1;
	*out = (enum clamp_order)i;
	return 0;
}

int domain_rule_parse(const char *s, enum domain_rule *out)
{
	int i = choice_find(rules, DOMAIN_RULE_END, s);

	if (!i)
		return -1;
	*out = (enum domain_rule)i;
	return 0;
}

const char *clamp_policy_name(enum clamp_policy p)
{
	const struct clamp_policy_info *pi = clamp_policy_info(p);

	return pi ? pi->name : NULL;
}

const char *clamp_order_name(enum clamp_order o)
{
	return o > CLAMP_ORDER_UNSET && o < CLAMP_ORDER_END ? orders[o].name :
	       NULL;
}

const char *domain_rule_name(enum domain_rule r)
{
	return r > DOMAIN_RULE_UNSET && r < DOMAIN_RULE_END ? rules[r].name :
	       NULL;
}

const char *clamp_names_list(enum clamp_names_kind kind, bool quoted,
			     char *buf, size_t len)
{
	const struct clamp_choice *c = kind == CLAMP_NAMES_ORDER ? orders :
				       kind == CLAMP_NAMES_RULE ? rules : NULL;
	int n = kind == CLAMP_NAMES_ORDER ? CLAMP_ORDER_END :
		kind == CLAMP_NAMES_RULE ? DOMAIN_RULE_END : POLICY_END;
	size_t at = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (int i = 1; i < n && at < len; i++) {
		const char *name = c ? c[i].name : policies[i].name;
		const char *sep = i == 1 ? "" : !quoted ? ", " :
				  i == n - 1 ? " or " : ", ";
		int w;

		if (!quoted)
			w = snprintf(buf + at, len - at, "%s%s", sep, name);
		else if (c)
			w = snprintf(buf + at, len - at, "%s\"%s\" (%s)", sep,
				     name, c[i].what);
		else
			w = snprintf(buf + at, len - at, "%s\"%s\"", sep, name);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	return buf;
}
