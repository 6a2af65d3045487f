// SPDX-License-Identifier: GPL-2.0
/*
 * The trace writer gives the bytes fprintf() gave: the field writers
 * against snprintf() on the trace's conversions and their edges, and
 * whole traces against a reference written with fprintf() when the
 * header's room was guessed right, too small and too large (the events
 * then move within the file), after bytes already in the file, and with
 * a line longer than the buffer.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastfmt.h"
#include "ftrace_writer.h"
#include "simtest.h"

/* One field writer's bytes against snprintf()'s */
#define SAME(conv, call, v) do { \
	char want_[64], got_[64]; \
	*(call(got_, v)) = '\0'; \
	snprintf(want_, sizeof(want_), conv, v); \
	ck_assert_msg(!strcmp(got_, want_), #call ": %s, not %s", got_, \
		      want_); \
} while (0)

START_TEST(field_writers_match_printf)
{
	static const long long v[] = {
		0, 1, -1, 9, 10, 99, 100, 101, 999, 1000, 9999, 10000, 12345,
		-12345, INT_MAX, INT_MIN, LLONG_MAX, LLONG_MIN, 4294967295LL,
	};
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]) + 100000; i++) {
		long long y;

		if (i < sizeof(v) / sizeof(v[0])) {
			y = v[i];
		} else {	/* every digit count, both signs */
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			y = (long long)x >> (i % 63);
		}
		SAME("%llu", fastfmt_udec, (unsigned long long)y);
		SAME("%lld", fastfmt_sdec, y);
		SAME("%03lld", fastfmt_dec03, (long long)(int)y);
	}
}
END_TEST

/*
 * A line's fixed part, written field by field where the values fit the
 * widths, is fprintf()'s at and past every width's edge
 */
START_TEST(line_prefix_matches_printf)
{
	static const int pids[] = { 0, 1, 9999999, 10000000, -1, INT_MAX,
				    INT_MIN };
	static const int cpus[] = { 0, 7, 99, 100, 999, 1000, -1, -1000 };
	static const uint64_t us[] = { 0, 999999, 1000000, 99999999999ULL,
				       100000000000ULL, UINT64_MAX / 1000 };
	static const char *const comms[] = { "", "<idle>", "0123456789abcde",
					     "0123456789abcdef",
					     "0123456789abcdefg-and-more" };
	size_t a, b, c, d;

	for (a = 0; a < sizeof(pids) / sizeof(pids[0]); a++)
	for (b = 0; b < sizeof(cpus) / sizeof(cpus[0]); b++)
	for (c = 0; c < sizeof(us) / sizeof(us[0]); c++)
	for (d = 0; d < sizeof(comms) / sizeof(comms[0]); d++) {
		char want[256], got[256];
		char *end;

		snprintf(want, sizeof(want), "%16s-%-7d [%03d] %5lu.%06lu: %s:",
			 comms[d], pids[a], cpus[b],
			 (unsigned long)(us[c] / 1000000),
			 (unsigned long)(us[c] % 1000000), "sched_switch");
		end = fastfmt_trace_prefix(got, comms[d], strlen(comms[d]),
					   pids[a], cpus[b], us[c],
					   "sched_switch", 12);
		*end = '\0';
		ck_assert_str_eq(got, want);
	}
}
END_TEST

/* activations.csv's "%.6f" of ns / 1e6, by hand */
START_TEST(fixed6_matches_printf)
{
	static const int64_t edge[] = {
		0, 1, -1, 999999, 1000000, -1000000, 1000001, 123456789,
		FASTFMT_FIXED6_MAX - 1, -(FASTFMT_FIXED6_MAX - 1),
		4999999999999999LL, 1000000000000000LL,
	};
	uint64_t x = 12345;
	char want[64], got[64], *end;
	size_t i;

	for (i = 0; i < sizeof(edge) / sizeof(edge[0]) + 200000; i++) {
		int64_t v;

		if (i < sizeof(edge) / sizeof(edge[0])) {
			v = edge[i];
		} else {	/* every magnitude up to the bound */
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			v = (int64_t)((x >> 11) % (uint64_t)FASTFMT_FIXED6_MAX >>
				      (x % 50));
			if (x & 1)
				v = -v;
		}
		snprintf(want, sizeof(want), "%.6f", (double)v / 1e6);
		end = fastfmt_fixed6(got, v);
		ck_assert_ptr_nonnull(end);
		*end = '\0';
		ck_assert_msg(!strcmp(got, want), "%lld: %s, not %s",
			      (long long)v, got, want);
	}
	ck_assert_ptr_null(fastfmt_fixed6(got, FASTFMT_FIXED6_MAX));
	ck_assert_ptr_null(fastfmt_fixed6(got, INT64_MIN));
}
END_TEST

struct line {
	uint64_t ns;
	int cpu, pid, a;
	unsigned long b;
	const char *comm;
};

static const char *const comms[] = { "<idle>", "swapper/12", "audio",
				     "a-fifteen-chars" };

static struct line line_of(int i)
{
	struct line l = {
		.ns = (uint64_t)i * 1234567ULL + (uint64_t)(i % 7),
		.cpu = i % 13, .pid = i % 3 ? 1000 + i : 0, .a = i - 5000,
		.b = (unsigned long)i * 977UL, .comm = comms[i % 4],
	};

	return l;
}

/* @n lines through the writer, with @buf bytes of buffer, @end_ns hint */
static char *written(int n, size_t buf, uint64_t end_ns, const char *long_s,
		     size_t *len, uint64_t *shifted)
{
	struct ftrace_writer w = { .buf_size = buf };
	FILE *f = tmpfile();
	char *out;
	long pos;
	int i;

	fputs("already here\n", f);	/* the trace starts after it */
	ck_assert_int_eq(ftrace_writer_open(&w, f, 13, end_ns), 0);
	for (i = 0; i < n; i++) {
		struct line l = line_of(i);

		char text[64];

		if (long_s && i == n / 2) {	/* longer than the buffer */
			ftrace_writer_text(&w, l.ns, l.cpu, l.comm, l.pid,
					   "long", long_s);
			continue;
		}
		snprintf(text, sizeof(text), "a=%d b=%lu cpu=%03d", l.a, l.b,
			 l.cpu);
		ftrace_writer_text(&w, l.ns, l.cpu, l.comm, l.pid, "sched_x",
				   text);
	}
	ck_assert_int_eq(ftrace_writer_close(&w), 0);
	/* the stream is left at the trace's end, the file's */
	pos = ftell(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	ck_assert_int_eq(ftell(f), pos);
	fputs("after\n", f);
	*shifted = w.shifted;
	out = slurp(f, len);
	fclose(f);
	return out;
}

static char *reference(int n, const char *long_s, size_t *len)
{
	FILE *f = tmpfile();
	char *out;
	int i;

	fputs("already here\n", f);
	fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %d/%d   #P:13\n#\n"
		"#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
		"#              | |         |         |         |\n", n, n);
	for (i = 0; i < n; i++) {
		struct line l = line_of(i);
		uint64_t us = l.ns / 1000;

		fprintf(f, "%16s-%-7d [%03d] %5lu.%06lu: ", l.comm, l.pid,
			l.cpu, (unsigned long)(us / 1000000),
			(unsigned long)(us % 1000000));
		if (long_s && i == n / 2)
			fprintf(f, "long: %s\n", long_s);
		else
			fprintf(f, "sched_x: a=%d b=%lu cpu=%03d\n", l.a, l.b,
				l.cpu);
	}
	fputs("after\n", f);
	out = slurp(f, len);
	fclose(f);
	return out;
}

static void check_trace(int n, size_t buf, uint64_t end_ns,
			const char *long_s, int shifts)
{
	size_t la, lb;
	uint64_t shifted;
	char *a = written(n, buf, end_ns, long_s, &la, &shifted);
	char *b = reference(n, long_s, &lb);

	ck_assert_uint_eq(la, lb);
	ck_assert_msg(!memcmp(a, b, la), "n=%d buf=%zu: not the same bytes",
		      n, buf);
	if (shifts)
		ck_assert_uint_gt(shifted, 0);
	else
		ck_assert_uint_eq(shifted, 0);
	free(a);
	free(b);
}

START_TEST(trace_is_printf_bytes)
{
	uint64_t end = 100010ULL * 1234567ULL;
	static char long_s[5000];

	/* all in the buffer: written once, no guess */
	check_trace(5000, 1 << 22, 0, NULL, 0);
	/* the buffer fills at ~1/5 of the run: the count guessed right */
	check_trace(100000, 1 << 20, end, NULL, 0);
	/* no end known: the guess is the count so far, too small */
	check_trace(100000, 1 << 20, 0, NULL, 1);
	/* an end far beyond the last event: the guess too large */
	check_trace(100000, 1 << 20, end * 1000, NULL, 1);
	/* the smallest buffer, a line longer than it */
	memset(long_s, 'x', sizeof(long_s) - 1);
	long_s[sizeof(long_s) - 1] = '\0';
	check_trace(20000, 1, 0, long_s, 1);
}
END_TEST

START_TEST(limit_stops_the_run)
{
	struct ftrace_writer w = { 0 };
	bool stop = false;
	FILE *f = tmpfile();
	int i;

	ftrace_writer_limit(&w, 1000, &stop);
	ck_assert_int_eq(ftrace_writer_open(&w, f, 1, 0), 0);
	for (i = 0; i < 100 && !stop; i++)
		ftrace_writer_text(&w, 0, 0, "x", 1, "e", "i=0");
	ck_assert(stop);
	ck_assert(w.over_limit);
	ck_assert_int_eq(ftrace_writer_close(&w), -1);
	fclose(f);
}
END_TEST

int main(void)
{
	return check_main("ftrace-writer", 120,
			  CHECK_TESTS(field_writers_match_printf,
				      line_prefix_matches_printf,
				      fixed6_matches_printf,
				      trace_is_printf_bytes,
				      limit_stops_the_run));
}
