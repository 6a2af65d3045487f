// SPDX-License-Identifier: GPL-2.0
/* POSIX and Linux calls only: with _GNU_SOURCE, <sys/stat.h> would pull
 * <linux/stat.h>, which finds kcompat's <linux/types.h> first. */
#undef _GNU_SOURCE
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "safe_write.h"
#include "util.h"

static const int watched[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction saved[ARRAY_SIZE(watched)];
static bool installed;

/*
 * The handler's state: written by the main program with the signals
 * blocked, read by the handler. Fixed arrays: the handler may not
 * allocate. More children than the table holds still die with their
 * parent (PR_SET_PDEATHSIG), only later.
 */
#define MAX_CHILDREN 1024
#define MAX_DIRS 4	/* nested: compare's directory, a plot's inside it */
static char dirs_to_remove[MAX_DIRS][PATH_MAX];
static char note[PATH_MAX + 256];
static pid_t children[MAX_CHILDREN];

/* How long the workers get to stop on SIGTERM before SIGKILL */
#define STOP_GRACE_MS 2000

void interrupt_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(watched); i++)
		sigaddset(&set, watched[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void interrupt_unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* The kernel's record, as getdents64(2) fills it */
struct dirent64_rec {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* Empty the directory open as @fd; 0 or -1 */
static int empty_dir(int fd, int depth)
{
	char buf[2048] __attribute__((aligned(8)));
	int ret = 0;

	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		bool removed = false;
		long off;

		if (n < 0)
			return -1;
		if (n == 0)
			break;
		for (off = 0; off < n;) {
			struct dirent64_rec *e = (void *)(buf + off);
			const char *name = e->name;

			off += e->reclen;
			if (!strcmp(name, ".") || !strcmp(name, ".."))
				continue;
			if (!unlinkat(fd, name, 0)) {
				removed = true;
				continue;
			}
			if (errno != EISDIR && errno != EPERM) {
				ret = -1;
				continue;
			}
			/* a directory: depth-first, links never followed */
			if (depth < 64) {
				int sub = openat(fd, name, O_RDONLY |
						 O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);

				if (sub >= 0) {
					if (empty_dir(sub, depth + 1))
						ret = -1;
					close(sub);
				}
			}
			if (unlinkat(fd, name, AT_REMOVEDIR))
				ret = -1;
			else
				removed = true;
		}
		/* the directory changed under the reads: read it again */
		if (removed && lseek(fd, 0, SEEK_SET) < 0)
			return -1;
		if (!removed && ret)
			break;
	}
	return ret;
}

int interrupt_remove_tree(const char *path)
{
	int fd, ret;

	if (!unlink(path) || errno == ENOENT)
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = empty_dir(fd, 0);
	close(fd);
	if (rmdir(path))
		ret = -1;
	return ret;
}

static void signal_children(int sig)
{
	int i;

	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0) {
			kill(-children[i], sig);
			kill(children[i], sig);
		}
}

/* Reap the children that ended; true when none is left */
static bool reap_children(void)
{
	bool left = false;
	int i;

	for (i = 0; i < MAX_CHILDREN; i++) {
		if (children[i] <= 0)
			continue;
		if (waitpid(children[i], NULL, WNOHANG) == 0)
			left = true;
		else
			children[i] = 0;
	}
	return !left;
}

/* Async-signal-safe: kill(), waitpid(), nanosleep(), the removal above */
static void on_signal(int sig)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int ms, i;

	signal_children(SIGTERM);
	for (ms = 0; ms < STOP_GRACE_MS && !reap_children(); ms += 10)
		nanosleep(&tick, NULL);
	signal_children(SIGKILL);
	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0)
			waitpid(children[i], NULL, 0);
	for (i = MAX_DIRS - 1; i >= 0; i--)
		if (dirs_to_remove[i][0])
			interrupt_remove_tree(dirs_to_remove[i]);
	/* the files being written aside in directories that stay */
	safe_write_remove_temps();
	if (note[0] && write(STDERR_FILENO, note, strlen(note)) < 0)
		note[0] = '\0';	/* nowhere to say it: nothing else to do */
	for (i = 0; i < (int)ARRAY_SIZE(watched); i++)
		sigaction(watched[i], &saved[i], NULL);
	/* delivered once the handler returns: the process dies of it */
	raise(sig);
}

static void install(void)
{
	struct sigaction sa;
	size_t i;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(watched); i++)
		sigaddset(&sa.sa_mask, watched[i]);
	for (i = 0; i < ARRAY_SIZE(watched); i++) {
		sigaction(watched[i], NULL, &saved[i]);
		/* ignored on entry (a background job's SIGINT) stays ignored */
		if (saved[i].sa_handler != SIG_IGN)
			sigaction(watched[i], &sa, NULL);
	}
	installed = true;
}

void interrupt_watch_dir(const char *dir)
{
	sigset_t old;
	int i;

	interrupt_block(&old);
	install();
	for (i = 0; i < MAX_DIRS - 1 && dirs_to_remove[i][0]; i++)
		;
	/* deeper than the table: the innermost directory takes the last
	 * place (an outer one, when removed, takes it along) */
	snprintf(dirs_to_remove[i], sizeof(dirs_to_remove[i]), "%s", dir);
	interrupt_unblock(&old);
}

void interrupt_arm(void)
{
	sigset_t old;

	interrupt_block(&old);
	install();
	interrupt_unblock(&old);
}

void interrupt_forget_dir(const char *dir)
{
	sigset_t old;
	int i;

	interrupt_block(&old);
	for (i = 0; i < MAX_DIRS; i++)
		if (!strcmp(dirs_to_remove[i], dir))
			dirs_to_remove[i][0] = '\0';
	interrupt_unblock(&old);
}

void interrupt_set_note(const char *text)
{
	sigset_t old;

	interrupt_block(&old);
	install();
	snprintf(note, sizeof(note), "%s", text ? text : "");
	interrupt_unblock(&old);
}

void interrupt_child_add(pid_t pid)
{
	sigset_t old;
	int i;

	interrupt_block(&old);
	install();
	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i] <= 0) {
			children[i] = pid;
			break;
		}
	interrupt_unblock(&old);
}

void interrupt_child_del(pid_t pid)
{
	sigset_t old;
	int i;

	interrupt_block(&old);
	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
	interrupt_unblock(&old);
}

int interrupt_child_setup(pid_t parent)
{
	size_t i;

	setpgid(0, 0);
	/* not the parent's handler: it would stop the parent's children */
	for (i = 0; i < ARRAY_SIZE(watched); i++)
		if (installed)
			sigaction(watched[i], &saved[i], NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* the parent died before the request: nobody will send it */
	return getppid() != parent ? -1 : 0;
}
