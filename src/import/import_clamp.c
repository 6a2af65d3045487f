// SPDX-License-Identifier: GPL-2.0
/*
 * Task groups and their clamps where the trace shows them: the kernel
 * face's and capsim's `cap_clamp_write` (group=ID path=P attr=capacity_min|
 * capacity_max ... min=M max=X, the group's range after the write) and
 * `cap_clamp_enqueue`/`cap_clamp_update` (pid=N group=ID: the task's
 * group). A group's range at the window's start becomes
 * `capsim.taskgroups`, a successful write inside the window a
 * `capsim.events` entry at its time (a group first written inside the
 * window is declared without a range: it starts with its parent's, as a
 * new group does); a task enqueued in a group with a known path gets it
 * as `taskgroup`. Groups never written in the trace have no path to give
 * and are left out (--explain says so for their tasks). capsim's own
 * traces log writes, not enqueues: a round trip keeps the writes, not
 * which task was in which group.
 *
 * Every group written is one capsim takes (docs/import.md, "Groups and
 * clamps"): the trace's path with its empty names dropped ("//") and
 * each byte a group name does not take ([A-Za-z0-9_.-]) as '_'; a path
 * two groups would share (two ids, or two paths alike once normalised)
 * gets -ID on the later. What no kernel writes is refused with the
 * trace's line (exit 2): a name "." or "..", a name over NAME_MAX or a
 * path over PATH_MAX, a range whose min is above its max, a group whose
 * range at the window's start is not within its parent's.
 *
 * Groups by id and by path through src/input's strmap: a trace of 10^5
 * groups is read in linear time.
 */
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "escape.h"
#include "strmap.h"
#include "util.h"
#include "workload.h"

/* strmap's tests: group @idx has id @key, or path @key */
static bool same_id(const void *ctx, int idx, uint64_t ns, const char *key,
		    size_t len)
{
	const struct import_model *m = ctx;
	long long id;

	(void)ns;
	memcpy(&id, key, sizeof(id));
	(void)len;
	return m->groups[idx].id == id;
}

static bool same_path(const void *ctx, int idx, uint64_t ns, const char *key,
		      size_t len)
{
	const struct import_model *m = ctx;
	const char *p = m->groups[idx].path;

	(void)ns;
	return p && !strncmp(p, key, len) && !p[len];
}

static struct import_group *group_of(struct import_model *m, long long id)
{
	struct import_group *g;
	int i = strmap_get(&m->group_ids, 0, (const char *)&id, sizeof(id),
			   same_id, m);

	if (i >= 0)
		return &m->groups[i];
	if (m->ngroups == m->groups_cap) {
		m->groups_cap = m->groups_cap ? 2 * m->groups_cap : 16;
		m->groups = xrealloc(m->groups, (size_t)m->groups_cap *
						sizeof(*m->groups));
	}
	g = &m->groups[m->ngroups];
	*g = (struct import_group){ .id = id, .min = -1, .max = -1 };
	strmap_put(&m->group_ids, 0, (const char *)&id, sizeof(id),
		   m->ngroups++, same_id, m);
	return g;
}

static int get_int(const struct ftrace_event *ev, const char *k,
		   int64_t lo, int64_t hi, int64_t *v)
{
	return ftrace_get_i64(ev, k, v) && *v >= lo && *v <= hi;
}

static bool name_byte_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/*
 * @raw (starting with '/') as a group path capsim takes: empty names
 * dropped, each byte a name does not take '_'. NULL, with *why, where
 * there is none: no cgroup has such a path.
 */
static char *normal_path(const char *raw, const char **why)
{
	struct strbuf sb;
	const char *s = raw, *name;
	size_t n, i;

	sb_init(&sb);
	while (*s) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		for (name = s; *s && *s != '/'; s++)
			;
		n = (size_t)(s - name);
		if ((n == 1 && name[0] == '.') ||
		    (n == 2 && name[0] == '.' && name[1] == '.')) {
			*why = "\".\" and \"..\" name no cgroup";
			goto bad;
		}
		if (n > WL_GROUP_NAME_MAX) {
			*why = "a name is longer than the kernel's NAME_MAX (255)";
			goto bad;
		}
		sb_putc(&sb, '/');
		for (i = 0; i < n; i++)
			sb_putc(&sb, name_byte_ok(name[i]) ? name[i] : '_');
		if (sb.len >= WL_GROUP_PATH_MAX) {
			*why = "longer than the kernel's PATH_MAX (4096 with its NUL)";
			goto bad;
		}
	}
	if (!sb.len)
		sb_putc(&sb, '/');
	return sb.buf;
bad:
	sb_free(&sb);
	return NULL;
}

/* Give group @g (an index) the path @raw of the trace's current line, made
 * one capsim takes and no other group's; 0, or SCHED_BAD_INPUT (said) */
static int set_path(struct import_model *m, int g, const char *raw)
{
	const char *why = NULL;
	char *base = normal_path(raw, &why), *p = base, *e;
	int k = 1;

	if (!p) {
		e = term_escape_max(raw, 80);
		sched_state_bad(&m->ss, raw, "group %lld's path %s: %s: no cgroup the kernel has",
				m->groups[g].id, e, why);
		free(e);
		return SCHED_BAD_INPUT;
	}
	m->groups[g].renamed = strcmp(p, raw) != 0;
	/* the root is one group whatever its ids; any other path once */
	while (strcmp(p, "/") &&
	       strmap_get(&m->group_paths, 0, p, strlen(p), same_path, m) >= 0) {
		char *q = k == 1 ? xasprintf("%s-%lld", base, m->groups[g].id) :
			  xasprintf("%s-%lld-%d", base, m->groups[g].id, k);

		k++;
		if (p != base)
			free(p);
		p = q;
		m->groups[g].renamed = true;
		if (strlen(p) >= WL_GROUP_PATH_MAX ||
		    strlen(strrchr(p, '/') + 1) > WL_GROUP_NAME_MAX) {
			e = term_escape_max(raw, 80);
			sched_state_bad(&m->ss, raw, "group %lld's path %s is another group's, and with its id appended longer than the kernel takes",
					m->groups[g].id, e);
			free(e);
			free(p);
			free(base);
			return SCHED_BAD_INPUT;
		}
	}
	if (p != base)
		free(base);
	m->groups[g].path = p;
	if (m->groups[g].renamed)
		m->groups[g].trace_path = xstrdup(raw);
	strmap_put(&m->group_paths, 0, p, strlen(p), g, same_path, m);
	return 0;
}

static int clamp_write(struct import_model *m, const struct ftrace_event *ev)
{
	struct import_group *g;
	int64_t id, v, mn, mx, ret;
	const char *path = ftrace_get(ev, "path"), *attr = ftrace_get(ev, "attr");

	if (!get_int(ev, "group", 0, INT64_MAX, &id) || !path ||
	    path[0] != '/' || !attr ||
	    !get_int(ev, "value", 0, INT64_MAX, &v) ||
	    !get_int(ev, "ret", INT32_MIN, INT32_MAX, &ret) ||
	    !get_int(ev, "min", 0, 1024, &mn) ||
	    !get_int(ev, "max", 0, 1024, &mx))
		return 0;	/* not one we read: skipped */
	g = group_of(m, id);
	if (!g->path && set_path(m, (int)(g - m->groups), path))
		return SCHED_BAD_INPUT;
	if (ret)
		return 0;	/* refused: nothing changed */
	if (mn > mx)
		return sched_state_bad(&m->ss, ftrace_get(ev, "min"),
				       "group %s: a successful write leaves capacity_min %lld above capacity_max %lld: the kernel refuses such a write (-EINVAL)",
				       g->path, (long long)mn, (long long)mx);
	if (ev->ts_ns <= m->ws) {
		g->min = (int)mn;
		g->max = (int)mx;
		g->line = m->ss.reader ? m->ss.reader->lineno : 0;
		g->col = m->ss.reader ? trace_reader_col(m->ss.reader, path) : 1;
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

int import_clamp_event(struct import_model *m, const struct ftrace_event *ev)
{
	int64_t id, pid;

	if (!strcmp(ev->name, "cap_clamp_write"))
		return clamp_write(m, ev);
	if (!strcmp(ev->name, "cap_clamp_enqueue") ||
	    !strcmp(ev->name, "cap_clamp_update")) {
		struct import_task *t;

		if (!get_int(ev, "pid", 1, FTRACE_PID_MAX, &pid) ||
		    !get_int(ev, "group", 0, INT64_MAX, &id))
			return 0;
		t = (struct import_task *)sched_state_find(&m->ss, (int)pid);
		if (t) {
			/* group_of() may move m->groups: read it after */
			struct import_group *g = group_of(m, id);

			t->group = (int)(g - m->groups);
		}
	}
	return 0;
}

/* Paths in the order of a walk of their tree: '/' before any other byte
 * but the end, so that a group's descendants follow it, before its next
 * sibling ("/a", "/a/c", "/a-b") */
static int tree_key(char c)
{
	return c == '/' ? 1 : c ? (unsigned char)c + 1 : 0;
}

static int tree_cmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	return tree_key(*a) - tree_key(*b);
}

static const struct import_model *sort_model;

static int cmp_groups(const void *a, const void *b)
{
	const struct import_group *g = sort_model->groups;

	return tree_cmp(g[*(const int *)a].path, g[*(const int *)b].path);
}

/* Is @a an ancestor of @b? */
static bool ancestor(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strcmp(a, "/") ||
	       (!strncmp(a, b, n) && b[n] == '/');
}

/*
 * The ranges at the window's start, as capsim.taskgroups sets them: each
 * within its nearest configured ancestor's (the groups between start
 * with that one's), as the kernel keeps them. 0, or 2 (said, at the line
 * that set the group's range).
 */
int import_clamp_check(const struct import_model *m)
{
	int *order = xcalloc((size_t)m->ngroups + 1, sizeof(int));
	int *stack = xcalloc((size_t)m->ngroups + 1, sizeof(int));
	int i, n = 0, top = 0, ret = 0;

	for (i = 0; i < m->ngroups; i++)
		if (m->groups[i].path && m->groups[i].min >= 0 &&
		    strcmp(m->groups[i].path, "/"))
			order[n++] = i;
	sort_model = m;
	if (n > 1)
		qsort(order, (size_t)n, sizeof(int), cmp_groups);
	for (i = 0; i < n && !ret; i++) {
		const struct import_group *g = &m->groups[order[i]], *p;
		int pmin = 0, pmax = 1024;

		while (top && !ancestor(m->groups[stack[top - 1]].path, g->path))
			top--;
		p = top ? &m->groups[stack[top - 1]] : NULL;
		if (p) {
			pmin = p->min;
			pmax = p->max;
		}
		if (g->min < pmin || g->max > pmax) {
			fprintf(stderr, "%s:%ld:%d: error: group %s: its range [%d, %d] at the window's start is not within %s%s's [%d, %d]: the kernel keeps a group within its parent's range\n",
				m->o->trace, g->line, g->col, g->path, g->min,
				g->max, p ? "its ancestor " : "the root",
				p ? p->path : "", pmin, pmax);
			ret = 2;
		}
		stack[top++] = order[i];
	}
	free(order);
	free(stack);
	return ret;
}

void import_clamp_free(struct import_model *m)
{
	int i;

	for (i = 0; i < m->ngroups; i++) {
		free(m->groups[i].path);
		free(m->groups[i].trace_path);
		free(m->groups[i].writes);
	}
	free(m->groups);
	strmap_free(&m->group_ids);
	strmap_free(&m->group_paths);
}
