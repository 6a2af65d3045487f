// SPDX-License-Identifier: GPL-2.0
/* POSIX only: with _GNU_SOURCE, <sys/stat.h> pulls <linux/stat.h>, which
 * would find kcompat's <linux/types.h> first. */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/file.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interrupt.h"
#include "outdir.h"
#include "outmark.h"
#include "rundir.h"
#include "safe_write.h"
#include "util.h"

static const int watched[] = { SIGINT, SIGTERM, SIGHUP };

/* The one directory being written (the command line writes one at a
 * time); read by the handler, changed only with the signals blocked. */
static struct rundir *active;
static struct sigaction saved[ARRAY_SIZE(watched)];

/* Async-signal-safe: unlinkat(), rmdir(), sigaction() and raise() only */
static void remove_uncommitted(struct rundir *o)
{
	int i;

	for (i = 0; i < o->nfiles; i++)
		if (o->tmp[i])
			unlinkat(o->lock, o->tmp_name[i], 0);
	for (i = o->nmade - 1; i >= 0; i--)
		rmdir(o->made[i]);
}

static void on_signal(int sig)
{
	size_t i;

	if (active)
		remove_uncommitted(active);
	for (i = 0; i < ARRAY_SIZE(watched); i++)
		if (watched[i] == sig)
			sigaction(sig, &saved[i], NULL);
	/* delivered once the handler returns: the process dies of it */
	raise(sig);
}

static void note_made(const char *dir, void *arg)
{
	struct rundir *o = arg;

	o->made = xrealloc(o->made, (size_t)(o->nmade + 1) * sizeof(*o->made));
	o->made[o->nmade++] = xstrdup(dir);
}

/* mkdir -p, each directory created recorded before a signal can come */
static int mkdirs(struct rundir *o, char *err, size_t errlen)
{
	sigset_t old;
	int ret;

	interrupt_block(&old);
	ret = make_dirs_noting(o->dir, note_made, o);
	if (ret)
		snprintf(err, errlen, "cannot create %s: %s", o->dir,
			 strerror(errno));
	interrupt_unblock(&old);
	return ret;
}

int rundir_open(struct rundir *o, const char *dir, char *err, size_t errlen)
{
	struct sigaction sa;
	struct stat st;
	sigset_t old;
	size_t i;
	int ret;

	memset(o, 0, sizeof(*o));
	o->lock = -1;
	o->dir = xstrdup(dir);
	if (!*dir) {
		snprintf(err, errlen, "the output directory is an empty path");
		return -1;
	}
	interrupt_block(&old);
	active = o;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(watched); i++) {
		sigaction(watched[i], NULL, &saved[i]);
		/* ignored on entry (a background job's SIGINT) stays ignored */
		if (saved[i].sa_handler != SIG_IGN)
			sigaction(watched[i], &sa, NULL);
	}
	interrupt_unblock(&old);
	if (mkdirs(o, err, errlen))
		return -1;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s exists and is not a directory", dir);
		return -1;
	}
	/*
	 * One writer at a time: a second run to the same DIR waits for the
	 * first to commit, so DIR never mixes the files of two runs. The
	 * directory itself is the lock; nothing is left behind.
	 */
	o->lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->lock < 0) {
		snprintf(err, errlen, "cannot open %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	if (flock(o->lock, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "capsim: %s is being written by another capsim; waiting for it\n",
			dir);
		while (flock(o->lock, LOCK_EX) && errno == EINTR)
			;
	}
	/*
	 * Checked under the lock: another run's temporary files make DIR
	 * look foreign until it commits. The directories created above are
	 * removed again if DIR is refused.
	 */
	ret = outmark_check_dir(dir, err, errlen);
	if (ret)
		return -ret;
	return 0;
}

/* Is DIR/NAME an input of the run (which NAME would replace)? */
static bool replaces_input(struct rundir *o, const char *name, char *err,
			   size_t errlen)
{
	char *fin = xasprintf("%s/%s", o->dir, name);
	bool yes = outmark_holds_input(fin, err, errlen);

	free(fin);
	return yes;
}

/* The mode of a new output: open()'s 0666 & ~umask */
mode_t rundir_file_mode(void)
{
	return umask_mode(0666);
}

FILE *rundir_create(struct rundir *o, const char *name, char *err,
		    size_t errlen)
{
	char tmp[NAME_MAX + 1];
	FILE *f = NULL;
	sigset_t old;
	int fd;

	if (o->nfiles == RUNDIR_MAX_FILES) {
		snprintf(err, errlen, "too many output files");
		return NULL;
	}
	if (replaces_input(o, name, err, errlen))
		return NULL;
	/* a new file in DIR as it was opened and checked (o->lock), never
	 * through a name that exists (safe_write.h) */
	interrupt_block(&old);
	fd = safe_temp_at(o->lock, name, 0666, tmp);
	if (fd >= 0) {
		o->tmp[o->nfiles] = xasprintf("%s/%s", o->dir, tmp);
		o->fin[o->nfiles] = xasprintf("%s/%s", o->dir, name);
		o->tmp_name[o->nfiles] = xstrdup(tmp);
		o->fin_name[o->nfiles++] = xstrdup(name);
		f = fdopen(fd, "w+");
		if (!f)
			close(fd);
	}
	interrupt_unblock(&old);
	if (!f)
		snprintf(err, errlen, "cannot write in %s: %s", o->dir,
			 strerror(errno));
	return f;
}

int rundir_commit(struct rundir *o, char *err, size_t errlen)
{
	sigset_t old;
	int i, k;

	/* the marker first: DIR is capsim's before any output lands */
	if (!outmark_present(o->dir) && outmark_write_at(o->lock, NULL)) {
		snprintf(err, errlen, "cannot write in %s: %s", o->dir,
			 strerror(errno));
		return -1;
	}
	interrupt_block(&old);
	for (i = 0; i < o->nfiles; i++) {
		if (renameat(o->lock, o->tmp_name[i], o->lock,
			     o->fin_name[i])) {
			snprintf(err, errlen, "cannot rename into %s: %s",
				 o->dir, strerror(errno));
			for (k = 0; k < i; k++)
				unlinkat(o->lock, o->fin_name[k], 0);
			interrupt_unblock(&old);
			return -1;
		}
	}
	/* committed: nothing is left to remove */
	for (i = 0; i < o->nfiles; i++) {
		free(o->tmp[i]);
		o->tmp[i] = NULL;
	}
	for (i = 0; i < o->nmade; i++)
		free(o->made[i]);
	o->nmade = 0;
	interrupt_unblock(&old);
	return 0;
}

void rundir_unlock(struct rundir *o)
{
	if (o->lock >= 0)
		close(o->lock);
	o->lock = -1;
}

void rundir_close(struct rundir *o)
{
	sigset_t old;
	size_t i;
	int k;

	/* never opened (a command that failed before its -o): a zeroed
	 * struct, whose lock 0 is no lock of ours but standard input */
	if (!o->dir)
		return;
	interrupt_block(&old);
	remove_uncommitted(o);
	if (active == o) {
		for (i = 0; i < ARRAY_SIZE(watched); i++)
			sigaction(watched[i], &saved[i], NULL);
		active = NULL;
	}
	interrupt_unblock(&old);
	if (o->lock >= 0)
		close(o->lock);
	for (k = 0; k < o->nfiles; k++) {
		free(o->tmp[k]);
		free(o->fin[k]);
		free(o->tmp_name[k]);
		free(o->fin_name[k]);
	}
	for (k = 0; k < o->nmade; k++)
		free(o->made[k]);
	free(o->made);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}
