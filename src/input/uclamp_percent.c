// SPDX-License-Identifier: GPL-2.0
/* cgroup uclamp percentages (see uclamp_percent.h) */
#include <stdint.h>
#include <string.h>

#include "uclamp_percent.h"

unsigned int uclamp_capacity_from_percent(unsigned int percent_x100)
{
	uint64_t util = (uint64_t)percent_x100 << 10;

	return (unsigned int)((util + 5000) / 10000);
}

int uclamp_parse_percent(const char *s, unsigned int *out)
{
	unsigned int whole = 0, frac = 0;
	int nd = 0, nf = 0;

	if (!strcmp(s, "max")) {
		*out = 10000;
		return 0;
	}
	for (; *s >= '0' && *s <= '9'; s++, nd++) {
		whole = whole * 10 + (unsigned int)(*s - '0');
		if (whole > 100)
			return -1;
	}
	if (!nd)
		return -1;
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, nf++) {
			if (nf == 2)
				return -1;
			frac = frac * 10 + (unsigned int)(*s - '0');
		}
		if (!nf)
			return -1;
		if (nf == 1)
			frac *= 10;
	}
	if (*s || whole * 100 + frac > 10000)
		return -1;
	*out = whole * 100 + frac;
	return 0;
}
