// SPDX-License-Identifier: GPL-2.0
/*
 * One escaping rule per destination of a name from an input (escape.h).
 */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "util.h"

static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	(void)strtod(s, &end);
	return !*end && !strpbrk(s, " \t\r\n");
}

bool csv_field_is_formula(const char *s)
{
	return strchr("=+-@\t\r", *s) && *s && !is_number(s);
}

void csv_put_field(FILE *f, const char *s)
{
	bool formula = csv_field_is_formula(s);

	if (!formula && !s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputc('\'', f);
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

char *term_escape(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (is_control(c))
			sb_printf(&sb, "\\x%02x", c);
		else if (c == '\\')
			sb_puts(&sb, "\\\\");
		else
			sb_putc(&sb, (char)c);
	}
	return sb.buf;
}

void term_put(FILE *f, const char *s)
{
	char *e = term_escape(s);

	fputs(e, f);
	free(e);
}

void md_put_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '|' || c == '\\')
			fputc('\\', f);
		fputc(is_control(c) ? ' ' : (char)c, f);
	}
}
