// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pid_map.h"

/* Pids come in runs (fork after fork): multiplying by an odd constant
 * permutes the low bits, so a run lands in distinct slots, and mixes the
 * high bits in, so pids a power of two apart do not all collide */
static size_t slot_of(const struct pid_map *m, int pid)
{
	return (size_t)(((uint32_t)pid * 2654435769u) & (uint32_t)(m->cap - 1));
}

int pid_map_get(const struct pid_map *m, int pid)
{
	size_t i;

	if (!m->cap)
		return -1;
	for (i = slot_of(m, pid); m->slots[i].idx1; i = (i + 1) & (m->cap - 1))
		if (m->slots[i].pid == pid)
			return m->slots[i].idx1 - 1;
	return -1;
}

static void insert(struct pid_map *m, int pid, int idx)
{
	size_t i = slot_of(m, pid);

	while (m->slots[i].idx1)
		i = (i + 1) & (m->cap - 1);
	m->slots[i].pid = pid;
	m->slots[i].idx1 = idx + 1;
}

void pid_map_put(struct pid_map *m, int pid, int idx)
{
	/* at most half full: probes stay short */
	if ((m->n + 1) * 2 > m->cap) {
		struct pid_slot *old = m->slots;
		size_t oldcap = m->cap, i;

		m->cap = m->cap ? m->cap * 2 : 64;
		m->slots = calloc(m->cap, sizeof(*m->slots));
		if (!m->slots) {
			fprintf(stderr, "capsim: out of memory\n");
			abort();
		}
		for (i = 0; i < oldcap; i++)
			if (old[i].idx1)
				insert(m, old[i].pid, old[i].idx1 - 1);
		free(old);
	}
	insert(m, pid, idx);
	m->n++;
}

void pid_map_free(struct pid_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}
