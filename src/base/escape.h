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
#include <stddef.h>
#include <stdio.h>

struct strbuf;

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

/* The bytes of the valid UTF-8 sequence @s starts with (1..4), 0 at the
 * end or where no valid one starts (a stray byte, an overlong form, a
 * surrogate) */
size_t utf8_seq_len(const char *s);
bool utf8_valid(const char *s);

/* @s as a JSON string: '"', '\' and controls escaped, each byte that is
 * no UTF-8 U+FFFD, so the document is always valid UTF-8 */
void json_put_str(struct strbuf *sb, const char *s);

/*
 * A name printed for a person at a terminal: printable ASCII and UTF-8
 * as they are, '\' as "\\", every other byte (C0 and C1 controls, DEL,
 * bytes that are no UTF-8) as \xNN, so that a comm cannot move the
 * cursor, clear the screen or forge a line of capsim's output.
 */
void term_put(FILE *f, const char *s);
/* The same into a new string (free() it); _max: cut after @max bytes of
 * @s with "...", and into @sb */
char *term_escape(const char *s);
char *term_escape_max(const char *s, size_t max);
void sb_put_term(struct strbuf *sb, const char *s, size_t max);

/*
 * A Markdown table cell: '|' and '\' escaped with a backslash, control
 * bytes (a newline) and bytes that are no UTF-8 as \xNN, so that the row
 * keeps its columns.
 */
void md_put_cell(FILE *f, const char *s);

#endif
