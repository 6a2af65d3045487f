// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's point directories, made or, on --resume, reused only when
 * they are the sweep's own. A sweep directory shared with a cluster (or
 * with other users) may have had a point directory replaced meanwhile by
 * a link to some other directory, or by a directory of someone else's:
 * writing the point's files and its run there would replace files
 * outside the sweep. So each point directory is made with a marker
 * naming the sweep's id (a random number in sweep.json), and --resume
 * checks every one there before writing anything: a directory itself,
 * not a link (O_NOFOLLOW), with that marker, its run/ a directory too.
 * The files then go in through the directory's descriptor
 * (safe_write.h).
 */
#undef _GNU_SOURCE
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "outmark.h"
#include "safe_write.h"
#include "sweep_internal.h"
#include "util.h"

void sweep_new_id(char *id)
{
	unsigned char r[SWEEP_ID_LEN / 2];
	size_t i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* no randomness yet (early boot): the clock and the pid,
		 * which only another sweep's id must not repeat */
		uint64_t st = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)rng_next(&st);
	}
	for (i = 0; i < sizeof(r); i++)
		snprintf(id + 2 * i, 3, "%02x", r[i]);
}

bool sweep_id_valid(const char *id)
{
	size_t i;

	for (i = 0; i < SWEEP_ID_LEN; i++)
		if (!id[i] || !strchr("0123456789abcdef", id[i]))
			return false;
	return !id[i];
}

/* The marker's line that names the sweep (caller frees) */
static char *id_line(const char *sweep_id)
{
	return xasprintf("sweep: %s", sweep_id);
}

int sweep_points_dir_open(const char *root, bool resume)
{
	char *pts = xasprintf("%s/points", root);
	int fd = -1;

	if (mkdir(pts, 0777) && (errno != EEXIST || !resume)) {
		fprintf(stderr, "capsim: cannot create %s: %s\n", pts,
			strerror(errno));
		goto out;
	}
	fd = safe_dir_open(pts);
	if (fd < 0)
		fprintf(stderr, "capsim: %s: %s: not the sweep's own directory of points\n",
			pts, errno == ELOOP ? "a symbolic link" : strerror(errno));
out:
	free(pts);
	return fd;
}

/*
 * Why point directory @name in @pfd is not the sweep's own, or NULL
 * with *@fd its descriptor
 */
static const char *point_dir_problem(int pfd, const char *name,
				     const char *idl, int *fd)
{
	struct stat st;

	*fd = -1;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return strerror(errno);
	if (S_ISLNK(st.st_mode))
		return "a symbolic link";
	if (!S_ISDIR(st.st_mode))
		return "not a directory";
	*fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		     O_CLOEXEC);
	if (*fd < 0)
		return strerror(errno);
	if (!outmark_at_has_line(*fd, idl))
		return "no marker of this sweep in it (" OUTMARK_NAME " naming its id)";
	/* its run is written by a child `capsim run -o`, which would follow
	 * a link there */
	if (!fstatat(*fd, "run", &st, AT_SYMLINK_NOFOLLOW) &&
	    !S_ISDIR(st.st_mode))
		return "its run is a symbolic link or not a directory";
	return NULL;
}

/* Point @id's directory name (caller frees) */
static char *point_name(int width, int id)
{
	return xasprintf("%0*d", width, id);
}

/* The refusal of a point directory, exit status 2 for the caller */
static void refuse(const char *root, const char *name, const char *why)
{
	fprintf(stderr, "capsim: --resume: %s/points/%s: %s: not a point directory this sweep made; remove it (the point then runs again) and resume\n",
		root, name, why);
}

int sweep_point_dir(int pfd, const char *root, int width, int id,
		    const char *sweep_id, bool resume)
{
	char *name = point_name(width, id), *idl = id_line(sweep_id);
	const char *why;
	sigset_t old;
	int fd = -1;

	/* made with its marker at once: a signal never leaves one unmarked */
	interrupt_block(&old);
	if (!mkdirat(pfd, name, 0777)) {
		fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			    O_CLOEXEC);
		if (fd < 0 || outmark_write_at(fd, idl)) {
			fprintf(stderr, "capsim: cannot create %s/points/%s: %s\n",
				root, name, strerror(errno));
			if (fd >= 0)
				close(fd);
			fd = -1;
		}
	} else if (errno != EEXIST || !resume) {
		fprintf(stderr, "capsim: cannot create %s/points/%s: %s\n",
			root, name, strerror(errno));
	} else if ((why = point_dir_problem(pfd, name, idl, &fd))) {
		/* checked before the sweep started: it changed meanwhile */
		refuse(root, name, why);
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	interrupt_unblock(&old);
	free(idl);
	free(name);
	return fd;
}

/*
 * Every point directory under @root/points that exists checked the
 * sweep's own: 0, or -1 (said)
 */
static int check_points(const char *root, int width, int npoints,
			const char *sweep_id)
{
	char *pts = xasprintf("%s/points", root), *idl = id_line(sweep_id);
	int pfd = safe_dir_open(pts), id, ret = 0;

	if (pfd < 0) {
		if (errno != ENOENT) {
			fprintf(stderr, "capsim: --resume: %s: %s: not the sweep's own directory of points\n",
				pts, errno == ELOOP ? "a symbolic link" :
				strerror(errno));
			ret = -1;
		}
		goto out;
	}
	for (id = 1; id <= npoints && !ret; id++) {
		char *name = point_name(width, id);
		const char *why;
		struct stat st;
		int fd;

		if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
		    errno == ENOENT) {
			free(name);
			continue;	/* not started: made when it runs */
		}
		why = point_dir_problem(pfd, name, idl, &fd);
		if (why) {
			refuse(root, name, why);
			ret = -1;
		}
		if (fd >= 0)
			close(fd);
		free(name);
	}
	close(pfd);
out:
	free(idl);
	free(pts);
	return ret;
}

int sweep_resume_check(struct sweep *sw, const char *root, json_t *have,
		       const char *planf)
{
	const char *id = json_string_value(json_object_get(have, "id"));

	if (!id || !sweep_id_valid(id)) {
		fprintf(stderr, "capsim: --resume: %s has no sweep id (it was started by an older capsim, or edited): its point directories cannot be told its own; run the sweep again\n",
			planf);
		return -1;
	}
	memcpy(sw->id, id, SWEEP_ID_LEN + 1);
	return check_points(root, sw->width, sw->npoints, id);
}
