// SPDX-License-Identifier: GPL-2.0
/*
 * The platform JSON: the parser and its cross-checks, the guest kernel's
 * command line made from it, and a short run of a small fixed workload on
 * it (a platform the parser accepts must be one the simulator can run).
 */
#include "fuzz.h"
#include "platform.h"
#include "platform_cmdline.h"
#include "sim.h"
#include "workload.h"

static const char workload[] =
	"{ \"global\": { \"duration\": 1 },\n"
	"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 300 } } },\n"
	"  \"tasks\": { \"fg\": { \"run\": 3000, \"timer\": { \"ref\": \"t\", \"period\": 8000 } },\n"
	"             \"bg\": { \"instance\": 3, \"taskgroup\": \"/bg\", \"run\": 20000, \"sleep\": 1000 },\n"
	"             \"rt\": { \"policy\": \"SCHED_FIFO\", \"run\": 500, \"sleep\": 4000 } } }\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_opts o = { .clamp_policy = POLICY_RFC,
			      .duration_ns = 20 * NSEC_PER_MSEC };
	struct workload *wl = NULL;
	struct platform *pl;
	struct sim *s = NULL;
	struct strbuf sb;
	struct diag d;
	char err[256];

	diag_init(&d, true);
	pl = platform_load_buffer("fuzz-platform.json", (const char *)data,
				  size, &d);
	if (pl) {
		sb_init(&sb);
		(void)platform_kernel_cmdline(pl, &sb, err, sizeof(err));
		sb_free(&sb);
		wl = workload_load_buffer("fixed.json", workload, &d);
		if (!wl)
			abort();	/* the fixed workload is valid */
	}
	if (wl) {
		sim_opts_resolve(&o, wl);
		s = sim_create(pl, wl, &o, &d);
	}
	if (s)
		sim_run(s, NULL);
	fuzz_fail_on_warn();
	sim_destroy(s);
	workload_free(wl);
	platform_free(pl);
	diag_free(&d);
	return 0;
}
