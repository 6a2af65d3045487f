/* SPDX-License-Identifier: GPL-2.0 */
/* trace.dat on the command line: capsim trace-dat and run --trace-dat. */
#ifndef CAPSIM_CLI_TRACEDAT_H
#define CAPSIM_CLI_TRACEDAT_H

#include <stdio.h>
#include <sys/types.h>

/* capsim trace-dat IN.txt OUT.dat */
int cmd_trace_dat(int argc, char **argv, mode_t mode);

#endif
