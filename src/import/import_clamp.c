// SPDX-License-Identifier: GPL-2.0
/*
 * Task groups and their clamps where the trace shows them: the kernel
 * face's and capsim's `cap_clamp_write` (group=ID path=P attr=capacity_min|
 * capacity_max ... min=M max=X, the group's range after the write) and
 * `cap_clamp_enqueue`/`cap_clamp_update` (pid=N group=ID: the task's
 * group). A group's range at the window's start becomes
 * `capsim.taskgroups`, a successful write inside the window a
 * `capsim.events` entry at its time; a task enqueued in a group with a
 * known path gets it as `taskgroup`. Groups never written in the trace
 * have no path to give and are left out (--explain says so for their
 * tasks). capsim's own traces log writes, not enqueues: a round trip
 * keeps the writes, not which task was in which group.
 */
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "util.h"

static struct import_group *group_of(struct import_model *m, long long id)
{
	struct import_group *g;
	int i;

	for (i = 0; i < m->ngroups; i++)
		if (m->groups[i].id == id)
			return &m->groups[i];
	m->groups = xrealloc(m->groups, (size_t)(m->ngroups + 1) *
					sizeof(*m->groups));
	g = &m->groups[m->ngroups++];
	*g = (struct import_group){ .id = id, .min = -1, .max = -1 };
	return g;
}

static int get_int(const struct ftrace_event *ev, const char *k,
		   int64_t lo, int64_t hi, int64_t *v)
{
	return ftrace_get_i64(ev, k, v) && *v >= lo && *v <= hi;
}

int import_clamp_event(struct import_model *m, const struct ftrace_event *ev)
{
	struct import_group *g;
	int64_t id, v, mn, mx, ret, pid;
	const char *path, *attr;

	if (!strcmp(ev->name, "cap_clamp_write")) {
		path = ftrace_get(ev, "path");
		attr = ftrace_get(ev, "attr");
		if (!get_int(ev, "group", 0, INT64_MAX, &id) || !path ||
		    path[0] != '/' || !attr ||
		    !get_int(ev, "value", 0, INT64_MAX, &v) ||
		    !get_int(ev, "ret", INT32_MIN, INT32_MAX, &ret) ||
		    !get_int(ev, "min", 0, 1024, &mn) ||
		    !get_int(ev, "max", 0, 1024, &mx))
			return 0;	/* not one we read: skipped */
		g = group_of(m, id);
		if (!g->path)
			g->path = xstrdup(path);
		if (ret)
			return 0;	/* refused: nothing changed */
		if (ev->ts_ns <= m->ws) {
			g->min = (int)mn;
			g->max = (int)mx;
			return 0;
		}
		g->writes = xrealloc(g->writes, (size_t)(g->nwrites + 1) *
						sizeof(*g->writes));
		g->writes[g->nwrites++] = (struct import_write){
			.at = ev->ts_ns - m->ws,
			.max = !strcmp(attr, "capacity_max"),
			.value = v > 1024 ? 1024 : (int)v,
		};
		return 0;
	}
	if (!strcmp(ev->name, "cap_clamp_enqueue") ||
	    !strcmp(ev->name, "cap_clamp_update")) {
		struct import_task *t;

		if (!get_int(ev, "pid", 1, FTRACE_PID_MAX, &pid) ||
		    !get_int(ev, "group", 0, INT64_MAX, &id))
			return 0;
		t = (struct import_task *)sched_state_find(&m->ss, (int)pid);
		if (t)
			t->group = (int)(group_of(m, id) - m->groups);
	}
	return 0;
}

void import_clamp_free(struct import_model *m)
{
	int i;

	for (i = 0; i < m->ngroups; i++) {
		free(m->groups[i].path);
		free(m->groups[i].writes);
	}
	free(m->groups);
}
