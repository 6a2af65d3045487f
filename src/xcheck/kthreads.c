// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diag.h"
#include "jsondoc.h"
#include "kthreads.h"

/* "ksoftirqd/1" -> "kt-ksoftirqd-1": a task name the grammar takes */
static char *task_name(const char *comm)
{
	char *n = xasprintf("kt-%s", comm);

	for (char *p = n + 3; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			*p = '-';
	return n;
}

/* The CPU a per-CPU kernel thread's comm names ("name/N"), or -1 */
static int comm_cpu(const char *comm, int ncpus)
{
	const char *slash = strrchr(comm, '/');
	char *end;
	long c;

	if (!slash || !slash[1])
		return -1;
	c = strtol(slash + 1, &end, 10);
	return *end || c < 0 || c >= ncpus ? -1 : (int)c;
}

int kthreads_workload(const char *wfile, const struct e2e_run *guest,
		      double window_s, int ncpus, const char *out,
		      const char *out_name)
{
	struct diag d;
	struct jdoc doc;
	json_t *tasks;
	int added = 0;

	diag_init(&d, false);
	if (jdoc_load_rtapp_file(&doc, wfile, &d)) {
		diag_free(&d);
		return -1;
	}
	tasks = json_object_get(doc.root, "tasks");
	if (!json_is_object(tasks)) {
		fprintf(stderr, "capsim: %s: no tasks object\n", wfile);
		goto fail;
	}
	for (int i = 0; i < guest->nothers; i++) {
		const struct e2e_other *o = &guest->others[i];
		double period_us, run_us;
		char *name;
		json_t *t;
		int cpu;

		if (o->enqueues < 1 || !strncmp(o->comm, "swapper", 7))
			continue;
		period_us = window_s * 1e6 / (double)o->enqueues;
		run_us = (double)o->run_ns / 1e3 / (double)o->enqueues;
		if (run_us < 1)
			run_us = 1;
		if (run_us > period_us / 2)
			run_us = period_us / 2;
		name = task_name(o->comm);
		/* runtime: wall time, as a kernel thread's short burst is */
		t = json_pack("{s:I,s:{s:s,s:I}}", "runtime",
			      (json_int_t)(run_us + 0.5), "timer", "ref", name,
			      "period", (json_int_t)(period_us + 0.5));
		cpu = comm_cpu(o->comm, ncpus);
		if (cpu >= 0)
			json_object_set_new(t, "cpus", json_pack("[i]", cpu));
		json_object_set_new(tasks, name, t);
		free(name);
		added++;
	}
	if (json_dump_file(doc.root, out, JSON_INDENT(2))) {
		fprintf(stderr, "capsim: cannot write %s\n", out_name);
		goto fail;
	}
	jdoc_free(&doc);
	diag_free(&d);
	return added;
fail:
	jdoc_free(&doc);
	diag_free(&d);
	return -1;
}
