// SPDX-License-Identifier: GPL-2.0
/*
 * The import's last step: the workload's text, before it is written,
 * checked as `capsim validate` checks one (src/sim's
 * sim_validate(): parse, group rules, events, its own capsim.platform
 * read back, the machine built). The import builds it valid (unique
 * names, group paths capsim takes, valid UTF-8); this says so, and a
 * workload capsim would refuse is never renamed into place.
 */
#include <stdio.h>

#include "import.h"
#include "jsondoc.h"
#include "sim.h"

/* One check of @text as the workload file @path, reported to @d */
static bool check(const char *text, size_t len, const char *path,
		  struct diag *d)
{
	struct jdoc doc;

	if (jdoc_load_rtapp_buffer(&doc, path, text, len, d))
		return false;
	return sim_validate(path, &doc, NULL, d, NULL);
}

bool import_validate(const char *text, size_t len, const char *path,
		     const char *trace)
{
	struct diag d;
	bool ok;

	diag_init(&d, true);
	ok = check(text, len, path, &d);
	diag_free(&d);
	if (ok)
		return true;
	fprintf(stderr, "%s: error: the workload made from this trace is one capsim refuses (an import bug: please report it with the trace); left unwritten, its messages:\n",
		trace);
	diag_init(&d, false);
	check(text, len, path, &d);
	diag_free(&d);
	return false;
}
