/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a command that writes a directory does when it is told to stop
 * (SIGINT, SIGTERM, SIGHUP): stop its workers, remove the directory it
 * was building, then die of the signal (the shell sees 128+N). One
 * handler for compare, sweep, plot and xcheck; `capsim run` has its own
 * for its files (src/cli/rundir.c).
 *
 * The workers are the children capsim started (the `capsim run` of each
 * point, gnuplot): each runs in a process group of its own, so the handler
 * reaches whatever they started in turn, and each dies with its parent
 * (PR_SET_PDEATHSIG) when the parent is killed by a signal it cannot
 * catch.
 */
#ifndef CAPSIM_INTERRUPT_H
#define CAPSIM_INTERRUPT_H

#include <signal.h>
#include <sys/types.h>

/*
 * From now on a signal removes @dir (the temporary directory or file
 * being built; a copy is kept) and everything in it. Several may be
 * watched at once (compare's directory and a plot being built in it).
 */
void interrupt_watch_dir(const char *dir);
/* @dir is committed or removed: a signal leaves it alone */
void interrupt_forget_dir(const char *dir);
/* The handler installed, with nothing to remove yet: the files being
 * written aside (safe_write.h) are removed by it */
void interrupt_arm(void);

/* Hold off SIGINT, SIGTERM and SIGHUP (the signals watched) while the
 * handler's state or a directory is changed; then restore @old */
void interrupt_block(sigset_t *old);
void interrupt_unblock(const sigset_t *old);

/* A child was started (@pid leads its own process group) or reaped */
void interrupt_child_add(pid_t pid);
void interrupt_child_del(pid_t pid);

/*
 * In a child between fork() and exec(): a group of its own, death with
 * the parent (@parent: the parent's pid before the fork, to catch a
 * parent that died before the request) and the default signal actions.
 * Async-signal-safe; returns -1 if the parent is gone.
 */
int interrupt_child_setup(pid_t parent);

/*
 * A line for the user when a signal stops the process (what it kept and
 * how to go on), written by the handler as it is; NULL: none. Copied.
 */
void interrupt_set_note(const char *note);

/*
 * rm -rf @path using only async-signal-safe calls (no malloc, no stdio):
 * the handler's removal, also usable elsewhere. 0 or -1.
 */
int interrupt_remove_tree(const char *path);

#endif
