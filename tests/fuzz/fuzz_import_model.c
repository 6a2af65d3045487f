// SPDX-License-Identifier: GPL-2.0
/*
 * `capsim import`'s model building (src/import/) on arbitrary text, every
 * step of run_import() in import_cmd.c in its order: the trace read
 * through the schedule, comms cut and tasks named (the command's own
 * rule, import_names.c), the background folded, phases, dependencies,
 * loops, runtime, barriers, kinds, --explain, and the rt-app JSON
 * written. The oracle is `capsim validate`'s whole check of the written
 * workload (src/sim's sim_validate(): parse, group rules, events, its
 * capsim.platform, the machine built), which the import promises, plus
 * every task it wrote being one of the workload's (a name written twice
 * loses one). The import's own check of its output is off here
 * (import_opts.unchecked): it would turn a workload capsim refuses into
 * an exit 2, which is bad input's status, not a finding. A first byte
 * 0..3 picks the platform, sym4 (4 CPUs, one domain) or juno-r0 (6 CPUs,
 * two), and whether a window is set; any other starts the trace itself,
 * imported on juno-r0 without a window, so that a trace file is a seed
 * as it is (the fixtures, tests/fuzz/seeds/import_model/). A trace.dat
 * (its magic) is left to fuzz-trace_dat: mutated, it reaches
 * libtracecmd's own crashes and huge allocations (docs/fuzzing.md,
 * "Results"), not the import.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "import.h"
#include "platform.h"
#include "sim.h"
#include "util.h"
#include "workload.h"

/* The tasks the import writes: its own, and a background per CPU that
 * runs at least 1 us a period (import_rtapp.c's put_background()) */
static int tasks_written(const struct import_model *m)
{
	double window = (double)(m->we - m->ws);
	int i, n = 0;

	for (i = 0; i < m->ss.ntasks; i++)
		n += !import_task(m, i)->folded;
	for (i = 0; i < m->ncpus; i++)
		n += m->bg_work[i] * IMPORT_BG_PERIOD_US / window >= 1.0;
	return n;
}

/* The written workload must be one `capsim validate` takes, with every
 * task written */
static void check_output(const char *path, int ntasks)
{
	struct workload *wl;
	struct diag d;

	diag_init(&d, true);
	if (!sim_validate(path, NULL, NULL, &d, NULL)) {
		diag_free(&d);
		diag_init(&d, false);	/* again, saying why */
		sim_validate(path, NULL, NULL, &d, NULL);
		abort();
	}
	diag_free(&d);
	diag_init(&d, true);
	wl = workload_load(path, &d);
	diag_free(&d);
	if (!wl || wl->ntasks != ntasks) {
		fprintf(stderr, "%d tasks written, %d in the workload\n", ntasks,
			wl ? wl->ntasks : -1);
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
	struct import_opts o = { .to_s = -1, .min_busy_pct = IMPORT_MIN_BUSY_PCT,
				 .unchecked = true };
	struct import_model m = { .o = &o };
	char path[64];
	int fd, r, ntasks = 0, sel;
	size_t skip;

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
	sel = data[0] < 4 ? data[0] : 1;
	skip = data[0] < 4;
	if (size - skip >= 3 && !memcmp(data + skip, "\027\010D", 3))
		return 0;	/* a trace.dat: fuzz-trace_dat's */
	/* a regular file, as the trace reader requires, without the disk */
	fd = memfd_create("trace", 0);
	if (fd < 0 || write(fd, data + skip, size - skip) != (ssize_t)(size - skip))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	o.trace = path;
	o.out = out;
	if (sel & 2) {	/* a window from 1 ms to 2 s */
		o.from_s = 0.001;
		o.to_s = 2;
	}
	m.pl = pls[sel & 1];
	dup2(quiet, 2);
	r = import_read(&m);
	if (!r) {
		import_cap_comms(&m);
		import_name_tasks(&m);
		import_fold(&m, NULL, NULL);
		for (int i = 0; i < m.ss.ntasks; i++)
			import_phases(&m, import_task(&m, i));
		import_deps(&m);
		for (int i = 0; i < m.ss.ntasks; i++)
			import_loops(&m, import_task(&m, i));
		for (int i = 0; i < m.ss.ntasks; i++)
			import_runtime(&m, import_task(&m, i));
		import_barriers(&m);
		for (int i = 0; i < m.ss.ntasks; i++)
			import_classify(&m, import_task(&m, i));
		import_explain(&m, devnull);
		r = import_write_rtapp(&m);
		ntasks = tasks_written(&m);
	}
	dup2(err_fd, 2);
	/* 0, an I/O error or bad input: nothing else */
	if (r != 0 && r != 1 && r != 2)
		abort();
	if (!r)
		check_output(out, ntasks);
	unlink(out);
	import_model_free(&m);
	close(fd);
	return 0;
}
