/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload as the workload and simulation harnesses take it: parsed and
 * checked as `capsim` does, on an embedded platform (a fuzzed
 * capsim.platform must not send the fuzzer reading files).
 */
#ifndef CAPSIM_FUZZ_CASE_H
#define CAPSIM_FUZZ_CASE_H

#include "fuzz.h"
#include "platform.h"
#include "sim.h"
#include "workload.h"

struct fuzz_case {
	struct diag d;
	char *text;
	struct workload *wl;	/* NULL when refused */
	struct platform *pl;	/* set by fuzz_case_platform() */
	struct sim *s;		/* set by the harness */
};

static inline void fuzz_case_load(struct fuzz_case *c, const uint8_t *data,
				  size_t size)
{
	c->text = fuzz_text(data, size);
	c->pl = NULL;
	c->s = NULL;
	diag_init(&c->d, true);
	c->wl = sim_workload_check(workload_load_buffer_all("fuzz.json",
							    c->text, &c->d),
				   &c->d, 0, POLICY_UNSET);
}

static inline void fuzz_case_platform(struct fuzz_case *c)
{
	const char *name = c->wl->platform &&
			   platform_embedded_find(c->wl->platform) ?
			   c->wl->platform : PLATFORM_DEFAULT;

	c->pl = platform_load(name, &c->d);
}

static inline void fuzz_case_free(struct fuzz_case *c)
{
	sim_destroy(c->s);
	platform_free(c->pl);
	workload_free(c->wl);
	diag_free(&c->d);
	free(c->text);
	fuzz_fail_on_warn();
}

#endif
