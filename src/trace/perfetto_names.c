// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_names.h"

static void *grow(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

/* FNV-1a; the table is probed linearly and kept at most half full */
static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static void rehash(struct pf_strings *t)
{
	size_t ns = t->nslots ? t->nslots * 2 : 1024;
	uint32_t *slots = calloc(ns, sizeof(*slots));

	if (!slots)
		abort();
	for (uint32_t id = 0; id < t->n; id++) {
		const char *s = t->bytes + t->off[id];
		size_t i = hash(s, strlen(s)) & (ns - 1);

		while (slots[i])
			i = (i + 1) & (ns - 1);
		slots[i] = id + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = ns;
}

int pf_intern(struct pf_strings *t, const char *s, size_t n, uint32_t *id,
	      char *err, size_t errlen)
{
	size_t i;
	uint32_t k;

	/* a string ends at its first NUL, as the kernel's comm does */
	n = strnlen(s, n);
	if (n > PF_STRING_MAX) {
		snprintf(err, errlen, "a name of %zu bytes: at most %d are read (a task's comm has 15)",
			 n, PF_STRING_MAX);
		return -1;
	}
	if ((t->n + 1) * 2 > t->nslots)
		rehash(t);
	for (i = hash(s, n) & (t->nslots - 1); (k = t->slots[i]) != 0;
	     i = (i + 1) & (t->nslots - 1)) {
		const char *o = t->bytes + t->off[k - 1];

		if (!strncmp(o, s, n) && o[n] == '\0') {
			*id = k - 1;
			return 0;
		}
	}
	if (t->n >= PF_STRINGS_MAX || t->len + n + 1 > PF_STRBYTES_MAX) {
		snprintf(err, errlen, "more than %u distinct names or %u MiB of them: not a trace capsim reads",
			 PF_STRINGS_MAX, PF_STRBYTES_MAX >> 20);
		return -1;
	}
	if (t->len + n + 1 > t->cap) {
		t->cap = t->cap ? t->cap * 2 : 65536;
		while (t->cap < t->len + n + 1)
			t->cap *= 2;
		t->bytes = grow(t->bytes, t->cap);
	}
	if (t->n == t->ncap) {
		t->ncap = t->ncap ? t->ncap * 2 : 1024;
		t->off = grow(t->off, t->ncap * sizeof(*t->off));
	}
	memcpy(t->bytes + t->len, s, n);
	t->bytes[t->len + n] = '\0';
	t->off[t->n] = (uint32_t)t->len;
	t->len += n + 1;
	t->slots[i] = t->n + 1;
	*id = t->n++;
	return 0;
}

const char *pf_str(const struct pf_strings *t, uint32_t id)
{
	return id < t->n ? t->bytes + t->off[id] : "";
}

void pf_strings_free(struct pf_strings *t)
{
	free(t->bytes);
	free(t->off);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

int pf_task_find(const struct pf_tasks *t, int pid)
{
	return pid_map_get(&t->map, pid);
}

int pf_task(struct pf_tasks *t, int pid, char *err, size_t errlen)
{
	int i = pid_map_get(&t->map, pid);

	if (i >= 0)
		return i;
	if (t->n >= PF_TASKS_MAX) {
		snprintf(err, errlen, "pid %d is task %d: capsim reads at most %d tasks (the simulator's limit)",
			 pid, t->n + 1, PF_TASKS_MAX);
		return -1;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->comm = grow(t->comm, (size_t)t->cap * sizeof(*t->comm));
		t->tgid = grow(t->tgid, (size_t)t->cap * sizeof(*t->tgid));
	}
	t->comm[t->n] = PF_NOSTR;
	t->tgid[t->n] = -1;
	pid_map_put(&t->map, pid, t->n);
	return t->n++;
}

void pf_tasks_free(struct pf_tasks *t)
{
	pid_map_free(&t->map);
	free(t->comm);
	free(t->tgid);
	memset(t, 0, sizeof(*t));
}
