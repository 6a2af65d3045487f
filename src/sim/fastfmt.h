/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace's printf, by hand: the subset of conversions the trace lines
 * use (%d %i %u %x %s %c %%, flags '-' and '0', a width, the lengths hh h
 * l ll z) formatted straight into a buffer. vfprintf() was most of a
 * traced run's instructions (locale, stream locking, a parse per call of
 * everything printf can do); this produces the same bytes for the subset
 * and says when a format is outside it, so the caller falls back to
 * vsnprintf().
 */
#ifndef CAPSIM_FASTFMT_H
#define CAPSIM_FASTFMT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The widest number: 20 digits and a sign */
#define FASTFMT_NUM_MAX 21
/* Widths above this are left to vsnprintf() */
#define FASTFMT_WIDTH_MAX 64

/*
 * @v in decimal at @p, padded to @width with @pad ('0' or ' ', on the
 * left) or with spaces on the right when @left: the end of what it wrote.
 * Needs max(@width, FASTFMT_NUM_MAX) bytes.
 */
char *fastfmt_u64(char *p, uint64_t v, bool neg, int width, char pad,
		  bool left);

/*
 * printf("%0Nu", @v) for N = 2 * @pairs and @v < 10^N, two digits at a
 * time (a timestamp's microseconds, a CPU number): the end of what it
 * wrote
 */
char *fastfmt_pairs(char *p, uint32_t v, int pairs);

/*
 * printf("%.6f", @v / 1e6) for |@v| < FASTFMT_FIXED6_MAX, without floating
 * point: a count of millionths (ns as ms) is an exact six-decimal number,
 * and the double nearest it is within half an ulp, less than half a
 * millionth below 2^33, so printf rounds it back to the same digits.
 * Returns NULL outside that range (the caller uses printf). Needs
 * FASTFMT_NUM_MAX + 2 bytes.
 */
#define FASTFMT_FIXED6_MAX 8000000000000000LL
char *fastfmt_fixed6(char *p, int64_t v);

/*
 * "%16s-%-7d [%03d] %5lu.%06lu: %s: " of a trace line's task (@comm,
 * @clen bytes), pid, CPU, timestamp in microseconds and event name
 * (@elen bytes), at @p: the end. Needs FASTFMT_PREFIX_MAX + @clen +
 * @elen bytes.
 */
#define FASTFMT_PREFIX_MAX 128
char *fastfmt_trace_prefix(char *p, const char *comm, size_t clen, int pid,
			   int cpu, uint64_t us, const char *event,
			   size_t elen);

/*
 * A format parsed once (fastfmt_compile()) and run for each line
 * (fastfmt_run()): per piece, the literal before it (at @lit_off of the
 * literals' @text, @lit_len bytes) and its conversion (@conv 0: none, the
 * format's tail), so a line reads no format string. Formats of more
 * than FASTFMT_OPS_MAX pieces or FASTFMT_TEXT_MAX bytes of literals are
 * not compiled (fastfmt_v() says -1).
 */
#define FASTFMT_OPS_MAX 24
#define FASTFMT_TEXT_MAX 512
struct fastfmt_op {
	uint16_t lit_off, lit_len;	/* in @text */
	char conv;		/* d i u x c s %, or 0 */
	bool plain_int;		/* %d or %i: no flags, width or length */
	char pad;		/* '0' or ' ' */
	bool left;
	unsigned char width;	/* <= FASTFMT_WIDTH_MAX */
	unsigned char len;	/* the length modifier */
};
struct fastfmt_prog {
	const char *fmt;
	bool ok;		/* compiled: inside the subset */
	unsigned char nops;
	struct fastfmt_op ops[FASTFMT_OPS_MAX];
	/* the literals, each from a multiple of 8, copied 8 bytes at a time */
	char text[FASTFMT_TEXT_MAX];
};

/* Parse @fmt into @prog: false (and @prog->ok false) outside the subset */
bool fastfmt_compile(struct fastfmt_prog *prog, const char *fmt);
/* fastfmt_v() of @prog's format: the bytes written, or -1 without room */
long fastfmt_run(const struct fastfmt_prog *prog, char *dst, size_t room,
		 va_list ap);

/*
 * @fmt with @ap into @dst: the bytes written (no NUL), or -1 if @fmt has a
 * conversion outside the subset or the result needs more than @room bytes.
 * It reads a copy of @ap: the caller's is still whole for the fallback.
 */
long fastfmt_v(char *dst, size_t room, const char *fmt, va_list ap);

#endif
