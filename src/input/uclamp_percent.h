/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of a cgroup cpu.uclamp.min / cpu.uclamp.max file and its
 * value in capacity units, as 6.12's cpu_uclamp_write() reads it
 * (capacity_from_percent()): the workload parser converts a group's
 * uclamp_min/uclamp_max once, so every policy sees capacity units.
 */
#ifndef CAPSIM_UCLAMP_PERCENT_H
#define CAPSIM_UCLAMP_PERCENT_H

/*
 * capacity_from_percent(): a cgroup cpu.uclamp.{min,max} value, @percent
 * in hundredths of a percent (0 .. 10000), to capacity:
 * DIV_ROUND_CLOSEST(percent << 10, 10000).
 */
unsigned int uclamp_capacity_from_percent(unsigned int percent_x100);

/*
 * Parse the cgroup file's text: "max", or a percentage with at most two
 * decimals, 0 .. 100 (cgroup_parse_float() with UCLAMP_PERCENT_SHIFT 2).
 * 0 and @out in hundredths of a percent, or -1.
 */
int uclamp_parse_percent(const char *s, unsigned int *out);

#endif
