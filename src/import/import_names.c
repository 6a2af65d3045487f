// SPDX-License-Identifier: GPL-2.0
/*
 * Each task's name in the workload (docs/import.md, "Names"), unique:
 * its last comm (a thread renamed by prctl() or a process by exec() is
 * known by its last name), cut as the kernel keeps a comm at 15 bytes
 * (TASK_COMM_LEN 16 with its NUL), with what rt-app and a shell take
 * ([A-Za-z0-9_.-], any other byte '_'); COMM-PID when several tasks
 * would share one or it looks like the background's bg_cpuN; and when
 * even that is another task's name (a comm `x-1000` beside two `x`, one
 * of pid 1000), COMM-PID-2, -3, ... until it is free.
 *
 * By hash (src/input's strmap, over the tasks' own strings): 10^6 tasks
 * are named in linear time, where comparing every pair of comms took 98 %
 * of an import of 50 000.
 */
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "strmap.h"
#include "util.h"

/* The kernel's TASK_COMM_LEN less its NUL */
#define COMM_MAX 15

void import_cap_comms(struct import_model *m)
{
	int i, k;

	for (i = 0; i < m->ss.ntasks; i++) {
		struct sched_task *st = &import_task(m, i)->st;
		size_t over = 0, n;

		/* the first name is kept for messages only; every name the
		 * pid had is cut (--tasks reads them all) */
		for (k = -1; k < st->ncomms; k++) {
			char *c = k < 0 ? st->comm : st->comms[k];

			n = strlen(c);
			if (n > COMM_MAX) {
				if (n - COMM_MAX > over)
					over = n - COMM_MAX;
				c[COMM_MAX] = '\0';
			}
		}
		if (over) {
			import_task(m, i)->comm_cut = over;
			m->comms_cut++;
			m->comm_bytes_cut += over;
		}
	}
	if (m->comms_cut)
		fprintf(stderr, "capsim: import: note: %ld task%s a comm longer than the kernel's %d bytes (TASK_COMM_LEN %d with its NUL): cut to %d (%lld bytes dropped; --explain names them)\n",
			m->comms_cut, m->comms_cut > 1 ? "s had" : " had",
			COMM_MAX, COMM_MAX + 1, COMM_MAX, m->comm_bytes_cut);
}

const char *import_last_comm(const struct import_task *t)
{
	return t->st.ncomms ? t->st.comms[t->st.ncomms - 1] : t->st.comm;
}

/* The names looked up: @ctx's strings by index */
static bool same_name(const void *ctx, int idx, uint64_t ns, const char *key,
		      size_t len)
{
	const char *const *names = ctx;

	(void)ns;
	return !strncmp(names[idx], key, len) && !names[idx][len];
}

/* @name, a task's own, marked taken by task @i */
static void take(struct strmap *taken, char **names, int i)
{
	strmap_put(taken, 0, names[i], strlen(names[i]), i, same_name, names);
}

static bool is_taken(const struct strmap *taken, char **names,
		     const char *s)
{
	return strmap_get(taken, 0, s, strlen(s), same_name, names) >= 0;
}

void import_name_tasks(struct import_model *m)
{
	int n = m->ss.ntasks, i, j;
	char **base = xcalloc((size_t)n + 1, sizeof(*base));
	char **names = xcalloc((size_t)n + 1, sizeof(*names));
	int *first = xcalloc((size_t)n + 1, sizeof(*first));
	int *count = xcalloc((size_t)n + 1, sizeof(*count));
	struct strmap bases = { 0 }, taken = { 0 };

	for (i = 0; i < n; i++) {
		const char *c = import_last_comm(import_task(m, i));
		char *s = xstrdup(c[0] ? c : "task");

		for (j = 0; s[j]; j++)
			if (!((s[j] >= 'a' && s[j] <= 'z') ||
			      (s[j] >= 'A' && s[j] <= 'Z') ||
			      (s[j] >= '0' && s[j] <= '9') || strchr("_.-", s[j])))
				s[j] = '_';
		base[i] = s;
		/* the first task of each base counts its tasks */
		first[i] = strmap_get(&bases, 0, s, strlen(s), same_name, base);
		if (first[i] < 0) {
			first[i] = i;
			strmap_put(&bases, 0, s, strlen(s), i, same_name, base);
		}
		count[first[i]]++;
	}
	/* a base of its own is the name: those come first, so that no
	 * suffixed name takes one */
	for (i = 0; i < n; i++) {
		if (count[first[i]] > 1 || !strncmp(base[i], "bg_cpu", 6))
			continue;
		names[i] = xstrdup(base[i]);
		take(&taken, names, i);
	}
	for (i = 0; i < n; i++) {
		struct import_task *t = import_task(m, i);
		int k = 1;

		if (names[i])
			continue;
		t->name_shared = count[first[i]];
		names[i] = xasprintf("%s-%d", base[i], t->st.pid);
		while (is_taken(&taken, names, names[i])) {
			free(names[i]);
			names[i] = xasprintf("%s-%d-%d", base[i], t->st.pid, ++k);
		}
		t->name_suffix = k;
		take(&taken, names, i);
	}
	for (i = 0; i < n; i++) {
		import_task(m, i)->name = names[i];
		free(base[i]);
	}
	strmap_free(&bases);
	strmap_free(&taken);
	free(base);
	free(names);
	free(first);
	free(count);
}
