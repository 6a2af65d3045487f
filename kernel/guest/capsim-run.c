// SPDX-License-Identifier: GPL-2.0
/*
 * capsim-run: the in-guest workload runner and trace checker.
 *
 *   capsim-run [--policy rfc|uclamp|none] WORKLOAD.json
 *                                 run a workload (runner.c)
 *   capsim-run plan [--policy P] WORKLOAD.json
 *                                 print what a run would do, do nothing
 *   capsim-run replay TRACE       check the cap_clamp events of a trace
 *   capsim-run spin SECONDS       busy loop (a hog)
 *   capsim-run periodic RUN_US PERIOD_US SECONDS [fifo PRIO]
 *   capsim-run write PATH VALUE   write VALUE, print OK or the errno name
 *
 * Workloads are read by the simulator's own parser (src/sim/workload.c):
 * the same files, the same grammar, the same errors (file:line:column).
 * The policy defaults to the workload's capsim.policy, else rfc.
 * CAPSIM_CGROOT and CAPSIM_TRACE_MARKER move the cgroup root and the trace
 * marker (the host tests run workloads against a scratch directory).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "clamp_replay.h"
#include "runner.h"
#include "work.h"
#include "workload.h"

static const char usage[] =
	"usage: capsim-run [--policy rfc|uclamp|none] WORKLOAD.json\n"
	"       capsim-run plan [--policy rfc|uclamp|none] WORKLOAD.json\n"
	"       capsim-run replay TRACE\n"
	"       capsim-run spin SECONDS\n"
	"       capsim-run periodic RUN_US PERIOD_US SECONDS [fifo PRIO]\n"
	"       capsim-run write PATH VALUE\n";

static volatile unsigned long sink;

static int cmd_workload(int argc, char **argv, bool plan_only)
{
	struct runner_opts o = {
		.plan_only = plan_only,
		.cgroot = getenv("CAPSIM_CGROOT") ? getenv("CAPSIM_CGROOT") :
			  "/sys/fs/cgroup",
		.trace_marker = getenv("CAPSIM_TRACE_MARKER") ?
				getenv("CAPSIM_TRACE_MARKER") :
				"/sys/kernel/tracing/trace_marker",
		.out = stdout,
	};
	enum clamp_policy policy = POLICY_UNSET;
	char names[CLAMP_NAMES_LIST_MAX];
	const char *file = NULL;
	struct workload *wl;
	struct diag d;
	int i, ret;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--policy") && i + 1 < argc) {
			if (clamp_policy_parse(argv[++i], &policy)) {
				fprintf(stderr, "capsim-run: --policy %s: allowed %s\n",
					argv[i],
					clamp_names_list(CLAMP_NAMES_POLICY,
							 false, names,
							 sizeof(names)));
				return 2;
			}
		} else if (argv[i][0] == '-' || file) {
			goto bad;
		} else {
			file = argv[i];
		}
	}
	if (!file)
		goto bad;
	diag_init(&d, false);
	wl = workload_load(file, &d);
	diag_free(&d);
	if (!wl)
		return 2;
	/* the option, else the workload's, else the default, as the
	 * simulator's sim_opts_resolve() chooses */
	o.policy = policy ? policy : wl->policy ? wl->policy :
		   CLAMP_POLICY_DEFAULT;
	ret = runner_run(wl, &o);
	workload_free(wl);
	return ret;
bad:
	fputs(usage, stderr);
	return 2;
}

static int cmd_periodic(int argc, char **argv)
{
	long run = atol(argv[0]), period = atol(argv[1]);
	long long end = now_ns(CLOCK_MONOTONIC) + (long long)(atof(argv[2]) * 1e9);
	long long next = now_ns(CLOCK_MONOTONIC);

	if (argc > 4 && !strcmp(argv[3], "fifo")) {
		struct sched_param sp = { .sched_priority = atoi(argv[4]) };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			perror("sched_setscheduler");
	}
	while (now_ns(CLOCK_MONOTONIC) < end) {
		work_runtime((uint64_t)run);
		next += period * 1000LL;
		sleep_until_ns(next);
	}
	return 0;
}

/* write VALUE (as given, no newline) to PATH; print OK or the errno name */
static int cmd_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0 || write(fd, val, strlen(val)) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (!err)
		printf("OK\n");
	else if (err == EINVAL)
		printf("EINVAL\n");
	else if (err == ERANGE)
		printf("ERANGE\n");
	else
		printf("E%d\n", err);
	return err ? 1 : 0;
}

/* the trace's clamp events against the core (src/xcheck/clamp_replay.c) */
static int cmd_replay(const char *file)
{
	struct clamp_replay_result r;

	if (clamp_replay_trace(file, stderr, &r))
		return 2;
	clamp_replay_print(stdout, &r);
	return clamp_replay_passed(&r) ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "replay"))
		return cmd_replay(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "spin")) {
		long long end = now_ns(CLOCK_MONOTONIC) +
				(long long)(atof(argv[2]) * 1e9);

		while (now_ns(CLOCK_MONOTONIC) < end)
			sink++;
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "periodic"))
		return cmd_periodic(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "plan"))
		return cmd_workload(argc - 2, argv + 2, true);
	if (argc >= 2 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h"))
		return cmd_workload(argc - 1, argv + 1, false);
	fputs(usage, argc >= 2 ? stdout : stderr);
	return argc >= 2 ? 0 : 2;
}
