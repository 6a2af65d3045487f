// SPDX-License-Identifier: GPL-2.0
/*
 * Print a trace's events as trace_reader.h normalizes them, one a line:
 * "TS_NS CPU PID EVENT key=value ..." (numbers in decimal, the line's own
 * comm left out: systrace writes "<...>" where it lost it). The forms
 * test (forms.sh) sorts and digests this to show that every format of
 * one capture yields the same events; the bench times it.
 * --count prints "N events (FORM)", and ", L lost" where the trace says
 * it lost events.
 * Usage: trace_events [--count] TRACE
 */
#include <stdlib.h>
#include <string.h>

#include "trace_reader.h"

static void put_value(const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);

	if (*v && !*end)
		printf("%lld", n);
	else
		fputs(v, stdout);
}

int main(int argc, char **argv)
{
	struct trace_reader r = { 0 };
	struct ftrace_event ev;
	bool count = argc == 3 && !strcmp(argv[1], "--count");
	int k, i;

	if (argc != 2 + count) {
		fprintf(stderr, "usage: trace_events [--count] TRACE\n");
		return 2;
	}
	if ((k = trace_reader_open(&r, argv[argc - 1])) != 0)
		return k == TRACE_FILE_IO ? 1 : 2;
	while ((k = trace_reader_next(&r, &ev)) > 0) {
		if (count)
			continue;
		printf("%llu %d %d %s", (unsigned long long)ev.ts_ns, ev.cpu,
		       ev.pid, ev.name);
		for (i = 0; i < ev.nr_fields; i++) {
			printf(" %s=", ev.fields[i].key);
			put_value(ev.fields[i].val);
		}
		putchar('\n');
	}
	if (count && r.lost)
		printf("%ld events (%s), %ld lost\n", r.events,
		       trace_format_name(r.format), r.lost);
	else if (count)
		printf("%ld events (%s)\n", r.events, trace_format_name(r.format));
	trace_reader_close(&r);
	return k < 0 ? (k == TRACE_FILE_IO ? 1 : 2) : 0;
}
