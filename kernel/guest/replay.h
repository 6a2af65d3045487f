/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-guest check of a kernel trace: replay the cap_clamp events (read
 * with the project's one ftrace reader, src/trace) per CPU in seq order,
 * rebuild each CPU's set of RUNNABLE entities with their keys, and compare
 * the range the kernel reported after every operation with the MAX of the
 * mins and the MAX of the maxes of that set.
 */
#ifndef CAPSIM_GUEST_REPLAY_H
#define CAPSIM_GUEST_REPLAY_H

/* 0: every checked range matched; 1: a mismatch or too little checked;
 * 2: the file cannot be read */
int replay_trace(const char *file);

#endif
