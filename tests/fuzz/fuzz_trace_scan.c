// SPDX-License-Identifier: GPL-2.0
/*
 * The trace analysis (src/trace/trace_scan.c) on arbitrary text, as
 * `capsim plot` runs it on a kernel's trace without a platform: the pid
 * and CPU tables, the OPPs a trace adds, the accounting per event. The
 * first byte picks 4 096 CPUs without a platform or sym4's 4.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "platform.h"
#include "trace_scan.h"

static void segment(void *arg, const struct scan_task *t, uint64_t t0,
		    uint64_t t1, int state, int cpu)
{
	(void)arg;
	/* a segment is of a task the scan knows, on a CPU it sized for */
	if (t0 > t1 || !t || (state == LANE_RUNNING && cpu < 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct platform *sym4;
	static int quiet = -1, err_fd = -1;
	struct scan sc;
	char path[64];
	int fd, r, i;

	if (!size)
		return 0;
	if (!sym4) {
		struct diag d;

		diag_init(&d, true);
		sym4 = platform_load("sym4", &d);
		diag_free(&d);
		if (!sym4)
			abort();
		/* the scan names each bad line on stderr: not in the log of
		 * every execution */
		quiet = open("/dev/null", O_WRONLY);
		err_fd = dup(2);
	}
	/* a regular file, as scan_trace() requires, without the disk */
	fd = memfd_create("trace", 0);
	if (fd < 0 || write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&sc, 0, sizeof(sc));
	sc.pl = data[0] & 1 ? sym4 : NULL;
	sc.hooks.segment = segment;
	dup2(quiet, 2);
	r = scan_trace(&sc, path);
	dup2(err_fd, 2);
	if (r != 0 && r != -1 && r != SCAN_BAD_INPUT)
		abort();
	if (sc.ncpus > (sc.pl ? sc.pl->ncpus : SCAN_CPU_MAX))
		abort();
	for (i = 0; !r && i < sc.ss.ntasks; i++) {
		const struct scan_task *t = scan_task_at(&sc, i);

		if (t->st.pid <= 0 || scan_task_by_pid(&sc, t->st.pid) != t ||
		    scan_task_last_cpu(t) >= sc.ncpus)
			abort();
	}
	for (i = 0; i < sc.ndoms; i++)
		if (sc.doms[i].nopps > SCAN_OPP_MAX)
			abort();
	scan_free(&sc);
	close(fd);
	return 0;
}
