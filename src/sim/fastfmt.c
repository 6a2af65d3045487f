// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "fastfmt.h"

/* "00" .. "99": two digits per division */
const char fastfmt_digits2[201] =
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
		memcpy(p, &fastfmt_digits2[2 * r], 2);
	}
	for (w = (uint32_t)v; w >= 100; ) {
		unsigned int r = w % 100;

		w /= 100;
		p -= 2;
		memcpy(p, &fastfmt_digits2[2 * r], 2);
	}
	if (w >= 10) {
		p -= 2;
		memcpy(p, &fastfmt_digits2[2 * w], 2);
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
		memcpy(p, &fastfmt_digits2[2 * (v % 100)], 2);
	}
	return end;
}

char *fastfmt_pairs(char *p, uint32_t v, int pairs)
{
	return put_pairs(p, v, pairs);
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
		memcpy(p, &fastfmt_digits2[2 * v], 2);
		return p + 2;
	}
	if (v < 1000) {		/* a priority, a pid */
		*p = (char)('0' + v / 100);
		memcpy(p + 1, &fastfmt_digits2[2 * (v % 100)], 2);
		return p + 3;
	}
	if (v < 10000) {
		memcpy(p, &fastfmt_digits2[2 * (v / 100)], 2);
		memcpy(p + 2, &fastfmt_digits2[2 * (v % 100)], 2);
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
char *fastfmt_trace_task(char *p, const char *comm, size_t clen, int pid,
			 int cpu)
{
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
	return p;
}

char *fastfmt_trace_stamp(char *p, uint64_t us)
{
	uint64_t sec = us / 1000000;
	uint32_t frac = (uint32_t)(us % 1000000);

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
	return p;
}

char *fastfmt_trace_prefix(char *p, const char *comm, size_t clen, int pid,
			   int cpu, uint64_t us, const char *event,
			   size_t elen)
{
	p = fastfmt_trace_task(p, comm, clen, pid, cpu);
	p = fastfmt_trace_stamp(p, us);
	memcpy(p, event, elen);
	p += elen;
	*p++ = ':';
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

char *fastfmt_udec_long(char *p, uint64_t v)
{
	return put_digits(p, v);
}

char *fastfmt_sdec(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_digits(p, -(uint64_t)v);
	}
	return fastfmt_udec(p, (uint64_t)v);
}

char *fastfmt_dec03(char *p, int64_t v)
{
	if (v >= 0 && v < 1000) {
		*p++ = (char)('0' + v / 100);
		return put_pairs(p, (uint32_t)(v % 100), 1);
	}
	return fastfmt_u64(p, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 3,
			   '0', false);
}
