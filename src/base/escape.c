// SPDX-License-Identifier: GPL-2.0
/*
 * One escaping rule per destination of a name from an input (escape.h).
 */
#include <stdint.h>
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

size_t utf8_seq_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80)
		return s[0] ? 1 : 0;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;	/* a continuation byte, 0xc0/0xc1, 0xf5.. */
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* NUL included: the end */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

bool utf8_valid(const char *s)
{
	size_t n;

	for (; *s; s += n)
		if (!(n = utf8_seq_len(s)))
			return false;
	return true;
}

void json_put_str(struct strbuf *sb, const char *s)
{
	size_t n;

	sb_putc(sb, '"');
	for (; *s; s += n) {
		unsigned char c = (unsigned char)*s;

		n = utf8_seq_len(s);
		if (!n) {
			sb_puts(sb, "\\ufffd");	/* a byte that is no UTF-8 */
			n = 1;
		} else if (c == '"' || c == '\\') {
			sb_printf(sb, "\\%c", c);
		} else if (c < 0x20 || c == 0x7f) {
			sb_printf(sb, "\\u%04x", c);
		} else {
			sb_putn(sb, s, n);
		}
	}
	sb_putc(sb, '"');
}

/* Whether the UTF-8 sequence of @n bytes at @s is a C1 control
 * (U+0080..U+009F: 0xc2 0x80..0x9f), which terminals obey as ESC ... */
static bool c1_control(const char *s, size_t n)
{
	return n == 2 && (unsigned char)s[0] == 0xc2 &&
	       (unsigned char)s[1] < 0xa0;
}

void sb_put_term(struct strbuf *sb, const char *s, size_t max)
{
	const char *start = s;
	size_t n, i;

	for (; *s; s += n) {
		unsigned char c = (unsigned char)*s;

		if ((size_t)(s - start) >= max) {
			sb_puts(sb, "...");
			return;
		}
		n = utf8_seq_len(s);
		if (c == '\\') {
			sb_puts(sb, "\\\\");
		} else if (n == 1 && c >= 0x20 && c < 0x7f) {
			sb_putc(sb, (char)c);
		} else if (n > 1 && !c1_control(s, n)) {
			sb_putn(sb, s, n);
		} else {
			if (!n)
				n = 1;
			for (i = 0; i < n; i++)
				sb_printf(sb, "\\x%02x", (unsigned char)s[i]);
		}
	}
}

char *term_escape_max(const char *s, size_t max)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_put_term(&sb, s, max);
	return sb.buf;
}

char *term_escape(const char *s)
{
	return term_escape_max(s, (size_t)-1);
}

void term_put(FILE *f, const char *s)
{
	char *e = term_escape(s);

	fputs(e, f);
	free(e);
}

void md_put_cell(FILE *f, const char *s)
{
	size_t n, i;

	for (; *s; s += n) {
		unsigned char c = (unsigned char)*s;

		n = utf8_seq_len(s);
		if (c == '|' || c == '\\') {
			/* '|' would end the cell */
			fprintf(f, "\\%c", c);
		} else if (n == 1 && c >= 0x20 && c < 0x7f) {
			fputc(c, f);
		} else if (n > 1 && !c1_control(s, n)) {
			fwrite(s, 1, n, f);
		} else {
			/* a newline would end the row: written as text */
			if (!n)
				n = 1;
			for (i = 0; i < n; i++)
				fprintf(f, "\\x%02x", (unsigned char)s[i]);
		}
	}
}
