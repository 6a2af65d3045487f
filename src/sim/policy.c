// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "policy.h"

int policy_parse(const char *s, enum clamp_policy *out)
{
	if (!strcmp(s, "rfc"))
		*out = POLICY_RFC;
	else if (!strcmp(s, "uclamp"))
		*out = POLICY_UCLAMP;
	else if (!strcmp(s, "none"))
		*out = POLICY_NONE;
	else
		return -1;
	return 0;
}

const char *policy_name(enum clamp_policy p)
{
	switch (p) {
	case POLICY_RFC: return "rfc";
	case POLICY_UCLAMP: return "uclamp";
	default: return "none";
	}
}

int clamp_order_parse(const char *s, enum clamp_order *out)
{
	if (!strcmp(s, "6.12"))
		*out = CLAMP_ORDER_612;
	else if (!strcmp(s, "4.10"))
		*out = CLAMP_ORDER_410;
	else
		return -1;
	return 0;
}

const char *clamp_order_name(enum clamp_order o)
{
	return o == CLAMP_ORDER_410 ? "4.10" : "6.12";
}
