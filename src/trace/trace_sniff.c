// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdbool.h>
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
