// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "governor_names.h"

int governor_parse(const char *s, struct governor *g, const char **why)
{
	static const char prefix[] = "userspace:";
	unsigned long long v;
	char *end;

	g->khz = 0;
	if (!strcmp(s, "schedutil")) {
		g->kind = GOV_SCHEDUTIL;
	} else if (!strcmp(s, "performance")) {
		g->kind = GOV_PERFORMANCE;
	} else if (!strcmp(s, "powersave")) {
		g->kind = GOV_POWERSAVE;
	} else if (!strncmp(s, prefix, sizeof(prefix) - 1)) {
		const char *n = s + sizeof(prefix) - 1;

		if (*n < '0' || *n > '9') {
			*why = "userspace needs a frequency: userspace:KHZ";
			return -1;
		}
		v = strtoull(n, &end, 10);
		if (*end || !v || v > GOVERNOR_MAX_KHZ) {
			*why = "userspace:KHZ needs KHZ in [1, 10000000]";
			return -1;
		}
		g->kind = GOV_USERSPACE;
		g->khz = (unsigned int)v;
	} else {
		*why = "allowed: schedutil, performance, powersave, userspace:KHZ";
		return -1;
	}
	return 0;
}

void governor_format(const struct governor *g, char *buf, unsigned long len)
{
	static const char *const names[] = { "schedutil", "performance",
		"powersave", "userspace" };

	if (g->kind == GOV_USERSPACE)
		snprintf(buf, len, "userspace:%u", g->khz);
	else
		snprintf(buf, len, "%s", names[g->kind]);
}

int governor_fixed_opp(const struct governor *g, const unsigned int *khz,
		       int n)
{
	int opp;

	switch (g->kind) {
	case GOV_PERFORMANCE:
		return n - 1;
	case GOV_POWERSAVE:
		return 0;
	case GOV_USERSPACE:
		for (opp = 0; opp < n - 1 && khz[opp] < g->khz; opp++)
			;
		return opp;
	default:
		return -1;
	}
}
