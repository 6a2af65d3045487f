/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output directory built aside and swapped in at the end: compare and
 * sweep write into DIR.partial-XXXXXX next to DIR and rename it to DIR
 * only once complete (an older DIR is replaced then, when capsim wrote it:
 * src/outputs/outmark.h), so an interrupted or failed command never leaves
 * a half-written DIR behind.
 */
#ifndef CAPSIM_OUTDIR_H
#define CAPSIM_OUTDIR_H

struct outdir {
	char *final;		/* DIR as given */
	char *tmp;		/* where it is built */
};

/*
 * Create the temporary directory (and DIR's parents), with capsim's
 * marker in it, removed by a signal until it is committed or aborted.
 * Returns an exit status, reported: 0; 2 when DIR may not be written
 * (not a directory, a directory capsim did not write, a symbolic link,
 * an input of the command); 1 when it cannot be (no permission, ...).
 */
int outdir_begin(struct outdir *o, const char *dir);
/* Swap it in place of DIR (checked again); 0 or -1 (reported, the
 * temporary removed) */
int outdir_commit(struct outdir *o);
/* Remove the temporary directory and everything in it */
void outdir_abort(struct outdir *o);

/* rm -rf @path; 0 or -1 */
int remove_tree(const char *path);
/* mkdir -p @path; 0 or -1 with errno */
int make_dirs(const char *path);
/* The same, @made called with each directory it created (the caller
 * blocks the signals that could leave one unrecorded) */
int make_dirs_noting(const char *path,
		     void (*made)(const char *dir, void *arg), void *arg);

#endif
