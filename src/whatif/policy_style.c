// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "policy_style.h"

/* Tableau 10, as plots/common.gp's pal[] (the same order) */
static const char *const palette[POLICY_STYLES] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/* The policies of this build keep the colours the default --policies
 * order gave them before styles followed names */
static const struct {
	const char *name;
	int style;
} fixed[] = {
	{ "rfc", 1 }, { "none", 2 }, { "uclamp", 3 },
};

int policy_style(const char *policy)
{
	unsigned int h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(policy, fixed[i].name))
			return fixed[i].style;
	/* FNV-1a: any other name keeps its style from run to run */
	for (; *policy; policy++)
		h = (h ^ (unsigned char)*policy) * 16777619u;
	return 4 + (int)(h % (POLICY_STYLES - 3));
}

const char *policy_colour(const char *policy)
{
	return palette[policy_style(policy) - 1];
}
