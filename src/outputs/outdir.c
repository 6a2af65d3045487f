// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interrupt.h"
#include "outdir.h"
#include "outmark.h"
#include "util.h"

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

int remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int make_dirs_noting(const char *path,
		     void (*made)(const char *dir, void *arg), void *arg)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (!mkdir(p, 0777)) {
			if (made)
				made(p, arg);
		} else if (errno != EEXIST) {
			ret = -1;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

int make_dirs(const char *path)
{
	return make_dirs_noting(path, NULL, NULL);
}

int outdir_begin(struct outdir *o, const char *dir)
{
	char *parent = xstrdup(dir), *slash;
	size_t n = strlen(parent);
	struct stat st;
	char err[PATH_MAX + 128];
	int ret;

	o->final = o->tmp = NULL;
	ret = outmark_check_dir(dir, err, sizeof(err));
	if (!ret && !lstat(dir, &st) && S_ISLNK(st.st_mode)) {
		snprintf(err, sizeof(err), "%s is a symbolic link: name the directory itself with -o",
			 dir);
		ret = 2;
	}
	if (ret) {
		fprintf(stderr, "capsim: %s\n", err);
		free(parent);
		return ret;
	}
	while (n > 1 && parent[n - 1] == '/')
		parent[--n] = '\0';
	o->final = xstrdup(parent);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		if (make_dirs(parent)) {
			fprintf(stderr, "capsim: cannot create %s: %s\n", parent,
				strerror(errno));
			free(parent);
			free(o->final);
			o->final = o->tmp = NULL;
			return 1;
		}
	}
	free(parent);
	o->tmp = xasprintf("%s.partial-XXXXXX", o->final);
	if (!mkdtemp(o->tmp)) {
		fprintf(stderr, "capsim: cannot create a directory next to %s: %s\n",
			o->final, strerror(errno));
		free(o->tmp);
		free(o->final);
		o->final = o->tmp = NULL;
		return 1;
	}
	interrupt_watch_dir(o->tmp);
	/* mkdtemp makes it 0700; outputs are shared like capsim run's */
	{
		mode_t um = umask(0);

		umask(um);
		chmod(o->tmp, 0777 & ~um);
	}
	if (outmark_write(o->tmp)) {
		fprintf(stderr, "capsim: cannot write in a directory next to %s: %s\n",
			o->final, strerror(errno));
		outdir_abort(o);
		return 1;
	}
	return 0;
}

/* The directory holding @path, open for flock(); -1 if it cannot be */
static int open_parent(const char *path)
{
	char *p = xstrdup(path), *slash = strrchr(p, '/');
	int fd;

	if (!slash)
		fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else if (slash == p)
		fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else {
		*slash = '\0';
		fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	free(p);
	return fd;
}

int outdir_commit(struct outdir *o)
{
	char err[PATH_MAX + 128];
	char *old = NULL;
	sigset_t saved;
	int ret = 0, lock;

	/*
	 * Two commands swapping the same DIR in turn, never interleaved;
	 * waited for with the signals on, so a signal still stops the wait.
	 */
	lock = open_parent(o->final);
	if (lock >= 0)
		while (flock(lock, LOCK_EX) && errno == EINTR)
			;
	/* no signal between the renames: DIR is the old or the new one */
	interrupt_block(&saved);
	/* checked again: DIR may have been made or filled meanwhile */
	if (outmark_check_dir(o->final, err, sizeof(err))) {
		fprintf(stderr, "capsim: %s\n", err);
		ret = -1;
	} else if (rename(o->tmp, o->final)) {
		/* DIR exists and is not empty: move it aside, then swap */
		old = xasprintf("%s.old-XXXXXX", o->final);
		if (!mkdtemp(old) || rename(o->final, old)) {
			fprintf(stderr, "capsim: cannot replace %s: %s\n",
				o->final, strerror(errno));
			ret = -1;
		} else if (rename(o->tmp, o->final)) {
			fprintf(stderr, "capsim: cannot replace %s: %s\n",
				o->final, strerror(errno));
			ret = -1;
			/* the old DIR back under its name, or named */
			if (rename(old, o->final))
				fprintf(stderr, "capsim: the previous %s is now %s\n",
					o->final, old);
			else
				old[0] = '\0';
		}
	}
	if (lock >= 0)
		close(lock);
	interrupt_forget_dir(o->tmp);
	if (ret)
		remove_tree(o->tmp);
	if (old && !ret)
		remove_tree(old);
	else if (old && old[0])
		rmdir(old);	/* only the empty one mkdtemp() made */
	interrupt_unblock(&saved);
	free(old);
	free(o->tmp);
	free(o->final);
	o->tmp = o->final = NULL;
	return ret;
}

void outdir_abort(struct outdir *o)
{
	if (o->tmp) {
		remove_tree(o->tmp);
		interrupt_forget_dir(o->tmp);
	}
	free(o->tmp);
	free(o->final);
	o->tmp = o->final = NULL;
}
