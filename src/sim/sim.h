/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated machine: CPUs with per-class runqueues, frequency domains,
 * task groups and tasks, driven by the engine's event queue.
 *
 * The clamp core is reached through its one user-space host
 * (src/clamphost): a group hierarchy by path, one entity per task, one
 * aggregate per CPU. Every enqueue/dequeue of a task on a runqueue goes
 * through the clamp policy (clamp_policy.h), which feeds the core
 * (sim.c: activate/deactivate).
 */
#ifndef CAPSIM_SIM_H
#define CAPSIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/list.h>
#include <linux/sched/cap_clamp.h>

#include "engine.h"
#include "ftrace_writer.h"
#include "platform.h"
#include "cfs_tree.h"
#include "chains.h"
#include "clamp_host.h"
#include "clamp_policy.h"
#include "cpu_load_index.h"
#include "schedutil.h"
#include "sched_class.h"
#include "timer_heap.h"
#include "pelt.h"
#include "uclamp_rq.h"
#include "util.h"
#include "workload.h"

/* Why a task changed CPU (summary.json's migrations by reason) */
enum mig_reason {
	MIG_WAKEUP,		/* wake-up placement (idle sibling, capacity) */
	MIG_EAS,		/* energy-aware wake-up placement */
	MIG_MISFIT,		/* a misfit task's active migration */
	MIG_PULL,		/* newidle balance */
	MIG_PUSH,		/* tick balance: to an idle CPU, RT push */
	MIG_AFFINITY,		/* its CPU left the allowed mask */
	NR_MIG_REASONS,
};

extern const char *const mig_reason_name[NR_MIG_REASONS];

/* Time a task ran on one CPU */
struct cpu_time {
	int cpu;
	uint64_t ns;
};

/* One activation (phase iteration) of a task: activations.csv */
struct activation {
	uint64_t start, end;	/* ns */
	uint64_t run_ns;	/* CPU time within it */
	uint64_t period_ns;	/* its timer's period, 0 without one */
	int64_t slack_ns;	/* of its timer, 0 without one */
	int64_t wu_lat_ns;	/* timer expiry to running, -1 if none */
	int cpu;		/* where it ended */
	unsigned int khz;	/* that CPU's frequency then */
	int phase;		/* index into the task's phases */
	uint64_t wake_ns;	/* the wake-up its first work answers */
	bool wake_set;		/* wake_ns known (it reached a work event) */
};

/* The simulator's events (the engine's kinds, handled in sim.c) */
enum sim_event {
	EVK_END,		/* end of the simulated time */
	EVK_TASK_START,		/* a task's first activation (after delay) */
	EVK_TASK_WAKE,		/* a sleep/timer/iowait expires */
	EVK_RUN_DONE,		/* the running task's event or budget ends */
	EVK_TICK,		/* scheduler tick of a CPU */
	EVK_RESCHED,		/* a CPU reschedules (after idle exit) */
	EVK_FREQ,		/* a domain's frequency transition completes */
	EVK_DL_REPLENISH,	/* a throttled DEADLINE task's new period */
	EVK_GROUP_WRITE,	/* a capsim.events group write */
	NR_SIM_EVENTS,
};

/* What the task's current rt-app event spends while it runs */
enum task_work {
	WORK_NONE,		/* no event in progress */
	WORK_RUN,		/* run, mem: work_left, faster on a faster CPU */
	WORK_RUNTIME,		/* runtime: runtime_left, wall time at any speed */
};

enum task_state {
	TS_NEW,
	TS_RUNNABLE,		/* queued on a runqueue (possibly running) */
	TS_SLEEPING,
	TS_DEAD,
};

struct tvec {
	struct sim_task **v;
	int n;
	int cap;
};

void tvec_add(struct tvec *tv, struct sim_task *t);
void tvec_del(struct tvec *tv, struct sim_task *t);
void tvec_free(struct tvec *tv);

/* CFS (EEVDF) state of a task: the kernel's sched_entity */
struct sim_cfs_entity {
	/* weight, vruntime, deadline; in the CPU's EEVDF tree while queued */
	struct cfs_node node;
	int64_t vlag;
	bool protect;		/* RUN_TO_PARITY: keep running until deadline */
	bool on_rq;		/* se->on_rq: in the queue's sums and tree */
};

/* SCHED_FIFO / SCHED_RR state: sched_rt_entity */
struct sim_rt_entity {
	uint64_t rr_left;	/* ns left of the RR time slice */
};

/* SCHED_DEADLINE state: sched_dl_entity */
struct sim_dl_entity {
	uint64_t runtime, rel_deadline, period;	/* ns, from the workload */
	int64_t budget;		/* runtime left in this period */
	uint64_t deadline;	/* absolute */
	uint64_t bw;		/* runtime/period in capacity units (1024) */
	bool throttled;
	uint32_t gen;		/* of the pending replenishment event */
	uint64_t throttles;
};

/* A unique timer of one task: its resource and next expiry */
struct task_timer {
	int res;
	bool init;
	uint64_t next;
};

struct sim_task {
	int idx;
	int pid;
	char *name;		/* the rt-app thread name, NAME or NAME-k */
	char comm[16];		/* the kernel's comm: name, 15 chars */
	const struct wl_task *wt;
	enum task_state state;
	bool on_cpu;
	int cpu;
	char sleep_state;	/* 'S' or 'D' while sleeping, 'X' at exit */

	/* attributes */
	enum wl_policy policy;
	int prio;		/* nice, or the RT priority */
	const struct sim_class *cls;
	struct host_group *group;
	struct host_entity *ce;		/* its node pair in the clamp core */
	bool *allowed;

	/* queued on its class's runqueue, in enqueue order (cfs_tasks) */
	struct list_head run_node;
	struct sim_cfs_entity se;
	struct sim_rt_entity rt;
	struct sim_dl_entity dl;

	/* se.avg: PELT of the task (fair class), util_est within */
	struct pelt_avg avg;

	/* uclamp (--policy uclamp): p->uclamp_req, p->uclamp while active */
	unsigned int uclamp_req[UCLAMP_CNT];
	bool uclamp_user[UCLAMP_CNT];	/* set by util_min / util_max */
	unsigned int uclamp_eff[UCLAMP_CNT];
	bool uclamp_active;		/* counted in its CPU's buckets */

	/* execution of the rt-app events */
	int phase, phase_iter, ev, loop_iter;
	bool phase_entered;
	uint64_t work_left;	/* capacity * ns */
	uint64_t runtime_left;	/* ns */
	enum task_work work;	/* which of the two counts down */
	uint64_t t_first;
	bool iowait;		/* the pending wake-up is an iowait one */
	/*
	 * The unique timers its events use (rt-app's per-instance timers),
	 * one slot each: memory follows the task's own timers, not every
	 * resource of the workload.
	 */
	struct task_timer *timers;
	int ntimers;
	int64_t slack_acc;
	/* a timer event in the open activation: its slack is a sample of
	 * slack_us when it completes (rt-app logs slack per loop) */
	bool act_timed;
	bool timed;		/* any timer event: deadline_misses not null */
	int wait_mutex;		/* cond wait: the mutex to take back */
	int pending_migrate;	/* CPU to move to once switched out, or -1 */
	enum mig_reason pending_reason;

	/* sleeping */
	uint32_t wake_gen;
	int timer_cpu;
	uint64_t wake_at;	/* armed timer expiry, 0 if none */

	/* statistics */
	uint64_t woken_at;
	bool latency_pending;
	struct samples wlat;	/* ns, sched_wakeup to running */
	/*
	 * Response time, as src/trace/trace_scan.c measures it on trace.txt:
	 * from the wake-up (sched_waking, or sched_wakeup_new) to the next
	 * switch-out in a sleeping state. Kept at the trace's microseconds
	 * (timestamps truncated as the trace prints them) so the summary and
	 * a scan of the trace agree to the digit; a sweep then reads it from
	 * summary.json instead of scanning every point's trace.
	 */
	struct samples resp;	/* ns, multiples of 1000 */
	bool resp_open;
	uint64_t resp_start_us;
	uint64_t resp_start_ns;		/* the same wake-up, for chains.c */
	struct samples tlat;	/* ns, timer expiry to running (rt-app wu_lat) */
	uint64_t expired_at;	/* the timer expiry of the pending wake-up */
	struct samples slack;	/* ns */
	uint64_t activations, completed, misses, runtime_ns;
	double run_khz_ns;		/* sum of run ns x kHz: a mean OPP */
	uint64_t migrations, preempted, wakeups;
	uint64_t mig[NR_MIG_REASONS];	/* migrations by reason */
	uint64_t switches;		/* switched in (perf sched latency) */
	int64_t wlat_max;		/* the longest wake-up delay, ns */
	uint64_t wlat_max_at;		/* when it ended (switched in) */
	struct cpu_time *cpu_time;	/* per CPU it ran on, first run first */
	int ncpu_time, cap_cpu_time, last_cpu_time;
	struct activation *acts;	/* with sim_opts.activations */
	size_t nacts, cap_acts;
	bool act_open;			/* acts[nacts - 1] not ended yet */
	uint64_t loop_start_ns;		/* its phase iteration began */
	bool act_starts_on_wake;	/* it opened with a suspend: its
					 * start is the resume's wake-up */
	uint64_t act_period_ns;
};

struct sim_domain;

/* Per-class runqueues; tasks lists hold the queued tasks incl. curr */
struct sim_cfs_rq {
	struct list_head tasks;
	int nr;
	struct cfs_tree tree;		/* by deadline, with the avg sums */
	int64_t avg_vruntime_empty;	/* avg_vruntime when it emptied */
	struct sim_task *curr;		/* cfs_rq->curr: set_next .. put_prev */
	struct pelt_avg avg;		/* the queue's PELT sums */
	struct pelt_removed removed;	/* shares of tasks that left asleep */
};

struct sim_rt_rq {
	struct list_head tasks;
	int nr;
	struct pelt_avg avg;		/* rq->avg_rt */
};

struct sim_dl_rq {
	struct list_head tasks;
	int nr;
	uint64_t running_bw;		/* capacity units */
	struct pelt_avg avg;		/* rq->avg_dl */
};

struct sim_cpu {
	int id;
	struct sim_domain *dom;
	unsigned int capacity;
	raw_spinlock_t lock;
	struct sim_task *curr;		/* NULL: idle */
	int nr_running;			/* queued tasks of every class */
	char idle_comm[20];		/* the idle task's comm: swapper/N */
	struct timer_heap timers;	/* the sleeps armed on this CPU */
	int nr_armed;			/* of them, still armed */
	struct sim_cfs_rq cfs;
	struct sim_rt_rq rt;
	struct sim_dl_rq dl;
	struct pelt_clock pelt;		/* clock_task, clock_pelt */
	struct uclamp_cpu uclamp;	/* rq->uclamp, --policy uclamp */
	struct sugov_cpu_state gov;	/* schedutil's sugov_cpu */
	uint64_t last_blocked_ns;	/* the last blocked-averages update */
	uint64_t last_update;
	int idle_state;			/* -1 while not idle */
	uint64_t *busy_ns;		/* per OPP */
	uint64_t *idle_ns;		/* per idle state */
	uint32_t run_gen, tick_gen, resched_gen;
	bool tick_armed;
	bool resched_pending;
	uint64_t idle_calls;		/* idle entries (tick_nohz idle_calls) */
	uint64_t irq_until;		/* a timer interrupt wakes it up by then */
	/* EAS's verdict on it as last judged, and "judge it again" (overutilized.c) */
	bool overutilized;
	bool signals_changed;
};

struct sim_domain {
	const struct pdomain *pd;
	int idx;
	int cur_opp;
	struct governor governor;	/* the domain's cpufreq governor */
	bool overutilized;		/* a CPU of it, at the last tick */
	int nr_overutilized;		/* its CPUs judged overutilized */
	uint64_t ou_since, ou_ns;	/* time overutilized */
	int fixed_opp;			/* its OPP when not schedutil, or -1 */
	struct sugov_params gov_params;	/* rate limit, latency, OPPs */
	unsigned int headroom_pm;	/* capsim.dvfs_headroom (0: 1.25) */
	struct sugov_state gov;		/* the policy's schedutil state */
	unsigned int *opp_khz;		/* the OPP table, for gov_params */
	int next_opp;			/* the governor's next frequency */
	/* its CPUs' inputs to a decision, filled at each one (not kept) */
	struct sugov_cpu_input *gov_in;
	int freq_caller;		/* the CPU whose update decided it */
	uint32_t freq_gen;
	bool freq_pending;
	uint64_t *residency_ns;
	uint64_t last_change;
	uint64_t transitions;
	/* the energy model's estimate (energy.c em_sample()): the power
	 * estimated at the last sample, since when, the integral */
	double em_uw;
	uint64_t em_since;
	double em_uw_ns;
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

/* The tick rate when neither --hz nor capsim.hz gives one (CONFIG_HZ) */
#define SIM_HZ_DEFAULT 250

/*
 * A run's configuration. The choices with a documented default (policy,
 * clamp order, domain rule, hz) are left unset (0: POLICY_UNSET, ..., hz
 * 0) by a caller that makes none, and sim_opts_resolve() completes them
 * from the workload, else the defaults; sim_create() takes only a
 * resolved one. So `struct sim_opts o = { 0 }` and sim_opts_resolve()
 * is a run as `capsim run W` makes it.
 */
struct sim_opts {
	enum clamp_policy clamp_policy;	/* --policy: the clamp policy, not a task's */
	enum clamp_order order;		/* --clamp-order */
	enum domain_rule domain_rule;	/* --domain-rule */
	unsigned int hz;		/* --hz */
	uint64_t seed;
	uint64_t duration_ns;	/* --duration; 0: global.duration, else until every task ends */
	bool trace_util;	/* capsim_util lines at every tick */
	bool activations;	/* keep a record per activation */
	const char *clamp_backend;	/* "rbtree", "exact" or NULL: default */
	bool trace_signals;	/* LISA's signal events, every decision */
	/*
	 * Events in a row at one nanosecond that fail the run are at least
	 * this many (0: 2^20); the fuzz harness lowers it so that a looping
	 * input costs it milliseconds, not seconds
	 */
	uint64_t stuck_events_min;
	/* events after which a run stops where it is (0: no limit); the fuzz
	 * harness bounds inputs whose tasks make time crawl */
	uint64_t max_events;
	/* --governor: every domain's, over the platform file's */
	bool governor_set;
	struct governor governor;
};

/* A group's cpu.uclamp.{min,max} requests (tg->uclamp_req) */
struct uclamp_group {
	struct host_group *g;
	unsigned int req[UCLAMP_CNT];
};

/* uclamp's system settings (the sysctls, CONFIG_UCLAMP_BUCKETS_COUNT) */
struct uclamp_sys {
	unsigned int util_min, util_max;	/* sched_util_clamp_min/max */
	unsigned int util_min_rt_default;	/* ..._min_rt_default */
	unsigned int buckets;
};

struct sim {
	struct sim_opts o;
	const struct clamp_policy_ops *clamp;	/* the clamp policy's ops */
	const struct platform *pl;
	const struct workload *wl;
	struct diag *diag;
	struct sim_cpu *cpus;
	int ncpus;
	struct sim_domain *doms;
	int ndoms;
	struct sim_task **tasks;
	int ntasks;
	bool *all_cpus;		/* every CPU allowed: the tasks' shared mask */
	struct clamp_host host;		/* the clamp core's groups and CPUs */
	struct uclamp_sys uclamp;
	struct uclamp_group *ugroups;
	int nugroups;
	struct res_state *res;
	struct evq q;
	uint64_t now;
	uint64_t end;
	struct ftrace_writer tr;
	uint64_t rng;
	uint64_t tick_ns;
	uint64_t base_slice_ns;
	unsigned int ref_capacity;	/* capacity "run" is calibrated at */
	bool util_est;			/* sched_feat(UTIL_EST) */
	struct group_write_log *gw;
	int ngw;
	uint64_t nevents;
	/*
	 * The root domain's "someone could give a task away" counts, as the
	 * kernel's rd->overloaded and rd->rto_count gate newidle balance and
	 * pull_rt_task() without visiting the CPUs: CPUs with two or more
	 * CFS tasks queued, CPUs with an RT task queued. Zero means a pull
	 * would find nothing.
	 */
	int nr_cfs_overloaded;
	int nr_rt_cpus;
	/* the CPUs by nr_running, for the forks' placement (balance.c) */
	struct cpu_load_index load_idx;
	/* no CPU's blocked averages are due before (signals.c) */
	uint64_t next_blocked_ns;
	bool overutilized;
	uint64_t ou_since, ou_ns;	/* time the system was overutilized */
	/* the CPUs whose signals changed since the last tick, and the domains flagged */
	int *ou_changed;
	int nr_ou_changed;
	int nr_doms_overutilized;
	/* what the last select_task_rq() based its choice on */
	enum mig_reason placed_by;
	bool failed;			/* a run error was reported */
	struct chain_run *chains;	/* the workload's chains (chains.c) */
	int nchains;
	/* capsim run's progress line (src/outputs/progress.c), or NULL */
	void (*progress)(void *arg, unsigned long long now_ns,
			 unsigned long long end_ns);
	void *progress_arg;
};

/*
 * setup.c: @o completed for a run of @wl (NULL: no workload): each choice
 * @o leaves unset takes the workload's (capsim.policy, .clamp_order,
 * .domain_rule, .hz), else the default (CLAMP_POLICY_DEFAULT rfc,
 * CLAMP_ORDER_DEFAULT 6.12, DOMAIN_RULE_DEFAULT nonidle, SIM_HZ_DEFAULT
 * 250; docs/simulator.md). The one place a run's defaults are applied:
 * capsim run and validate, the tests, the fuzzers and a library caller
 * call it before sim_create().
 */
void sim_opts_resolve(struct sim_opts *o, const struct workload *wl);
/* Whether @o is complete (sim_opts_resolve() made it so) */
bool sim_opts_resolved(const struct sim_opts *o);
/*
 * The machine built from the inputs, and freed. @o must be resolved: an
 * unresolved one is refused (NULL, said as an internal error).
 */
struct sim *sim_create(const struct platform *pl, const struct workload *wl,
		       const struct sim_opts *o, struct diag *d);
/*
 * A workload from workload_load_all(): if it has errors beyond
 * @errors_before, report what sim_create() would also find without a
 * platform (the group rules of the policy the run would use: @policy,
 * or when POLICY_UNSET the workload's, else the default; events on
 * unknown groups), so that one pass lists every error, free it and
 * return NULL; else return it.
 */
struct workload *sim_workload_check(struct workload *wl, struct diag *d,
				    int errors_before,
				    enum clamp_policy policy);
void sim_destroy(struct sim *s);
/*
 * sim_validate.c: what `capsim validate` checks of the workload @file
 * (@doc: it already loaded, or NULL): its parse, its group tree and
 * events under the policy it runs with, its events' times, its platform
 * (@platform, the --platform its caller checked, else its own
 * capsim.platform, else the default) and the machine built from both.
 * Each problem reported to @d; whether it is valid, then said on
 * @say_ok (NULL: nothing) as "FILE: ok: ...".
 */
bool sim_validate(const char *file, struct jdoc *doc, const char *platform,
		  struct diag *d, FILE *say_ok);
/* The pull gates (nr_cfs_overloaded, nr_rt_cpus) agree with the CPUs */
bool sim_pull_gates_consistent(const struct sim *s);
/* The load index (s->load_idx) agrees with the CPUs' nr_running */
bool sim_load_index_consistent(const struct sim *s);
/* sim.c: the run */
int sim_run(struct sim *s, FILE *trace);
/* The engine's queue, with the simulator's handler of each event kind */
void sim_init_events(struct sim *s);

/*
 * sim.c: the core's entry points. The rt-app event machine (task.c) and
 * the balancer reach the scheduler only through these.
 */
void sim_resched(struct sim *s, struct sim_cpu *c);
void sim_check_preempt(struct sim *s, struct sim_cpu *c, struct sim_task *t);
/* @t woken by a timer on @waker_cpu (@waker NULL) or by task @waker */
void sim_wake(struct sim *s, struct sim_task *t, int waker_cpu,
	      const struct sim_task *waker);
void sim_block(struct sim *s, struct sim_task *t, uint64_t until, char state);
void sim_task_exit(struct sim *s, struct sim_task *t);
void sim_yield(struct sim *s, struct sim_task *t);
void sim_setscheduler(struct sim *s, struct sim_task *t, enum wl_policy pol,
		      int prio);
void sim_set_cpus_allowed(struct sim *s, struct sim_task *t, const int *cpus,
			  int ncpus);
void sim_update_curr(struct sim *s, struct sim_cpu *c);
void sim_cpufreq_update(struct sim *s, struct sim_cpu *c);
/* cpufreq_update_util() with SCHED_CPUFREQ_IOWAIT when @iowait */
void sim_cpufreq_update_flags(struct sim *s, struct sim_cpu *c, bool iowait);
void sim_migrate(struct sim *s, struct sim_task *t, struct sim_cpu *dst,
		 int trace_cpu, enum mig_reason why);
void sim_set_group(struct sim *s, struct sim_task *t, struct host_group *g);
clamp_range_changed_fn sim_clamp_range_changed;
unsigned int sim_cur_capacity(const struct sim_cpu *c);
int task_kprio(const struct sim_task *t);
bool cpu_idle(const struct sim_cpu *c);
int cpu_nr_running(const struct sim_cpu *c);

/*
 * signals.c: PELT's clock and the update points of the simulator's CPUs
 * (the class runqueues' own points are in cfs.c, rt.c and dl.c)
 */
/*
 * The trace clock when the simulation starts: a machine up for a second,
 * not 0.000000, which KernelShark's merge reads as "no timestamp yet" (its
 * time axis then stops short and a task that runs from the start is not
 * drawn). Readers of capsim's traces take the first event as time 0
 * (plot, trace_scan, xcheck); summary.json, activations.csv and
 * chains.csv count from the run's start as before.
 */
#define SIM_TRACE_CLOCK_NS 1000000000ULL
/* The ns of clock_task when the simulation starts (a booted machine) */
#define SIM_PELT_BOOT_NS (1ULL << 30)
void sig_clock_advance(struct sim_cpu *c, uint64_t delta);
/* rq_clock_pelt() of @c, brought up to now */
uint64_t sig_clock_pelt(struct sim *s, struct sim_cpu *c);
/* update_rt_rq_load_avg() / update_dl_rq_load_avg() at now */
void sig_update_rt(struct sim *s, struct sim_cpu *c, bool running);
void sig_update_dl(struct sim *s, struct sim_cpu *c, bool running);
/* set_next_task_idle(): update_idle_rq_clock_pelt() */
void sig_enter_idle(struct sim *s, struct sim_cpu *c);
/* sched_balance_update_blocked_averages() */
void sig_update_blocked(struct sim *s, struct sim_cpu *c);
/* the periodic / nohz blocked-load updates, from a tick */
void sig_tick_blocked(struct sim *s, struct sim_cpu *c);
/* signal_trace.c: the lisa__* events, with --trace-signals */
void sig_trace_se(struct sim *s, struct sim_cpu *c, struct sim_task *t);
void sig_trace_cfs(struct sim *s, struct sim_cpu *c);
/* lisa__uclamp_util_cfs, signals or not (the uclamp policy's range) */
void sig_trace_uclamp_cfs(struct sim *s, struct sim_cpu *c);
void sig_trace_class_rq(struct sim *s, struct sim_cpu *c, bool rt);
void sig_trace_util_est_se(struct sim *s, struct sim_cpu *c,
			   struct sim_task *t);
void sig_trace_util_est_cfs(struct sim *s, struct sim_cpu *c);
void sig_trace_cpu_capacity(struct sim *s, struct sim_cpu *c);
/* cpu_util(): the CPU's util of every class, as last updated (CFS: with util_est) */
unsigned long cpu_util(struct sim *s, struct sim_cpu *c);
/*
 * overutilized.c: a CPU's signals (what cpu_util() reads) changed, so the
 * next tick judges it again; every writer of them calls this
 */
static inline void sim_signals_changed(struct sim *s, struct sim_cpu *c)
{
	if (!c->signals_changed) {
		c->signals_changed = true;
		s->ou_changed[s->nr_ou_changed++] = c->id;
	}
}
void sim_overutilized_init(struct sim *s);
/* the tick's verdicts, and the time each flag was set */
void sim_overutilized_tick(struct sim *s);
/* the run's end: the flags' time accounted up to now */
void sim_overutilized_end(struct sim *s);
/* every CPU not listed is judged as its signals say; the counts agree */
bool sim_overutilized_consistent(struct sim *s);
/* cpu_util_cfs(): max(util_avg, util_est); _boost: and runnable_avg */
unsigned long cpu_util_cfs(const struct sim_cpu *c);
unsigned long cpu_util_cfs_boost(const struct sim_cpu *c);
/* task_util_est(): max(task_util(), its util_est) */
unsigned long task_util_est(struct sim *s, struct sim_task *t);
/* task_util(): a sleeping task's synced to its queue's last update */
unsigned long task_util(struct sim *s, struct sim_task *t);

/* fits_capacity(): @util fits @cap with the 20 % margin (1280/1024) */
static inline bool fits_capacity(unsigned long util, unsigned long cap)
{
	return util * 1280 < cap * 1024;
}

/*
 * balance.c: util_fits_cpu() of @t with @util on @c, as the clamp policy
 * answers it (its task_fits(): uclamp's task clamps, raised to the CPU's
 * unless it is idle, find_energy_efficient_cpu()'s rule), else
 * fits_capacity(). 1, -1 (fits but not its boost) or 0, as
 * util_fits_cpu() returns.
 */
int task_util_fits(struct sim *s, struct sim_task *t, struct sim_cpu *c,
		   unsigned long util);
/* the same against @capacity (feec: capacity_of(), without RT/DL pressure) */
int task_util_fits_at(struct sim *s, struct sim_task *t, struct sim_cpu *c,
		      unsigned long util, unsigned long capacity);

/* dl.c: a throttled DEADLINE task's replenishment timer fired */
void dl_replenish(struct sim *s, struct sim_task *t);

/* The class a policy runs in (the kernel's __setscheduler_prio()) */
const struct sim_class *sim_policy_class(enum wl_policy pol);

/* cfs.c: the weight of a nice level (sched_prio_to_weight[]) */
unsigned long cfs_weight(enum wl_policy pol, int nice);

/* balance.c: placement and load balance shared by the classes */
struct sim_cpu *select_task_rq(struct sim *s, struct sim_task *t, bool fork);
/* 6.12's find_energy_efficient_cpu(): @prev when nothing beats it */
struct sim_cpu *find_energy_efficient_cpu(struct sim *s, struct sim_task *t,
					  struct sim_cpu *prev);
/*
 * eenv_pd_max_util()'s level of one CPU: effective_cpu_util() of @in
 * (em_cpu_clamp() and sim_cpu_util_input()), its min and max widened by
 * the task's uclamp @teff when the task would run there and the policy's
 * clamp is the rq's (else NULL; @rq_idle: no clamp held by the rq, the
 * task's max is the CPU's), then sugov_effective_cpu_perf()
 */
unsigned long eas_cpu_perf(const struct sugov_cpu_input *in,
			   unsigned long scale, const unsigned int *teff,
			   bool rq_idle);
struct sim_cpu *select_fair_rq(struct sim *s, struct sim_task *t,
			       struct sim_cpu *prev, bool fork);
struct sim_cpu *find_idle_cpu(struct sim *s, struct sim_task *t,
			      struct sim_cpu *from, bool same_domain);
bool task_waiting(const struct sim_task *t);
bool task_runs_next(struct sim *s, struct sim_cpu *c, struct sim_task *t);
struct sim_task *idle_balance(struct sim *s, struct sim_cpu *c);
void tick_balance(struct sim *s, struct sim_cpu *c);

/* task.c: the rt-app event machine */
void task_init_exec(struct sim *s, struct sim_task *t);
void task_continue(struct sim *s, struct sim_task *t);
void task_apply_attrs(struct sim *s, struct sim_task *t,
		      const struct wl_attrs *a);

/* energy.c */
double cpu_energy_mj(const struct sim *s, const struct sim_cpu *c);
int em_pd_efficient_state(const struct pdomain *pd, unsigned long max_util);
uint64_t em_cpu_energy(const struct pdomain *pd, unsigned long max_util,
		       unsigned long sum_util, unsigned long allowed_cpu_cap);
void em_sample(struct sim *s, struct sim_domain *d);
double em_energy_mj(const struct sim_domain *d);
/*
 * A CPU's inputs to effective_cpu_util() as EAS and the energy model read
 * them: em_cpu_clamp() the clamp policy's values (its range only when it
 * is the rq's, clamp_policy_ops.uclamp_used; RT's floor always),
 * sim_cpu_util_input() the signals with @util_cfs the CFS utilization the
 * caller asks about (cpu_util_cfs_boost(), or feec's cpu_util() with the
 * task placed or not; the governor fills its own with it too).
 * em_cpu_perf_in(): the level such a CPU asks for, effective_cpu_util()
 * then sugov_effective_cpu_perf(), not limited by the domain's capacity
 * (the caller's).
 */
void em_cpu_clamp(struct sim *s, struct sim_cpu *c, unsigned long scale,
		  struct sugov_cpu_input *in);
void sim_cpu_util_input(const struct sim_cpu *c, unsigned long util_cfs,
			struct sugov_cpu_input *in);
unsigned long em_cpu_perf_in(const struct sugov_cpu_input *in,
			     unsigned long scale);

/* the typed trace emitters, which read struct sim */
#include "trace_events.h"

#endif
