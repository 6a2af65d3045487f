// SPDX-License-Identifier: GPL-2.0
/*
 * The import's last step: the workload just written, still under its
 * temporary name, checked as `capsim validate` checks one (src/sim's
 * sim_validate(): parse, group rules, events, its own capsim.platform
 * read back, the machine built). The import builds it valid (unique
 * names, group paths capsim takes, valid UTF-8); this says so, and a
 * workload capsim would refuse is never renamed into place.
 */
#include <stdio.h>

#include "import.h"
#include "sim.h"

bool import_validate(const char *path, const char *trace)
{
	struct diag d;
	bool ok;

	diag_init(&d, true);
	ok = sim_validate(path, NULL, NULL, &d, NULL);
	diag_free(&d);
	if (ok)
		return true;
	fprintf(stderr, "%s: error: the workload made from this trace is one capsim refuses (an import bug: please report it with the trace); left unwritten, its messages:\n",
		trace);
	diag_init(&d, false);
	sim_validate(path, NULL, NULL, &d, NULL);
	diag_free(&d);
	return false;
}
