/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files of one run written into a directory all or nothing: the
 * directories it creates and the temporary files it writes are undone on
 * failure, and on SIGINT,
 * SIGTERM or SIGHUP too (a handler removes them, then dies of the signal),
 * so a run that does not finish leaves nothing behind. The outputs appear
 * under their final names only at rundir_commit().
 */
#ifndef CAPSIM_RUNDIR_H
#define CAPSIM_RUNDIR_H

#include <stdio.h>
#include <sys/types.h>

#define RUNDIR_MAX_FILES 5	/* trace.txt, summary.json, activations.csv,
				 * trace.dat, chains.csv */

struct rundir {
	char *dir;
	char **made;		/* the directories created, parents first */
	int nmade;
	char *tmp[RUNDIR_MAX_FILES];	/* DIR/.NAME.tmp-XXXXXX */
	char *fin[RUNDIR_MAX_FILES];	/* DIR/NAME */
	/* the same as names in DIR (lock), which the calls use */
	char *tmp_name[RUNDIR_MAX_FILES], *fin_name[RUNDIR_MAX_FILES];
	int nfiles;
	/* DIR open and flock()ed, or -1: every file is created and
	 * renamed in it through this descriptor */
	int lock;
};

/*
 * mkdir -p @dir, watch for the signals and wait until no other capsim
 * writes @dir. Returns 0; -2 with a message in @err when @dir may not be
 * written (not a directory, a directory capsim did not write:
 * src/outputs/outmark.h); -1 when it cannot be (no permission, ...).
 */
int rundir_open(struct rundir *o, const char *dir, char *err, size_t errlen);
/* A new temporary file for DIR/@name, opened "w+"; NULL with @err set */
FILE *rundir_create(struct rundir *o, const char *name, char *err,
		    size_t errlen);
/* Rename every temporary file to its name; -1 with @err set (then the
 * files already renamed are removed again) */
int rundir_commit(struct rundir *o, char *err, size_t errlen);
/* Let the next writer of DIR in (after the commit and what must follow it
 * under the lock; `run --plot` then builds DIR/plots under DIR's lock) */
void rundir_unlock(struct rundir *o);
/* The mode of a new output file: 0666 & ~umask, as open() gives */
mode_t rundir_file_mode(void);
/* Remove what was not committed (the temporary files, the directories
 * created), stop watching the signals, free */
void rundir_close(struct rundir *o);

#endif
