/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a Perfetto trace says once and its events refer to, for its
 * reader (perfetto_reader.c): the strings (task names, event and field
 * names; each kept once, by id: compact_sched's per-bundle intern tables
 * and every comm land here), and the tasks (pid -> the name it last had,
 * its thread group), filled from sched_switch, sched_waking, task_newtask,
 * task_rename, the ProcessTree and the process/thread descriptors.
 *
 * Both are bounded, since the file is untrusted: PF_TASKS_MAX pids (the
 * simulator's own limit; a phone's trace names a few thousand), and
 * PF_STRINGS_MAX strings of PF_STRING_MAX bytes, PF_STRBYTES_MAX in all.
 */
#ifndef CAPSIM_PERFETTO_NAMES_H
#define CAPSIM_PERFETTO_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "pid_map.h"

#define PF_NOSTR UINT32_MAX
#define PF_TASKS_MAX 262144
#define PF_STRINGS_MAX (1u << 20)
#define PF_STRING_MAX 4096
#define PF_STRBYTES_MAX (64u << 20)

struct pf_strings {
	char *bytes;		/* each string NUL-terminated */
	size_t len, cap;
	uint32_t *off;		/* id -> offset in bytes */
	uint32_t n, ncap;
	uint32_t *slots;	/* open addressing: id + 1, 0 empty */
	size_t nslots;		/* a power of two */
};

struct pf_tasks {
	struct pid_map map;	/* pid -> index */
	uint32_t *comm;		/* index -> string id, PF_NOSTR unknown */
	int32_t *tgid;		/* index -> tgid, -1 unknown */
	int n, cap;
};

/*
 * The id of [s, s + n) (a copy kept), into *id: 0, or -1 with the limit
 * it passed named in @err (a string over PF_STRING_MAX, more than
 * PF_STRINGS_MAX of them or PF_STRBYTES_MAX bytes)
 */
int pf_intern(struct pf_strings *t, const char *s, size_t n, uint32_t *id,
	      char *err, size_t errlen);
/* The string of @id (valid until the next pf_intern) */
const char *pf_str(const struct pf_strings *t, uint32_t id);
void pf_strings_free(struct pf_strings *t);

/*
 * The index of @pid in the table, added if new: >= 0, or -1 with @err
 * saying the table is full (PF_TASKS_MAX)
 */
int pf_task(struct pf_tasks *t, int pid, char *err, size_t errlen);
/* The index of @pid, or -1 when the trace never named it */
int pf_task_find(const struct pf_tasks *t, int pid);
void pf_tasks_free(struct pf_tasks *t);

#endif
