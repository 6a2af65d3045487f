// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "spelling.h"
#include "uclamp_percent.h"
#include "workload.h"
#include "util.h"

static const char *const policy_names[] = {
	[WL_SCHED_OTHER] = "SCHED_OTHER",
	[WL_SCHED_BATCH] = "SCHED_BATCH",
	[WL_SCHED_IDLE] = "SCHED_IDLE",
	[WL_SCHED_FIFO] = "SCHED_FIFO",
	[WL_SCHED_RR] = "SCHED_RR",
	[WL_SCHED_DEADLINE] = "SCHED_DEADLINE",
};

const char *wl_policy_name(enum wl_policy p)
{
	return policy_names[p];
}

static const char *const ev_names[] = {
	[WL_EV_RUN] = "run", [WL_EV_RUNTIME] = "runtime",
	[WL_EV_SLEEP] = "sleep", [WL_EV_TIMER] = "timer",
	[WL_EV_IORUN] = "iorun", [WL_EV_MEM] = "mem",
	[WL_EV_YIELD] = "yield", [WL_EV_LOCK] = "lock",
	[WL_EV_UNLOCK] = "unlock", [WL_EV_WAIT] = "wait",
	[WL_EV_SIGNAL] = "signal", [WL_EV_BROAD] = "broad",
	[WL_EV_BARRIER] = "barrier", [WL_EV_SUSPEND] = "suspend",
	[WL_EV_RESUME] = "resume",
};

const char *wl_ev_name(enum wl_ev_type t)
{
	return ev_names[t];
}

/* The parser's state */
struct wp {
	struct workload *wl;
	struct jdoc *doc;
	int err;
	int task_errors;	/* the errors before the current task */
	bool warned_iorun, warned_mem, warned_util;
};

static bool streq(const char *a, const char *b)
{
	return !strcmp(a, b);
}

static bool has_control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

const char *wl_group_path_problem(const char *p)
{
	const char *s, *name;

	if (!p || p[0] != '/')
		return "a group path starts with '/'";
	if (strlen(p) >= WL_GROUP_PATH_MAX)
		return "longer than the kernel's PATH_MAX (4096 with its NUL)";
	if (!p[1])
		return NULL;
	for (name = s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			size_t n = (size_t)(s - name);

			if (!n)
				return "empty name between '/'";
			if (n > WL_GROUP_NAME_MAX)
				return "a name longer than the kernel's NAME_MAX (255)";
			/* cgroupfs has no such directories to create */
			if ((n == 1 && name[0] == '.') ||
			    (n == 2 && name[0] == '.' && name[1] == '.'))
				return "\".\" and \"..\" are not group names";
			if (!*s)
				return NULL;
			name = s + 1;
		} else if (!(*s == '_' || *s == '-' || *s == '.' ||
			     (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			     (*s >= '0' && *s <= '9'))) {
			return "allowed letters, digits, _ - . between '/'";
		}
	}
}

bool wl_group_path_ok(const char *p)
{
	return !wl_group_path_problem(p);
}

static size_t res_hash(const char *name, enum wl_res_kind kind)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)kind;

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

/* Rebuild the chains for twice as many resources as there are now */
static void res_rehash(struct workload *wl)
{
	size_t size = wl->res_hash_size ? wl->res_hash_size * 2 : 64;
	int i;

	free(wl->res_hash);
	wl->res_hash_size = size;
	wl->res_hash = xmalloc(size * sizeof(int));
	memset(wl->res_hash, 0xff, size * sizeof(int));	/* all -1 */
	wl->res_next = xrealloc(wl->res_next, size / 2 * sizeof(int));
	for (i = 0; i < wl->nres; i++) {
		size_t b = res_hash(wl->res[i].name, wl->res[i].kind) &
			   (size - 1);

		wl->res_next[i] = wl->res_hash[b];
		wl->res_hash[b] = i;
	}
}

/* The resource @name of @kind, created at its first use: O(1), as a
 * workload may give each of 10^5 tasks its own timer */
static int res_index(struct workload *wl, const char *name,
		     enum wl_res_kind kind)
{
	size_t b;
	int i;

	if ((size_t)wl->nres >= wl->res_hash_size / 2) {
		res_rehash(wl);
		wl->res = xrealloc(wl->res, wl->res_hash_size / 2 *
				   sizeof(*wl->res));
	}
	b = res_hash(name, kind) & (wl->res_hash_size - 1);
	for (i = wl->res_hash[b]; i >= 0; i = wl->res_next[i])
		if (wl->res[i].kind == kind && streq(wl->res[i].name, name))
			return i;
	memset(&wl->res[wl->nres], 0, sizeof(*wl->res));
	wl->res[wl->nres].name = xstrdup(name);
	wl->res[wl->nres].kind = kind;
	wl->res[wl->nres].unique = kind == WL_RES_TIMER &&
				   !strncmp(name, "unique", 6);
	wl->res_next[wl->nres] = wl->res_hash[b];
	wl->res_hash[b] = wl->nres;
	return wl->nres++;
}

static void perr(struct wp *p, const char *ptr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void perr(struct wp *p, const char *ptr, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	jdoc_error(p->doc, ptr, "%s", sb.buf);
	sb_free(&sb);
	p->err = -1;
}

/* @s quoted and cut to a readable length, for messages (caller frees) */
static char *brief_str(const char *s)
{
	json_t *j = json_string(s);
	char *b = jdoc_brief(j);

	json_decref(j);
	return b;
}

static void bad_group_path(struct wp *p, const char *ptr, const char *path)
{
	char *b = brief_str(path);

	perr(p, ptr, "%s is not a group path (\"/name/sub\"): %s", b,
	     wl_group_path_problem(path));
	free(b);
}

/*
 * The keys of each place of a workload. rt-app ignores a key it does not
 * know, so capsim warns (--strict: errors); capsim's own keys are checked
 * strictly, since a typo there silently changes the experiment.
 */
#define RTAPP_EVENTS "run", "runtime", "sleep", "timer", "iorun", "mem", \
	"yield", "lock", "unlock", "wait", "signal", "broad", "sync", \
	"barrier", "suspend", "resume", "fork"
#define RTAPP_ATTRS "policy", "priority", "cpus", "taskgroup", "util_min", \
	"util_max", "nodes_membind", "hold_ns"
static const char *const top_keys[] = { "global", "tasks", "capsim",
					"resources", NULL };
static const char *const global_keys[] = {
	"duration", "calibration", "default_policy", "cumulative_slack",
	"mem_buffer_size", "pi_enabled", "lock_pages", "logdir",
	"log_basename", "log_size", "ftrace", "gnuplot", "io_device", NULL };
static const char *const task_keys[] = {
	"instance", "loop", "delay", "phases", "dl-runtime", "dl-period",
	"dl-deadline", RTAPP_ATTRS, RTAPP_EVENTS, NULL };
static const char *const phase_keys[] = { "loop", RTAPP_ATTRS, RTAPP_EVENTS,
					  NULL };
static const char *const timer_keys[] = { "ref", "period", "mode", NULL };
static const char *const capsim_keys[] = {
	"taskgroups", "events", "platform", "policy", "clamp_order",
	"domain_rule", "run_jitter_pct", "io_bandwidth_mbps",
	"mem_bandwidth_mbps", "description", "uclamp", NULL };
static const char *const group_keys[] = { "capacity_min", "capacity_max",
					  "uclamp_min", "uclamp_max", NULL };
static const char *const gevent_keys[] = { "at_ms", "group", "capacity_min",
					   "capacity_max", "uclamp_min",
					   "uclamp_max", NULL };
static const char *const uclamp_keys[] = { "util_min", "util_max",
					   "util_min_rt_default", "buckets",
					   NULL };

static bool listed(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (streq(key, *keys))
			return true;
	return false;
}

/* Where a key of capsim's own goes, if @key is one (NULL if not) */
static const char *capsim_home(const char *key)
{
	if (listed(key, group_keys))
		return "a group of capsim.taskgroups (a task joins it with \"taskgroup\")";
	if (listed(key, gevent_keys))
		return "an event of capsim.events";
	/* "description" is common in rt-app files too */
	if (listed(key, capsim_keys) && !streq(key, "description"))
		return "the top-level \"capsim\" object";
	return NULL;
}

/* ", did you mean "x"?" or, without a close key, the allowed keys */
static char *key_hint(const char *key, const char *const *known,
		      bool list_all)
{
	const char *near = spelling_suggest(key, known);
	struct strbuf sb;

	sb_init(&sb);
	if (near) {
		sb_printf(&sb, ": did you mean \"%s\"?", near);
	} else if (list_all) {
		sb_puts(&sb, ": allowed ");
		for (; *known; known++)
			sb_printf(&sb, "%s%s", *known, known[1] ? ", " : "");
	}
	return sb.buf ? sb.buf : xstrdup("");
}

/* @key for a message: whole, or its start if it runs to kilobytes
 * (cut at a UTF-8 character; caller frees) */
static char *key_shown(const char *key)
{
	size_t n = strlen(key);

	if (n <= 64)
		return xstrdup(key);
	n = 61;
	while (n > 0 && ((unsigned char)key[n] & 0xc0) == 0x80)
		n--;
	return xasprintf("%.*s...", (int)n, key);
}

/* An unknown key inside the "capsim" object: always an error */
static void capsim_unknown(struct wp *p, const char *ptr, const char *key,
			   const char *const *known)
{
	char *hint = key_hint(key, known, true), *k = key_shown(key);

	perr(p, ptr, "unknown key \"%s\"%s", k, hint);
	free(hint);
	free(k);
}

/*
 * A key rt-app's part of the file does not know at @ptr. A key of
 * capsim's own put there, or "capsim" mistyped at the top, is an error
 * (rt-app would ignore it and capsim would run another experiment than the
 * one written); anything else is rt-app's to ignore: a warning, an error
 * under --strict.
 */
static void rtapp_unknown(struct wp *p, const char *ptr, const char *key,
			  const char *const *known)
{
	const char *home = capsim_home(key);
	/* only a list with "capsim" in it can suggest it */
	const char *near = listed("capsim", known) ?
			   spelling_suggest(key, known) : NULL;
	char *hint, *k = key_shown(key);

	if (home) {
		perr(p, ptr, "\"%s\" is one of capsim's own keys: it belongs in %s",
		     k, home);
	} else if (near && streq(near, "capsim")) {
		perr(p, ptr, "unknown key \"%s\": did you mean \"capsim\"?",
		     k);
	} else {
		/* past the message cap only the count is kept: no hint */
		hint = diag_shows_more(p->doc->diag) ?
		       key_hint(key, known, false) : xstrdup("");
		if (p->doc->diag->strict)
			perr(p, ptr, "unknown key \"%s\" (rt-app ignores it; --strict)%s",
			     k, hint);
		else
			jdoc_warn(p->doc, ptr, "unknown key \"%s\", ignored%s",
				  k, hint);
		free(hint);
	}
	free(k);
}

/* An integer value in [lo, hi]; on error reports "field: allowed range" */
static bool get_int(struct wp *p, json_t *v, const char *ptr, long long lo,
		    long long hi, long long *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi) {
		if (json_is_integer(v))
			perr(p, ptr, "%lld is out of range: allowed [%lld, %lld]",
			     (long long)json_integer_value(v), lo, hi);
		else {
			char *b = jdoc_brief(v);

			perr(p, ptr, "%s is not an integer: allowed [%lld, %lld]",
			     b, lo, hi);
			free(b);
		}
		return false;
	}
	*out = json_integer_value(v);
	return true;
}

static bool get_str(struct wp *p, json_t *v, const char *ptr,
		    const char **out)
{
	if (!json_is_string(v)) {
		char *b = jdoc_brief(v);

		perr(p, ptr, "%s is not a string", b);
		free(b);
		return false;
	}
	*out = json_string_value(v);
	return true;
}

/*
 * A cgroup cpu.uclamp.min/max value as the file takes it: "max" or a
 * percentage with at most two decimals (a string, or a JSON number),
 * converted to capacity units by capacity_from_percent()'s rounding.
 */
static bool get_uclamp_pct(struct wp *p, json_t *v, const char *ptr,
			   unsigned int *cap)
{
	char buf[64];
	const char *s = buf;
	unsigned int x100;

	if (json_is_string(v))
		s = json_string_value(v);
	else if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%.17g", json_real_value(v));
	else
		buf[0] = '\0';
	if (uclamp_parse_percent(s, &x100)) {
		char *b = jdoc_brief(v);

		perr(p, ptr, "%s is not a uclamp value: \"max\" or a percentage with at most two decimals, allowed [0, 100]",
		     b);
		free(b);
		return false;
	}
	*cap = uclamp_capacity_from_percent(x100);
	return true;
}

/*
 * A group's uclamp_min/max is its capacity_min/max in uclamp's words:
 * one range, which each policy applies its own way. Both given must
 * agree (after the percent's rounding).
 */
static void group_uclamp(struct wp *p, struct wl_group *grp, json_t *g,
			 const char *ptr, bool max, unsigned int cap)
{
	json_t *other = json_object_get(g, max ? "capacity_max" :
					    "capacity_min");

	if (json_is_integer(other) && json_integer_value(other) != cap) {
		perr(p, ptr, "%s is %u in capacity units, but the group's %s is %lld: give one of them, or the same value",
		     max ? "uclamp_max" : "uclamp_min", cap,
		     max ? "capacity_max" : "capacity_min",
		     (long long)json_integer_value(other));
		return;
	}
	if (max) {
		grp->max_set = true;
		grp->max = cap;
	} else {
		grp->min_set = true;
		grp->min = cap;
	}
}

static bool parse_policy(struct wp *p, json_t *v, const char *ptr,
			 enum wl_policy *out)
{
	const char *s;
	size_t i;

	if (!get_str(p, v, ptr, &s))
		return false;
	for (i = 0; i < ARRAY_SIZE(policy_names); i++) {
		if (streq(s, policy_names[i]) ||
		    streq(s, policy_names[i] + strlen("SCHED_"))) {
			*out = (enum wl_policy)i;
			return true;
		}
	}
	s = brief_str(s);
	perr(p, ptr, "unknown policy %s: allowed SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE",
	     s);
	free((char *)s);
	return false;
}

static void parse_cpus(struct wp *p, json_t *v, const char *ptr,
		       struct wl_attrs *a)
{
	size_t i;

	if (!json_is_array(v) || !json_array_size(v)) {
		char *b = jdoc_brief(v);

		perr(p, ptr, "%s: must be a non-empty array of CPU ids", b);
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

		if (get_int(p, json_array_get(v, i), ip, 0, 1023, &c))
			a->cpus[i] = (int)c;
		free(ip);
	}
}

/*
 * Attributes that a thread or a phase may set. Returns true if @key was
 * one of them (valid or not).
 */
static bool parse_attr(struct wp *p, const char *key, json_t *v,
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

			perr(p, ptr, "%s is not an integer: a nice value in [-20, 19], or for SCHED_FIFO/SCHED_RR a priority in [1, 99]",
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
		if (get_str(p, v, ptr, &s)) {
			if (!*s)
				s = "/";
			if (!wl_group_path_ok(s)) {
				bad_group_path(p, ptr, s);
			} else {
				free(a->group);
				a->group = xstrdup(s);
				a->group_set = true;
			}
		}
	} else if (streq(key, "util_min") || streq(key, "util_max")) {
		if (get_int(p, v, ptr, 0, 1024, &x)) {
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

static void attrs_free(struct wl_attrs *a)
{
	free(a->cpus);
	free(a->cpus_ptr);
	free(a->group);
}

/* rt-app's parser_items order: a longer prefix before its own prefix */
static const struct {
	const char *prefix;
	int type;		/* enum wl_ev_type, or -1 for sync, -2 fork */
} ev_prefix[] = {
	{ "runtime", WL_EV_RUNTIME }, { "run", WL_EV_RUN },
	{ "sleep", WL_EV_SLEEP }, { "mem", WL_EV_MEM },
	{ "iorun", WL_EV_IORUN }, { "lock", WL_EV_LOCK },
	{ "unlock", WL_EV_UNLOCK }, { "signal", WL_EV_SIGNAL },
	{ "broad", WL_EV_BROAD }, { "wait", WL_EV_WAIT },
	{ "sync", -1 }, { "barrier", WL_EV_BARRIER },
	{ "timer", WL_EV_TIMER }, { "resume", WL_EV_RESUME },
	{ "suspend", WL_EV_SUSPEND }, { "yield", WL_EV_YIELD },
	{ "fork", -2 },
};

static struct wl_event *phase_add(struct wl_phase *ph, enum wl_ev_type t,
				  const char *key)
{
	struct wl_event *e;

	ph->ev = xrealloc(ph->ev, (size_t)(ph->nev + 1) * sizeof(*ph->ev));
	e = &ph->ev[ph->nev++];
	memset(e, 0, sizeof(*e));
	e->type = t;
	e->key = xstrdup(key);
	e->res = e->mutex = -1;
	return e;
}

static bool parse_ref_obj(struct wp *p, json_t *v, const char *ptr,
			  const char **ref, const char **mutex)
{
	json_t *r, *m;

	if (!json_is_object(v)) {
		perr(p, ptr, "must be an object {\"ref\": string, \"mutex\": string}");
		return false;
	}
	r = json_object_get(v, "ref");
	m = json_object_get(v, "mutex");
	if (!json_is_string(r) || !json_is_string(m)) {
		perr(p, ptr, "needs \"ref\" and \"mutex\" strings");
		return false;
	}
	*ref = json_string_value(r);
	*mutex = json_string_value(m);
	return true;
}

/* The ev_prefix type of an event key, -3 if @key is not an event */
static int event_type(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ev_prefix); i++)
		if (!strncmp(key, ev_prefix[i].prefix,
			     strlen(ev_prefix[i].prefix)))
			return ev_prefix[i].type;
	return -3;
}

static bool parse_event_key(const char *key)
{
	return event_type(key) != -3;
}

/* One event key of a phase; returns false if @key is not an event */
static bool parse_event(struct wp *p, struct wl_phase *ph, const char *key,
			json_t *v, const char *ptr)
{
	struct workload *wl = p->wl;
	struct wl_event *e;
	const char *s, *m;
	long long x;
	int type = event_type(key);

	if (type == -3)
		return false;
	if (type == -2) {
		jdoc_warn(p->doc, ptr, "event \"fork\" is not modelled: skipped");
		return true;
	}
	if (type == -1) {	/* sync = lock, signal, wait, unlock */
		if (!parse_ref_obj(p, v, ptr, &s, &m))
			return true;
		e = phase_add(ph, WL_EV_LOCK, key);
		e->res = res_index(wl, m, WL_RES_MUTEX);
		e = phase_add(ph, WL_EV_SIGNAL, key);
		e->res = res_index(wl, s, WL_RES_COND);
		e = phase_add(ph, WL_EV_WAIT, key);
		e->res = res_index(wl, s, WL_RES_COND);
		e->mutex = res_index(wl, m, WL_RES_MUTEX);
		e = phase_add(ph, WL_EV_UNLOCK, key);
		e->res = res_index(wl, m, WL_RES_MUTEX);
		return true;
	}

	switch (type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
	case WL_EV_SLEEP:
		if (get_int(p, v, ptr, 0, 3600LL * 1000000, &x))
			phase_add(ph, (enum wl_ev_type)type, key)->us =
				(uint64_t)x;
		break;
	case WL_EV_IORUN:
	case WL_EV_MEM:
		if (!get_int(p, v, ptr, 0, 1LL << 40, &x))
			break;
		phase_add(ph, (enum wl_ev_type)type, key)->bytes = (uint64_t)x;
		if (type == WL_EV_IORUN && !p->warned_iorun) {
			p->warned_iorun = true;
			jdoc_warn(p->doc, ptr, "iorun is modelled as an I/O wait of bytes / capsim.io_bandwidth_mbps with iowait set, not as rt-app's write loop");
		}
		if (type == WL_EV_MEM && !p->warned_mem) {
			p->warned_mem = true;
			jdoc_warn(p->doc, ptr, "mem is modelled as CPU work of bytes / capsim.mem_bandwidth_mbps (at capacity 1024)");
		}
		break;
	case WL_EV_TIMER: {
		json_t *r, *per, *mode;
		const char *k;
		json_t *sub;

		if (!json_is_object(v)) {
			perr(p, ptr, "must be an object {\"ref\", \"period\", \"mode\"}");
			break;
		}
		json_object_foreach(v, k, sub) {
			char *sp;

			if (listed(k, timer_keys))
				continue;
			sp = jptr_key(ptr, k);
			rtapp_unknown(p, sp, k, timer_keys);
			free(sp);
		}
		r = json_object_get(v, "ref");
		per = json_object_get(v, "period");
		mode = json_object_get(v, "mode");
		s = json_is_string(r) ? json_string_value(r) : "unknown";
		if (r && !json_is_string(r)) {
			char *sp = jptr_key(ptr, "ref");
			char *b = jdoc_brief(r);

			perr(p, sp, "%s is not a string", b);
			free(b);
			free(sp);
			break;
		}
		if (!per) {
			perr(p, ptr, "missing \"period\" (us)");
			break;
		} else {
			char *sp = jptr_key(ptr, "period");
			bool ok = get_int(p, per, sp, 1, 3600LL * 1000000, &x);

			free(sp);
			if (!ok)
				break;
		}
		e = phase_add(ph, WL_EV_TIMER, key);
		e->us = (uint64_t)x;
		e->res = res_index(wl, s, WL_RES_TIMER);
		if (mode) {
			char *sp = jptr_key(ptr, "mode");

			if (json_is_string(mode) &&
			    streq(json_string_value(mode), "absolute"))
				e->absolute = true;
			else if (!json_is_string(mode) ||
				 !streq(json_string_value(mode), "relative"))
				perr(p, sp, "allowed \"relative\" or \"absolute\"");
			free(sp);
		}
		break;
	}
	case WL_EV_WAIT:
		if (!parse_ref_obj(p, v, ptr, &s, &m))
			break;
		e = phase_add(ph, WL_EV_WAIT, key);
		e->res = res_index(wl, s, WL_RES_COND);
		e->mutex = res_index(wl, m, WL_RES_MUTEX);
		break;
	case WL_EV_YIELD:
		phase_add(ph, WL_EV_YIELD, key);
		break;
	case WL_EV_SUSPEND:
	case WL_EV_RESUME:
		if (json_is_string(v)) {
			s = json_string_value(v);
		} else {
			char *b = jdoc_brief(v);

			perr(p, ptr, "%s is not a string (the suspended task's name)",
			     b);
			free(b);
			break;
		}
		/* suspend and resume meet on the name's own resource */
		e = phase_add(ph, (enum wl_ev_type)type, key);
		e->res = res_index(wl, s, WL_RES_SUSPEND);
		break;
	default: {	/* lock, unlock, signal, broad, barrier */
		enum wl_res_kind kind = WL_RES_MUTEX;

		if (!get_str(p, v, ptr, &s))
			break;
		if (type == WL_EV_SIGNAL || type == WL_EV_BROAD)
			kind = WL_RES_COND;
		else if (type == WL_EV_BARRIER)
			kind = WL_RES_BARRIER;
		e = phase_add(ph, (enum wl_ev_type)type, key);
		e->res = res_index(wl, s, kind);
		break;
	}
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

static void parse_phase_obj(struct wp *p, json_t *obj, const char *ptr,
			    struct wl_phase *ph, bool inline_phase)
{
	const char *key;
	json_t *v;

	ph->loop = 1;
	json_object_foreach(obj, key, v) {
		char *kp = jptr_key(ptr, key);
		long long x;

		if (streq(key, "loop")) {
			if (!inline_phase && get_int(p, v, kp, -1, INT_MAX, &x)) {
				if (x == 0)
					perr(p, kp, "0 is out of range: allowed -1 (forever) or [1, %d]",
					     INT_MAX);
				ph->loop = (int)x;
			}
		} else if (parse_attr(p, key, v, kp, &ph->attrs)) {
			/* inline phases: attributes belong to the task */
		} else if (parse_event(p, ph, key, v, kp)) {
		} else if (inline_phase && task_only_key(key)) {
		} else if (streq(key, "nodes_membind") || streq(key, "hold_ns")) {
			jdoc_warn(p->doc, kp, "not modelled, ignored");
		} else {
			rtapp_unknown(p, kp, key,
				      inline_phase ? task_keys : phase_keys);
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
static bool legacy_task(struct wp *p, json_t *obj, const char *ptr)
{
	if (!json_object_get(obj, "lock_order") &&
	    !json_object_get(obj, "exec"))
		return false;
	perr(p, ptr, "rt-app's legacy thread grammar (\"exec\", \"period\", \"lock_order\", \"resources\"), as in the fragments of rt-app's doc/examples/merge: today's rt-app rejects it too; write the thread with events (\"run\", \"timer\", \"lock\", ...)");
	return true;
}

static void parse_task(struct wp *p, const char *name, json_t *obj,
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
			if (get_int(p, v, kp, lo, hi, &x)) \
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
			perr(p, kp, "0 is out of range: allowed -1 (forever) or [1, %d]",
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
			perr(p, pp, "must be a non-empty object of phases");
			free(pp);
			return;
		}
		t->phases = xcalloc(json_object_size(phases), sizeof(*t->phases));
		json_object_foreach(phases, pname, pobj) {
			char *php = jptr_key(pp, pname);
			struct wl_phase *ph = &t->phases[t->nphases++];

			ph->name = xstrdup(pname);
			if (!json_is_object(pobj))
				perr(p, php, "a phase must be an object");
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
			} else if (parse_event_key(key)) {
				jdoc_warn(p->doc, kp, "event \"%s\" at the task level is ignored when \"phases\" is given: it belongs in a phase",
					  key);
			} else {
				rtapp_unknown(p, kp, key, task_keys);
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
			perr(p, ptr, "a task needs events (run, sleep, ...) or \"phases\"");
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

static void check_prio(struct wp *p, const char *ptr, enum wl_policy pol,
		       bool set, long long prio)
{
	if (!set)
		return;
	if ((pol == WL_SCHED_FIFO || pol == WL_SCHED_RR) &&
	    (prio < 1 || prio > 99)) {
		char *kp = jptr_key(ptr, "priority");

		perr(p, kp, "%lld is out of range for %s: allowed [1, 99]", prio,
		     wl_policy_name(pol));
		free(kp);
	} else if (pol <= WL_SCHED_IDLE && (prio < -20 || prio > 19)) {
		char *kp = jptr_key(ptr, "priority");

		perr(p, kp, "%lld is out of range for %s (a nice value): allowed [-20, 19]",
		     prio, wl_policy_name(pol));
		free(kp);
	}
}

/* As sched_setattr() refuses, a uclamp range must not be inverted, with
 * a phase's values taking over the task's (or the previous phase's) */
static void check_util_range(struct wp *p, const struct wl_task *t)
{
	unsigned int lo = t->attrs.util_min_set ? t->attrs.util_min : 0;
	unsigned int hi = t->attrs.util_max_set ? t->attrs.util_max : 1024;
	const char *where = t->attrs.util_min_set ? "util_min" : "util_max";
	char *ptr = xstrdup(t->ptr);
	int i;

	for (i = -1; i < t->nphases; i++) {
		const struct wl_attrs *a = i < 0 ? &t->attrs :
					   &t->phases[i].attrs;

		if (i >= 0 && t->phases[i].name &&
		    (a->util_min_set || a->util_max_set)) {
			free(ptr);
			ptr = xasprintf("%s/phases/%s", t->ptr,
					t->phases[i].name);
			where = a->util_min_set ? "util_min" : "util_max";
			lo = a->util_min_set ? a->util_min : lo;
			hi = a->util_max_set ? a->util_max : hi;
		}
		if (lo > hi) {
			char *kp = jptr_key(ptr, where);

			perr(p, kp, "util_min %u is above util_max %u: allowed util_min <= util_max",
			     lo, hi);
			free(kp);
			break;
		}
	}
	free(ptr);
}

/* Whether @e lets simulated time pass (or waits for another task) */
static bool event_takes_time(const struct workload *wl,
			     const struct wl_event *e)
{
	switch (e->type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
	case WL_EV_SLEEP:
		return e->us > 0;
	case WL_EV_IORUN:	/* the simulator's rounding to ns */
		return (unsigned __int128)e->bytes * NSEC_PER_SEC >= wl->io_bw;
	case WL_EV_MEM:
		return (unsigned __int128)e->bytes * NSEC_PER_SEC * 1024 >=
		       wl->mem_bw;
	case WL_EV_TIMER:
	case WL_EV_WAIT:
	case WL_EV_BARRIER:
	case WL_EV_SUSPEND:
		return true;
	default:
		return false;
	}
}

/* A task that repeats events none of which takes time would spin at one
 * simulated instant: refused here rather than found while running */
static void check_progress(struct wp *p, const struct wl_task *t)
{
	bool repeats = t->loop != 1, timed = false;
	int i, e;

	for (i = 0; i < t->nphases; i++) {
		repeats |= t->phases[i].loop != 1;
		for (e = 0; e < t->phases[i].nev; e++)
			timed |= event_takes_time(p->wl, &t->phases[i].ev[e]);
	}
	if (repeats && !timed && t->instances &&
	    p->doc->diag->errors == p->task_errors)
		perr(p, t->ptr, "loops over events that take no simulated time (no run, runtime, sleep, iorun or mem above 0, no timer, wait, barrier or suspend): it would spin at one instant");
}

static void check_task(struct wp *p, struct wl_task *t)
{
	enum wl_policy pol = t->attrs.policy;
	int i;

	if (!t->attrs.prio_set) {
		t->attrs.prio = (pol == WL_SCHED_FIFO || pol == WL_SCHED_RR) ?
				10 : 0;
		t->attrs.prio_set = true;
		t->attrs.prio_given = t->attrs.prio;
	}
	check_prio(p, t->ptr, pol, true, t->attrs.prio_given);
	for (i = 0; i < t->nphases; i++) {
		struct wl_attrs *a = &t->phases[i].attrs;
		enum wl_policy pp = a->policy_set ? a->policy : pol;
		char *php = xasprintf("%s/phases/%s", t->ptr, t->phases[i].name);

		if (a->policy_set && (a->policy == WL_SCHED_DEADLINE) !=
		    (pol == WL_SCHED_DEADLINE))
			perr(p, php, "a phase cannot switch into or out of SCHED_DEADLINE");
		check_prio(p, php, pp, a->prio_set, a->prio_given);
		if (a->policy_set && !a->prio_set &&
		    (pp == WL_SCHED_FIFO || pp == WL_SCHED_RR) !=
		    (pol == WL_SCHED_FIFO || pol == WL_SCHED_RR)) {
			a->prio_set = true;
			a->prio = (pp == WL_SCHED_FIFO || pp == WL_SCHED_RR) ?
				  10 : 0;
		}
		free(php);
		pol = pp;
	}
	check_util_range(p, t);
	check_progress(p, t);
	if (t->attrs.policy == WL_SCHED_DEADLINE) {
		if (!t->dl_runtime_us) {
			perr(p, t->ptr, "SCHED_DEADLINE needs \"dl-runtime\" (us)");
			return;
		}
		if (!t->dl_period_us)
			t->dl_period_us = t->dl_runtime_us;
		if (!t->dl_deadline_us)
			t->dl_deadline_us = t->dl_period_us;
		if (t->dl_runtime_us > t->dl_deadline_us ||
		    t->dl_deadline_us > t->dl_period_us)
			perr(p, t->ptr, "SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period (%llu, %llu, %llu us)",
			     (unsigned long long)t->dl_runtime_us,
			     (unsigned long long)t->dl_deadline_us,
			     (unsigned long long)t->dl_period_us);
	} else if (t->dl_runtime_us || t->dl_period_us || t->dl_deadline_us) {
		jdoc_warn(p->doc, t->ptr, "dl-* keys are ignored unless the policy is SCHED_DEADLINE");
	}
}

/* rt-app: -1 or 0 runs until the tasks end; else seconds, in the
 * simulator's range (a real may be fractional) */
static void parse_duration(struct wp *p, json_t *v, const char *ptr)
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
	perr(p, ptr, "%s is %s: allowed -1 or 0 (until the tasks end), or seconds in [%g, %g] (the simulator's limits)",
	     b, json_is_number(v) ? "out of range" : "not a number",
	     WL_DURATION_MIN_S, WL_DURATION_MAX_S);
	free(b);
}

static void parse_global(struct wp *p, json_t *g)
{
	struct workload *wl = p->wl;
	const char *key;
	json_t *v;

	if (!json_is_object(g)) {
		perr(p, "/global", "must be an object");
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
					perr(p, kp, "allowed \"CPUn\" or an integer (ns per loop)");
				else
					wl->calib_cpu = (int)c;
			} else if (!json_is_integer(v)) {
				perr(p, kp, "allowed \"CPUn\" or an integer (ns per loop)");
			}
		} else if (streq(key, "cumulative_slack")) {
			if (!json_is_boolean(v))
				perr(p, kp, "must be true or false");
			else
				wl->cumulative_slack = json_is_true(v);
		} else if (streq(key, "mem_buffer_size")) {
			if (get_int(p, v, kp, 1, 1LL << 40, &x))
				wl->mem_buffer_size = (uint64_t)x;
		} else if (streq(key, "pi_enabled")) {
			if (json_is_true(v))
				jdoc_warn(p->doc, kp, "priority inheritance is not modelled: mutexes are plain FIFO");
		} else if (streq(key, "lock_pages") || streq(key, "logdir") ||
			   streq(key, "log_basename") || streq(key, "log_size") ||
			   streq(key, "ftrace") || streq(key, "gnuplot") ||
			   streq(key, "io_device")) {
			jdoc_warn(p->doc, kp, "no effect in simulation, ignored");
		} else {
			rtapp_unknown(p, kp, key, global_keys);
		}
		free(kp);
	}
}

/* One capsim.events write (@attr 0: min, 1: max) */
static void add_gevent(struct workload *wl, uint64_t at_ns, const char *group,
		       const char *ptr, int attr, uint64_t value)
{
	struct wl_group_event *ge = &wl->gevents[wl->ngevents++];

	ge->at_ns = at_ns;
	ge->group = xstrdup(group);
	ge->ptr = xstrdup(ptr);
	ge->attr = attr;
	ge->value = value;
}

/* capsim.uclamp: the uclamp sysctls and the bucket count */
static void parse_uclamp_sys(struct wp *p, struct workload *wl, json_t *v,
			     const char *kp)
{
	const char *k;
	json_t *x;

	if (!json_is_object(v)) {
		perr(p, kp, "must be an object {\"util_min\", \"util_max\", \"util_min_rt_default\", \"buckets\"}");
		return;
	}
	json_object_foreach(v, k, x) {
		char *vp = jptr_key(kp, k);
		long long n;

		if (streq(k, "buckets")) {
			if (get_int(p, x, vp, 5, 20, &n))
				wl->uclamp_buckets = (int)n;
		} else if (listed(k, uclamp_keys)) {
			if (get_int(p, x, vp, 0, 1024, &n)) {
				if (streq(k, "util_min"))
					wl->uclamp_util_min = (int)n;
				else if (streq(k, "util_max"))
					wl->uclamp_util_max = (int)n;
				else
					wl->uclamp_util_min_rt_default = (int)n;
			}
		} else {
			capsim_unknown(p, vp, k, uclamp_keys);
		}
		free(vp);
	}
}

static void parse_capsim(struct wp *p, json_t *c)
{
	struct workload *wl = p->wl;
	const char *key;
	json_t *v;

	if (!json_is_object(c)) {
		perr(p, "/capsim", "must be an object");
		return;
	}
	json_object_foreach(c, key, v) {
		char *kp = jptr_key("/capsim", key);
		long long x;
		const char *s;

		if (streq(key, "taskgroups")) {
			const char *path;
			json_t *g;

			if (!json_is_object(v)) {
				perr(p, kp, "must be an object {\"/path\": {\"capacity_min\", \"capacity_max\"}}");
				free(kp);
				continue;
			}
			wl->groups = xcalloc(json_object_size(v) + 1,
					     sizeof(*wl->groups));
			json_object_foreach(v, path, g) {
				char *gp = jptr_key(kp, path);
				struct wl_group *grp = &wl->groups[wl->ngroups];
				const char *gk;
				json_t *gv;

				if (!wl_group_path_ok(path)) {
					bad_group_path(p, gp, path);
				} else if (!json_is_object(g)) {
					perr(p, gp, "must be an object {\"capacity_min\", \"capacity_max\"}");
				} else {
					unsigned int u;

					grp->path = xstrdup(path);
					grp->ptr = xstrdup(gp);
					wl->ngroups++;
					json_object_foreach(g, gk, gv) {
						char *vp = jptr_key(gp, gk);

						if ((streq(gk, "uclamp_min") ||
						     streq(gk, "uclamp_max")) &&
						    get_uclamp_pct(p, gv, vp, &u)) {
							group_uclamp(p, grp, g, vp,
								     streq(gk, "uclamp_max"), u);
						} else if (streq(gk, "capacity_min") &&
						    get_int(p, gv, vp, 0, 1024, &x)) {
							grp->min_set = true;
							grp->min = (unsigned int)x;
						} else if (streq(gk, "capacity_max") &&
							   get_int(p, gv, vp, 0, 1024, &x)) {
							grp->max_set = true;
							grp->max = (unsigned int)x;
						} else if (!listed(gk, group_keys)) {
							capsim_unknown(p, vp, gk,
								       group_keys);
						}
						free(vp);
					}
				}
				free(gp);
			}
		} else if (streq(key, "events")) {
			size_t i;

			if (!json_is_array(v)) {
				perr(p, kp, "must be an array of {\"at_ms\", \"group\", \"capacity_min\"|\"capacity_max\"}");
				free(kp);
				continue;
			}
			wl->gevents = xcalloc(2 * json_array_size(v) + 1,
					      sizeof(*wl->gevents));
			for (i = 0; i < json_array_size(v); i++) {
				json_t *ev = json_array_get(v, i);
				char *ep = jptr_idx(kp, i);
				json_t *at, *grp;
				const char *ek;
				json_t *evv;
				uint64_t at_ns = 0;
				const char *gpath = NULL;
				int nattr = 0;

				if (!json_is_object(ev)) {
					perr(p, ep, "must be an object");
					free(ep);
					continue;
				}
				at = json_object_get(ev, "at_ms");
				grp = json_object_get(ev, "group");
				if (!at) {
					perr(p, ep, "missing \"at_ms\"");
				} else {
					char *ap = jptr_key(ep, "at_ms");

					if (get_int(p, at, ap, 0, 3600LL * 1000 * 24, &x))
						at_ns = (uint64_t)x * NSEC_PER_MSEC;
					free(ap);
				}
				if (!json_is_string(grp)) {
					perr(p, ep, "\"group\" must be a group path such as \"/bg\"");
				} else if (!wl_group_path_ok(json_string_value(grp))) {
					char *gp = jptr_key(ep, "group");

					bad_group_path(p, gp, json_string_value(grp));
					free(gp);
				} else {
					gpath = json_string_value(grp);
				}
				json_object_foreach(ev, ek, evv) {
					char *vp = jptr_key(ep, ek);
					unsigned int u;

					if ((streq(ek, "uclamp_min") ||
					     streq(ek, "uclamp_max")) &&
					    get_uclamp_pct(p, evv, vp, &u) &&
					    gpath) {
						/* cpu.uclamp.*: the same write,
						 * in capacity units */
						add_gevent(wl, at_ns, gpath, vp,
							   streq(ek, "uclamp_max"), u);
						nattr++;
					} else if (streq(ek, "capacity_min") ||
					    streq(ek, "capacity_max")) {
						/* out-of-range writes are the
						 * kernel's to reject: keep any
						 * non-negative value */
						if (get_int(p, evv, vp, 0, 1LL << 32, &x) &&
						    gpath) {
							add_gevent(wl, at_ns, gpath, vp,
								   streq(ek, "capacity_max"),
								   (uint64_t)x);
							nattr++;
						}
					} else if (!listed(ek, gevent_keys)) {
						capsim_unknown(p, vp, ek,
							       gevent_keys);
					}
					free(vp);
				}
				if (!nattr && gpath)
					perr(p, ep, "needs \"capacity_min\", \"capacity_max\", \"uclamp_min\" or \"uclamp_max\"");
				free(ep);
			}
		} else if (streq(key, "domain_rule")) {
			if (get_str(p, v, kp, &s)) {
				if (!streq(s, "rfc") && !streq(s, "nonidle"))
					perr(p, kp, "allowed \"rfc\" (the calling CPU always counts) or \"nonidle\"");
				else
					wl->domain_rule = xstrdup(s);
			}
		} else if (streq(key, "platform") || streq(key, "policy") ||
			   streq(key, "clamp_order")) {
			if (get_str(p, v, kp, &s)) {
				if (streq(key, "clamp_order") &&
				    !streq(s, "6.12") && !streq(s, "4.10"))
					perr(p, kp, "allowed \"6.12\" (headroom, then clamp) or \"4.10\" (clamp, then headroom)");
				else if (streq(key, "policy") &&
					 !streq(s, "rfc") && !streq(s, "uclamp") &&
					 !streq(s, "none"))
					perr(p, kp, "allowed \"rfc\", \"uclamp\" or \"none\"");
				else if (key[0] == 'p' && key[1] == 'l')
					wl->platform = xstrdup(s);
				else if (key[0] == 'p')
					wl->policy = xstrdup(s);
				else
					wl->clamp_order = xstrdup(s);
			}
		} else if (streq(key, "run_jitter_pct")) {
			if (get_int(p, v, kp, 0, 50, &x))
				wl->run_jitter_pct = (unsigned int)x;
		} else if (streq(key, "io_bandwidth_mbps")) {
			if (get_int(p, v, kp, 1, 1000000, &x))
				wl->io_bw = (uint64_t)x * 1000000;
		} else if (streq(key, "mem_bandwidth_mbps")) {
			if (get_int(p, v, kp, 1, 10000000, &x))
				wl->mem_bw = (uint64_t)x * 1000000;
		} else if (streq(key, "description")) {
		} else if (streq(key, "uclamp")) {
			parse_uclamp_sys(p, wl, v, kp);
		} else {
			capsim_unknown(p, kp, key, capsim_keys);
		}
		free(kp);
	}
}

static int cmp_gevent(const void *a, const void *b)
{
	const struct wl_group_event *x = a, *y = b;

	if (x->at_ns != y->at_ns)
		return x->at_ns < y->at_ns ? -1 : 1;
	return x < y ? -1 : 1;
}

static char *basename_noext(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s = xstrdup(b ? b + 1 : path);
	size_t n = strlen(s);

	if (n > 5 && !strcmp(s + n - 5, ".json"))
		s[n - 5] = '\0';
	return s;
}

static struct workload *workload_parse(struct workload *wl, struct diag *d)
{
	struct wp p = { .wl = wl, .doc = &wl->doc };
	json_t *root = wl->doc.root, *tasks, *v;
	int i, j, k, *counted_by;
	long long instances = 0;
	const char *key;

	(void)d;
	v = json_object_get(root, "global");
	if (v)
		parse_global(&p, v);
	v = json_object_get(root, "capsim");
	if (v)
		parse_capsim(&p, v);
	json_object_foreach(root, key, v) {
		if (!streq(key, "global") && !streq(key, "tasks") &&
		    !streq(key, "capsim")) {
			char *kp = jptr_key("", key);

			if (streq(key, "resources"))
				jdoc_warn(&wl->doc, kp, "legacy \"resources\" object: resources are created from their use, ignored");
			else
				rtapp_unknown(&p, kp, key, top_keys);
			free(kp);
		}
	}

	tasks = json_object_get(root, "tasks");
	if (!tasks) {
		/* rt-app's doc/merge.py joins such files into one */
		perr(&p, "", "no \"tasks\": a workload needs them%s",
		     json_object_get(root, "global") ||
		     json_object_get(root, "resources") ?
		     " (a fragment for rt-app's doc/merge.py, as in its doc/examples/merge, is not a workload on its own: merge it with the files that hold the tasks)" :
		     "");
		return wl;
	}
	if (!json_is_object(tasks) || !json_object_size(tasks)) {
		perr(&p, "/tasks", "\"tasks\" must be a non-empty object of threads");
		return wl;
	}
	wl->tasks = xcalloc(json_object_size(tasks), sizeof(*wl->tasks));
	json_object_foreach(tasks, key, v) {
		char *tp = jptr_key("/tasks", key);
		struct wl_task *t = &wl->tasks[wl->ntasks++];

		/* the name is the trace's comm: a space or a control
		 * character (a newline) would split its trace lines */
		if (!*key || strchr(key, ' ') || has_control_char(key)) {
			perr(&p, tp, "a task name must be non-empty and without spaces or control characters");
		}
		if (!json_is_object(v)) {
			perr(&p, tp, "a task must be an object");
			t->name = xstrdup(key);
			t->ptr = xstrdup(tp);
			t->attrs.group = xstrdup("/");
		} else {
			p.task_errors = wl->doc.diag->errors;
			parse_task(&p, key, v, tp, t);
			check_task(&p, t);
			instances += t->instances;
		}
		free(tp);
	}
	if (instances > WL_MAX_INSTANCES)
		perr(&p, "/tasks", "%lld task instances in all: allowed at most %d (the simulator's limit)",
		     instances, WL_MAX_INSTANCES);

	/* uclamp attributes: kept, but only the uclamp policy uses them
	 * (no warning when the workload itself asks for that policy) */
	for (i = 0; i < wl->ntasks && !p.warned_util &&
	     !(wl->policy && !strcmp(wl->policy, "uclamp")); i++) {
		struct wl_task *t = &wl->tasks[i];
		bool any = t->attrs.util_min_set || t->attrs.util_max_set;

		for (j = 0; j < t->nphases; j++)
			any |= t->phases[j].attrs.util_min_set ||
			       t->phases[j].attrs.util_max_set;
		if (any) {
			p.warned_util = true;
			jdoc_warn(&wl->doc, t->ptr, "util_min/util_max are per-task uclamp values: only --policy uclamp uses them (rfc and none ignore them)");
		}
	}

	/* barrier users (each task once, in one pass over the events);
	 * suspend targets are task names */
	counted_by = xmalloc(((size_t)wl->nres + 1) * sizeof(int));
	for (k = 0; k < wl->nres; k++)
		counted_by[k] = -1;
	for (i = 0; i < wl->ntasks; i++) {
		struct wl_task *t = &wl->tasks[i];

		for (j = 0; j < t->nphases; j++) {
			int e;

			for (e = 0; e < t->phases[j].nev; e++) {
				k = t->phases[j].ev[e].res;
				if (t->phases[j].ev[e].type != WL_EV_BARRIER ||
				    counted_by[k] == i)
					continue;
				counted_by[k] = i;
				wl->res[k].users += t->instances;
			}
		}
	}
	free(counted_by);
	for (k = 0; k < wl->nres; k++) {
		char *b;

		if (wl->res[k].kind != WL_RES_BARRIER || wl->res[k].users >= 2)
			continue;
		b = brief_str(wl->res[k].name);
		jdoc_warn(&wl->doc, "/tasks", "barrier %s has a single user: it never blocks",
			  b);
		free(b);
	}
	if (wl->ngevents)
		qsort(wl->gevents, (size_t)wl->ngevents, sizeof(*wl->gevents),
		      cmp_gevent);
	return wl;
}

static struct workload *workload_new(void)
{
	struct workload *wl = xcalloc(1, sizeof(*wl));

	wl->duration_s = -1;
	wl->calib_cpu = -1;
	wl->mem_buffer_size = 4194304;
	wl->io_bw = 100 * 1000000ULL;
	wl->mem_bw = 4000 * 1000000ULL;
	wl->uclamp_util_min = wl->uclamp_util_max = -1;
	wl->uclamp_util_min_rt_default = wl->uclamp_buckets = -1;
	return wl;
}

static struct workload *workload_finish(struct workload *wl, struct diag *d,
					int errors_before, bool keep)
{
	workload_parse(wl, d);
	if (d->errors > errors_before && !keep) {
		workload_free(wl);
		return NULL;
	}
	return wl;
}

static struct workload *load(const char *path, struct diag *d, bool keep)
{
	struct workload *wl = workload_new();
	int before = d->errors;

	wl->name = basename_noext(path);
	if (jdoc_load_rtapp_file(&wl->doc, path, d)) {
		workload_free(wl);
		return NULL;
	}
	return workload_finish(wl, d, before, keep);
}

static struct workload *load_buffer(const char *name, const char *text,
				    struct diag *d, bool keep)
{
	struct workload *wl = workload_new();
	int before = d->errors;

	wl->name = basename_noext(name);
	if (jdoc_load_rtapp_buffer(&wl->doc, name, text, strlen(text), d)) {
		workload_free(wl);
		return NULL;
	}
	return workload_finish(wl, d, before, keep);
}

struct workload *workload_load(const char *path, struct diag *d)
{
	return load(path, d, false);
}

struct workload *workload_load_buffer(const char *name, const char *text,
				      struct diag *d)
{
	return load_buffer(name, text, d, false);
}

struct workload *workload_load_all(const char *path, struct diag *d)
{
	return load(path, d, true);
}

struct workload *workload_load_buffer_all(const char *name, const char *text,
					  struct diag *d)
{
	return load_buffer(name, text, d, true);
}

void workload_free(struct workload *wl)
{
	int i, j, k;

	if (!wl)
		return;
	for (i = 0; i < wl->ntasks; i++) {
		struct wl_task *t = &wl->tasks[i];

		for (j = 0; j < t->nphases; j++) {
			for (k = 0; k < t->phases[j].nev; k++)
				free(t->phases[j].ev[k].key);
			free(t->phases[j].ev);
			free(t->phases[j].name);
			attrs_free(&t->phases[j].attrs);
		}
		free(t->phases);
		attrs_free(&t->attrs);
		free(t->name);
		free(t->ptr);
	}
	free(wl->tasks);
	for (i = 0; i < wl->nres; i++)
		free(wl->res[i].name);
	free(wl->res);
	free(wl->res_hash);
	free(wl->res_next);
	for (i = 0; i < wl->ngroups; i++) {
		free(wl->groups[i].path);
		free(wl->groups[i].ptr);
	}
	free(wl->groups);
	for (i = 0; i < wl->ngevents; i++) {
		free(wl->gevents[i].group);
		free(wl->gevents[i].ptr);
	}
	free(wl->gevents);
	free(wl->platform);
	free(wl->policy);
	free(wl->clamp_order);
	free(wl->domain_rule);
	free(wl->name);
	jdoc_free(&wl->doc);
	free(wl);
}

bool workload_tasks_end(const struct workload *wl)
{
	int i, j;

	for (i = 0; i < wl->ntasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (!t->instances)
			continue;
		if (t->loop == -1)
			return false;
		for (j = 0; j < t->nphases; j++)
			if (t->phases[j].loop == -1)
				return false;
	}
	return true;
}

int workload_check_event_times(struct workload *wl, uint64_t end_ns,
			       bool cut)
{
	int i, n = 0;

	for (i = 0; i < wl->ngevents; i++) {
		const struct wl_group_event *ge = &wl->gevents[i];
		/* the pointer names the attribute: report "at_ms" */
		char *evp = xstrdup(ge->ptr), *at;
		unsigned long long at_ms = ge->at_ns / NSEC_PER_MSEC;
		unsigned long long end_ms = end_ns / NSEC_PER_MSEC;

		if (ge->at_ns < end_ns) {
			free(evp);
			continue;
		}
		*strrchr(evp, '/') = '\0';
		at = jptr_key(evp, "at_ms");
		if (cut) {
			jdoc_warn(&wl->doc, at, "%llu ms is at or after the end of the run (--duration: %llu ms): this write does not happen",
				  at_ms, end_ms);
		} else {
			jdoc_error(&wl->doc, at, "%llu ms is at or after the end of the run (global.duration: %llu ms): the write would never happen",
				   at_ms, end_ms);
			n++;
		}
		free(at);
		free(evp);
	}
	return n;
}
