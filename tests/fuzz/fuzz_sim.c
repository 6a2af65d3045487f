// SPDX-License-Identifier: GPL-2.0
/*
 * A parsed workload simulated for a short, capped time, with the policy,
 * clamp order and domain rule it asks for: the scheduler, schedutil and
 * the clamp core on inputs nobody wrote by hand. Scale is not the point
 * here (the 10^5-task runs are their own tests): workloads of more than
 * MAX_INSTANCES task instances are skipped.
 */
#include <string.h>

#include "fuzz.h"
#include "platform.h"
#include "sim.h"
#include "workload.h"

#define SIM_NS (50 * NSEC_PER_MSEC)
#define MAX_INSTANCES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sim_opts o = { .policy = POLICY_RFC, .hz = 250,
			      .duration_ns = SIM_NS, .seed = size };
	struct platform *pl = NULL;
	struct workload *wl;
	struct sim *s = NULL;
	struct diag d;
	int i, n = 0;

	diag_init(&d, true);
	wl = sim_workload_check(workload_load_buffer_all("fuzz.json", text,
							 &d), &d, 0);
	for (i = 0; wl && i < wl->ntasks; i++)
		n += wl->tasks[i].instances;
	if (wl && n <= MAX_INSTANCES &&
	    !(wl->policy && policy_parse(wl->policy, &o.policy)) &&
	    o.policy != POLICY_UCLAMP &&
	    !(wl->clamp_order && clamp_order_parse(wl->clamp_order, &o.order))) {
		o.nonidle_rule = !wl->domain_rule ||
				 strcmp(wl->domain_rule, "rfc");
		pl = platform_load(wl->platform &&
				   platform_embedded_find(wl->platform) ?
				   wl->platform : PLATFORM_DEFAULT, &d);
	}
	if (pl)
		s = sim_create(pl, wl, &o, &d);
	if (s) {
		sim_run(s, NULL);
		fuzz_fail_on_warn();
		if (s->now > SIM_NS)
			abort();
	}
	sim_destroy(s);
	platform_free(pl);
	workload_free(wl);
	diag_free(&d);
	free(text);
	fuzz_fail_on_warn();
	return 0;
}
