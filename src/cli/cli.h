/* SPDX-License-Identifier: GPL-2.0 */
/* The capsim command line: run, platforms, platform show, validate. */
#ifndef CAPSIM_CLI_H
#define CAPSIM_CLI_H

#include <stdio.h>

/* Exit status: 0 ok, 1 run error, 2 bad usage or input */
int capsim_main(int argc, char **argv);

#endif
