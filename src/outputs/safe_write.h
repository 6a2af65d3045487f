/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way capsim writes a file: never through a name it did not
 * create in this run. A directory a sweep shares with a cluster, or
 * capsim's own directory of an earlier run, may hold a symbolic link (or
 * a hard link) planted at the very name capsim is about to write,
 * pointing at a file of the user's elsewhere; fopen("w") would follow it
 * and replace that file.
 *
 * So a file is written under a new name, created here with
 * O_CREAT|O_EXCL|O_NOFOLLOW (nothing that exists is ever opened for
 * writing, a dangling link included) in the directory opened once, and
 * renamed onto its name only when it is complete: rename() replaces a
 * link at that name, never what it points to, and a reader sees the old
 * file or the new one, never half of one. The directories of a path are
 * the ones the caller named; a directory capsim reuses rather than makes
 * (a sweep's points on --resume) is opened with safe_dir_open(), which
 * does not follow a link.
 *
 * Every temporary open is known here: a signal handler removes them all
 * with safe_write_remove_temps() (interrupt.c's and `capsim run`'s).
 */
#ifndef CAPSIM_SAFE_WRITE_H
#define CAPSIM_SAFE_WRITE_H

#include <stdio.h>
#include <sys/types.h>

/*
 * @path written aside: a new temporary file beside it (mode 0666 less
 * the umask, as fopen() makes one), for safe_fclose() to rename onto
 * @path. NULL with errno set when the directory cannot be opened or
 * written.
 */
FILE *safe_fopen(const char *path);
/* The same with another mode (0777 for a script), less the umask */
FILE *safe_fopen_mode(const char *path, mode_t mode);
/* The same for @name inside the directory open as @dirfd (kept open
 * here: the caller may close its own) */
FILE *safe_fopen_at(int dirfd, const char *name, mode_t mode);

/*
 * The temporary alone, for a writer that renames several at once itself
 * (a run's files, src/cli/rundir.c): a new file for @name in @dirfd,
 * created here (O_CREAT|O_EXCL|O_NOFOLLOW, @mode less the umask), its
 * name in @tmp (NAME_MAX + 1 bytes). The descriptor, or -1 with errno.
 * Not among the temporaries safe_write_remove_temps() removes.
 */
int safe_temp_at(int dirfd, const char *name, mode_t mode, char *tmp);

/*
 * Close a file safe_fopen*() opened and rename it onto its name: 0, or
 * EOF with errno set (a write, the close or the rename failed; then the
 * temporary is removed and the name keeps what it had).
 */
int safe_fclose(FILE *f);
/* Close it and remove the temporary: the name keeps what it had */
void safe_fdiscard(FILE *f);

/*
 * A file a child process writes as it runs (a run's log): whatever has
 * the name is removed (a link itself, not its target), then the file is
 * created new (O_EXCL|O_NOFOLLOW). The descriptor, or -1 with errno.
 */
int safe_open_fresh(const char *path);

/*
 * The directory @path opened, refused (-1, errno ELOOP or ENOTDIR) when
 * @path itself is a symbolic link or no directory: for a directory
 * capsim reuses, to write in it by safe_fopen_at().
 */
int safe_dir_open(const char *path);

/*
 * Async-signal-safe: remove every temporary still open (a signal
 * handler's, before the process dies of the signal).
 */
void safe_write_remove_temps(void);

#endif
