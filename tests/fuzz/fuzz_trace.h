/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the trace reader's harnesses (fuzz_trace_reader.c, text;
 * fuzz_trace_dat.c, trace.dat): the input as a file (a memfd, named by
 * /proc/self/fd), read whole through the trace reader with stderr
 * silenced, every event checked against what its header promises (CPU,
 * pid, time order, names, fields; with @cols, each field's column inside
 * its line); a bad file must end as bad input or an I/O error.
 */
#ifndef CAPSIM_FUZZ_TRACE_H
#define CAPSIM_FUZZ_TRACE_H

#include <fcntl.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "trace_reader.h"

/* ... and returns how it ended: 0, TRACE_FILE_BAD or TRACE_FILE_IO */
static inline int fuzz_read_trace(const uint8_t *data, size_t size,
				  bool sched_only, bool cols)
{
	static int quiet = -1, err_fd = -1;
	struct trace_reader r = { 0 };
	struct ftrace_event ev;
	uint64_t last = 0;
	char path[64];
	int fd, k, i;

	if (quiet < 0) {
		/* the reader (and libtracecmd) name what is wrong on stderr */
		quiet = open("/dev/null", O_WRONLY);
		err_fd = dup(2);
	}
	fd = memfd_create("trace", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	r.sched_only = sched_only;
	dup2(quiet, 2);
	k = trace_reader_open(&r, path);
	while (!k && (k = trace_reader_next(&r, &ev)) > 0) {
		if (ev.cpu < 0 || ev.cpu > 8191 || ev.pid < 0 ||
		    ev.pid > FTRACE_PID_MAX || ev.ts_ns < last || !ev.name ||
		    !ev.comm || ev.nr_fields < 0 ||
		    ev.nr_fields > FTRACE_MAX_FIELDS)
			abort();
		for (i = 0; i < ev.nr_fields; i++) {
			int col;

			if (!ev.fields[i].key || !ev.fields[i].val)
				abort();
			if (!cols)
				continue;
			col = trace_reader_col(&r, ev.fields[i].val);
			if (col < 1 || (size_t)col > r.line_len + 1)
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
	return k;
}

#endif
