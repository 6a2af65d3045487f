/* SPDX-License-Identifier: GPL-2.0 */
/* trace.dat on the command line: capsim trace-dat and run --trace-dat. */
#ifndef CAPSIM_CLI_TRACEDAT_H
#define CAPSIM_CLI_TRACEDAT_H

#include <stdio.h>
#include <sys/types.h>

/*
 * Convert the ftrace text file @txt (read from @in if not NULL, else
 * opened here: a regular file) into a new hidden temporary file in @dir,
 * with mode @mode; returns its path for the caller to rename into place,
 * or NULL after printing why, with *status the exit status: 2 for bad
 * input, 1 when the output could not be written. Nothing is left in @dir
 * on a failure.
 */
char *tracedat_to_temp(const char *txt, FILE *in, const char *dir,
		       mode_t mode, int *status);

/* capsim trace-dat IN.txt OUT.dat */
int cmd_trace_dat(int argc, char **argv, mode_t mode);

#endif
