/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the pieces of the workload parser share, and nothing outside
 * src/input includes: the parser's state, the value readers that report
 * "field: allowed range" at the value's line:column, the key lists, the
 * resource table, and each piece's entry point. The pieces, by job:
 *
 *   workload.c            the load API: read, parse in order, free
 *   workload_rtapp.c      rt-app's grammar: global, tasks, phases,
 *                         attributes
 *   workload_events.c     rt-app's events of a phase
 *   workload_capsim.c     the "capsim" object: taskgroups, group events,
 *                         uclamp sysctls, model settings
 *   workload_check.c      semantic checks across fields and tasks
 *   workload_chains.c     capsim.chains, read once the tasks are known
 *   workload_chain_infer.c  chains inferred from timer, resume and suspend
 *                         when capsim.chains is absent
 *   workload_values.c     the typed value readers and error reporting
 *   workload_names.c      policy and event names, the keys of each place
 *                         and the messages for an unknown key
 *   workload_resources.c  the resources (mutex, cond, timer, barrier,
 *                         suspend), by kind and name
 *   cgroup_path.c         the group path rules
 */
#ifndef CAPSIM_WORKLOAD_INTERNAL_H
#define CAPSIM_WORKLOAD_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "workload.h"

/* The parser's state */
struct wl_parser {
	struct workload *wl;
	struct jdoc *doc;
	int err;
	int task_errors;	/* the errors before the current task */
	bool warned_iorun, warned_mem, warned_util;
};

static inline bool streq(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/* workload_values.c */
void wl_err(struct wl_parser *p, const char *ptr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* @s quoted and cut to a readable length, for messages (caller frees) */
char *wl_brief_str(const char *s);
void wl_bad_group_path(struct wl_parser *p, const char *ptr, const char *path);
/* An integer value in [lo, hi]; on error reports "field: allowed range" */
bool wl_get_int(struct wl_parser *p, json_t *v, const char *ptr, long long lo,
		long long hi, long long *out);
bool wl_get_str(struct wl_parser *p, json_t *v, const char *ptr,
		const char **out);

/* workload_names.c: the keys of each place, NULL-terminated */
extern const char *const wl_top_keys[], *const wl_global_keys[],
	*const wl_task_keys[], *const wl_phase_keys[], *const wl_timer_keys[],
	*const wl_capsim_keys[], *const wl_group_keys[],
	*const wl_gevent_keys[], *const wl_uclamp_keys[];
bool wl_key_listed(const char *key, const char *const *keys);
/* The policy named "SCHED_FIFO" or "FIFO", ...; false if none is */
bool wl_policy_from_name(const char *s, enum wl_policy *out);
void wl_rtapp_unknown(struct wl_parser *p, const char *ptr, const char *key,
		      const char *const *known);
void wl_capsim_unknown(struct wl_parser *p, const char *ptr, const char *key,
		       const char *const *known);

/* workload_knobs.c: @key of the "capsim" object if it is a kernel knob
 * (read, or its error reported): true; else false */
bool wl_parse_knob(struct wl_parser *p, const char *key, json_t *v,
		   const char *ptr);

/* workload_resources.c: the resource @name of @kind, created at its
 * first use */
int wl_res_index(struct workload *wl, const char *name,
		 enum wl_res_kind kind);

/* workload_events.c */
bool wl_is_event_key(const char *key);
/* One event key of a phase; returns false if @key is not an event */
bool wl_parse_event(struct wl_parser *p, struct wl_phase *ph, const char *key,
		    json_t *v, const char *ptr);

/* workload_rtapp.c */
void wl_parse_global(struct wl_parser *p, json_t *g);
/* The "tasks" object, each task checked once read; false if there are
 * no tasks to check further */
bool wl_parse_tasks(struct wl_parser *p, json_t *root);

/* workload_capsim.c */
void wl_parse_capsim(struct wl_parser *p, json_t *c);

/* workload_chains.c: capsim.chains (@c its value), after the tasks */
void wl_parse_chains(struct wl_parser *p, json_t *c);
void wl_chains_free(struct workload *wl);
/* @c may be in a chain's name (not a CSV or metric separator) */
bool wl_chain_name_char_ok(char c);

/* workload_chain_infer.c: without capsim.chains, the chains rt-app's
 * timer, resume and suspend events make, each said in a note */
void wl_infer_chains(struct wl_parser *p);
extern const char *const wl_chain_keys[];

/* workload_check.c */
void wl_check_task(struct wl_parser *p, struct wl_task *t);
/* The checks across the tasks, once all are read */
void wl_check_workload(struct wl_parser *p);

#endif
