/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rt-app workload model and its parser. Kept free of simulator types
 * so that the guest runner (kernel/guest) can reuse it: it depends only on
 * jansson, jsondoc and diag.
 *
 * Grammar (rt-app doc/tutorial.txt): "global", "tasks" (each a thread
 * object: instance, loop, delay, phases or inline events, policy, priority,
 * dl-runtime/period/deadline, cpus, util_min, util_max, taskgroup) and
 * events matched by key prefix in rt-app's order (runtime before run, ...).
 * capsim's own settings live under a top-level "capsim" object, which
 * rt-app ignores.
 */
#ifndef CAPSIM_WORKLOAD_H
#define CAPSIM_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "clamp_names.h"
#include "diag.h"
#include "jsondoc.h"
#include "strmap.h"

enum wl_policy {
	WL_SCHED_OTHER,
	WL_SCHED_BATCH,
	WL_SCHED_IDLE,
	WL_SCHED_FIFO,
	WL_SCHED_RR,
	WL_SCHED_DEADLINE,
};

const char *wl_policy_name(enum wl_policy p);

enum wl_ev_type {
	WL_EV_RUN,		/* work, calibrated at the reference capacity */
	WL_EV_RUNTIME,		/* busy for a wall-clock time */
	WL_EV_SLEEP,
	WL_EV_TIMER,
	WL_EV_IORUN,
	WL_EV_MEM,
	WL_EV_YIELD,
	WL_EV_LOCK,
	WL_EV_UNLOCK,
	WL_EV_WAIT,
	WL_EV_SIGNAL,
	WL_EV_BROAD,
	WL_EV_BARRIER,
	WL_EV_SUSPEND,
	WL_EV_RESUME,
};

const char *wl_ev_name(enum wl_ev_type t);

/*
 * rt-app's trace_marker categories (global "ftrace": "main,task,loop,
 * event,stats"); without the key a run's trace carries WL_FTRACE_DEFAULT,
 * what LISA's rt-app analysis reads, without a line per event
 */
enum {
	WL_FTRACE_MAIN = 1 << 0,
	WL_FTRACE_TASK = 1 << 1,
	WL_FTRACE_LOOP = 1 << 2,
	WL_FTRACE_EVENT = 1 << 3,
	WL_FTRACE_STATS = 1 << 4,
	WL_FTRACE_DEFAULT = WL_FTRACE_MAIN | WL_FTRACE_TASK | WL_FTRACE_LOOP |
			    WL_FTRACE_STATS,
};

enum wl_res_kind {
	WL_RES_MUTEX,
	WL_RES_COND,
	WL_RES_BARRIER,
	WL_RES_TIMER,
	WL_RES_SUSPEND,
};

struct wl_resource {
	char *name;
	enum wl_res_kind kind;
	bool unique;		/* a timer private to each task instance */
	int users;		/* barrier: task instances that use it */
};

struct wl_event {
	enum wl_ev_type type;
	char *key;
	uint64_t us;		/* run, runtime, sleep, timer period */
	uint64_t bytes;		/* iorun, mem */
	int res;		/* resource index */
	int mutex;		/* wait: the mutex resource */
	bool absolute;		/* timer mode */
};

/* Scheduling attributes a phase may change; *_set says which it does */
struct wl_attrs {
	bool policy_set;
	enum wl_policy policy;
	bool prio_set;
	int prio;
	long long prio_given;	/* as written, checked against the policy */
	bool cpus_set;
	int *cpus;
	int ncpus;		/* 0 in a phase: back to the task's cpus
				 * (all CPUs if it has none), as rt-app */
	char *cpus_ptr;		/* JSON pointer, to report a bad CPU later */
	bool group_set;
	char *group;		/* "/" is the root */
	bool util_min_set;
	unsigned int util_min;
	bool util_max_set;
	unsigned int util_max;
};

struct wl_phase {
	char *name;
	bool named;		/* in a "phases" object, not the implicit one */
	int loop;		/* -1: forever */
	struct wl_event *ev;
	int nev;
	struct wl_attrs attrs;
};

struct wl_task {
	char *name;
	char *ptr;
	int instances;
	int loop;		/* -1: forever */
	uint64_t delay_us;
	struct wl_attrs attrs;	/* all set: the task's initial attributes */
	uint64_t dl_runtime_us;
	uint64_t dl_period_us;
	uint64_t dl_deadline_us;
	struct wl_phase *phases;
	int nphases;
};

struct wl_group {
	char *path;
	char *ptr;
	bool min_set;
	unsigned int min;
	bool max_set;
	unsigned int max;
};

struct wl_group_event {
	uint64_t at_ns;
	char *group;
	char *ptr;
	int attr;		/* 0: capacity_min, 1: capacity_max */
	uint64_t value;
};

/*
 * capsim.chains: tasks that work in turn on one period's job (a frame:
 * the UI thread, then the render thread), judged against a deadline
 * after each period's trigger. docs/simulator.md has the definitions.
 */
struct wl_chain {
	char *name;
	char *ptr;		/* its JSON pointer, for messages */
	int *tasks;		/* indexes into workload.tasks, in order */
	int ntasks;
	uint64_t period_us;
	uint64_t deadline_us;	/* after the trigger; the period if not given */
	char *start;		/* "period" or the name of a timer */
	int start_timer;	/* that timer's resource index; -1: "period" */
	/* inferred from rt-app's events (workload_chain_infer.c), not named
	 * in capsim.chains: the events it was read from, in chain order */
	bool inferred;
	struct wl_chain_link *from;
	int nfrom;
};

/* One event of a task an inferred chain was read from */
struct wl_chain_link {
	int task;		/* index into workload.tasks */
	enum wl_ev_type ev;	/* WL_EV_TIMER, WL_EV_RESUME or WL_EV_SUSPEND */
	int res;		/* the timer's or the suspend point's resource */
};

/* the range of a chain's period_us and deadline_us: 100 us .. 10 s */
#define WL_CHAIN_PERIOD_MIN_US 100
#define WL_CHAIN_PERIOD_MAX_US 10000000

struct workload {
	char *name;		/* file basename without .json */
	struct jdoc doc;	/* kept for positioned errors after parsing */
	double duration_s;	/* < 0: until every task ends */
	enum wl_policy default_policy;
	int calib_cpu;		/* "calibration": "CPUn", else -1 */
	bool cumulative_slack;
	uint64_t mem_buffer_size;
	unsigned int ftrace;	/* rt-app's marker categories, WL_FTRACE_* */
	struct wl_task *tasks;
	int ntasks;
	struct wl_resource *res;
	int nres;
	int res_cap;
	struct strmap res_by_name;	/* res by (kind, name) */
	/* capsim extension */
	struct wl_group *groups;
	int ngroups;
	struct wl_group_event *gevents;
	int ngevents;
	char *platform;		/* default platform, or NULL */
	/* the run's clamp choices (clamp_names.h), unset if not given */
	enum clamp_policy policy;
	enum clamp_order clamp_order;
	enum domain_rule domain_rule;
	unsigned int run_jitter_pct;
	uint64_t io_bw;		/* bytes per second for iorun */
	uint64_t mem_bw;	/* bytes per second at capacity 1024 for mem */
	/*
	 * capsim.uclamp: sched_util_clamp_min, sched_util_clamp_max,
	 * sched_util_clamp_min_rt_default (0 .. 1024) and the bucket count
	 * (CONFIG_UCLAMP_BUCKETS_COUNT, 5 .. 20); -1 where not given
	 */
	int uclamp_util_min, uclamp_util_max, uclamp_util_min_rt_default;
	int uclamp_buckets;
	/*
	 * The kernel knobs (workload_knobs.c, docs/knobs.md): CONFIG_HZ and
	 * map_util_perf()'s factor in thousandths, 0 where not given;
	 * sched_feat(UTIL_EST) and schedutil's iowait boost switched off
	 */
	unsigned int hz;
	unsigned int headroom_pm;
	bool no_util_est;
	bool no_iowait_boost;
	struct wl_chain *chains;
	int nchains;
};

/*
 * The simulator's limits, checked by the parser so that an absurd input is
 * refused up front with the field and the range rather than run for days
 * or allocated until memory runs out. A duration is simulated nanoseconds
 * in a u64, and 10^6 s (11.6 days) of the busiest traces/ workload already
 * takes minutes and hundreds of GB of trace; below a microsecond nothing
 * happens.
 */
#define WL_DURATION_MIN_S 1e-6
#define WL_DURATION_MAX_S 1e6
/* One event's time (a run, runtime or sleep, a timer's period): an hour,
 * longer than any burst or period a workload means */
#define WL_EVENT_MAX_US (3600LL * 1000000)
/* the tick rate, capsim.hz and run --hz */
#define WL_HZ_MIN 10
#define WL_HZ_MAX 10000
/* task instances in all (each is a simulated thread with its own state) */
#define WL_MAX_INSTANCES (1 << 18)
/* the kernel's PATH_MAX (with its NUL) and NAME_MAX for a cgroup path */
#define WL_GROUP_PATH_MAX 4096
#define WL_GROUP_NAME_MAX 255

struct workload *workload_load(const char *path, struct diag *d);
struct workload *workload_load_buffer(const char *name, const char *text,
				      struct diag *d);
/*
 * The same, but a workload with errors is returned too (NULL only if the
 * text is not JSON): its rejected values are left unset, so checks of
 * their own (the group tree, sim_workload_check()) can still run on it.
 * The caller compares d->errors.
 */
struct workload *workload_load_all(const char *path, struct diag *d);
struct workload *workload_load_buffer_all(const char *name, const char *text,
					  struct diag *d);
/*
 * workload_load_all() of a document the caller already loaded from @path
 * with jdoc_load_rtapp_file() and that reported nothing: the workload
 * takes @doc (left empty) and reports to @d. `capsim validate` reads a
 * file once to tell a platform from a workload and to parse it.
 */
struct workload *workload_from_doc_all(struct jdoc *doc, const char *path,
				       struct diag *d);
void workload_free(struct workload *wl);

/* Whether every task ends (no loop of -1), so a run without a duration
 * ends too */
bool workload_tasks_end(const struct workload *wl);

/*
 * Report the capsim.events timed at or after @end_ns, the end of the run:
 * such a write never happens. An input error when the workload's own
 * global.duration ends it (@cut false: the file contradicts itself), a
 * warning when --duration cuts a run short (@cut true: a shorter look at
 * the same workload). Returns the number of errors.
 */
int workload_check_event_times(struct workload *wl, uint64_t end_ns,
			       bool cut);

/* Whether @path is a group path capsim accepts: "/" or "/a/b" */
bool wl_group_path_ok(const char *path);
/* Why @path is not one (a static message), or NULL if it is */
const char *wl_group_path_problem(const char *path);

#endif
