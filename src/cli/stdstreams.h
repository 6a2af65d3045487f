/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three standard streams of a command: made safe to use when the
 * caller closed one (`capsim run ... >&-`), and standard output checked
 * at exit, so a table that could not be written (a closed stdout, a full
 * disk, /dev/full) is an error, not a silent exit 0.
 */
#ifndef CAPSIM_STDSTREAMS_H
#define CAPSIM_STDSTREAMS_H

/* Before anything opens a file: fds 0-2 that are closed get a stand-in */
void std_streams_open(void);

/* At exit, with the command's status: that status, or 1 with a message
 * when what went to standard output did not reach it */
int std_streams_close(int status);

#endif
