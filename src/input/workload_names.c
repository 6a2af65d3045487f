// SPDX-License-Identifier: GPL-2.0
/*
 * The names of a workload: scheduling policies, event types, the keys
 * each place of a file takes, and what capsim says about a key it does
 * not know (did-you-mean itself is spelling.c's).
 */
#include <stdlib.h>
#include <string.h>

#include "spelling.h"
#include "workload_internal.h"
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

bool wl_policy_from_name(const char *s, enum wl_policy *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policy_names); i++) {
		if (streq(s, policy_names[i]) ||
		    streq(s, policy_names[i] + strlen("SCHED_"))) {
			*out = (enum wl_policy)i;
			return true;
		}
	}
	return false;
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
const char *const wl_top_keys[] = { "global", "tasks", "capsim",
					"resources", NULL };
const char *const wl_global_keys[] = {
	"duration", "calibration", "default_policy", "cumulative_slack",
	"mem_buffer_size", "pi_enabled", "lock_pages", "logdir",
	"log_basename", "log_size", "ftrace", "gnuplot", "io_device", NULL };
const char *const wl_task_keys[] = {
	"instance", "loop", "delay", "phases", "dl-runtime", "dl-period",
	"dl-deadline", RTAPP_ATTRS, RTAPP_EVENTS, NULL };
const char *const wl_phase_keys[] = { "loop", RTAPP_ATTRS, RTAPP_EVENTS,
					  NULL };
const char *const wl_timer_keys[] = { "ref", "period", "mode", NULL };
const char *const wl_capsim_keys[] = {
	"taskgroups", "events", "platform", "policy", "clamp_order",
	"domain_rule", "run_jitter_pct", "io_bandwidth_mbps",
	"mem_bandwidth_mbps", "description", "uclamp", "chains", "hz",
	"dvfs_headroom", "util_est", "iowait_boost", NULL };
const char *const wl_group_keys[] = { "capacity_min", "capacity_max",
					  "uclamp_min", "uclamp_max", NULL };
const char *const wl_gevent_keys[] = { "at_ms", "group", "capacity_min",
					   "capacity_max", "uclamp_min",
					   "uclamp_max", NULL };
const char *const wl_uclamp_keys[] = { "util_min", "util_max",
					   "util_min_rt_default", "buckets",
					   NULL };

bool wl_key_listed(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (streq(key, *keys))
			return true;
	return false;
}

/* Where a key of capsim's own goes, if @key is one (NULL if not) */
static const char *capsim_home(const char *key)
{
	if (wl_key_listed(key, wl_group_keys))
		return "a group of capsim.taskgroups (a task joins it with \"taskgroup\")";
	if (wl_key_listed(key, wl_gevent_keys))
		return "an event of capsim.events";
	/* "description" is common in rt-app files too */
	if (wl_key_listed(key, wl_capsim_keys) && !streq(key, "description"))
		return "the top-level \"capsim\" object";
	return NULL;
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
void wl_capsim_unknown(struct wl_parser *p, const char *ptr, const char *key,
		       const char *const *known)
{
	char *hint = spelling_hint(key, known, true), *k = key_shown(key);

	wl_err(p, ptr, "unknown key \"%s\"%s", k, hint);
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
void wl_rtapp_unknown(struct wl_parser *p, const char *ptr, const char *key,
		      const char *const *known)
{
	const char *home = capsim_home(key);
	/* only a list with "capsim" in it can suggest it */
	const char *near = wl_key_listed("capsim", known) ?
			   spelling_suggest(key, known) : NULL;
	char *hint, *k = key_shown(key);

	if (home) {
		wl_err(p, ptr, "\"%s\" is one of capsim's own keys: it belongs in %s",
		       k, home);
	} else if (near && streq(near, "capsim")) {
		wl_err(p, ptr, "unknown key \"%s\": did you mean \"capsim\"?",
		       k);
	} else {
		/* past the message cap only the count is kept: no hint */
		hint = diag_shows_more(p->doc->diag) ?
		       spelling_hint(key, known, false) : xstrdup("");
		if (p->doc->diag->strict)
			wl_err(p, ptr, "unknown key \"%s\" (rt-app ignores it; --strict)%s",
			       k, hint);
		else
			jdoc_warn(p->doc, ptr, "unknown key \"%s\", ignored%s",
				  k, hint);
		free(hint);
	}
	free(k);
}
