/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Worker processes: compare and sweep run each point as `capsim run` in a
 * child (fork + exec of capsim itself), at most N at a time. A child's
 * stdout and stderr go to its own log file; a failed child is reported by
 * the caller and never stops the others.
 */
#ifndef CAPSIM_PROCS_H
#define CAPSIM_PROCS_H

#include "progress.h"

struct job {
	char **argv;		/* NULL-terminated; argv[0] is the program */
	char *log_path;		/* stdout and stderr of the child */
	const char *cwd;	/* the child's directory, or NULL */
	int status;		/* exit status; 128+N if killed by signal N */
	double wall_s;		/* fork to reap */
	double started;
};

/*
 * The capsim executable to run workers with: $CAPSIM_EXE if set, else this
 * process's own executable (/proc/self/exe). Caller frees.
 */
char *procs_self_exe(void);

/* Run @n jobs, at most @parallel at once; returns how many failed */
int procs_run(struct job *jobs, int n, int parallel, struct progress *pg);

/*
 * Jobs made one at a time, as a worker frees up, so that a long run (a
 * sweep of 10 000 points) never holds them all: start() is asked for job
 * 0, 1, ... in order and returns PROCS_RUN (@*j is to run), PROCS_SKIP
 * (nothing to run: done at once, status 0) or PROCS_STOP (said: start no
 * more, wait for the running ones); done() gets each job back once it
 * ended (status and wall_s set), in the order they end, and owns it.
 */
enum { PROCS_RUN, PROCS_SKIP, PROCS_STOP };
struct job_feed {
	void *ctx;
	int (*start)(void *ctx, int i, struct job **j);
	void (*done)(void *ctx, int i, struct job *j);
};

/* Run the @n jobs of @feed as procs_run() does; returns how many failed,
 * or -1 when start() stopped it */
int procs_run_feed(int n, int parallel, struct progress *pg,
		   const struct job_feed *feed);

/* The last lines of a job's log, for a failure report (caller frees) */
char *procs_log_tail(const char *log_path, int lines);

void job_free(struct job *j);

#endif
