/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnostics: errors and warnings as "file:line:column: level: message",
 * printed to stderr (unless quiet) and kept in memory, so the summary can
 * list the warnings and the tests can match the messages.
 */
#ifndef CAPSIM_DIAG_H
#define CAPSIM_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/*
 * Messages past this many are counted but neither printed nor kept: an
 * input with a million bad values gets a readable report, in time and
 * memory bounded by the cap, ending with "... and N more".
 */
#define DIAG_MAX_SHOWN 100

struct diag {
	int errors;
	int warnings;
	int notes;
	bool quiet;
	/* --strict: rt-app keys capsim does not know are errors, not
	 * warnings (capsim's own unknown keys are errors either way) */
	bool strict;
	struct strbuf log;	/* the shown messages, one per line */
	char **warn;		/* shown warnings and notes, for summary.json */
	size_t nwarn;
	int hidden_errors;	/* over DIAG_MAX_SHOWN */
	int hidden_warnings;	/* and notes */
};

void diag_init(struct diag *d, bool quiet);
/* Prints "... and N more" for the messages over the cap (unless quiet),
 * then frees the log. */
void diag_free(struct diag *d);
/* Whether the next message would be shown: callers skip building it */
bool diag_shows_more(const struct diag *d);
/* Counts one message over the cap without building it */
void diag_count_hidden(struct diag *d, bool error);
void diag_report(struct diag *d, bool error, const char *file, int line,
		 int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void diag_vreport(struct diag *d, bool error, const char *file, int line,
		  int col, const char *fmt, va_list ap);
/* Something the input did that is fine but worth knowing (not counted as
 * a warning; listed with them in summary.json) */
void diag_note(struct diag *d, const char *file, int line, int col,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
