// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "trace_sniff.h"

static bool starts(const unsigned char *h, size_t n, const char *magic,
		   size_t m)
{
	return n >= m && !memcmp(h, magic, m);
}

/* A UTF-8 text's bytes above 0x7f are no control characters */
bool trace_sniff_binary(const unsigned char *h, size_t n)
{
	size_t ctl = 0;

	for (size_t i = 0; i < n; i++) {
		if (!h[i])
			return true;
		if (h[i] < 0x20 && h[i] != '\n' && h[i] != '\r' &&
		    h[i] != '\t' && h[i] != '\f')
			ctl++;
	}
	return ctl * 16 > n;
}

/*
 * `perf script` of tracepoints: "COMM PID [CPU] SECS.USECS: SUBSYS:EVENT:"
 * (the subsystem before the event's name, no dash before the pid): the
 * first line that is no comment, looked at after its "[CPU]" column
 */
static bool perf_script(const unsigned char *h, size_t n)
{
	const char *s = (const char *)h, *end = s + n, *nl, *p;

	while (s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		p = s;
		while (p < nl && isspace((unsigned char)*p))
			p++;
		if (p < nl && *p != '#')
			break;
		s = nl + 1;
	}
	if (s >= end)
		return false;
	/* "] TS: subsys:event:" */
	p = memchr(s, ']', (size_t)(nl - s));
	if (!p)
		return false;
	for (p++; p < nl && *p == ' '; p++)
		;
	while (p < nl && (isdigit((unsigned char)*p) || *p == '.'))
		p++;
	if (p >= nl || *p != ':')
		return false;
	for (p++; p < nl && *p == ' '; p++)
		;
	/* an optional period (perf script's default output) */
	if (p < nl && isdigit((unsigned char)*p)) {
		while (p < nl && isdigit((unsigned char)*p))
			p++;
		while (p < nl && *p == ' ')
			p++;
	}
	while (p < nl && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	if (p >= nl || *p != ':')
		return false;
	p++;
	while (p < nl && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	return p < nl && *p == ':' && p[-1] != ':';
}

const char *trace_sniff_other(const unsigned char *h, size_t n)
{
	size_t i = 0;

	if (starts(h, n, "\x1f\x8b", 2))
		return "gzip-compressed data (a trace to decompress first: gunzip)";
	if (starts(h, n, "\xfd" "7zXZ", 6))
		return "xz-compressed data (a trace to decompress first: unxz)";
	if (starts(h, n, "\x28\xb5\x2f\xfd", 4))
		return "zstd-compressed data (a trace to decompress first: unzstd)";
	if (starts(h, n, "BZh", 3) && n > 3 && isdigit(h[3]))
		return "bzip2-compressed data (a trace to decompress first: bunzip2)";
	if (starts(h, n, "PK\x03\x04", 4))
		return "a zip archive (an Android bugreport? unzip it and give capsim the trace inside)";
	if (starts(h, n, "PERFILE2", 8) || starts(h, n, "PERFFILE", 8))
		return "perf.data, perf record's own binary format (capsim reads ftrace's captures: trace-cmd record, or Perfetto)";
	if (starts(h, n, "\x7f" "ELF", 4))
		return "an ELF binary";
	if (trace_sniff_binary(h, n))
		return "a binary file";
	if (starts(h, n, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && isspace(h[i]))
		i++;
	if (i < n && (h[i] == '{' ||
		      (h[i] == '[' && i + 1 < n &&
		       strchr("{]\n\r \t", h[i + 1]))))
		return "a JSON trace (Chrome's trace event format, or Perfetto's JSON export): capsim reads Perfetto's protobuf";
	if (perf_script(h, n))
		return "`perf script` text, perf's own layout (capsim reads ftrace's: trace-cmd record, or Perfetto)";
	return NULL;
}

/* A protobuf varint at [*p, end), at most 10 bytes */
static bool varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t r = 0;

	for (int i = 0; i < 10 && *p < end; i++) {
		uint8_t c = *(*p)++;

		r |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*v = r;
			return true;
		}
	}
	return false;
}

/* Its first record well formed, as far as @head holds it */
static bool first_packet(const uint8_t *head, size_t n)
{
	const uint8_t *p = head, *end = head + n, *pe;
	uint64_t len, tag, v;

	if (n < 2 || head[0] != 0x0a)
		return false;
	p++;
	if (!varint(&p, end, &len))
		return false;
	if (len == 0)
		return p == end || *p == 0x0a;
	pe = (uint64_t)(end - p) < len ? end : p + len;
	/* the packet's records, as far as the head holds them */
	while (p < pe) {
		if (!varint(&p, pe, &tag) || !(tag >> 3))
			return false;
		switch (tag & 7) {
		case 0:
			if (!varint(&p, pe, &v))
				return p >= pe - 10 && pe == end;
			break;
		case 1:
			p += 8;
			break;
		case 5:
			p += 4;
			break;
		case 2:
			if (!varint(&p, pe, &v))
				return pe == end;
			if (v > len)
				return false;
			p = (uint64_t)(pe - p) < v ? pe : p + v;
			break;
		default:
			return false;
		}
	}
	if (p > pe)
		return pe == end;
	return pe == end || *pe == 0x0a;
}

bool trace_sniff_perfetto(const unsigned char *head, size_t n)
{
	return n && head[0] == 0x0a &&
	       (first_packet(head, n) || trace_sniff_binary(head, n));
}
