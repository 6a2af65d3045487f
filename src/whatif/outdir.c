// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"
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

int make_dirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
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

int outdir_begin(struct outdir *o, const char *dir)
{
	char *parent = xstrdup(dir), *slash;
	size_t n = strlen(parent);

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
			return -1;
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
		return -1;
	}
	/* mkdtemp makes it 0700; outputs are shared like capsim run's */
	{
		mode_t um = umask(0);

		umask(um);
		chmod(o->tmp, 0777 & ~um);
	}
	return 0;
}

int outdir_commit(struct outdir *o)
{
	char *old = NULL;
	int ret = 0;

	if (rename(o->tmp, o->final)) {
		/* DIR exists and is not empty: move it aside, then swap */
		old = xasprintf("%s.old-XXXXXX", o->final);
		if (!mkdtemp(old) || rename(o->final, old) ||
		    rename(o->tmp, o->final)) {
			fprintf(stderr, "capsim: cannot replace %s: %s\n",
				o->final, strerror(errno));
			ret = -1;
		}
	}
	if (ret)
		remove_tree(o->tmp);
	if (old && !ret)
		remove_tree(old);
	else if (old)
		rmdir(old);
	free(old);
	free(o->tmp);
	free(o->final);
	o->tmp = o->final = NULL;
	return ret;
}

void outdir_abort(struct outdir *o)
{
	if (o->tmp)
		remove_tree(o->tmp);
	free(o->tmp);
	free(o->final);
	o->tmp = o->final = NULL;
}
