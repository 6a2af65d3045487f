// SPDX-License-Identifier: GPL-2.0
/*
 * capsim.chains: named chains of tasks, each judged per period (a frame).
 * Read after the tasks, since a chain names tasks and a timer that only
 * the tasks' events create:
 *
 *   "chains": { "frame": { "tasks": ["ui", "render"], "period_us": 16667,
 *                          "start": "vsync", "deadline_us": 16667 } }
 *
 * "start" is "period" (a trigger every period_us from time 0) or the name
 * of a timer the tasks use (its first period is the trigger of period 0).
 * What the model does with a chain is src/sim/chains.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "spelling.h"
#include "workload_internal.h"
#include "util.h"

const char *const wl_chain_keys[] = { "tasks", "period_us", "start",
				      "deadline_us", NULL };

/* @c may be in a chain's name: not a space, dot, comma or quote (the name
 * is a CSV field and a metric name) nor a control character (a tab, a
 * newline, ... would split or blur a CSV header field) */
bool wl_chain_name_char_ok(char c)
{
	return !strchr(",.\"' ", c) && (unsigned char)c >= 0x20 && c != 0x7f;
}

static bool chain_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!wl_chain_name_char_ok(*s))
			return false;
	return true;
}

/* The task named @name, or -1 after an error with the closest names */
static int chain_task(struct wl_parser *p, json_t *v, const char *ptr)
{
	struct workload *wl = p->wl;
	const char **names;
	char *hint, *b;
	int i;

	if (!json_is_string(v)) {
		b = jdoc_brief(v);
		wl_err(p, ptr, "%s is not a task name", b);
		free(b);
		return -1;
	}
	for (i = 0; i < wl->ntasks; i++)
		if (streq(wl->tasks[i].name, json_string_value(v)))
			return i;
	names = xcalloc((size_t)wl->ntasks + 1, sizeof(*names));
	for (i = 0; i < wl->ntasks; i++)
		names[i] = wl->tasks[i].name;
	hint = spelling_hint(json_string_value(v), names, true);
	b = wl_brief_str(json_string_value(v));
	wl_err(p, ptr, "no task is named %s%s", b, hint);
	free(b);
	free(hint);
	free(names);
	return -1;
}

static void chain_tasks(struct wl_parser *p, struct wl_chain *ch, json_t *v,
			const char *ptr)
{
	size_t i;

	if (!json_is_array(v) || !json_array_size(v)) {
		wl_err(p, ptr, "must be a non-empty array of task names, in the order they work on a period");
		return;
	}
	ch->tasks = xcalloc(json_array_size(v), sizeof(*ch->tasks));
	for (i = 0; i < json_array_size(v); i++) {
		char *tp = jptr_idx(ptr, i);
		int t = chain_task(p, json_array_get(v, i), tp);

		if (t >= 0)
			ch->tasks[ch->ntasks++] = t;
		free(tp);
	}
}

/* "period", or a timer some task uses: its resource index (-1: period) */
static void chain_start(struct wl_parser *p, struct wl_chain *ch, json_t *v,
			const char *ptr)
{
	struct workload *wl = p->wl;
	const char *s;
	int i;

	if (!wl_get_str(p, v, ptr, &s))
		return;
	ch->start = xstrdup(s);
	ch->start_timer = -1;
	if (streq(s, "period"))
		return;
	for (i = 0; i < wl->nres; i++)
		if (wl->res[i].kind == WL_RES_TIMER && streq(wl->res[i].name, s)) {
			ch->start_timer = i;
			return;
		}
	wl_err(p, ptr, "\"%s\" is neither \"period\" nor the name of a timer a task uses (\"timer\": {\"ref\": ...})",
	       s);
}

static void parse_chain(struct wl_parser *p, struct wl_chain *ch, json_t *c,
			const char *cp)
{
	const char *k;
	json_t *v;
	long long x;

	if (!json_is_object(c)) {
		wl_err(p, cp, "must be an object {\"tasks\", \"period_us\", \"start\", \"deadline_us\"}");
		return;
	}
	json_object_foreach(c, k, v) {
		char *vp = jptr_key(cp, k);

		if (streq(k, "tasks")) {
			chain_tasks(p, ch, v, vp);
		} else if (streq(k, "start")) {
			chain_start(p, ch, v, vp);
		} else if (streq(k, "period_us") || streq(k, "deadline_us")) {
			if (wl_get_int(p, v, vp, WL_CHAIN_PERIOD_MIN_US,
				       WL_CHAIN_PERIOD_MAX_US, &x)) {
				if (k[0] == 'p')
					ch->period_us = (uint64_t)x;
				else
					ch->deadline_us = (uint64_t)x;
			}
		} else {
			wl_capsim_unknown(p, vp, k, wl_chain_keys);
		}
		free(vp);
	}
	if (!json_object_get(c, "tasks"))
		wl_err(p, cp, "missing \"tasks\": the chain's task names, in order");
	if (!json_object_get(c, "period_us"))
		wl_err(p, cp, "missing \"period_us\": allowed [%d, %d]",
		       WL_CHAIN_PERIOD_MIN_US, WL_CHAIN_PERIOD_MAX_US);
	if (!json_object_get(c, "start"))
		wl_err(p, cp, "missing \"start\": \"period\" or a timer's name");
	if (!ch->deadline_us)
		ch->deadline_us = ch->period_us;
}

void wl_parse_chains(struct wl_parser *p, json_t *c)
{
	struct workload *wl = p->wl;
	const char *name;
	json_t *v;

	if (!json_is_object(c)) {
		wl_err(p, "/capsim/chains", "must be an object {\"name\": {\"tasks\", \"period_us\", \"start\"}}");
		return;
	}
	wl->chains = xcalloc(json_object_size(c) + 1, sizeof(*wl->chains));
	json_object_foreach(c, name, v) {
		struct wl_chain *ch = &wl->chains[wl->nchains++];

		ch->name = xstrdup(name);
		ch->ptr = jptr_key("/capsim/chains", name);
		ch->start_timer = -1;
		if (!chain_name_ok(name))
			wl_err(p, ch->ptr, "a chain's name must be non-empty, without spaces, dots, commas, quotes or control characters (it is a CSV field and a metric name)");
		parse_chain(p, ch, v, ch->ptr);
	}
}

void wl_chains_free(struct workload *wl)
{
	int i;

	for (i = 0; i < wl->nchains; i++) {
		free(wl->chains[i].name);
		free(wl->chains[i].ptr);
		free(wl->chains[i].tasks);
		free(wl->chains[i].start);
		free(wl->chains[i].from);
	}
	free(wl->chains);
}
