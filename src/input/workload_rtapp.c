// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app's grammar: the "global" object, the tasks, their phases and the
 * attributes a task or a phase sets (the events are workload_events.c's).
 * As rt-app, a task without "phases" is one phase of its own keys.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "workload_internal.h"
#include "util.h"

static bool has_control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static bool parse_policy(struct wl_parser *p, json_t *v, const char *ptr,
			 enum wl_policy *out)
{
	const char *s;

	if (!wl_get_str(p, v, ptr, &s))
		return false;
	if (wl_policy_from_name(s, out))
		return true;
	s = wl_brief_str(s);
	wl_err(p, ptr, "unknown policy %s: allowed SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE",
	       s);
	free((char *)s);
	return false;
}

static void parse_cpus(struct wl_parser *p, json_t *v, const char *ptr,
		       struct wl_attrs *a)
{
	size_t i;

	if (!json_is_array(v) || !json_array_size(v)) {
		char *b = jdoc_brief(v);

		wl_err(p, ptr, "%s: must be a non-empty array of CPU ids", b);
		free(b);
		return;
	}
	a->cpus_set = true;
	a->ncpus = (int)json_array_size(v);
	a->cpus = xcalloc((size_t)a->ncpus, sizeof(int));
	a->cpus_ptr = xstrdup(ptr);
	for (i = 0; i < json_array_size(v); i++) {
		char *ip = jptr_idx(ptr, i);
		long long c;

		if (wl_get_int(p, json_array_get(v, i), ip, 0, 1023, &c))
			a->cpus[i] = (int)c;
		free(ip);
	}
}

/*
 * Attributes that a thread or a phase may set. Returns true if @key was
 * one of them (valid or not).
 */
static bool parse_attr(struct wl_parser *p, const char *key, json_t *v,
		       const char *ptr, struct wl_attrs *a)
{
	long long x;
	const char *s;

	if (streq(key, "policy")) {
		if (parse_policy(p, v, ptr, &a->policy))
			a->policy_set = true;
	} else if (streq(key, "priority")) {
		/* the range depends on the policy, known once the task or
		 * phase is read: check_prio() reports it */
		if (!json_is_integer(v)) {
			char *b = jdoc_brief(v);

			wl_err(p, ptr, "%s is not an integer: a nice value in [-20, 19], or for SCHED_FIFO/SCHED_RR a priority in [1, 99]",
			       b);
			free(b);
		} else {
			x = json_integer_value(v);
			a->prio_set = true;
			a->prio_given = x;
			a->prio = x < -1000 ? -1000 : x > 1000 ? 1000 : (int)x;
		}
	} else if (streq(key, "cpus")) {
		parse_cpus(p, v, ptr, a);
	} else if (streq(key, "taskgroup")) {
		if (wl_get_str(p, v, ptr, &s)) {
			if (!*s)
				s = "/";
			if (!wl_group_path_ok(s)) {
				wl_bad_group_path(p, ptr, s);
			} else {
				free(a->group);
				a->group = xstrdup(s);
				a->group_set = true;
			}
		}
	} else if (streq(key, "util_min") || streq(key, "util_max")) {
		if (wl_get_int(p, v, ptr, 0, 1024, &x)) {
			if (key[5] == 'm' && key[6] == 'i') {
				a->util_min_set = true;
				a->util_min = (unsigned int)x;
			} else {
				a->util_max_set = true;
				a->util_max = (unsigned int)x;
			}
		}
	} else {
		return false;
	}
	return true;
}

/* Keys valid in a thread or phase object besides events and attributes */
static bool task_only_key(const char *k)
{
	return streq(k, "instance") || streq(k, "delay") ||
	       streq(k, "phases") || streq(k, "dl-runtime") ||
	       streq(k, "dl-period") || streq(k, "dl-deadline");
}

static void parse_phase_obj(struct wl_parser *p, json_t *obj, const char *ptr,
			    struct wl_phase *ph, bool inline_phase)
{
	const char *key;
	json_t *v;

	ph->loop = 1;
	json_object_foreach(obj, key, v) {
		char *kp = jptr_key(ptr, key);
		long long x;

		if (streq(key, "loop")) {
			if (!inline_phase &&
			    wl_get_int(p, v, kp, -1, INT_MAX, &x)) {
				if (x == 0)
					wl_err(p, kp, "0 is out of range: allowed -1 (forever) or [1, %d]",
					       INT_MAX);
				ph->loop = (int)x;
			}
		} else if (parse_attr(p, key, v, kp, &ph->attrs)) {
			/* inline phases: attributes belong to the task */
		} else if (wl_parse_event(p, ph, key, v, kp)) {
		} else if (inline_phase && task_only_key(key)) {
		} else if (streq(key, "nodes_membind") || streq(key, "hold_ns")) {
			jdoc_warn(p->doc, kp, "not modelled, ignored");
		} else {
			wl_rtapp_unknown(p, kp, key, inline_phase ?
					 wl_task_keys : wl_phase_keys);
		}
		free(kp);
	}
}

/*
 * rt-app's set_thread_affinity(): a phase without "cpus" runs on the
 * task's "cpus" (all CPUs when the task has none), not on the previous
 * phase's. Marked as cpus_set with no list, only when some phase changes
 * the affinity (otherwise there is nothing to return to).
 */
static void inherit_cpus(struct wl_task *t)
{
	bool any = false;
	int i;

	for (i = 0; i < t->nphases; i++)
		any |= t->phases[i].attrs.cpus_set;
	for (i = 0; any && i < t->nphases; i++)
		if (!t->phases[i].attrs.cpus_set)
			t->phases[i].attrs.cpus_set = true;
}

/*
 * rt-app's grammar before 2015 (doc/examples/merge: "exec", "period",
 * "lock_order", "resources" in a thread), which today's rt-app rejects
 * too: say so instead of a misleading error on "lock_order" (which the
 * "lock" prefix takes for an event).
 */
static bool legacy_task(struct wl_parser *p, json_t *obj, const char *ptr)
{
	if (!json_object_get(obj, "lock_order") &&
	    !json_object_get(obj, "exec"))
		return false;
	wl_err(p, ptr, "rt-app's legacy thread grammar (\"exec\", \"period\", \"lock_order\", \"resources\"), as in the fragments of rt-app's doc/examples/merge: today's rt-app rejects it too; write the thread with events (\"run\", \"timer\", \"lock\", ...)");
	return true;
}

static void parse_task(struct wl_parser *p, const char *name, json_t *obj,
		       const char *ptr, struct wl_task *t)
{
	struct workload *wl = p->wl;
	json_t *phases = json_object_get(obj, "phases");
	json_t *v;
	long long x;
	char *kp;

	t->name = xstrdup(name);
	t->ptr = xstrdup(ptr);
	t->instances = 1;
	t->loop = -1;
	if (legacy_task(p, obj, ptr)) {
		t->attrs.group = xstrdup("/");
		t->attrs.group_set = true;
		return;
	}

#define TASK_INT(k, lo, hi, dst) do { \
		v = json_object_get(obj, k); \
		if (v) { \
			kp = jptr_key(ptr, k); \
			if (wl_get_int(p, v, kp, lo, hi, &x)) \
				dst = x; \
			free(kp); \
		} \
	} while (0)

	TASK_INT("instance", 0, 1024, t->instances);
	TASK_INT("delay", 0, 3600LL * 1000000, t->delay_us);
	TASK_INT("dl-runtime", 1, 3600LL * 1000000, t->dl_runtime_us);
	TASK_INT("dl-period", 1, 3600LL * 1000000, t->dl_period_us);
	TASK_INT("dl-deadline", 1, 3600LL * 1000000, t->dl_deadline_us);
	if (phases) {
		TASK_INT("loop", -1, INT_MAX, t->loop);
		if (t->loop == 0) {
			kp = jptr_key(ptr, "loop");
			wl_err(p, kp, "0 is out of range: allowed -1 (forever) or [1, %d]",
			       INT_MAX);
			free(kp);
		}
	} else {
		/* inline events: "loop" counts the iterations of the thread */
		TASK_INT("loop", -1, INT_MAX, t->loop);
	}
#undef TASK_INT

	if (phases) {
		const char *pname;
		json_t *pobj;
		char *pp = jptr_key(ptr, "phases");
		const char *key;

		if (!json_is_object(phases) || !json_object_size(phases)) {
			wl_err(p, pp, "must be a non-empty object of phases");
			free(pp);
			return;
		}
		t->phases = xcalloc(json_object_size(phases), sizeof(*t->phases));
		json_object_foreach(phases, pname, pobj) {
			char *php = jptr_key(pp, pname);
			struct wl_phase *ph = &t->phases[t->nphases++];

			ph->name = xstrdup(pname);
			ph->named = true;
			if (!json_is_object(pobj))
				wl_err(p, php, "a phase must be an object");
			else
				parse_phase_obj(p, pobj, php, ph, false);
			if (!ph->nev && json_is_object(pobj))
				jdoc_warn(p->doc, php, "phase has no events");
			free(php);
		}
		free(pp);
		inherit_cpus(t);
		/* thread-level keys other than the attributes */
		json_object_foreach(obj, key, v) {
			kp = jptr_key(ptr, key);
			if (streq(key, "loop") || task_only_key(key)) {
			} else if (parse_attr(p, key, v, kp, &t->attrs)) {
			} else if (streq(key, "nodes_membind") ||
				   streq(key, "hold_ns")) {
				jdoc_warn(p->doc, kp, "not modelled, ignored");
			} else if (wl_is_event_key(key)) {
				jdoc_warn(p->doc, kp, "event \"%s\" at the task level is ignored when \"phases\" is given: it belongs in a phase",
					  key);
			} else {
				wl_rtapp_unknown(p, kp, key, wl_task_keys);
			}
			free(kp);
		}
	} else {
		struct wl_phase *ph;

		t->phases = xcalloc(1, sizeof(*t->phases));
		t->nphases = 1;
		ph = &t->phases[0];
		int err_before = p->err;

		ph->name = xstrdup("phase0");
		parse_phase_obj(p, obj, ptr, ph, true);
		ph->loop = 1;
		/* the attributes parsed into the phase are the thread's */
		t->attrs = ph->attrs;
		memset(&ph->attrs, 0, sizeof(ph->attrs));
		if (!ph->nev && !(p->err && !err_before))
			wl_err(p, ptr, "a task needs events (run, sleep, ...) or \"phases\"");
	}

	/* resolve the initial attributes */
	if (!t->attrs.policy_set) {
		t->attrs.policy = wl->default_policy;
		t->attrs.policy_set = true;
	}
	if (!t->attrs.group_set) {
		t->attrs.group = xstrdup("/");
		t->attrs.group_set = true;
	}
}

/* rt-app: -1 or 0 runs until the tasks end; else seconds, in the
 * simulator's range (a real may be fractional) */
static void parse_duration(struct wl_parser *p, json_t *v, const char *ptr)
{
	double sec = json_is_real(v) ? json_real_value(v) :
		     json_is_integer(v) ? (double)json_integer_value(v) : 0;
	char *b;

	if (json_is_integer(v) && json_integer_value(v) >= -1 &&
	    json_integer_value(v) <= 0) {
		p->wl->duration_s = -1;
		return;
	}
	if ((json_is_real(v) || json_is_integer(v)) &&
	    sec >= WL_DURATION_MIN_S && sec <= WL_DURATION_MAX_S) {
		p->wl->duration_s = sec;
		return;
	}
	b = jdoc_brief(v);
	wl_err(p, ptr, "%s is %s: allowed -1 or 0 (until the tasks end), or seconds in [%g, %g] (the simulator's limits)",
	       b, json_is_number(v) ? "out of range" : "not a number",
	       WL_DURATION_MIN_S, WL_DURATION_MAX_S);
	free(b);
}

/*
 * "ftrace": rt-app's comma-separated marker categories ("none": none);
 * the boolean of older rt-app versions turns the default set on or off.
 * "attrs" is accepted and writes nothing: capsim logs no rtapp_attrs.
 */
static void parse_ftrace(struct wl_parser *p, json_t *v, const char *kp)
{
	static const struct { const char *name; unsigned int bit; } cats[] = {
		{ "main", WL_FTRACE_MAIN }, { "task", WL_FTRACE_TASK },
		{ "loop", WL_FTRACE_LOOP }, { "event", WL_FTRACE_EVENT },
		{ "stats", WL_FTRACE_STATS }, { "attrs", 0 }, { "none", 0 },
	};
	const char *s, *end;
	unsigned int mask = 0;

	if (json_is_boolean(v)) {
		p->wl->ftrace = json_is_true(v) ? WL_FTRACE_DEFAULT : 0;
		return;
	}
	if (!json_is_string(v)) {
		wl_err(p, kp, "allowed a comma-separated list of main, task, loop, event, stats, attrs or none");
		return;
	}
	for (s = json_string_value(v); *s; s = *end ? end + 1 : end) {
		size_t n, k;

		end = s + strcspn(s, ",");
		while (*s == ' ' && s < end)
			s++;
		for (n = (size_t)(end - s); n && s[n - 1] == ' '; n--)
			;
		for (k = 0; k < sizeof(cats) / sizeof(cats[0]); k++)
			if (strlen(cats[k].name) == n && !strncmp(s, cats[k].name, n))
				break;
		if (k == sizeof(cats) / sizeof(cats[0])) {
			wl_err(p, kp, "unknown category \"%.*s\": allowed main, task, loop, event, stats, attrs or none",
			       (int)n, s);
			return;
		}
		mask |= cats[k].bit;
	}
	p->wl->ftrace = mask;
}

void wl_parse_global(struct wl_parser *p, json_t *g)
{
	struct workload *wl = p->wl;
	const char *key;
	json_t *v;

	if (!json_is_object(g)) {
		wl_err(p, "/global", "must be an object");
		return;
	}
	json_object_foreach(g, key, v) {
		char *kp = jptr_key("/global", key);
		long long x;

		if (streq(key, "duration")) {
			parse_duration(p, v, kp);
		} else if (streq(key, "default_policy")) {
			parse_policy(p, v, kp, &wl->default_policy);
		} else if (streq(key, "calibration")) {
			if (json_is_string(v) &&
			    !strncmp(json_string_value(v), "CPU", 3)) {
				char *end;
				long c = strtol(json_string_value(v) + 3, &end, 10);

				if (*end || c < 0 || c > 1023 ||
				    end == json_string_value(v) + 3)
					wl_err(p, kp, "allowed \"CPUn\" or an integer (ns per loop)");
				else
					wl->calib_cpu = (int)c;
			} else if (!json_is_integer(v)) {
				wl_err(p, kp, "allowed \"CPUn\" or an integer (ns per loop)");
			}
		} else if (streq(key, "cumulative_slack")) {
			if (!json_is_boolean(v))
				wl_err(p, kp, "must be true or false");
			else
				wl->cumulative_slack = json_is_true(v);
		} else if (streq(key, "mem_buffer_size")) {
			if (wl_get_int(p, v, kp, 1, 1LL << 40, &x))
				wl->mem_buffer_size = (uint64_t)x;
		} else if (streq(key, "pi_enabled")) {
			if (json_is_true(v))
				jdoc_warn(p->doc, kp, "priority inheritance is not modelled: mutexes are plain FIFO");
		} else if (streq(key, "ftrace")) {
			parse_ftrace(p, v, kp);
		} else if (streq(key, "lock_pages") || streq(key, "logdir") ||
			   streq(key, "log_basename") || streq(key, "log_size") ||
			   streq(key, "gnuplot") ||
			   streq(key, "io_device")) {
			jdoc_warn(p->doc, kp, "no effect in simulation, ignored");
		} else {
			wl_rtapp_unknown(p, kp, key, wl_global_keys);
		}
		free(kp);
	}
}

/* The "tasks" object: each task read, then checked, in the file's order */
bool wl_parse_tasks(struct wl_parser *p, json_t *root)
{
	struct workload *wl = p->wl;
	json_t *tasks = json_object_get(root, "tasks"), *v;
	const char *key;

	if (!tasks) {
		/* rt-app's doc/merge.py joins such files into one */
		wl_err(p, "", "no \"tasks\": a workload needs them%s",
		       json_object_get(root, "global") ||
		       json_object_get(root, "resources") ?
		       " (a fragment for rt-app's doc/merge.py, as in its doc/examples/merge, is not a workload on its own: merge it with the files that hold the tasks)" :
		       "");
		return false;
	}
	if (!json_is_object(tasks) || !json_object_size(tasks)) {
		wl_err(p, "/tasks", "\"tasks\" must be a non-empty object of threads");
		return false;
	}
	wl->tasks = xcalloc(json_object_size(tasks), sizeof(*wl->tasks));
	json_object_foreach(tasks, key, v) {
		char *tp = jptr_key("/tasks", key);
		struct wl_task *t = &wl->tasks[wl->ntasks++];

		/* the name is the trace's comm: a space or a control
		 * character (a newline) would split its trace lines */
		if (!*key || strchr(key, ' ') || has_control_char(key)) {
			wl_err(p, tp, "a task name must be non-empty and without spaces or control characters");
		}
		if (!json_is_object(v)) {
			wl_err(p, tp, "a task must be an object");
			t->name = xstrdup(key);
			t->ptr = xstrdup(tp);
			t->attrs.group = xstrdup("/");
		} else {
			p->task_errors = wl->doc.diag->errors;
			parse_task(p, key, v, tp, t);
			wl_check_task(p, t);
		}
		free(tp);
	}
	return true;
}
