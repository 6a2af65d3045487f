// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interrupt.h"
#include "procs.h"
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

	/* no handler of the parent's may run in the child, nor a signal
	 * find a child the handler does not know yet */
	interrupt_block(&old);
	pid = fork();
	if (pid == 0) {
		int fd, nul;

		if (interrupt_child_setup(parent))
			_exit(128 + SIGTERM);
		interrupt_unblock(&old);
		fd = open(j->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		nul = open("/dev/null", O_RDONLY);
		if (fd < 0 || nul < 0 || (j->cwd && chdir(j->cwd)))
			_exit(127);
		dup2(nul, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
		close(nul);
		execv(j->argv[0], j->argv);
		fprintf(stderr, "capsim: cannot run %s: %s\n", j->argv[0],
			strerror(errno));
		_exit(127);
	}
	if (pid > 0) {
		/* the child does it too: whichever runs first, the group
		 * exists before the handler can signal it */
		setpgid(pid, pid);
		interrupt_child_add(pid);
	}
	interrupt_unblock(&old);
	return pid;
}

int procs_run(struct job *jobs, int n, int parallel, struct progress *pg)
{
	pid_t *pids = xcalloc((size_t)(parallel > 0 ? parallel : 1),
			      sizeof(pid_t));
	int *slot_job = xcalloc((size_t)(parallel > 0 ? parallel : 1),
				sizeof(int));
	int next = 0, running = 0, done = 0, failed = 0, i;

	if (parallel < 1)
		parallel = 1;
	fflush(NULL);	/* a child must not flush our buffers again */
	while (done < n) {
		int status, s;
		pid_t pid;

		while (running < parallel && next < n) {
			for (s = 0; s < parallel && pids[s]; s++)
				;
			jobs[next].started = progress_now();
			pids[s] = spawn(&jobs[next]);
			if (pids[s] < 0) {
				jobs[next].status = 127;
				pids[s] = 0;
				failed++;
				done++;
				next++;
				continue;
			}
			slot_job[s] = next++;
			running++;
		}
		if (!running)
			continue;
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (s = 0; s < parallel && pids[s] != pid; s++)
			;
		if (s == parallel)
			continue;	/* not one of ours */
		interrupt_child_del(pid);
		i = slot_job[s];
		pids[s] = 0;
		running--;
		done++;
		jobs[i].wall_s = progress_now() - jobs[i].started;
		jobs[i].status = WIFEXITED(status) ? WEXITSTATUS(status) :
				 128 + WTERMSIG(status);
		if (jobs[i].status)
			failed++;
		if (pg)
			progress_update(pg, done);
	}
	free(pids);
	free(slot_job);
	return failed;
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
