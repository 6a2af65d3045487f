/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from an input written where it could change meaning: a CSV field,
 * a terminal, a Markdown table cell. Each destination has one function
 * here, so a name from a trace or a workload is escaped the same way by
 * every writer (docs/outputs.md, "Names in outputs").
 */
#ifndef CAPSIM_ESCAPE_H
#define CAPSIM_ESCAPE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * A CSV field (RFC 4180): as is, or in quotes with quotes doubled when it
 * holds a comma, a quote or a line break. A text field that a spreadsheet
 * would take for a formula (it begins with '=', '+', '-', '@', a tab or a
 * carriage return and is not a number) gets a leading apostrophe, as
 * OWASP's CSV-injection guidance says; numbers ("-1.5") are kept as they
 * are so that a column of values still reads as numbers.
 */
void csv_put_field(FILE *f, const char *s);
/* Would csv_put_field() add the apostrophe to @s? */
bool csv_field_is_formula(const char *s);

/*
 * A name printed for a person at a terminal: control bytes (below 0x20,
 * and 0x7f) as \xNN and a backslash doubled, so that a comm cannot move
 * the cursor, clear the screen or forge a line of capsim's output.
 */
void term_put(FILE *f, const char *s);
/* The same into a new string (free() it) */
char *term_escape(const char *s);

/*
 * A Markdown table cell: '|' and '\' escaped with a backslash, a line
 * break or any other control byte as a space, so that the row keeps its
 * columns.
 */
void md_put_cell(FILE *f, const char *s);

#endif
