/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The field writers of the trace lines and CSV rows: numbers as printf
 * prints them (%d, %u, %03d, a padded width, %.6f of a count of
 * millionths) and a trace line's fixed part, straight into a buffer.
 * Each trace event's emitter (trace_events.c) calls them field by field,
 * in the order its row of src/trace/trace_events.def names, so a line
 * reads no format string.
 */
#ifndef CAPSIM_FASTFMT_H
#define CAPSIM_FASTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The widest number: 20 digits and a sign */
#define FASTFMT_NUM_MAX 21

/* "00" .. "99" */
extern const char fastfmt_digits2[201];

char *fastfmt_udec_long(char *p, uint64_t v);
/*
 * printf("%llu", @v) at @p: the end. The short numbers most fields hold
 * (CPUs, priorities, states, capacities) without a call.
 */
static inline char *fastfmt_udec(char *p, uint64_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, &fastfmt_digits2[2 * v], 2);
		return p + 2;
	}
	if (v < 10000) {
		if (v < 1000) {
			*p = (char)('0' + v / 100);
			memcpy(p + 1, &fastfmt_digits2[2 * (v % 100)], 2);
			return p + 3;
		}
		memcpy(p, &fastfmt_digits2[2 * (v / 100)], 2);
		memcpy(p + 2, &fastfmt_digits2[2 * (v % 100)], 2);
		return p + 4;
	}
	return fastfmt_udec_long(p, v);
}
/* printf("%lld", @v) */
char *fastfmt_sdec(char *p, int64_t v);
/* printf("%03d", @v) */
char *fastfmt_dec03(char *p, int64_t v);

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
 * "%16s-%-7d [%03d] %5lu.%06lu: %s:" of a trace line's task (@comm,
 * @clen bytes), pid, CPU, timestamp in microseconds and event name
 * (@elen bytes), at @p: the end. Needs FASTFMT_PREFIX_MAX + @clen +
 * @elen bytes.
 */
#define FASTFMT_PREFIX_MAX 128
/* Its parts: "%16s-%-7d [%03d] " and "%5lu.%06lu: " (at most
 * FASTFMT_STAMP_MAX bytes) */
#define FASTFMT_STAMP_MAX 32
char *fastfmt_trace_task(char *p, const char *comm, size_t clen, int pid,
			 int cpu);
char *fastfmt_trace_stamp(char *p, uint64_t us);
char *fastfmt_trace_prefix(char *p, const char *comm, size_t clen, int pid,
			   int cpu, uint64_t us, const char *event,
			   size_t elen);

#endif
