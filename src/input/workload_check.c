// SPDX-License-Identifier: GPL-2.0
/*
 * The semantic checks of a workload, on values each valid alone: a
 * priority in its policy's range, a uclamp range not inverted, a loop
 * that lets time pass, SCHED_DEADLINE's parameters, the instance limit,
 * barriers with one user, group events past the end of the run.
 */
#include <stdlib.h>
#include <string.h>

#include "workload_internal.h"
#include "util.h"

static void check_prio(struct wl_parser *p, const char *ptr, enum wl_policy pol,
		       bool set, long long prio)
{
	if (!set)
		return;
	if ((pol == WL_SCHED_FIFO || pol == WL_SCHED_RR) &&
	    (prio < 1 || prio > 99)) {
		char *kp = jptr_key(ptr, "priority");

		wl_err(p, kp, "%lld is out of range for %s: allowed [1, 99]", prio,
		       wl_policy_name(pol));
		free(kp);
	} else if (pol <= WL_SCHED_IDLE && (prio < -20 || prio > 19)) {
		char *kp = jptr_key(ptr, "priority");

		wl_err(p, kp, "%lld is out of range for %s (a nice value): allowed [-20, 19]",
		       prio, wl_policy_name(pol));
		free(kp);
	}
}

/* As sched_setattr() refuses, a uclamp range must not be inverted, with
 * a phase's values taking over the task's (or the previous phase's) */
static void check_util_range(struct wl_parser *p, const struct wl_task *t)
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

			wl_err(p, kp, "util_min %u is above util_max %u: allowed util_min <= util_max",
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
static void check_progress(struct wl_parser *p, const struct wl_task *t)
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
		wl_err(p, t->ptr, "loops over events that take no simulated time (no run, runtime, sleep, iorun or mem above 0, no timer, wait, barrier or suspend): it would spin at one instant");
}

void wl_check_task(struct wl_parser *p, struct wl_task *t)
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
			wl_err(p, php, "a phase cannot switch into or out of SCHED_DEADLINE");
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
			wl_err(p, t->ptr, "SCHED_DEADLINE needs \"dl-runtime\" (us)");
			return;
		}
		if (!t->dl_period_us)
			t->dl_period_us = t->dl_runtime_us;
		if (!t->dl_deadline_us)
			t->dl_deadline_us = t->dl_period_us;
		if (t->dl_runtime_us > t->dl_deadline_us ||
		    t->dl_deadline_us > t->dl_period_us)
			wl_err(p, t->ptr, "SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period (%llu, %llu, %llu us)",
			       (unsigned long long)t->dl_runtime_us,
			       (unsigned long long)t->dl_deadline_us,
			       (unsigned long long)t->dl_period_us);
	} else if (t->dl_runtime_us || t->dl_period_us || t->dl_deadline_us) {
		jdoc_warn(p->doc, t->ptr, "dl-* keys are ignored unless the policy is SCHED_DEADLINE");
	}
}

/* Every task's instances within the simulator's limit */
static void check_instances(struct wl_parser *p)
{
	long long instances = 0;
	int i;

	for (i = 0; i < p->wl->ntasks; i++)
		instances += p->wl->tasks[i].instances;
	if (instances > WL_MAX_INSTANCES)
		wl_err(p, "/tasks", "%lld task instances in all: allowed at most %d (the simulator's limit)",
		       instances, WL_MAX_INSTANCES);
}

void wl_check_workload(struct wl_parser *p)
{
	struct workload *wl = p->wl;
	int i, j, k, *counted_by;

	check_instances(p);

	/* uclamp attributes: kept, but only the uclamp policy uses them
	 * (no warning when the workload itself asks for that policy) */
	for (i = 0; i < wl->ntasks && !p->warned_util &&
	     !(clamp_policy_info(wl->policy) &&
	       clamp_policy_info(wl->policy)->uclamp_values); i++) {
		struct wl_task *t = &wl->tasks[i];
		bool any = t->attrs.util_min_set || t->attrs.util_max_set;

		for (j = 0; j < t->nphases; j++)
			any |= t->phases[j].attrs.util_min_set ||
			       t->phases[j].attrs.util_max_set;
		if (any) {
			p->warned_util = true;
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
		b = wl_brief_str(wl->res[k].name);
		jdoc_warn(&wl->doc, "/tasks", "barrier %s has a single user: it never blocks",
			  b);
		free(b);
	}
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
