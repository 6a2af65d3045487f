// SPDX-License-Identifier: GPL-2.0
/*
 * The workload JSON, as `capsim validate` reads it: the rt-app grammar and
 * the capsim object, the group rules through the core, then the checks
 * against a platform (sim_create()).
 */
#include "fuzz_case.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_opts o = { 0 };
	struct fuzz_case c;

	fuzz_case_load(&c, data, size);
	if (c.wl)
		fuzz_case_platform(&c);
	if (c.pl) {
		/* as validate: the workload's choices, else the defaults */
		sim_opts_resolve(&o, c.wl);
		c.s = sim_create(c.pl, c.wl, &o, &c.d);
	}
	fuzz_case_free(&c);
	return 0;
}
