// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"

void diag_init(struct diag *d, bool quiet)
{
	d->errors = d->warnings = d->notes = 0;
	d->quiet = quiet;
	d->strict = false;
	sb_init(&d->log);
	d->warn = NULL;
	d->nwarn = 0;
	d->hidden_errors = d->hidden_warnings = 0;
}

void diag_free(struct diag *d)
{
	size_t i;

	if (!d->quiet && (d->hidden_errors || d->hidden_warnings))
		fprintf(stderr, "... and %d more errors and %d more warnings (only the first %d messages are shown)\n",
			d->hidden_errors, d->hidden_warnings, DIAG_MAX_SHOWN);

	for (i = 0; i < d->nwarn; i++)
		free(d->warn[i]);
	free(d->warn);
	sb_free(&d->log);
}

bool diag_shows_more(const struct diag *d)
{
	return d->errors + d->warnings + d->notes - d->hidden_errors -
	       d->hidden_warnings < DIAG_MAX_SHOWN;
}

enum level { NOTE, WARNING, ERROR };

static void count_hidden(struct diag *d, enum level level)
{
	if (level == ERROR) {
		d->errors++;
		d->hidden_errors++;
		return;
	}
	if (level == WARNING)
		d->warnings++;
	else
		d->notes++;
	d->hidden_warnings++;
}

void diag_count_hidden(struct diag *d, bool error)
{
	count_hidden(d, error ? ERROR : WARNING);
}

static void report(struct diag *d, enum level level, const char *file,
		   int line, int col, const char *fmt, va_list ap)
{
	static const char *const names[] = { "note", "warning", "error" };
	struct strbuf msg;
	struct strbuf full;

	if (!diag_shows_more(d)) {
		count_hidden(d, level);
		return;
	}

	sb_init(&msg);
	sb_vprintf(&msg, fmt, ap);
	sb_init(&full);
	if (file && line > 0)
		sb_printf(&full, "%s:%d:%d: ", file, line, col);
	else if (file)
		sb_printf(&full, "%s: ", file);
	sb_printf(&full, "%s: %s", names[level], msg.buf);

	if (!d->quiet)
		fprintf(stderr, "%s\n", full.buf);
	sb_printf(&d->log, "%s\n", full.buf);
	if (level == ERROR) {
		d->errors++;
		sb_free(&full);
	} else {
		if (level == WARNING)
			d->warnings++;
		else
			d->notes++;
		d->warn = xrealloc(d->warn, (d->nwarn + 1) * sizeof(*d->warn));
		d->warn[d->nwarn++] = full.buf;
	}
	sb_free(&msg);
}

void diag_vreport(struct diag *d, bool error, const char *file, int line,
		  int col, const char *fmt, va_list ap)
{
	report(d, error ? ERROR : WARNING, file, line, col, fmt, ap);
}

void diag_note(struct diag *d, const char *file, int line, int col,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(d, NOTE, file, line, col, fmt, ap);
	va_end(ap);
}

void diag_report(struct diag *d, bool error, const char *file, int line,
		 int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, error, file, line, col, fmt, ap);
	va_end(ap);
}
