/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output directory built aside and swapped in at the end: compare and
 * sweep write into DIR.partial-XXXXXX next to DIR and rename it to DIR
 * only once complete (an older DIR is replaced then), so an interrupted or
 * failed command never leaves a half-written DIR behind.
 */
#ifndef CAPSIM_OUTDIR_H
#define CAPSIM_OUTDIR_H

struct outdir {
	char *final;		/* DIR as given */
	char *tmp;		/* where it is built */
};

/* Create the temporary directory (and DIR's parents); 0 or -1 (reported) */
int outdir_begin(struct outdir *o, const char *dir);
/* Swap it in place of DIR; 0 or -1 (reported, the temporary removed) */
int outdir_commit(struct outdir *o);
/* Remove the temporary directory and everything in it */
void outdir_abort(struct outdir *o);

/* rm -rf @path; 0 or -1 */
int remove_tree(const char *path);
/* mkdir -p @path; 0 or -1 with errno */
int make_dirs(const char *path);

#endif
