// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE		/* vfork() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interrupt.h"
#include "procs.h"
#include "safe_write.h"
#include "util.h"

char *procs_self_exe(void)
{
	const char *env = getenv("CAPSIM_EXE");
	char buf[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return xstrdup(env);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return xstrdup("capsim");
	buf[n] = '\0';
	return xstrdup(buf);
}

static pid_t spawn(struct job *j)
{
	pid_t parent = getpid();
	sigset_t old;
	pid_t pid;
	/*
	 * The log opened here, before the child: a new file under its name
	 * (whatever had it removed first, a planted link itself rather than
	 * what it points to: safe_write.h), close-on-exec so that no other
	 * child inherits it, dup2()ed onto the child's output below.
	 */
	int log = safe_open_fresh(j->log_path);

	if (log < 0)
		fprintf(stderr, "capsim: cannot write %s: %s\n", j->log_path,
			strerror(errno));

	/* no handler of the parent's may run in the child, nor a signal
	 * find a child the handler does not know yet */
	interrupt_block(&old);
	/*
	 * vfork(), not fork(): a fork write-protects the whole parent, and a
	 * sweep's parent, which prepares and collects points between its
	 * forks, then took a copy-on-write fault (and a TLB flush on the
	 * other CPUs) on every page it wrote. The child shares our memory
	 * until execv(), so it only makes system calls (no stdio, no
	 * malloc), and we wait meanwhile.
	 */
	pid = vfork();
	if (pid == 0) {
		int nul;

		if (interrupt_child_setup(parent))
			_exit(128 + SIGTERM);
		interrupt_unblock(&old);
		nul = open("/dev/null", O_RDONLY);
		if (log < 0 || nul < 0 || (j->cwd && chdir(j->cwd)))
			_exit(127);
		dup2(nul, STDIN_FILENO);
		dup2(log, STDOUT_FILENO);
		dup2(log, STDERR_FILENO);
		close(nul);
		execv(j->argv[0], j->argv);
		{
			const char *why = strerror(errno);
			ssize_t w;

			/* into the log: write() only, see above */
			w = write(STDERR_FILENO, "capsim: cannot run ", 19);
			w += write(STDERR_FILENO, j->argv[0], strlen(j->argv[0]));
			w += write(STDERR_FILENO, ": ", 2);
			w += write(STDERR_FILENO, why, strlen(why));
			w += write(STDERR_FILENO, "\n", 1);
			(void)w;
		}
		_exit(127);
	}
	if (pid > 0) {
		/* the child does it too: whichever runs first, the group
		 * exists before the handler can signal it */
		setpgid(pid, pid);
		interrupt_child_add(pid);
	}
	interrupt_unblock(&old);
	if (log >= 0)
		close(log);
	return pid;
}

/* procs_run_feed()'s workers: which job each slot runs, and the counts */
struct run_state {
	pid_t *pids;
	int *slot_job;
	struct job **slot;
	int parallel, next, running, done, failed;
	bool stopped;
};

static void job_ended(struct run_state *st, const struct job_feed *feed,
		      int i, struct job *j, struct progress *pg)
{
	st->done++;
	if (j && j->status)
		st->failed++;
	feed->done(feed->ctx, i, j);
	if (pg)
		progress_update(pg, st->done);
}

/* Start jobs while a slot is free and the feed has some */
static void start_jobs(struct run_state *st, int n, const struct job_feed *feed,
		       struct progress *pg)
{
	while (!st->stopped && st->running < st->parallel && st->next < n) {
		struct job *j = NULL;
		int i = st->next++, s, what = feed->start(feed->ctx, i, &j);

		if (what == PROCS_STOP) {
			st->stopped = true;
			st->done += n - i;
			return;
		}
		if (what == PROCS_SKIP) {
			job_ended(st, feed, i, j, pg);
			continue;
		}
		for (s = 0; s < st->parallel && st->pids[s]; s++)
			;
		j->started = progress_now();
		st->pids[s] = spawn(j);
		if (st->pids[s] < 0) {
			j->status = 127;
			st->pids[s] = 0;
			job_ended(st, feed, i, j, pg);
			continue;
		}
		st->slot_job[s] = i;
		st->slot[s] = j;
		st->running++;
	}
}

int procs_run_feed(int n, int parallel, struct progress *pg,
		   const struct job_feed *feed)
{
	struct run_state st = { .parallel = parallel > 0 ? parallel : 1 };
	int s;

	st.pids = xcalloc((size_t)st.parallel, sizeof(pid_t));
	st.slot_job = xcalloc((size_t)st.parallel, sizeof(int));
	st.slot = xcalloc((size_t)st.parallel, sizeof(struct job *));
	fflush(NULL);	/* a child must not flush our buffers again */
	while (st.done < n) {
		struct job *j;
		int status;
		pid_t pid;

		start_jobs(&st, n, feed, pg);
		if (!st.running)
			continue;
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (s = 0; s < st.parallel && st.pids[s] != pid; s++)
			;
		if (s == st.parallel)
			continue;	/* not one of ours */
		interrupt_child_del(pid);
		j = st.slot[s];
		st.pids[s] = 0;
		st.running--;
		j->wall_s = progress_now() - j->started;
		j->status = WIFEXITED(status) ? WEXITSTATUS(status) :
			    128 + WTERMSIG(status);
		job_ended(&st, feed, st.slot_job[s], j, pg);
	}
	free(st.pids);
	free(st.slot_job);
	free(st.slot);
	return st.stopped ? -1 : st.failed;
}

/* procs_run()'s feed: the caller's array, which keeps the jobs */
static int array_start(void *ctx, int i, struct job **j)
{
	*j = &((struct job *)ctx)[i];
	return PROCS_RUN;
}

static void array_done(void *ctx, int i, struct job *j)
{
	(void)ctx;
	(void)i;
	(void)j;
}

int procs_run(struct job *jobs, int n, int parallel, struct progress *pg)
{
	struct job_feed feed = { jobs, array_start, array_done };

	return procs_run_feed(n, parallel, pg, &feed);
}

char *procs_log_tail(const char *log_path, int lines)
{
	size_t len = 0;
	char *text = read_file(log_path, &len), *p;
	int seen = 0;

	if (!text)
		return xstrdup("(no log)");
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	for (p = text + len; p > text; p--) {
		if (p[-1] == '\n' && ++seen == lines)
			break;
	}
	p = xstrdup(p);
	free(text);
	return p;
}

void job_free(struct job *j)
{
	char **a;

	for (a = j->argv; a && *a; a++)
		free(*a);
	free(j->argv);
	free(j->log_path);
}
