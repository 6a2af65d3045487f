/* SPDX-License-Identifier: GPL-2.0 */
/* trace.dat on the command line: capsim trace-dat and run --trace-dat. */
#ifndef CAPSIM_CLI_TRACEDAT_H
#define CAPSIM_CLI_TRACEDAT_H

#include <sys/types.h>

/*
 * Convert the ftrace text file @txt into a new hidden temporary file in
 * @dir, with mode @mode; returns its path for the caller to rename into
 * place with its other outputs, or NULL after printing why.
 */
char *tracedat_to_temp(const char *txt, const char *dir, mode_t mode);

/* capsim trace-dat IN.txt OUT.dat */
int cmd_trace_dat(int argc, char **argv, mode_t mode);

#endif
