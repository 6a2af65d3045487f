/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cpufreq governor of a frequency domain: schedutil (the default, the
 * only one the clamp policies act through, as in the kernel), or a fixed
 * frequency: performance (the top OPP), powersave (the lowest) or
 * userspace:KHZ (the lowest OPP at or above KHZ, as the userspace
 * governor's target with CPUFREQ_RELATION_L resolves it).
 *
 * Only the names a platform file or --governor gives, and the fixed OPP
 * they choose: the governor itself is src/sim/schedutil.c.
 */
#ifndef CAPSIM_GOVERNOR_NAMES_H
#define CAPSIM_GOVERNOR_NAMES_H

enum governor_kind {
	GOV_SCHEDUTIL,
	GOV_PERFORMANCE,
	GOV_POWERSAVE,
	GOV_USERSPACE,
};

struct governor {
	enum governor_kind kind;
	unsigned int khz;	/* userspace only */
};

/* The largest userspace:KHZ accepted (10 GHz) */
#define GOVERNOR_MAX_KHZ 10000000u

/*
 * Parse schedutil | performance | powersave | userspace:KHZ: 0, or -1 with
 * *@why saying what is wrong.
 */
int governor_parse(const char *s, struct governor *g, const char **why);
/* The name as capsim prints it: "userspace:1000000" for userspace */
void governor_format(const struct governor *g, char *buf, unsigned long len);
/*
 * The fixed OPP of a domain whose OPP frequencies are @khz (ascending,
 * @n of them), or -1 under schedutil.
 */
int governor_fixed_opp(const struct governor *g, const unsigned int *khz,
		       int n);

#endif
