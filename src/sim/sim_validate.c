// SPDX-License-Identifier: GPL-2.0
/*
 * What `capsim validate` checks of a workload, in one place: `capsim
 * validate` and `capsim import` (its own output, before it is renamed
 * into place) run the same checks, so an import is a workload validate
 * takes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim.h"
#include "util.h"

bool sim_validate(const char *file, struct jdoc *doc, const char *platform,
		  struct diag *d, FILE *say_ok)
{
	struct workload *wl =
		sim_workload_check(doc ? workload_from_doc_all(doc, file, d) :
				   workload_load_all(file, d), d, 0,
				   POLICY_UNSET);
	struct sim_opts o = { 0 };
	struct platform *p = NULL;
	struct sim *s = NULL;
	const char *pname;
	bool ok;

	if (!wl)
		return false;
	/* the run's rules: the workload's choices, else the defaults */
	sim_opts_resolve(&o, wl);
	if (wl->duration_s > 0) {
		workload_check_event_times(wl, (uint64_t)(wl->duration_s * 1e9),
					   false);
	} else if (!workload_tasks_end(wl)) {
		/* as `capsim run --duration` would: check the rest */
		diag_report(d, false, file, 0, 0,
			    "the workload never ends (global.duration is -1 and a task loops forever): `capsim run` needs --duration");
		o.duration_ns = NSEC_PER_SEC;
	}
	pname = platform ? platform : wl->platform ? wl->platform :
		PLATFORM_DEFAULT;
	if (!platform && platform_arg_unknown(pname)) {
		char *hint = platform_arg_hint(pname);

		jdoc_error(&wl->doc, "/capsim/platform",
			   "unknown platform \"%s\"%s", pname, hint);
		free(hint);
	} else {
		p = platform_load_arg(pname, d);
	}
	if (p)
		s = sim_create(p, wl, &o, d);
	ok = s && !d->errors;
	if (ok && say_ok)
		fprintf(say_ok, "%s: ok: workload %s, %d tasks, on %s, %d warnings\n",
			file, wl->name, s->ntasks, p->name, d->warnings);
	sim_destroy(s);
	platform_free(p);
	workload_free(wl);
	return ok;
}
