/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated machine: CPUs with per-class runqueues, frequency domains,
 * task groups and tasks, driven by the engine's event queue.
 *
 * The clamp core is embedded as the kernel glue embeds it: a struct
 * cap_clamp_cpu per CPU (under that CPU's raw_spinlock_t), a struct
 * cap_clamp_se per task and a struct cap_clamp_group per group (under the
 * group mutex). Every enqueue/dequeue of a task on a runqueue goes through
 * cap_clamp_enqueue()/cap_clamp_dequeue() (sim.c: activate/deactivate).
 */
#ifndef CAPSIM_SIM_H
#define CAPSIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/sched/cap_clamp.h>

#include "engine.h"
#include "ftrace_writer.h"
#include "platform.h"
#include "policy.h"
#include "signal.h"
#include "util.h"
#include "workload.h"

enum sched_cls {
	CLS_DL,
	CLS_RT,
	CLS_CFS,
};

enum task_state {
	TS_NEW,
	TS_RUNNABLE,		/* queued on a runqueue (possibly running) */
	TS_SLEEPING,
	TS_DEAD,
};

struct sim_group {
	char *path;
	struct cap_clamp_group cg;
	struct sim_group *parent;
	struct sim_task **members;
	int nmembers;
	int cap;
};

struct tvec {
	struct sim_task **v;
	int n;
	int cap;
};

void tvec_add(struct tvec *tv, struct sim_task *t);
void tvec_del(struct tvec *tv, struct sim_task *t);
bool tvec_has(const struct tvec *tv, const struct sim_task *t);
void tvec_free(struct tvec *tv);

struct sim_task {
	int idx;
	int pid;
	char *name;		/* the rt-app thread name, NAME or NAME-k */
	char comm[16];		/* the kernel's comm: name, 15 chars */
	const struct wl_task *wt;
	int instance;
	enum task_state state;
	bool on_cpu;
	int cpu;
	char sleep_state;	/* 'S' or 'D' while sleeping, 'X' at exit */

	/* attributes */
	enum wl_policy policy;
	int prio;		/* nice, or the RT priority */
	enum sched_cls cls;
	struct sim_group *group;
	bool *allowed;

	/* CFS (EEVDF-like) */
	unsigned long weight;
	int64_t vruntime;
	int64_t deadline;
	int64_t vlag;
	bool protect;		/* RUN_TO_PARITY: keep running until deadline */
	/* RT */
	uint64_t rr_left;
	/* DL */
	uint64_t dl_runtime, dl_rel_deadline, dl_period;
	int64_t dl_budget;
	uint64_t dl_deadline;
	uint64_t dl_bw;		/* runtime/period in capacity units (1024) */
	bool dl_throttled;
	bool dl_active;		/* counted in running_bw */
	uint32_t dl_gen;

	struct cap_clamp_se clamp;
	struct sig util;

	/* execution of the rt-app events */
	int phase, phase_iter, ev, loop_iter;
	bool phase_entered;
	uint64_t work_left;	/* capacity * ns */
	uint64_t runtime_left;	/* ns */
	int kind;		/* 0 none, 1 run, 2 runtime */
	uint64_t iter_start;
	uint64_t t_first;
	bool iowait;		/* the pending wake-up is an iowait one */
	bool yielded;
	uint64_t *timer_next;	/* per resource, unique timers */
	bool *timer_init;
	int64_t slack_acc;
	bool iter_has_timer;
	int wait_mutex;		/* cond wait: the mutex to take back */
	int pending_migrate;	/* CPU to move to once switched out, or -1 */

	/* sleeping */
	uint32_t wake_gen;
	int timer_cpu;
	uint64_t wake_at;	/* armed timer expiry, 0 if none */

	/* statistics */
	uint64_t woken_at;
	bool latency_pending;
	struct samples wlat;	/* ns, sched_wakeup to running */
	struct samples tlat;	/* ns, timer expiry to running (rt-app wu_lat) */
	uint64_t expired_at;	/* the timer expiry of the pending wake-up */
	struct samples slack;	/* ns */
	uint64_t activations, completed, misses, runtime_ns;
	uint64_t migrations, dl_throttles, preempted, wakeups;
	uint64_t last_acct;
};

struct sim_domain;

struct sim_cpu {
	int id;
	struct sim_domain *dom;
	unsigned int capacity;
	raw_spinlock_t lock;
	struct cap_clamp_cpu clamp;
	struct sim_task *curr;		/* NULL: idle */
	struct tvec q[3];		/* queued tasks per class, incl. curr */
	uint64_t running_bw;
	int64_t cfs_avg;		/* avg_vruntime when the CFS queue emptied */
	struct sig util_cfs, util_rt, util_dl;
	uint64_t last_update;
	int idle_state;			/* -1 while not idle */
	uint64_t *busy_ns;		/* per OPP */
	uint64_t *idle_ns;		/* per idle state */
	uint32_t run_gen, tick_gen, resched_gen;
	bool tick_armed;
	bool resched_pending;
	bool need_resched;
	uint64_t idle_calls;		/* idle entries (tick_nohz idle_calls) */
	uint64_t irq_until;		/* a timer interrupt wakes it up by then */
};

struct sim_domain {
	const struct pdomain *pd;
	int idx;
	int cur_opp;
	int next_opp;			/* sugov's next_freq */
	int freq_caller;		/* the CPU whose update decided it */
	unsigned int cached_raw_khz;
	uint64_t last_freq_update;
	bool ever_updated;
	uint32_t freq_gen;
	bool freq_pending;
	uint64_t *residency_ns;
	uint64_t last_change;
	uint64_t transitions;
	uint64_t decisions;
	uint64_t saved_idle_calls;	/* sugov_hold_freq(), single-CPU only */
};

struct group_write_log {
	uint64_t at_ns;
	char *group;
	int attr;
	uint64_t value;
	int ret;
};

struct res_state {
	struct sim_task *owner;		/* mutex */
	struct tvec waiters;		/* mutex, cond, barrier, suspend */
	int count;			/* barrier arrivals */
	uint64_t t_next;		/* shared timer */
	bool t_init;
};

struct sim_opts {
	enum clamp_policy policy;
	enum clamp_order order;
	uint64_t seed;
	uint64_t duration_ns;
	unsigned int hz;
	bool trace_util;	/* capsim_util lines at every tick */
	bool nonidle_rule;	/* domain rule: an idle caller does not count */
};

struct sim {
	struct sim_opts o;
	const struct platform *pl;
	const struct workload *wl;
	struct diag *diag;
	struct sim_cpu *cpus;
	int ncpus;
	struct sim_domain *doms;
	int ndoms;
	struct sim_task **tasks;
	int ntasks;
	struct sim_group **groups;
	int ngroups;
	struct mutex group_lock;
	struct res_state *res;
	struct evq q;
	uint64_t now;
	uint64_t end;
	struct ftrace_writer tr;
	uint64_t rng;
	uint64_t tick_ns;
	uint64_t base_slice_ns;
	unsigned int ref_capacity;	/* capacity "run" is calibrated at */
	struct group_write_log *gw;
	int ngw;
	uint64_t nevents;
	bool overutilized;
	int alive;
	bool failed;			/* a run error was reported */
	/* capsim run's progress line (src/whatif/progress.c), or NULL */
	void (*progress)(void *arg, unsigned long long now_ns,
			 unsigned long long end_ns);
	void *progress_arg;
};

/* sim.c: setup, run, core scheduler */
struct sim *sim_create(const struct platform *pl, const struct workload *wl,
		       const struct sim_opts *o, struct diag *d);
/*
 * A workload from workload_load_all(): if it has errors beyond
 * @errors_before, report what sim_create() would also find without a
 * platform (the group rules, events on unknown groups), so that one pass
 * lists every error, free it and return NULL; else return it.
 */
struct workload *sim_workload_check(struct workload *wl, struct diag *d,
				    int errors_before);
int sim_run(struct sim *s, FILE *trace);
void sim_destroy(struct sim *s);

void sim_resched(struct sim *s, struct sim_cpu *c);
void sim_check_preempt(struct sim *s, struct sim_cpu *c, struct sim_task *t);
void sim_wake(struct sim *s, struct sim_task *t, int waker_cpu);
void sim_block(struct sim *s, struct sim_task *t, uint64_t until, char state);
void sim_task_exit(struct sim *s, struct sim_task *t);
void sim_update_curr(struct sim *s, struct sim_cpu *c);
void sim_cpufreq_update(struct sim *s, struct sim_cpu *c);
void sim_migrate(struct sim *s, struct sim_task *t, struct sim_cpu *dst,
		 int trace_cpu);
void sim_set_group(struct sim *s, struct sim_task *t, struct sim_group *g);
void sim_trace(struct sim *s, int cpu, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
unsigned int sim_cur_capacity(const struct sim_cpu *c);
int task_kprio(const struct sim_task *t);
struct sim_group *sim_group_find(struct sim *s, const char *path);
bool cpu_idle(const struct sim_cpu *c);
int cpu_nr_running(const struct sim_cpu *c);
unsigned long cpu_util(struct sim *s, struct sim_cpu *c);
unsigned long task_util(struct sim *s, struct sim_task *t);

/* cfs.c, rt.c, dl.c: the classes */
unsigned long cfs_weight(enum wl_policy pol, int nice);
void cfs_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		 bool wakeup);
void cfs_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		 bool sleep);
void cfs_update_curr(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		     uint64_t delta);
struct sim_task *cfs_pick(struct sim *s, struct sim_cpu *c);
void cfs_set_next(struct sim *s, struct sim_cpu *c, struct sim_task *t);
bool cfs_check_preempt(struct sim *s, struct sim_cpu *c, struct sim_task *t);
bool cfs_tick(struct sim *s, struct sim_cpu *c);
void cfs_yield(struct sim *s, struct sim_cpu *c, struct sim_task *t);

void rt_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t);
void rt_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t);
struct sim_task *rt_pick(struct sim *s, struct sim_cpu *c);
bool rt_check_preempt(struct sim_cpu *c, struct sim_task *t);
bool rt_tick(struct sim *s, struct sim_cpu *c);
void rt_yield(struct sim *s, struct sim_cpu *c, struct sim_task *t);

void dl_enqueue(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		bool wakeup);
void dl_dequeue(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		bool sleep);
struct sim_task *dl_pick(struct sim *s, struct sim_cpu *c);
bool dl_check_preempt(struct sim_cpu *c, struct sim_task *t);
void dl_update_curr(struct sim *s, struct sim_cpu *c, struct sim_task *t,
		    uint64_t delta, unsigned int cap);
void dl_throttle(struct sim *s, struct sim_cpu *c, struct sim_task *t);
void dl_replenish(struct sim *s, struct sim_task *t);
void dl_yield(struct sim *s, struct sim_cpu *c, struct sim_task *t);

/* balance.c: placement and load balance */
struct sim_cpu *select_task_rq(struct sim *s, struct sim_task *t, bool fork);
struct sim_task *idle_balance(struct sim *s, struct sim_cpu *c);
void tick_balance(struct sim *s, struct sim_cpu *c);

/* task.c: the rt-app event machine */
void task_init_exec(struct sim *s, struct sim_task *t);
void task_continue(struct sim *s, struct sim_task *t);
void task_apply_attrs(struct sim *s, struct sim_task *t,
		      const struct wl_attrs *a);

/* energy.c */
double cpu_energy_mj(const struct sim *s, const struct sim_cpu *c);
uint64_t em_pd_energy(const struct pdomain *pd, unsigned long max_util,
		      unsigned long sum_util, unsigned long scale);

#endif
