// SPDX-License-Identifier: GPL-2.0
/*
 * xcheck level 5, trace-driven: the guest's own trace turned into a
 * workload by `capsim import` (its tasks' run times as the guest ran
 * them, normalised to work from the frequency and capacity they ran at;
 * its kernel threads folded into a per-CPU load) and simulated on the
 * same platform, policy and tick, then compared with the guest on level
 * 4's figures. Level 4 runs the workload as written, so under the
 * emulator a 2 ms burst that took 3-9 ms in the guest is 2 ms in the
 * simulator (docs/xcheck.md, "The guest's time"); here both sides run
 * the same bursts, and what differs is the model's decisions, not the
 * emulator's CPU sharing.
 *
 * Both steps run as child processes (`capsim import`, `capsim run`), as
 * the other simulated runs of xcheck do: src/import sits above
 * src/xcheck in docs/architecture.md's order and is reached only so.
 */
#include <stdlib.h>
#include <string.h>

#include "procs.h"
#include "xcheck.h"

/* `capsim import` of the guest trace @g into @w, log @dir/sim-imported-import.log */
static int import_guest(const struct xcheck *x, const char *dir,
			const char *g, const char *w)
{
	char *self = procs_self_exe();
	char *log = xasprintf("%s/sim-imported-import.log", dir);
	char *gpath = child_path_arg(g);
	char *argv[] = { self, (char *)"import", gpath,
			 (char *)"--platform", (char *)x->platform_arg,
			 (char *)"-o", (char *)w, NULL };
	int ret = xcheck_run_job(argv, log, "the import of the guest trace");

	free(self);
	free(gpath);
	free(log);
	return ret;
}

int xcheck_trace_driven(struct xcheck *x, const char *dir, char **comms,
			int ncomms, uint64_t dur)
{
	char *g = xasprintf("%s/%s", dir, x->guest_trace);
	char *w = xasprintf("%s/sim-imported.json", dir);
	char *t = xasprintf("%s/sim-imported/trace.txt", dir);
	char *tn = xasprintf("%s/sim-imported/trace.txt", x->outdir);
	/*
	 * The imported run's clock starts where the guest trace starts (the
	 * import's window is the whole trace), and its tasks carry their
	 * workload names from the start, where the guest's runner renamed
	 * its threads later: the window starts as far into the run as the
	 * guest's starts into its trace, not at a task's first event
	 */
	uint64_t offset = x->guest.t0 - x->guest.first_ts;
	int ret = 0;

	if (import_guest(x, dir, g, w)) {
		x->simi_why = xstrdup("capsim import of the guest trace failed (sim-imported-import.log)");
	} else if (xcheck_run_sim(dir, "sim-imported", w, x->platform_arg,
				  x->policy, x->hz)) {
		x->simi_why = xstrdup("the simulator refused or failed the imported workload (sim-imported.log)");
	} else if (xcheck_scan_side(t, tn, x, comms, ncomms, &offset, dur,
				    &x->simi, dir, "simi")) {
		ret = -1;
	} else {
		x->has_simi = true;
		x->tvd_trace = xcalloc((size_t)x->pl->ndomains,
				       sizeof(double));
		for (int d = 0; d < x->pl->ndomains; d++)
			x->tvd_trace[d] = e2e_tvd(&x->guest, &x->simi, d,
						  NULL);
	}
	free(g);
	free(w);
	free(t);
	free(tn);
	return ret;
}
