// SPDX-License-Identifier: GPL-2.0
/*
 * `capsim import`'s model building (src/import/) on arbitrary text, every
 * step of run_import() in import_cmd.c in its order: the trace read
 * through the schedule, the background folded, phases, dependencies,
 * kinds, --explain, and the rt-app JSON written, which capsim's workload
 * parser must then take (the import promises a workload `capsim run`
 * reads). The first byte picks the platform: sym4 (4 CPUs, one domain)
 * or juno-r0 (6 CPUs, two), and whether a window is set.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "import.h"
#include "platform.h"
#include "util.h"
#include "workload.h"

/* Names as the command gives them, made unique by their index: the
 * command's own rule (import_cmd.c) is not the model's */
static void name_tasks(struct import_model *m)
{
	for (int i = 0; i < m->ss.ntasks; i++)
		import_task(m, i)->name = xasprintf("t%d", i);
}

/* The written workload must load: an import is a valid rt-app file */
static void check_output(const char *path)
{
	struct workload *wl;
	struct diag d;

	diag_init(&d, true);
	wl = workload_load(path, &d);
	diag_free(&d);
	if (!wl) {	/* again, saying why */
		diag_init(&d, false);
		workload_load(path, &d);
		abort();
	}
	workload_free(wl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct platform *pls[2];
	static int quiet = -1, err_fd = -1;
	static FILE *devnull;
	static char *out;
	struct import_opts o = { .to_s = -1, .min_busy_pct = IMPORT_MIN_BUSY_PCT };
	struct import_model m = { .o = &o };
	char path[64];
	int fd, r;

	if (!size)
		return 0;
	if (!pls[0]) {
		char tmpl[] = "/tmp/capsim-fuzz-import.XXXXXX";
		struct diag d;

		diag_init(&d, true);
		pls[0] = platform_load("sym4", &d);
		pls[1] = platform_load("juno-r0", &d);
		diag_free(&d);
		if (!pls[0] || !pls[1] || !mkdtemp(tmpl))
			abort();
		out = xasprintf("%s/w.json", tmpl);
		/* the reader names each bad line on stderr: not in the log
		 * of every execution */
		quiet = open("/dev/null", O_WRONLY);
		err_fd = dup(2);
		devnull = fopen("/dev/null", "w");
	}
	/* a regular file, as the trace reader requires, without the disk */
	fd = memfd_create("trace", 0);
	if (fd < 0 || write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	o.trace = path;
	o.out = out;
	if (data[0] & 2) {	/* a window from 1 ms to 2 s */
		o.from_s = 0.001;
		o.to_s = 2;
	}
	m.pl = pls[data[0] & 1];
	dup2(quiet, 2);
	r = import_read(&m);
	if (!r) {
		name_tasks(&m);
		import_fold(&m, NULL, NULL);
		for (int i = 0; i < m.ss.ntasks; i++)
			import_phases(&m, import_task(&m, i));
		import_deps(&m);
		for (int i = 0; i < m.ss.ntasks; i++)
			import_loops(&m, import_task(&m, i));
		for (int i = 0; i < m.ss.ntasks; i++)
			import_classify(&m, import_task(&m, i));
		import_explain(&m, devnull);
		r = import_write_rtapp(&m);
	}
	dup2(err_fd, 2);
	/* 0, an I/O error or bad input: nothing else */
	if (r != 0 && r != 1 && r != 2)
		abort();
	if (!r)
		check_output(out);
	unlink(out);
	import_model_free(&m);
	close(fd);
	return 0;
}
