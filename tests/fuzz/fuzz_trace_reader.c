// SPDX-License-Identifier: GPL-2.0
/*
 * The trace reader (src/trace/trace_reader.c) on arbitrary text: format
 * detection, trace-cmd's header lines and plugin forms, systrace's TGID
 * column and HTML wrapper, markers, the time-order check. Every event it
 * hands out must hold what its header promises. Input that starts as a
 * trace.dat is left out: that face is libtracecmd's parser, not ours.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "trace_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int quiet = -1, err_fd = -1;
	struct trace_reader r = { 0 };
	struct ftrace_event ev;
	uint64_t last = 0;
	char path[64];
	int fd, k, i;

	if (size >= 3 && !memcmp(data, "\x17\x08\x44", 3))
		return 0;
	if (quiet < 0) {
		/* the reader names each bad line on stderr */
		quiet = open("/dev/null", O_WRONLY);
		err_fd = dup(2);
	}
	fd = memfd_create("trace", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	r.sched_only = size && (data[0] & 1);
	dup2(quiet, 2);
	k = trace_reader_open(&r, path);
	while (!k && (k = trace_reader_next(&r, &ev)) > 0) {
		if (ev.cpu < 0 || ev.cpu > 8191 || ev.pid < 0 ||
		    ev.pid > FTRACE_PID_MAX || ev.ts_ns < last || !ev.name ||
		    !ev.comm || ev.nr_fields < 0 ||
		    ev.nr_fields > FTRACE_MAX_FIELDS)
			abort();
		for (i = 0; i < ev.nr_fields; i++) {
			if (!ev.fields[i].key || !ev.fields[i].val)
				abort();
			if (trace_reader_col(&r, ev.fields[i].val) < 1 ||
			    (size_t)trace_reader_col(&r, ev.fields[i].val) > r.line_len + 1)
				abort();
		}
		last = ev.ts_ns;
		k = 0;
	}
	dup2(err_fd, 2);
	if (k != 0 && k != TRACE_FILE_BAD && k != TRACE_FILE_IO)
		abort();
	trace_reader_close(&r);
	close(fd);
	return 0;
}
