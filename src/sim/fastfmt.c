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

static inline char *put_pairs(char *p, uint32_t v, int pairs)
{
	char *end = p + 2 * pairs;

	for (p = end; pairs--; v /= 100) {
		p -= 2;
		memcpy(p, &digits2[2 * (v % 100)], 2);
	}
	return end;
}

char *fastfmt_pairs(char *p, uint32_t v, int pairs)
{
	return put_pairs(p, v, pairs);
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
 * @v's digits at @p, no padding: the end. A trace's numbers are mostly
 * pids, CPUs, priorities and states, so the short ones are written
 * without a loop or a call (inlined where it is used).
 */
static inline char *put_digits(char *p, uint64_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, &digits2[2 * v], 2);
		return p + 2;
	}
	if (v < 1000) {		/* a priority, a pid */
		*p = (char)('0' + v / 100);
		memcpy(p + 1, &digits2[2 * (v % 100)], 2);
		return p + 3;
	}
	if (v < 10000) {
		memcpy(p, &digits2[2 * (v / 100)], 2);
		memcpy(p + 2, &digits2[2 * (v % 100)], 2);
		return p + 4;
	}
	p += ndigits(v);
	dec_backwards(p, v);
	return p;
}

/*
 * The hot path of every trace line and CSV row: the digits written in
 * place, no temporary and no library call for a few bytes of padding.
 */
char *fastfmt_u64(char *p, uint64_t v, bool neg, int width, char pad,
		  bool left)
{
	int n, fill;
	char *end;

	if (!width && !neg)
		return put_digits(p, v);
	n = (int)ndigits(v);
	fill = width - n - neg;
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

/*
 * The common cases written directly (a comm of at most 16 bytes, a pid
 * and a CPU in their widths, under 10^5 s); the rest through
 * fastfmt_u64()
 */
char *fastfmt_trace_prefix(char *p, const char *comm, size_t clen, int pid,
			   int cpu, uint64_t us, const char *event,
			   size_t elen)
{
	uint64_t sec = us / 1000000;
	uint32_t frac = (uint32_t)(us % 1000000);

	if (clen < 16) {
		memset(p, ' ', 16);	/* a constant size: no call */
		p += 16 - clen;
	}
	memcpy(p, comm, clen);
	p += clen;
	*p++ = '-';
	if (pid >= 0 && pid < 10000000) {
		char *end = p + 7;

		memset(p, ' ', 8);
		p = put_digits(p, (uint64_t)pid);
		if (p < end)
			p = end;
	} else {
		p = fastfmt_u64(p, (uint64_t)(pid < 0 ? -(int64_t)pid : pid),
				pid < 0, 7, ' ', true);
	}
	*p++ = ' ';
	*p++ = '[';
	if (cpu >= 0 && cpu < 1000) {
		*p++ = (char)('0' + cpu / 100);
		p = put_pairs(p, (uint32_t)(cpu % 100), 1);
	} else {
		p = fastfmt_u64(p, (uint64_t)(cpu < 0 ? -(int64_t)cpu : cpu),
				cpu < 0, 3, '0', false);
	}
	*p++ = ']';
	*p++ = ' ';
	if (sec < 100000) {
		memset(p, ' ', 8);
		put_digits(p + 5 - ndigits(sec), sec);
		p += 5;
	} else {
		p = fastfmt_u64(p, sec, false, 5, ' ', false);
	}
	*p++ = '.';
	p = put_pairs(p, frac, 3);
	*p++ = ':';
	*p++ = ' ';
	memcpy(p, event, elen);
	p += elen;
	*p++ = ':';
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
	p = put_digits(p, m / 1000000);
	*p++ = '.';
	return put_pairs(p, (uint32_t)(m % 1000000), 3);
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

/* One conversion's spec out of @fmt (past its '%'): false if outside the subset */
static bool parse_conv(const char **fmtp, struct fastfmt_op *op)
{
	const char *fmt = *fmtp;
	enum len l = L_INT;
	bool left = false;
	char pad = ' ';
	int width = 0;

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
			return false;
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
	op->conv = *fmt++;
	switch (op->conv) {
	case 'd':
	case 'i':
	case 'u':
	case 'x':
		break;
	case 'c':
	case 's':
		if (l != L_INT || pad == '0')
			return false;
		break;
	case '%':
		if (width || left || pad != ' ' || l != L_INT)
			return false;
		break;
	default:	/* precision, floats, pointers, ... */
		return false;
	}
	op->plain_int = (op->conv == 'd' || op->conv == 'i') && l == L_INT &&
			!width && !left && pad == ' ';
	op->len = (unsigned char)l;
	op->left = left;
	op->pad = pad;
	op->width = (unsigned char)width;
	*fmtp = fmt;
	return true;
}

bool fastfmt_compile(struct fastfmt_prog *prog, const char *fmt)
{
	size_t text = 0;

	prog->fmt = fmt;
	prog->nops = 0;
	prog->ok = false;
	while (*fmt) {
		struct fastfmt_op *op;
		const char *lit = fmt;
		size_t n;

		if (prog->nops == FASTFMT_OPS_MAX)
			return false;
		op = &prog->ops[prog->nops++];
		fmt = strchrnul(fmt, '%');
		n = (size_t)(fmt - lit);
		if (text + n + 8 > FASTFMT_TEXT_MAX)
			return false;
		memcpy(prog->text + text, lit, n);
		memset(prog->text + text + n, 0, 8 - n % 8);
		op->lit_off = (uint16_t)text;
		op->lit_len = (uint16_t)n;
		text += n + 8 - n % 8;
		op->conv = 0;
		op->plain_int = false;
		if (*fmt && (fmt++, !parse_conv(&fmt, op)))
			return false;
	}
	prog->ok = true;
	return true;
}

/* @n bytes of @src at @p, 8 at a time: @p and @src have room for the rounding */
static inline char *put_words(char *p, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 8)
		memcpy(p + i, src + i, 8);
	return p + n;
}

/*
 * Every piece is checked against the room before it is written: a number
 * needs at most FASTFMT_WIDTH_MAX bytes, a string its length and width.
 */
long fastfmt_run(const struct fastfmt_prog *prog, char *dst, size_t room,
		 va_list ap)
{
	char *p = dst, *lim = dst + room;
	va_list aq;
	long ret = -1;
	int k;

	va_copy(aq, ap);
	for (k = 0; k < prog->nops; k++) {
		const struct fastfmt_op *op = &prog->ops[k];
		char tmp[FASTFMT_NUM_MAX], *end = tmp + sizeof(tmp), *d;
		enum len l = (enum len)op->len;

		/*
		 * The literal and a number, checked at once: short of room
		 * the caller falls back to vsnprintf(), so the check may be
		 * stricter than the piece needs
		 */
		if ((size_t)(lim - p) < op->lit_len + 8u + FASTFMT_WIDTH_MAX +
					FASTFMT_NUM_MAX)
			goto out;
		p = put_words(p, prog->text + op->lit_off, op->lit_len);
		if (op->plain_int) {	/* most of a line */
			int v = va_arg(aq, int);

			*p = '-';
			p = put_digits(p + (v < 0), v < 0 ? 0 - (uint64_t)v :
				       (uint64_t)v);
			continue;
		}
		if (!op->conv)
			continue;
		switch (op->conv) {
		case 'd':
		case 'i': {
			int64_t v = signed_arg(l, &aq);
			bool neg = v < 0;

			if (!op->width) {
				*p = '-';
				p = put_digits(p + neg, neg ? 0 - (uint64_t)v :
					       (uint64_t)v);
			} else if (op->pad == '0' && !neg && op->width <= 8 &&
				   ndigits((uint64_t)v) <= op->width) {
				/* "%03d": target_cpu of every wake-up */
				char *end = p + op->width;

				memset(p, '0', 8);
				put_digits(end - ndigits((uint64_t)v),
					   (uint64_t)v);
				p = end;
			} else
				p = fastfmt_u64(p, neg ? 0 - (uint64_t)v :
						(uint64_t)v, neg, op->width,
						op->pad, op->left);
			break;
		}
		case 'u': {
			uint64_t v = unsigned_arg(l, &aq);

			p = op->width ? fastfmt_u64(p, v, false, op->width,
						    op->pad, op->left) :
					put_digits(p, v);
			break;
		}
		case 'x':
			d = hex_backwards(end, unsigned_arg(l, &aq));
			p = place(p, d, end, false, op->width, op->pad, op->left);
			break;
		case 'c':
			tmp[0] = (char)va_arg(aq, int);
			p = place(p, tmp, tmp + 1, false, op->width, ' ', op->left);
			break;
		case 's': {
			const char *s = va_arg(aq, const char *);
			size_t n;

			if (!s)
				s = "(null)";	/* glibc's */
			n = strlen(s);
			if ((size_t)(lim - p) < n + op->width)
				goto out;
			if (!op->width) {
				memcpy(p, s, n);
				p += n;
			} else {
				p = place(p, s, s + n, false, op->width, ' ',
					  op->left);
			}
			break;
		}
		default:	/* '%' */
			*p++ = '%';
			break;
		}
	}
	ret = p - dst;
out:
	va_end(aq);
	return ret;
}

long fastfmt_v(char *dst, size_t room, const char *fmt, va_list ap)
{
	struct fastfmt_prog prog;

	if (!fastfmt_compile(&prog, fmt))
		return -1;
	return fastfmt_run(&prog, dst, room, ap);
}
