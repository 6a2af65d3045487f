/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output directory written all or nothing: the directories it creates
 * and the temporary files it writes are undone on failure, and on SIGINT,
 * SIGTERM or SIGHUP too (a handler removes them, then dies of the signal),
 * so a run that does not finish leaves nothing behind. The outputs appear
 * under their final names only at outdir_commit().
 */
#ifndef CAPSIM_OUTDIR_H
#define CAPSIM_OUTDIR_H

#include <stdio.h>

#define OUTDIR_MAX_FILES 4

struct outdir {
	char *dir;
	char **made;		/* the directories created, parents first */
	int nmade;
	char *tmp[OUTDIR_MAX_FILES];	/* DIR/.NAME.XXXXXX */
	char *fin[OUTDIR_MAX_FILES];	/* DIR/NAME */
	int nfiles;
};

/*
 * mkdir -p @dir and watch for the signals. Returns 0, or -1 with a message
 * in @err (the directory is not usable: a file, no permission, ...).
 */
int outdir_open(struct outdir *o, const char *dir, char *err, size_t errlen);
/* A new temporary file for DIR/@name, opened "w+"; NULL with @err set */
FILE *outdir_create(struct outdir *o, const char *name, char *err,
		    size_t errlen);
/* Rename every temporary file to its name; -1 with @err set (then the
 * files already renamed are removed again) */
int outdir_commit(struct outdir *o, char *err, size_t errlen);
/* Remove what was not committed (the temporary files, the directories
 * created), stop watching the signals, free */
void outdir_close(struct outdir *o);

#endif
