/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One colour and one marker per policy, the same in every figure that
 * draws policies side by side (compare.png's bars, a sweep's Pareto
 * plot): a policy's style follows its name, never its place in
 * --policies, so rfc is the same blue whichever order a user lists it in.
 */
#ifndef CAPSIM_POLICY_STYLE_H
#define CAPSIM_POLICY_STYLE_H

/* The number of styles: plots/common.gp's palette */
#define POLICY_STYLES 10

/*
 * Policy @policy's style, 1..POLICY_STYLES: a fixed one for the policies
 * capsim simulates (rfc 1, none 2, uclamp 3), else one of 4..10 by a
 * hash of the name (another name may share it)
 */
int policy_style(const char *policy);
/* Its colour, "#rrggbb" (plots/common.gp's pal[style]) */
const char *policy_colour(const char *policy);

#endif
