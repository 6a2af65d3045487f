// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "fastfmt.h"

/* "00" .. "99": two digits per division */
static const char digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* @v's digits, written backwards ending at @end; returns their start */
static char *dec_backwards(char *end, uint64_t v)
{
	char *p = end;
	uint32_t w;

	while (v > UINT32_MAX) {	/* 64-bit divisions only up here */
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, &digits2[2 * r], 2);
	}
	for (w = (uint32_t)v; w >= 100; ) {
		unsigned int r = w % 100;

		w /= 100;
		p -= 2;
		memcpy(p, &digits2[2 * r], 2);
	}
	if (w >= 10) {
		p -= 2;
		memcpy(p, &digits2[2 * w], 2);
	} else {
		*--p = (char)('0' + w);
	}
	return p;
}

static char *hex_backwards(char *end, uint64_t v)
{
	char *p = end;

	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	return p;
}

/* The digits at [@d, @end) with the sign and padding printf gives them */
static char *place(char *p, const char *d, const char *end, bool neg,
		   int width, char pad, bool left)
{
	int n = (int)(end - d) + neg, fill = width > n ? width - n : 0;

	if (!left && pad == ' ') {
		memset(p, ' ', (size_t)fill);
		p += fill;
	}
	if (neg)
		*p++ = '-';
	if (!left && pad == '0') {	/* zeros go after the sign */
		memset(p, '0', (size_t)fill);
		p += fill;
	}
	memcpy(p, d, (size_t)(end - d));
	p += end - d;
	if (left) {
		memset(p, ' ', (size_t)fill);
		p += fill;
	}
	return p;
}

static unsigned int ndigits(uint64_t v)
{
	if (v < 100000)		/* most numbers of a trace: no loop */
		return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 :
		       v < 10000 ? 4 : 5;
	static const uint64_t pow10[] = {
		10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL,
	};
	unsigned int n = 1;

	while (n < 20 && v >= pow10[n - 1])
		n++;
	return n;
}

/*
 * The hot path of every trace line and CSV row: the digits written in
 * place, no temporary and no library call for a few bytes of padding.
 */
char *fastfmt_u64(char *p, uint64_t v, bool neg, int width, char pad,
		  bool left)
{
	int n = (int)ndigits(v), fill = width - n - neg;
	char *end;

	for (; !left && pad == ' ' && fill > 0; fill--)
		*p++ = ' ';
	if (neg)
		*p++ = '-';
	for (; !left && fill > 0; fill--)
		*p++ = '0';
	end = p + n;
	dec_backwards(end, v);
	p = end;
	for (; fill > 0; fill--)
		*p++ = ' ';
	return p;
}

char *fastfmt_fixed6(char *p, int64_t v)
{
	uint64_t m;

	if (v <= -FASTFMT_FIXED6_MAX || v >= FASTFMT_FIXED6_MAX)
		return NULL;
	if (v < 0)
		*p++ = '-';
	m = v < 0 ? (uint64_t)-v : (uint64_t)v;
	p = fastfmt_u64(p, m / 1000000, false, 0, ' ', false);
	*p++ = '.';
	return fastfmt_u64(p, m % 1000000, false, 6, '0', false);
}

enum len { L_INT, L_CHAR, L_SHORT, L_LONG, L_LLONG, L_SIZE };

static int64_t signed_arg(enum len l, va_list *ap)
{
	switch (l) {
	case L_LONG:
		return va_arg(*ap, long);
	case L_LLONG:
		return va_arg(*ap, long long);
	case L_SIZE:
		return (int64_t)va_arg(*ap, size_t);
	case L_CHAR:
		return (signed char)va_arg(*ap, int);
	case L_SHORT:
		return (short)va_arg(*ap, int);
	default:
		return va_arg(*ap, int);
	}
}

static uint64_t unsigned_arg(enum len l, va_list *ap)
{
	switch (l) {
	case L_LONG:
		return va_arg(*ap, unsigned long);
	case L_LLONG:
		return va_arg(*ap, unsigned long long);
	case L_SIZE:
		return va_arg(*ap, size_t);
	case L_CHAR:
		return (unsigned char)va_arg(*ap, unsigned int);
	case L_SHORT:
		return (unsigned short)va_arg(*ap, unsigned int);
	default:
		return va_arg(*ap, unsigned int);
	}
}

/*
 * Every piece is checked against the room before it is written: a number
 * needs at most FASTFMT_WIDTH_MAX bytes, a string its length and width.
 */
long fastfmt_v(char *dst, size_t room, const char *fmt, va_list ap)
{
	char *p = dst, *lim = dst + room;
	va_list aq;
	long ret = -1;

	va_copy(aq, ap);
	while (*fmt) {
		const char *lit = fmt;
		char tmp[FASTFMT_NUM_MAX], *end = tmp + sizeof(tmp), *d;
		bool left = false, neg = false;
		char pad = ' ';
		enum len l = L_INT;
		int width = 0;

		fmt = strchrnul(fmt, '%');	/* the literal, vectorized */
		if (fmt > lit) {
			if ((size_t)(lim - p) < (size_t)(fmt - lit))
				goto out;
			memcpy(p, lit, (size_t)(fmt - lit));
			p += fmt - lit;
			continue;
		}
		fmt++;		/* the '%' */
		for (;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '0')
				pad = '0';
			else
				break;
		}
		while (*fmt >= '0' && *fmt <= '9') {
			width = width * 10 + (*fmt++ - '0');
			if (width > FASTFMT_WIDTH_MAX)
				goto out;
		}
		if (*fmt == 'h') {
			l = fmt[1] == 'h' ? L_CHAR : L_SHORT;
			fmt += l == L_CHAR ? 2 : 1;
		} else if (*fmt == 'l') {
			l = fmt[1] == 'l' ? L_LLONG : L_LONG;
			fmt += l == L_LLONG ? 2 : 1;
		} else if (*fmt == 'z') {
			l = L_SIZE;
			fmt++;
		}
		if (left)
			pad = ' ';	/* '-' overrides '0' */
		if (lim - p < FASTFMT_WIDTH_MAX + FASTFMT_NUM_MAX)
			goto out;
		switch (*fmt++) {
		case 'd':
		case 'i': {
			int64_t v = signed_arg(l, &aq);

			neg = v < 0;
			p = fastfmt_u64(p, neg ? 0 - (uint64_t)v : (uint64_t)v,
					neg, width, pad, left);
			break;
		}
		case 'u':
			p = fastfmt_u64(p, unsigned_arg(l, &aq), false, width,
					pad, left);
			break;
		case 'x':
			d = hex_backwards(end, unsigned_arg(l, &aq));
			p = place(p, d, end, false, width, pad, left);
			break;
		case 'c':
			if (l != L_INT || pad == '0')
				goto out;
			tmp[0] = (char)va_arg(aq, int);
			p = place(p, tmp, tmp + 1, false, width, ' ', left);
			break;
		case 's': {
			const char *s;
			size_t n;

			if (l != L_INT || pad == '0')
				goto out;
			s = va_arg(aq, const char *);
			if (!s)
				s = "(null)";	/* glibc's */
			n = strlen(s);
			if ((size_t)(lim - p) < n + (size_t)width)
				goto out;
			p = place(p, s, s + n, false, width, ' ', left);
			break;
		}
		case '%':
			if (width || left || pad != ' ' || l != L_INT)
				goto out;
			*p++ = '%';
			break;
		default:	/* precision, floats, pointers, ... */
			goto out;
		}
	}
	ret = p - dst;
out:
	va_end(aq);
	return ret;
}
