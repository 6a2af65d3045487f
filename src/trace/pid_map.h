/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pid -> index, for the readers of traces: a trace names pids up to the
 * kernel's PID_MAX_LIMIT (4 M), and a few hundred of them in a real one.
 * A table indexed by pid costs what the largest pid says (a 272-byte
 * trace naming pid 1073741823 took 4.2 GB); this open-addressing hash
 * costs what the trace holds: 16 bytes per pid seen, at most twice over.
 */
#ifndef CAPSIM_PID_MAP_H
#define CAPSIM_PID_MAP_H

#include <stddef.h>

struct pid_map {
	struct pid_slot {
		int pid;
		int idx1;	/* the index + 1; 0: an empty slot */
	} *slots;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

/* The index of @pid (any int: a reader bounds pids itself), or -1 */
int pid_map_get(const struct pid_map *m, int pid);
/* Map @pid (not yet mapped) to @idx (>= 0) */
void pid_map_put(struct pid_map *m, int pid, int idx);
void pid_map_free(struct pid_map *m);

#endif
