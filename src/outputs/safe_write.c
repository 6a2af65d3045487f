// SPDX-License-Identifier: GPL-2.0
/*
 * Files written aside and renamed, never through a name capsim did not
 * create: safe_write.h says why. POSIX *at() calls on one descriptor of
 * the directory, so a directory renamed or replaced meanwhile is not
 * where the file lands.
 */
#undef _GNU_SOURCE
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "safe_write.h"
#include "util.h"

/* One file being written: where, under which temporary name */
struct safe_tmp {
	FILE *f;
	int dirfd;
	char *name;		/* the final name, in dirfd */
	char tmp[NAME_MAX + 1];	/* the temporary, in dirfd */
};

/*
 * Every temporary open, for the signal handlers. Changed only with the
 * signals blocked, so a handler never sees the array half-updated.
 */
static struct safe_tmp **open_tmps;
static int nopen, capopen;

static void track(struct safe_tmp *t)
{
	sigset_t old;

	/* a signal from now on removes it (interrupt.c's handler) */
	interrupt_arm();
	interrupt_block(&old);
	if (nopen == capopen) {
		capopen = capopen ? 2 * capopen : 8;
		open_tmps = xrealloc(open_tmps, (size_t)capopen *
				     sizeof(*open_tmps));
	}
	open_tmps[nopen++] = t;
	interrupt_unblock(&old);
}

/* @f's record, or NULL when safe_fopen*() did not open it */
static struct safe_tmp *lookup(FILE *f)
{
	int i;

	for (i = 0; i < nopen; i++)
		if (open_tmps[i]->f == f)
			return open_tmps[i];
	return NULL;
}

/* Forget @t (signals blocked by the caller) */
static void untrack(struct safe_tmp *t)
{
	int i;

	for (i = 0; i < nopen; i++)
		if (open_tmps[i] == t) {
			open_tmps[i] = open_tmps[--nopen];
			return;
		}
}

void safe_write_remove_temps(void)
{
	int i;

	for (i = 0; i < nopen; i++)
		unlinkat(open_tmps[i]->dirfd, open_tmps[i]->tmp, 0);
}

/* Six characters for a temporary name: the kernel's randomness, else
 * the clock and the pid (the O_EXCL retry covers a collision) */
static void random_suffix(char *out)
{
	static const char set[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static unsigned long counter;
	unsigned char r[6];
	int i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		unsigned long x = (unsigned long)time(NULL) ^
				  ((unsigned long)getpid() << 16) ^
				  (++counter * 2654435761UL);

		for (i = 0; i < 6; i++, x >>= 5)
			r[i] = (unsigned char)x;
	}
	for (i = 0; i < 6; i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
	out[6] = '\0';
}

/* A new file .NAME.tmp-XXXXXX in @dirfd, created here (read and write:
 * a run reads its trace back): its descriptor and name in @tmp, or -1
 * with errno */
static int create_temp(int dirfd, const char *name, mode_t mode, char *tmp)
{
	int tries, fd;

	for (tries = 0; tries < 100; tries++) {
		char sfx[7];

		random_suffix(sfx);
		/* a long name shortened: the temporary stays within NAME_MAX */
		snprintf(tmp, NAME_MAX + 1, ".%.200s.tmp-%s", name, sfx);
		fd = openat(dirfd, tmp, O_RDWR | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int safe_temp_at(int dirfd, const char *name, mode_t mode, char *tmp)
{
	if (!*name || strchr(name, '/')) {
		errno = EINVAL;
		return -1;
	}
	return create_temp(dirfd, name, mode, tmp);
}

FILE *safe_fopen_at(int dirfd, const char *name, mode_t mode)
{
	struct safe_tmp *t;
	int fd, e;

	if (!*name || strchr(name, '/')) {
		errno = EINVAL;
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (t->dirfd < 0) {
		free(t);
		return NULL;
	}
	t->name = xstrdup(name);
	fd = create_temp(t->dirfd, name, mode, t->tmp);
	if (fd >= 0) {
		t->f = fdopen(fd, "w");
		if (t->f) {
			track(t);
			return t->f;
		}
		e = errno;
		close(fd);
		unlinkat(t->dirfd, t->tmp, 0);
		errno = e;
	}
	e = errno;
	close(t->dirfd);
	free(t->name);
	free(t);
	errno = e;
	return NULL;
}

/* @path's directory, opened as the path names it; -1 with errno. The
 * last component in *@name (a pointer into @path) */
static int open_parent(const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	*name = slash ? slash + 1 : path;
	if (!**name) {
		errno = EISDIR;		/* "dir/": no file name */
		return -1;
	}
	if (!slash)
		dir = xstrdup(".");
	else if (slash == path)
		dir = xstrdup("/");
	else
		dir = xasprintf("%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd;
}

FILE *safe_fopen_mode(const char *path, mode_t mode)
{
	const char *name;
	int dirfd = open_parent(path, &name), e;
	FILE *f;

	if (dirfd < 0)
		return NULL;
	f = safe_fopen_at(dirfd, name, mode);
	e = errno;
	close(dirfd);
	errno = e;
	return f;
}

FILE *safe_fopen(const char *path)
{
	return safe_fopen_mode(path, 0666);
}

/* @t's file closed (@bad: a write or the close failed, errno set):
 * its temporary renamed onto its name (@keep) or removed, its record
 * forgotten and freed, with the signals blocked. 0 or EOF. */
static int finish(struct safe_tmp *t, bool bad, bool keep)
{
	int e = bad ? errno : 0, ret = bad ? EOF : 0;
	sigset_t old;

	interrupt_block(&old);
	if (!ret && keep && renameat(t->dirfd, t->tmp, t->dirfd, t->name)) {
		e = errno;
		ret = EOF;
	}
	if (ret || !keep)
		unlinkat(t->dirfd, t->tmp, 0);
	untrack(t);
	interrupt_unblock(&old);
	close(t->dirfd);
	free(t->name);
	free(t);
	errno = e;
	return ret;
}

int safe_fclose(FILE *f)
{
	struct safe_tmp *t = lookup(f);
	bool bad;
	int e;

	if (!t) {
		fclose(f);
		errno = EBADF;
		return EOF;
	}
	bad = fflush(f) || ferror(f);
	e = errno;
	/* a write error seen by fflush() or earlier is the close's */
	if (fclose(f))
		bad = true;
	else if (bad)
		errno = e ? e : EIO;
	return finish(t, bad, true);
}

void safe_fdiscard(FILE *f)
{
	struct safe_tmp *t = lookup(f);

	fclose(f);
	if (t)
		finish(t, false, false);
}

int safe_open_fresh(const char *path)
{
	const char *name;
	int dirfd = open_parent(path, &name), fd, e;

	if (dirfd < 0)
		return -1;
	/* unlinkat() removes a link itself; a directory stays and the
	 * O_EXCL below then fails */
	unlinkat(dirfd, name, 0);
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0666);
	e = errno;
	close(dirfd);
	errno = e;
	return fd;
}

int safe_dir_open(const char *path)
{
	return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}
