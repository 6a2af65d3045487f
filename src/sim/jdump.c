// SPDX-License-Identifier: GPL-2.0
/*
 * jansson's indented dump by hand (jdump.h): the layout of its do_dump()
 * and dtostr() as documented and observed, with reals that are short
 * decimals written without printf. tests/sim/test_jdump.c compares
 * every path with jansson's own output.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastfmt.h"
#include "jdump.h"

static const double pow10_d[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
};
static const uint64_t pow10_u[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000,
};

/*
 * The fast path: |@v| is the double nearest D = r / 10^k for an integer
 * r < 10^9 and some k <= 9, and 1e-4 <= D < 1e9. r and 10^k are exact
 * doubles and IEEE division rounds correctly, so r / 10^k == |v| proves
 * it. "%.9g" then prints D: rounding |v| to 9 significant digits gives D
 * (|v| is within half an ulp of D, and D, of at most 9 digits, is far
 * from any rounding boundary of the 9th digit), its exponent is in
 * -4..8, so the style is fixed-point with trailing zeros removed. The
 * first k that passes has no trailing zero in r (r / 10 would have
 * passed at k - 1), but zeros are stripped anyway. Returns the length,
 * or -1 when @v is not such a decimal.
 */
static int short_decimal(char *buf, double v)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
	double a = v < 0 ? -v : v;
	char *p = buf;
	int k;

	if (!(a >= 1e-4 && a < 1e9))	/* NaN too */
		return -1;
	for (k = 0; k <= 9; k++) {
		double m = a * pow10_d[k];
		uint64_t r, ip, fp;
		int j;

		if (m >= 1e9)
			return -1;
		r = (uint64_t)(m + 0.5);
		if ((double)r / pow10_d[k] != a)
			continue;
		ip = r / pow10_u[k];
		fp = r % pow10_u[k];
		if (v < 0)
			*p++ = '-';
		p = fastfmt_u64(p, ip, false, 0, ' ', false);
		*p++ = '.';
		for (j = k - 1; j >= 0; j--)	/* k digits, leading zeros */
			p[j] = (char)('0' + fp % 10), fp /= 10;
		p += k;
		while (k > 0 && p[-1] == '0')
			p--, k--;
		if (!k)		/* jansson's ".0" */
			*p++ = '0';
		*p = '\0';
		return (int)(p - buf);
	}
#else
	(void)buf;
	(void)v;
#endif
	return -1;
}

int jdump_real(char *buf, double v)
{
	char *e, *start, *end;
	int len;

	if (!isfinite(v))
		return -1;
	len = short_decimal(buf, v);
	if (len >= 0)
		return len;
	len = snprintf(buf, JDUMP_REAL_MAX, "%.9g", v);
	if (!strchr(buf, '.') && !strchr(buf, 'e')) {
		memcpy(buf + len, ".0", 3);
		len += 2;
	}
	/* the exponent: no '+', no leading zeros ("1e+05" is "1e5") */
	e = strchr(buf, 'e');
	if (e) {
		start = e + 1;
		end = start + 1;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, (size_t)(buf + len - end) + 1);
			len -= (int)(end - start);
		}
	}
	return len;
}

/* A string as jansson writes it; the plain ones (printable ASCII, no
 * quote or backslash) directly, any other through jansson itself */
static int put_string(struct strbuf *sb, const char *s, size_t len)
{
	size_t i;
	json_t *js;
	char *text;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			break;
	}
	if (i == len) {
		sb_putc(sb, '"');
		sb_putn(sb, s, len);
		sb_putc(sb, '"');
		return 0;
	}
	js = json_stringn(s, len);
	text = js ? json_dumps(js, JSON_ENCODE_ANY) : NULL;
	json_decref(js);
	if (!text)
		return -1;
	sb_puts(sb, text);
	free(text);
	return 0;
}

/* jansson's dump_indent() at JSON_INDENT(2): a newline, 2 * @depth
 * spaces */
static void put_indent(struct strbuf *sb, int depth)
{
	static const char spaces[] = "                                ";
	size_t n = 2 * (size_t)depth, k;

	sb_putc(sb, '\n');
	for (; n; n -= k) {
		k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		sb_putn(sb, spaces, k);
	}
}

void jdump_obj_open(struct jdump_obj *o, struct strbuf *sb, int depth)
{
	o->sb = sb;
	o->depth = depth;
	o->empty = true;
	sb_putc(sb, '{');
}

void jdump_obj_close(struct jdump_obj *o)
{
	if (!o->empty)
		put_indent(o->sb, o->depth);
	sb_putc(o->sb, '}');
}

/*
 * A member's separator, line and key, as json_dumps() writes them, in
 * one put (a put per byte of them was a tenth of a 100 000-task run);
 * returns the length to take the member back to. Keys are capsim's
 * literals and numbers (jdump.h): plain ASCII, written as they are.
 */
static size_t member_key(struct jdump_obj *o, const char *key)
{
	char line[128];
	size_t back = o->sb->len, klen = strlen(key);
	size_t ind = 2 * (size_t)(o->depth + 1), n = 0;
	bool first = o->empty;

	o->empty = false;
	if (ind + klen + 6 > sizeof(line)) {	/* deep or long: in parts */
		if (!first)
			sb_putc(o->sb, ',');
		put_indent(o->sb, o->depth + 1);
		sb_putc(o->sb, '"');
		sb_putn(o->sb, key, klen);
		sb_putn(o->sb, "\": ", 3);
		return back;
	}
	if (!first)
		line[n++] = ',';
	line[n++] = '\n';
	memset(line + n, ' ', ind);
	n += ind;
	line[n++] = '"';
	memcpy(line + n, key, klen);
	n += klen;
	memcpy(line + n, "\": ", 3);
	sb_putn(o->sb, line, n + 3);
	return back;
}

/* Take back a member set_new would not have added */
static void member_drop(struct jdump_obj *o, size_t back, bool was_empty)
{
	o->sb->len = back;
	o->sb->buf[back] = '\0';	/* strbuf's NUL, as after any put */
	o->empty = was_empty;
}

void jdump_obj_int(struct jdump_obj *o, const char *key, int64_t v)
{
	char num[24];
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	member_key(o, key);
	sb_putn(o->sb, num, (size_t)(fastfmt_u64(num, mag, v < 0, 0, ' ',
						 false) - num));
}

void jdump_obj_real(struct jdump_obj *o, const char *key, double v)
{
	char num[JDUMP_REAL_MAX];
	bool was_empty = o->empty;
	size_t back = member_key(o, key);
	int n = jdump_real(num, v);

	if (n < 0)
		member_drop(o, back, was_empty);
	else
		sb_putn(o->sb, num, (size_t)n);
}

void jdump_obj_null(struct jdump_obj *o, const char *key)
{
	member_key(o, key);
	sb_putn(o->sb, "null", 4);
}

void jdump_obj_string(struct jdump_obj *o, const char *key, const char *s)
{
	bool was_empty = o->empty;
	size_t back;

	if (!s)
		return;
	back = member_key(o, key);
	if (put_string(o->sb, s, strlen(s)))
		member_drop(o, back, was_empty);
}

void jdump_obj_object(struct jdump_obj *o, const char *key,
		      struct jdump_obj *inner)
{
	member_key(o, key);
	jdump_obj_open(inner, o->sb, o->depth + 1);
}
