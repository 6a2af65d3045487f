// SPDX-License-Identifier: GPL-2.0
/*
 * The events of an rt-app phase, each key read by its prefix as rt-app
 * does ("run0", "sleep_a"), each resource named by an event created on
 * its first use.
 */
#include <stdlib.h>
#include <string.h>

#include "workload_internal.h"
#include "util.h"

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

static bool parse_ref_obj(struct wl_parser *p, json_t *v, const char *ptr,
			  const char **ref, const char **mutex)
{
	json_t *r, *m;

	if (!json_is_object(v)) {
		wl_err(p, ptr, "must be an object {\"ref\": string, \"mutex\": string}");
		return false;
	}
	r = json_object_get(v, "ref");
	m = json_object_get(v, "mutex");
	if (!json_is_string(r) || !json_is_string(m)) {
		wl_err(p, ptr, "needs \"ref\" and \"mutex\" strings");
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

bool wl_is_event_key(const char *key)
{
	return event_type(key) != -3;
}

/* A timer: {"ref": name, "period": us, "mode": "relative"|"absolute"} */
static void parse_timer(struct wl_parser *p, struct wl_phase *ph,
			const char *key, json_t *v, const char *ptr)
{
	json_t *r, *per, *mode, *sub;
	struct wl_event *e;
	const char *s, *k;
	long long x;

	if (!json_is_object(v)) {
		wl_err(p, ptr, "must be an object {\"ref\", \"period\", \"mode\"}");
		return;
	}
	json_object_foreach(v, k, sub) {
		char *sp;

		if (wl_key_listed(k, wl_timer_keys))
			continue;
		sp = jptr_key(ptr, k);
		wl_rtapp_unknown(p, sp, k, wl_timer_keys);
		free(sp);
	}
	r = json_object_get(v, "ref");
	per = json_object_get(v, "period");
	mode = json_object_get(v, "mode");
	s = json_is_string(r) ? json_string_value(r) : "unknown";
	if (r && !json_is_string(r)) {
		char *sp = jptr_key(ptr, "ref");
		char *b = jdoc_brief(r);

		wl_err(p, sp, "%s is not a string", b);
		free(b);
		free(sp);
		return;
	}
	if (!per) {
		wl_err(p, ptr, "missing \"period\" (us)");
		return;
	} else {
		char *sp = jptr_key(ptr, "period");
		bool ok = wl_get_int(p, per, sp, 1, WL_EVENT_MAX_US, &x);

		free(sp);
		if (!ok)
			return;
	}
	e = phase_add(ph, WL_EV_TIMER, key);
	e->us = (uint64_t)x;
	e->res = wl_res_index(p->wl, s, WL_RES_TIMER);
	if (mode) {
		char *sp = jptr_key(ptr, "mode");

		if (json_is_string(mode) &&
		    streq(json_string_value(mode), "absolute"))
			e->absolute = true;
		else if (!json_is_string(mode) ||
			 !streq(json_string_value(mode), "relative"))
			wl_err(p, sp, "allowed \"relative\" or \"absolute\"");
		free(sp);
	}
}

/* One event key of a phase; returns false if @key is not an event */
bool wl_parse_event(struct wl_parser *p, struct wl_phase *ph, const char *key,
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
		e->res = wl_res_index(wl, m, WL_RES_MUTEX);
		e = phase_add(ph, WL_EV_SIGNAL, key);
		e->res = wl_res_index(wl, s, WL_RES_COND);
		e = phase_add(ph, WL_EV_WAIT, key);
		e->res = wl_res_index(wl, s, WL_RES_COND);
		e->mutex = wl_res_index(wl, m, WL_RES_MUTEX);
		e = phase_add(ph, WL_EV_UNLOCK, key);
		e->res = wl_res_index(wl, m, WL_RES_MUTEX);
		return true;
	}

	switch (type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
	case WL_EV_SLEEP:
		if (wl_get_int(p, v, ptr, 0, WL_EVENT_MAX_US, &x))
			phase_add(ph, (enum wl_ev_type)type, key)->us =
				(uint64_t)x;
		break;
	case WL_EV_IORUN:
	case WL_EV_MEM:
		if (!wl_get_int(p, v, ptr, 0, 1LL << 40, &x))
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
	case WL_EV_TIMER:
		parse_timer(p, ph, key, v, ptr);
		break;
	case WL_EV_WAIT:
		if (!parse_ref_obj(p, v, ptr, &s, &m))
			break;
		e = phase_add(ph, WL_EV_WAIT, key);
		e->res = wl_res_index(wl, s, WL_RES_COND);
		e->mutex = wl_res_index(wl, m, WL_RES_MUTEX);
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

			wl_err(p, ptr, "%s is not a string (the suspended task's name)",
			       b);
			free(b);
			break;
		}
		/* suspend and resume meet on the name's own resource */
		e = phase_add(ph, (enum wl_ev_type)type, key);
		e->res = wl_res_index(wl, s, WL_RES_SUSPEND);
		break;
	default: {	/* lock, unlock, signal, broad, barrier */
		enum wl_res_kind kind = WL_RES_MUTEX;

		if (!wl_get_str(p, v, ptr, &s))
			break;
		if (type == WL_EV_SIGNAL || type == WL_EV_BROAD)
			kind = WL_RES_COND;
		else if (type == WL_EV_BARRIER)
			kind = WL_RES_BARRIER;
		e = phase_add(ph, (enum wl_ev_type)type, key);
		e->res = wl_res_index(wl, s, kind);
		break;
	}
	}
	return true;
}
