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
 * @fmt with @ap into @dst: the bytes written (no NUL), or -1 if @fmt has a
 * conversion outside the subset or the result needs more than @room bytes.
 * It reads a copy of @ap: the caller's is still whole for the fallback.
 */
long fastfmt_v(char *dst, size_t room, const char *fmt, va_list ap);

#endif
