/* SPDX-License-Identifier: GPL-2.0 */
/* A sweep's --emit-jobs FILE and FILE.slurm (sweep_jobs.c) */
#ifndef CAPSIM_SWEEP_JOBS_H
#define CAPSIM_SWEEP_JOBS_H

#include <stdbool.h>

/* @s single-quoted for sh: the only quoting the job files use (caller
 * frees) */
char *shell_quote(const char *s);

/* The first control character (< 0x20 or DEL) of @s, or NULL */
const char *control_char_in(const char *s);

/* true (said, naming @what) when @s cannot go into a job line */
bool job_value_refused(const char *what, const char *s);

/* "cd DIR && ARGV... > LOG 2>&1", every word quoted; NULL if a value
 * holds a control character (caller frees) */
char *job_line(char *const *argv, const char *dir, const char *log);

/*
 * Whether FILE and FILE.slurm may be written: a non-empty path without
 * control characters, not a device, FIFO, directory or link, and when
 * they exist, a pair an earlier --emit-jobs wrote. 0, or -1 (said).
 */
int jobs_path_check(const char *file);

/* Write FILE (the lines) and FILE.slurm, each aside then renamed; 0 or
 * -1 (said, nothing left) */
int jobs_write(const char *file, char *const *lines, int n);

#endif
