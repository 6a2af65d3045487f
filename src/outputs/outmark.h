/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What capsim may replace: a directory capsim wrote holds a marker file,
 * OUTMARK_NAME, naming the command that wrote it. Every command that
 * writes a directory (-o) asks outmark_check_dir() first: a directory
 * that exists, is not empty and has no marker was not written by capsim
 * and is refused, whatever is in it; nothing that is not a directory is
 * ever written over. Inputs are noted as they are parsed so that no
 * output replaces or holds one of them.
 */
#ifndef CAPSIM_OUTMARK_H
#define CAPSIM_OUTMARK_H

#include <stdbool.h>
#include <stddef.h>

#define OUTMARK_NAME ".capsim-output"

/* The command line the markers name (capsim_main() sets it at each call) */
void outmark_set_command(int argc, char *const *argv);

/* Write the marker into @dir (an existing directory; written aside and
 * renamed, src/outputs/safe_write.h); 0 or -1 with errno */
int outmark_write(const char *dir);
/* The same into the directory open as @dirfd, with the line @extra (no
 * newline in it) after the command when not NULL: a sweep's point names
 * its sweep's id */
int outmark_write_at(int dirfd, const char *extra);
/* Does the directory open as @dirfd hold a marker (a regular file, not a
 * link) with the line @line? */
bool outmark_at_has_line(int dirfd, const char *line);

/* Does @dir hold a marker? */
bool outmark_present(const char *dir);

/*
 * May capsim write its outputs to @dir? 0: it does not exist, or is an
 * empty directory, or holds the marker. 2 (a usage error, with the
 * reason in @err): it is not a directory, or it is a directory capsim did
 * not write, or it is or holds one of the inputs noted.
 */
int outmark_check_dir(const char *dir, char *err, size_t errlen);

/* Note an input file or directory of this command (the path need not
 * exist yet: noted paths that do not exist are ignored) */
void outmark_note_input(const char *path);

/*
 * Is @path one of the inputs noted, or does the directory @path hold one
 * (at any depth)? The input's name in @err if so.
 */
bool outmark_holds_input(const char *path, char *err, size_t errlen);

/*
 * Does the file @path start with the @n bytes @head? How a command that
 * writes one file (trace-dat, import) knows a file it may replace: one
 * that starts as its own outputs do. False when it cannot be read.
 */
bool outmark_file_starts_with(const char *path, const void *head, size_t n);

/* Forget the inputs noted (tests; a command's end) */
void outmark_reset_inputs(void);

#endif
