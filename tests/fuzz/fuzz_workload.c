// SPDX-License-Identifier: GPL-2.0
/*
 * The workload JSON, as `capsim validate` reads it: the rt-app grammar and
 * the capsim object, the group rules through the core, then the checks
 * against a platform (an embedded one: a fuzzed capsim.platform must not
 * send the fuzzer reading files).
 */
#include "fuzz.h"
#include "platform.h"
#include "sim.h"
#include "workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sim_opts o = { .policy = POLICY_RFC, .hz = 250 };
	struct platform *pl = NULL;
	struct workload *wl;
	struct sim *s = NULL;
	struct diag d;

	diag_init(&d, true);
	wl = sim_workload_check(workload_load_buffer_all("fuzz.json", text,
							 &d), &d, 0);
	if (wl)
		pl = platform_load(wl->platform &&
				   platform_embedded_find(wl->platform) ?
				   wl->platform : PLATFORM_DEFAULT, &d);
	if (pl)
		s = sim_create(pl, wl, &o, &d);
	sim_destroy(s);
	platform_free(pl);
	workload_free(wl);
	diag_free(&d);
	free(text);
	fuzz_fail_on_warn();
	return 0;
}
