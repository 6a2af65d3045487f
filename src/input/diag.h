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

struct diag {
	int errors;
	int warnings;
	int notes;
	bool quiet;
	/* --strict: rt-app keys capsim does not know are errors, not
	 * warnings (capsim's own unknown keys are errors either way) */
	bool strict;
	struct strbuf log;	/* every message, one per line */
	char **warn;		/* warnings and notes, for summary.json */
	size_t nwarn;
};

void diag_init(struct diag *d, bool quiet);
void diag_free(struct diag *d);
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
