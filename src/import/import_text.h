/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's text made safe where the import and the import check write
 * it (import_text.c): JSON, a terminal, Markdown.
 */
#ifndef CAPSIM_IMPORT_TEXT_H
#define CAPSIM_IMPORT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct strbuf;

/* The bytes of the valid UTF-8 sequence @s starts with (1..4), 0 at the
 * end or where no valid one starts (a stray byte, an overlong form, a
 * surrogate) */
size_t import_utf8_len(const char *s);
bool import_utf8_valid(const char *s);
/* @s as a JSON string: '"', '\' and controls escaped, each byte that is
 * no UTF-8 U+FFFD, so the document is always valid UTF-8 */
void import_json_str(struct strbuf *sb, const char *s);
/* @s for a terminal: printable ASCII and UTF-8 as they are, '\' as "\\",
 * every other byte (C0 and C1 controls, DEL, bytes that are no UTF-8)
 * as \xNN */
void import_put_escaped(FILE *f, const char *s);
/* The same into @sb, or as a string (caller frees), cut after @max bytes
 * of @s with "..." */
void import_sb_escaped(struct strbuf *sb, const char *s, size_t max);
char *import_escaped(const char *s, size_t max);
/* @s as Markdown text, a table cell's too: '|', '\' and the characters
 * that format backslash-escaped, controls (a newline) and bytes that are
 * no UTF-8 as \xNN */
void import_md_text(FILE *f, const char *s);

#endif
