// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "util_avg.h"

/* PELT: one period is 1024 us and y^32 = 0.5, so the half-life is 32 periods */
#define SIG_HALFLIFE_NS (32.0 * 1024.0 * 1000.0)

double sig_advance(double util, uint64_t delta_ns, unsigned int cap)
{
	double decay = exp2(-(double)delta_ns / SIG_HALFLIFE_NS);
	double target = (double)cap;

	return target + (util - target) * decay;
}
