// SPDX-License-Identifier: GPL-2.0
/*
 * The signal replay of capsim xcheck (see pelt_replay.h): the trace is
 * read once, in order, through src/trace's reader (any format) into its
 * schedule state machine (sched_state.h), which keeps the tasks, what
 * each CPU runs and its frequency. What is the replay's own rides on it:
 * each CPU's capacity, frequency scale, whether it is busy and an
 * estimate of its PELT clock; each task (a struct sched_task extended)
 * the inputs of its signal (on_rq, running) as the sched events change
 * them, and, since its last capsim_pelt_se, the state it started from
 * and the changes after it.
 * At its next capsim_pelt_se the interval is replayed with pelt.c and
 * compared. The arithmetic is pelt.c's alone.
 *
 * What the trace does not say, and how it is made up for:
 * - where a change falls in PELT time: the CPU's clock estimate at its
 *   trace time, relative to the chain's start, and never past the first
 *   period boundary (an update there would have been logged);
 * - the tick's update of a running task, unlogged below a period: at the
 *   tick's time if the ticks are known (opts.tick_ns), else searched;
 * - a first event that is a sync to a queue's older update (wake-up
 *   placement): the CPU's clock estimate is ahead of it, so the changes
 *   at its own timestamp are placed where the clock was;
 * - a migration re-attaches the entity without an event: skipped;
 * - 6.12's delayed dequeue, searched on request (opts.delay_dequeue).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "pelt.h"
#include "platform.h"
#include "pelt_replay.h"
#include "sched_state.h"
#include "trace_reader.h"

#define MAX_CHANGES 32		/* inside one interval; more is a gap */

struct inputs {
	bool on_rq, running;
};

struct change {
	bool tick;		/* an update at a tick, the inputs unchanged */
	bool sleep;		/* switched out asleep (maybe delayed) */
	uint64_t ts;
	uint64_t est;		/* the CPU's estimated PELT clock then */
	struct inputs now;	/* the inputs from then on */
};

/* sched_state's task, and what the replay keeps of it */
struct task {
	struct sched_task st;
	/*
	 * The signal's inputs as the events left them: RUNNING, RUNNABLE
	 * and the rest of st.state, but changed where the kernel's update
	 * is (a wake-up of a running task changes nothing), and compared
	 * before and after each event.
	 */
	struct inputs cur;
	/* the chain: the last capsim_pelt_se and what happened since */
	bool chain;
	int cpu;
	uint64_t ts0, est0;
	/*
	 * The first event was a sync (sync_entity_load_avg() at wake-up
	 * placement or migration) to its queue's last update, behind the
	 * CPU's clock: the changes at its own timestamp come later in PELT
	 * time, where the enqueue's update reads the clock.
	 */
	bool stale;
	struct pelt_avg avg;
	struct inputs start;
	bool start_sleep;	/* the start is a switch-out asleep */
	int nch;
	struct change ch[MAX_CHANGES];
	bool migrated, gap;
	/* the last sched_migrate_task: one at the chain's own timestamp
	 * (printed before or after its event) re-attaches it unlogged */
	bool moved;
	uint64_t moved_ts;
	unsigned long weight;	/* se_weight(), 0 while unknown */
	/* the lisa__sched_pelt_se printed just before, for its averages */
	bool lisa;
	unsigned long lisa_load, lisa_util, lisa_runnable;
};

struct cpu {
	unsigned int capacity, max_khz, cur_khz;
	bool busy;
	uint64_t next_tick;
	uint64_t est, est_ts;	/* estimated PELT clock at trace time */
	/*
	 * clock_task - clock_pelt: what running below full capacity left
	 * behind since the last idle entry; update_idle_rq_clock_pelt()
	 * catches it up at the next one, unless the CPU was saturated
	 * (then lost_idle_time takes it). The classes' last logged
	 * util_avg tell which.
	 */
	uint64_t lag;
	unsigned long util[3];	/* cfs, rt, dl */
};

struct replay {
	const struct pelt_replay_opts *o;
	struct pelt_replay_result *r;
	int ncpus;
	struct cpu *cpus;
	struct sched_state ss;	/* the tasks, what each CPU runs */
};

/* 6.12 sched_prio_to_weight[] and WEIGHT_IDLEPRIO: what se_weight() is */
static const unsigned long nice_weights[] = {
	1024, 88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949,
	11916, 9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36,
	29, 23, 18, 15, 3,
};

/* The task with that pid, added if new (NULL for a pid out of range) */
static struct task *task_get(struct replay *rp, int pid, const char *comm)
{
	return (struct task *)sched_state_task(&rp->ss, pid, comm);
}

/* The name it had last, as the intervals print it */
static const char *task_comm(const struct task *t)
{
	return t->st.ncomms ? t->st.comms[t->st.ncomms - 1] : t->st.comm;
}

static struct cpu *cpu_get(struct replay *rp, int64_t id)
{
	return id >= 0 && id < rp->ncpus ? &rp->cpus[id] : NULL;
}

/*
 * update_rq_clock_pelt() as far as the trace tells: a busy CPU's PELT
 * clock runs at capacity x frequency; an idle one's follows clock_task.
 * The jump at idle entry is estimated (on_switch(), from the lag) and
 * the logged update_times correct the estimate (cpu_anchor()); only its
 * differences over the first period of an interval are used.
 */
static void cpu_advance(struct cpu *c, uint64_t ts)
{
	uint64_t d;

	if (ts <= c->est_ts)
		return;
	d = ts - c->est_ts;
	if (c->busy) {
		uint64_t wall = d;

		d = (d * c->capacity) >> PELT_CAPACITY_SHIFT;
		d = (d * pelt_freq_scale(c->cur_khz, c->max_khz)) >>
		    PELT_CAPACITY_SHIFT;
		c->lag += wall - d;
	}
	c->est += d;
	c->est_ts = ts;
}

/*
 * Every update_time logged on a CPU is at or behind its PELT clock: the
 * estimate never stays below one. A queue's (@exact: the root cfs_rq's,
 * rt's, dl's) is updated at the clock itself, never synced to another
 * time as an entity is, so the clock is in the unit after it: an
 * estimate above that unit comes down to its middle (this corrects a
 * wrong guess of the jump at idle entry).
 */
static void cpu_anchor(struct replay *rp, const struct ftrace_event *ev,
		       bool exact)
{
	int64_t id, ut;
	struct cpu *c;

	if (!ftrace_get_i64(ev, "cpu", &id) || !(c = cpu_get(rp, id)) ||
	    !ftrace_get_i64(ev, "update_time", &ut) || ut < 0)
		return;
	cpu_advance(c, ev->ts_ns);
	if ((uint64_t)ut > c->est)
		c->est = (uint64_t)ut;
	/* the clock is in the unit after a queue's: if the estimate is
	 * not, take the middle of that unit */
	else if (exact && c->est >= (uint64_t)ut + 1024)
		c->est = (uint64_t)ut + 512;
}

/* The task's inputs change at @ts: part of its open interval, if any */
static void task_set(struct replay *rp, struct task *t, uint64_t ts,
		     struct inputs now, bool sleep)
{
	if (t->cur.on_rq == now.on_rq && t->cur.running == now.running)
		return;
	t->cur = now;
	if (!t->chain)
		return;
	if (ts <= t->ts0 && !t->stale) {	/* the same update: the start */
		t->start = now;
		t->start_sleep = sleep;
		return;
	}
	if (t->nch == MAX_CHANGES) {
		t->gap = true;
		return;
	}
	cpu_advance(&rp->cpus[t->cpu], ts);
	t->ch[t->nch++] = (struct change){ false, sleep, ts,
					   rp->cpus[t->cpu].est, now };
}

/* The known ticks up to @ts: an update of each busy CPU's running task */
static void ticks_upto(struct replay *rp, uint64_t ts)
{
	uint64_t tick = rp->o->tick_ns;
	int i;

	if (!tick)
		return;
	for (i = 0; i < rp->ncpus; i++) {
		struct cpu *c = &rp->cpus[i];
		struct task *t;

		if (!c->busy) {		/* no running task to update */
			if (c->next_tick <= ts)
				c->next_tick = (ts / tick + 1) * tick;
			continue;
		}
		for (; c->next_tick <= ts; c->next_tick += tick) {
			int curr = rp->ss.cpus[i].curr;

			t = curr >= 0 ? (struct task *)rp->ss.tasks[curr] :
			    NULL;
			if (!t || !t->chain || t->cpu != i ||
			    c->next_tick <= t->ts0)
				continue;
			if (t->nch == MAX_CHANGES) {
				t->gap = true;
				continue;
			}
			cpu_advance(c, c->next_tick);
			t->ch[t->nch++] = (struct change){ true, false,
							   c->next_tick,
							   c->est, t->cur };
		}
	}
}

/* sched_state's switch on @cpu: the tasks' states already changed */
static void on_switch(void *arg, int cpu, struct sched_task *sprev,
		      const char *st, struct sched_task *snext)
{
	struct replay *rp = arg;
	struct task *prev = (struct task *)sprev, *next = (struct task *)snext;
	struct cpu *c = &rp->cpus[cpu];
	uint64_t now = rp->ss.now;
	bool went_idle;

	cpu_advance(c, now);
	/* the updates of the switch (put, pick) read the clock before the
	 * idle task's set_next syncs it */
	went_idle = c->busy && !next;
	c->busy = next != NULL;
	if (prev)
		/* preempted (R, R+) stays queued; any other state sleeps */
		task_set(rp, prev, now,
			 (struct inputs){ st && st[0] == 'R', false },
			 !(st && st[0] == 'R'));
	if (next) {
		if (next->chain && next->cpu != cpu)
			next->migrated = true;
		task_set(rp, next, now, (struct inputs){ true, true }, false);
	}
	if (went_idle) {
		/* the divider of update_idle_rq_clock_pelt(), as util_avg */
		if (c->util[0] + c->util[1] + c->util[2] < 1023)
			c->est += c->lag;
		c->lag = 0;
	}
}

/* sched_wakeup(_new) toward @cpu (-1: not said; sched_waking is not
 * where the kernel enqueues) */
static void on_wakeup(void *arg, struct sched_task *st, int waker, int cpu,
		      bool waking)
{
	struct replay *rp = arg;
	struct task *t = (struct task *)st;

	(void)waker;
	if (waking || cpu < 0)
		return;
	if (t->chain && t->cpu != cpu)
		t->migrated = true;
	task_set(rp, t, rp->ss.now,
		 (struct inputs){ true, t->cur.running }, false);
}

/*
 * sched_migrate_task, not sched_state's migrate op: that one also says a
 * switch-in on another CPU, which on_switch compares with the chain's
 */
static void on_migrate(struct replay *rp, const struct ftrace_event *ev)
{
	int64_t pid, dst;
	struct task *t;

	if (!ftrace_get_i64(ev, "pid", &pid) || pid <= 0 ||
	    !ftrace_get_i64(ev, "dest_cpu", &dst))
		return;
	t = task_get(rp, (int)pid, NULL);
	if (!t)
		return;
	if (t->chain && t->cpu != dst)
		t->migrated = true;
	t->moved = true;
	t->moved_ts = ev->ts_ns;
}

/* CPU @cpu's frequency set (sched_state's rule: cpu_frequency, or
 * devlib's marker until the CPU has one) */
static int on_frequency(void *arg, const struct ftrace_event *ev, int cpu,
			uint64_t t0, uint64_t t1, unsigned int old_khz)
{
	struct replay *rp = arg;
	struct cpu *c = &rp->cpus[cpu];

	(void)t0;
	(void)old_khz;
	if (!ev)	/* the end */
		return 0;
	cpu_advance(c, t1);
	c->cur_khz = rp->ss.cpus[cpu].khz;
	return 0;
}

/* a queue's signal: an anchor of the clock, and its utilization */
static void on_lisa_rq(struct replay *rp, const struct ftrace_event *ev)
{
	int64_t id, util;
	struct cpu *c;
	int k = !strcmp(ev->name, "lisa__sched_pelt_cfs") ? 0 :
		!strcmp(ev->name, "lisa__sched_pelt_rt") ? 1 :
		!strcmp(ev->name, "lisa__sched_pelt_dl") ? 2 : -1;

	/* a task group's queue runs on its own clock: not an anchor */
	if (k == 0 && ftrace_get(ev, "path") &&
	    strcmp(ftrace_get(ev, "path"), "/"))
		return;
	cpu_anchor(rp, ev, k >= 0);
	if (k < 0 || !ftrace_get_i64(ev, "cpu", &id) ||
	    !(c = cpu_get(rp, id)) || !ftrace_get_i64(ev, "util", &util) ||
	    util < 0)
		return;
	c->util[k] = (unsigned long)util;
}

static void on_lisa_se(struct replay *rp, const struct ftrace_event *ev)
{
	int64_t pid, load, util, runnable;
	struct task *t;

	cpu_anchor(rp, ev, false);
	if (!ftrace_get_i64(ev, "pid", &pid) || pid <= 0 ||
	    !ftrace_get_i64(ev, "load", &load) ||
	    !ftrace_get_i64(ev, "util", &util) ||
	    !ftrace_get_i64(ev, "runnable", &runnable))
		return;
	t = task_get(rp, (int)pid, ftrace_get(ev, "comm"));
	if (!t)
		return;
	t->lisa = true;
	t->lisa_load = (unsigned long)load;
	t->lisa_util = (unsigned long)util;
	t->lisa_runnable = (unsigned long)runnable;
}

/*
 * Where change @i happened, in 1024 ns units after the chain's start: the
 * clock was somewhere in its unit at the start, take the middle.
 */
static uint64_t change_units(const struct task *t, int i)
{
	return (t->ch[i].est - t->est0 + 512) >> 10;
}

/*
 * What the replay assumes beyond the trace: @split >= 0 puts the one
 * unlogged update of a uniform interval that many units in, instead of
 * the ticks' (0 is no update at all); @delayed >= 0 keeps the task
 * queued, not running, from its first switch-out asleep to that many
 * units in (6.12's DELAY_DEQUEUE: an ineligible entity stays on the
 * queue until picked, then its dequeue is one more unlogged update);
 * @shift moves the changes from their estimated places.
 */
struct variant {
	int split, delayed;
	/* units added to each change's estimated place (or NULL) */
	const int *shift;
};

static const struct variant as_traced = { -1, -1, NULL };

/*
 * Replay from the chain's start to @u1 with the inputs of the last
 * stretch @last (the second event's own), and the changes before @ts1.
 */
static void replay_interval(const struct task *t, uint64_t ts1, uint64_t u1,
			    struct inputs last, struct variant v,
			    unsigned long w, struct pelt_avg *sa)
{
	static const struct inputs queued = { true, false };
	static const struct inputs asleep = { false, false };
	uint64_t u0 = t->avg.last_update_time, kmax, kprev = 0;
	struct inputs in = t->start;
	bool delaying = false, delay_used = false;
	int i;

	*sa = t->avg;
	/* every unlogged update lies before the first period boundary */
	kmax = 1023 - t->avg.period_contrib;
	if (v.split >= 0)	/* 0: the tick was a no-op update */
		pelt_update_load_sum(u0 + ((uint64_t)v.split << 10), sa,
				     in.on_rq, in.on_rq, in.running);
	if (v.delayed >= 0 && t->start_sleep) {
		in = queued;
		delaying = delay_used = true;
	}
	for (i = 0; i < t->nch && t->ch[i].ts < ts1; i++) {
		uint64_t k = change_units(t, i);

		/* the split stands for the one tick inside */
		if (v.split >= 0 && t->ch[i].tick)
			continue;
		if (v.shift)
			k = v.shift[i] < 0 && k < (uint64_t)-v.shift[i] ? 0 :
			    k + (uint64_t)(int64_t)v.shift[i];
		if (k > kmax)
			k = kmax;
		if (k < kprev)
			k = kprev;
		if (delaying && (uint64_t)v.delayed <= k) {
			/* the delayed dequeue, before this change */
			pelt_update_load_sum(u0 + ((uint64_t)v.delayed << 10),
					     sa, 1, 1, 0);
			in = asleep;
			delaying = false;
		}
		kprev = k;
		pelt_update_load_sum(u0 + (k << 10), sa, in.on_rq, in.on_rq,
				     in.running);
		if (t->ch[i].tick)
			continue;
		/* a change ends a delay (a wake-up requeues the entity) */
		delaying = false;
		in = t->ch[i].now;
		if (t->ch[i].sleep && v.delayed >= 0 && !delay_used &&
		    (uint64_t)v.delayed >= k) {
			in = queued;
			delaying = delay_used = true;
		}
	}
	if (delaying && (uint64_t)v.delayed <= kmax)
		pelt_update_load_sum(u0 + ((uint64_t)v.delayed << 10), sa,
				     1, 1, 0);
	pelt_update_load_sum(u1, sa, last.on_rq, last.on_rq, last.running);
	pelt_update_load_avg(sa, w);
}

static void sig_of(const struct pelt_avg *a, struct pelt_replay_sig *s)
{
	*s = (struct pelt_replay_sig){
		.update_time = a->last_update_time, .load_sum = a->load_sum,
		.runnable_sum = (uint32_t)a->runnable_sum,
		.util_sum = a->util_sum, .period_contrib = a->period_contrib,
		.load_avg = a->load_avg, .runnable_avg = a->runnable_avg,
		.util_avg = a->util_avg };
}

static unsigned long udiff(unsigned long a, unsigned long b)
{
	return a > b ? a - b : b - a;
}

static bool same(const struct pelt_replay_sig *a,
		 const struct pelt_replay_sig *b, bool load_known)
{
	return a->update_time == b->update_time &&
	       a->load_sum == b->load_sum &&
	       a->runnable_sum == b->runnable_sum &&
	       a->util_sum == b->util_sum &&
	       a->period_contrib == b->period_contrib &&
	       a->util_avg == b->util_avg &&
	       a->runnable_avg == b->runnable_avg &&
	       (!load_known || a->load_avg == b->load_avg);
}

/* worse: a larger util_avg error, then a larger util_sum one */
static bool worse(const struct pelt_replay_interval *a,
		  const struct pelt_replay_interval *b)
{
	if (a->util_diff != b->util_diff)
		return a->util_diff > b->util_diff;
	return a->util_sum_diff > b->util_sum_diff;
}

static void account(struct pelt_replay_stats *s,
		    const struct pelt_replay_interval *iv)
{
	int i;

	s->n++;
	s->exact += iv->exact;
	s->util_exact += iv->util_diff == 0;
	s->split_explained += iv->split_units >= 0;
	s->delay_explained += iv->delayed_units >= 0;
	s->jitter_explained += iv->jitter;
	s->split_at_tick += iv->split_units >= 0 && iv->tick_units >= 0 &&
			    abs(iv->split_units - iv->tick_units) <=
			    PELT_REPLAY_TICK_SLACK;
	s->hist[iv->util_diff < PELT_REPLAY_HIST ? iv->util_diff :
		PELT_REPLAY_HIST - 1]++;
	if (iv->util_diff > s->max_util_diff)
		s->max_util_diff = iv->util_diff;
	if (iv->util_sum_diff > s->max_util_sum_diff)
		s->max_util_sum_diff = iv->util_sum_diff;
	if (iv->load_known &&
	    udiff(iv->expected.load_avg, iv->logged.load_avg) >
	    s->max_load_diff)
		s->max_load_diff = udiff(iv->expected.load_avg,
					 iv->logged.load_avg);
	if (udiff(iv->expected.runnable_avg, iv->logged.runnable_avg) >
	    s->max_runnable_diff)
		s->max_runnable_diff = udiff(iv->expected.runnable_avg,
					     iv->logged.runnable_avg);
	if (iv->exact)
		return;
	/* keep the worst, worst first */
	for (i = s->nworst; i > 0 && worse(iv, &s->worst[i - 1]); i--)
		if (i < PELT_REPLAY_WORST)
			s->worst[i] = s->worst[i - 1];
	if (i < PELT_REPLAY_WORST) {
		s->worst[i] = *iv;
		if (s->nworst < PELT_REPLAY_WORST)
			s->nworst++;
	}
}

/* the task switched out asleep at the start or inside */
static bool asleep_inside(const struct task *t, uint64_t ts1)
{
	int i;

	for (i = 0; i < t->nch && t->ch[i].ts < ts1; i++)
		if (t->ch[i].sleep)
			return true;
	return t->start_sleep;
}

/* where a delayed dequeue makes the replay exact, or -1 */
static int find_delay(const struct task *t, uint64_t ts1,
		      const struct pelt_replay_sig *lg, struct inputs last,
		      bool load_known)
{
	int kmax = 1023 - (int)t->avg.period_contrib, k;

	for (k = 0; k <= kmax; k++) {
		struct pelt_replay_sig x;
		struct pelt_avg sa;

		replay_interval(t, ts1, lg->update_time, last,
				(struct variant){ -1, k, NULL },
				t->weight ? t->weight : 1024, &sa);
		sig_of(&sa, &x);
		if (same(&x, lg, load_known))
			return k;
	}
	return -1;
}

/*
 * Whether moving each change (ticks included) by at most
 * PELT_REPLAY_TICK_SLACK units from its estimated place makes the
 * replay exact: then what is left is the trace clock's resolution, not
 * the model. Up to JITTER_MAX changes (5^4 replays).
 */
#define JITTER_MAX 4

static bool jitter_explains(const struct task *t, uint64_t ts1,
			    const struct pelt_replay_sig *lg,
			    struct inputs last, bool load_known)
{
	int shift[MAX_CHANGES] = { 0 }, n = 0, i, span;
	long combo, ncombos = 1;

	while (n < t->nch && t->ch[n].ts < ts1)
		n++;
	if (!n || n > JITTER_MAX)
		return false;
	span = 2 * PELT_REPLAY_TICK_SLACK + 1;
	for (i = 0; i < n; i++)
		ncombos *= span;
	for (combo = 0; combo < ncombos; combo++) {
		struct pelt_replay_sig x;
		struct pelt_avg sa;
		long c = combo;

		for (i = 0; i < n; i++, c /= span)
			shift[i] = (int)(c % span) - PELT_REPLAY_TICK_SLACK;
		replay_interval(t, ts1, lg->update_time, last,
				(struct variant){ -1, -1, shift },
				t->weight ? t->weight : 1024, &sa);
		sig_of(&sa, &x);
		if (same(&x, lg, load_known))
			return true;
	}
	return false;
}

/* The interval from the chain's start to this event, replayed */
static void replay_one(struct replay *rp, struct task *t, uint64_t ts1,
		       const struct pelt_replay_sig *lg, struct inputs last)
{
	struct pelt_replay_interval iv = {
		.pid = t->st.pid, .cpu = t->cpu, .ts0_ns = t->ts0, .ts1_ns = ts1,
		.logged = *lg, .load_known = t->weight != 0,
		.split_units = -1, .delayed_units = -1 };
	struct inputs before = t->start;
	struct pelt_avg sa;
	int i;

	snprintf(iv.comm, sizeof(iv.comm), "%s", task_comm(t));
	for (i = 0; i < t->nch && t->ch[i].ts < ts1; i++) {
		before = t->ch[i].now;
		if (t->ch[i].tick)
			iv.nticks++;
		else
			iv.nchanges++;
	}
	iv.cls = iv.nchanges ? PELT_REPLAY_CHANGES : PELT_REPLAY_UNIFORM;
	iv.tick_units = -1;
	for (i = 0; i < t->nch && t->ch[i].ts < ts1; i++)
		if (t->ch[i].tick) {
			uint64_t k = change_units(t, i);
			uint64_t kmax = 1023 - t->avg.period_contrib;

			iv.tick_units = (int)(k < kmax ? k : kmax);
			break;
		}
	iv.flags_mismatch = before.on_rq != last.on_rq ||
			    before.running != last.running;
	rp->r->flags_mismatch += iv.flags_mismatch;
	replay_interval(t, ts1, lg->update_time, last, as_traced,
			t->weight ? t->weight : 1024, &sa);
	sig_of(&sa, &iv.expected);
	iv.exact = same(&iv.expected, lg, iv.load_known);
	iv.util_diff = udiff(iv.expected.util_avg, lg->util_avg);
	iv.util_sum_diff = iv.expected.util_sum > lg->util_sum ?
			   iv.expected.util_sum - lg->util_sum :
			   lg->util_sum - iv.expected.util_sum;
	/* one unlogged update explains it; with one known tick, its place */
	if (!iv.exact && iv.cls == PELT_REPLAY_UNIFORM && iv.nticks <= 1 &&
	    rp->o->split_search) {
		int kmax = 1023 - (int)t->avg.period_contrib, d, k;
		int from = iv.tick_units > 0 ? iv.tick_units : 0;

		/*
		 * Nearest the known tick first: several places can give the
		 * same sums, and the tick is the update the kernel makes.
		 */
		for (d = 0; d <= 2 * kmax; d++) {
			struct pelt_replay_sig x;

			k = d & 1 ? from + (d + 1) / 2 : from - d / 2;
			if (k < 0 || k > kmax)
				continue;

			replay_interval(t, ts1, lg->update_time, last,
					(struct variant){ k, -1, NULL },
					t->weight ? t->weight : 1024, &sa);
			sig_of(&sa, &x);
			if (same(&x, lg, iv.load_known)) {
				iv.split_units = k;
				break;
			}
		}
	}
	if (!iv.exact && iv.cls == PELT_REPLAY_CHANGES && rp->o->split_search)
		iv.jitter = jitter_explains(t, ts1, lg, last, iv.load_known);
	if (!iv.exact && iv.split_units < 0 && !iv.jitter &&
	    rp->o->delay_dequeue &&
	    rp->o->split_search && asleep_inside(t, ts1))
		iv.delayed_units = find_delay(t, ts1, lg, last, iv.load_known);
	account(&rp->r->cls[iv.cls], &iv);
	if (rp->o->on_interval)
		rp->o->on_interval(&iv, rp->o->arg);
}

/* se_weight(): the nice weight that gives the logged load_avg */
static unsigned long infer_weight(const struct pelt_avg *a,
				  unsigned long load_avg)
{
	size_t i;

	if (!a->load_sum)
		return 0;
	for (i = 0; i < sizeof(nice_weights) / sizeof(nice_weights[0]); i++)
		if (nice_weights[i] * a->load_sum / pelt_divider(a) == load_avg)
			return nice_weights[i];
	return 0;
}

static bool get_u64(const struct ftrace_event *ev, const char *k,
		    uint64_t *v)
{
	int64_t x;

	if (!ftrace_get_i64(ev, k, &x) || x < 0)
		return false;
	*v = (uint64_t)x;
	return true;
}

static void on_capsim_se(struct replay *rp, const struct ftrace_event *ev)
{
	uint64_t v[8];
	static const char *const keys[8] = {
		"cpu", "pid", "update_time", "load_sum", "runnable_sum",
		"util_sum", "period_contrib", "on_rq" };
	int64_t pid, running;
	struct pelt_replay_sig lg;
	struct pelt_avg a = { 0 };
	struct inputs last;
	struct task *t;
	struct cpu *c;
	int i;

	if (!ftrace_get_i64(ev, "pid", &pid) || pid <= 0)
		return;		/* a group's entity */
	for (i = 0; i < 8; i++)
		if (i != 1 && !get_u64(ev, keys[i], &v[i]))
			return;
	if (!ftrace_get_i64(ev, "running", &running) ||
	    !(c = cpu_get(rp, (int64_t)v[0])) ||
	    !(t = task_get(rp, (int)pid, NULL)))
		return;
	rp->r->events++;
	a.last_update_time = v[2];
	a.load_sum = v[3];
	a.runnable_sum = v[4];
	a.util_sum = (uint32_t)v[5];
	a.period_contrib = (uint32_t)v[6];
	/* the logged averages: LISA's line of the same update, else from
	 * the sums as ___update_load_avg() makes them */
	pelt_update_load_avg(&a, t->weight ? t->weight : 1024);
	if (t->lisa) {
		a.load_avg = t->lisa_load;
		a.util_avg = t->lisa_util;
		a.runnable_avg = t->lisa_runnable;
	}
	sig_of(&a, &lg);
	last = (struct inputs){ v[7] != 0, running != 0 };

	if (!t->chain) {
		rp->r->first++;
	} else if (t->cpu != (int)v[0] || t->migrated ||
		   (t->moved && t->moved_ts >= t->ts0)) {
		rp->r->skipped[PELT_SKIP_MIGRATED]++;
	} else if (t->gap) {
		rp->r->skipped[PELT_SKIP_GAP]++;
	} else if (lg.update_time <= t->avg.last_update_time ||
		   (lg.update_time - t->avg.last_update_time) & 1023) {
		rp->r->skipped[PELT_SKIP_CHAIN]++;
	} else {
		replay_one(rp, t, ev->ts_ns, &lg, last);
	}

	/* the next interval starts here, from the logged state */
	if (t->lisa)
		t->weight = infer_weight(&a, t->lisa_load);
	t->lisa = false;
	t->chain = true;
	t->cpu = (int)v[0];
	t->ts0 = ev->ts_ns;
	cpu_advance(c, ev->ts_ns);
	cpu_anchor(rp, ev, false);
	t->est0 = c->est;
	/* two units behind at least: not the clock's unit, a queue's lut */
	t->stale = c->est >= a.last_update_time + 2048;
	if (t->stale)
		t->est0 = a.last_update_time;
	t->avg = a;
	t->start = t->cur;
	t->start_sleep = false;
	t->nch = 0;
	t->migrated = t->gap = false;
}

/* lost events: every open interval has a hole */
static void all_gap(struct replay *rp)
{
	int i;

	for (i = 0; i < rp->ss.ntasks; i++)
		((struct task *)rp->ss.tasks[i])->gap = true;
}

static void finish(struct pelt_replay_result *r)
{
	int c, i;

	for (c = 0; c < PELT_REPLAY_NCLASSES; c++) {
		struct pelt_replay_stats *s = &r->cls[c];
		unsigned long seen = 0;

		/* the smallest diff at or below which 99% of them are */
		for (i = 0; i < PELT_REPLAY_HIST && s->n; i++) {
			seen += s->hist[i];
			if (seen * 100 >= s->n * 99) {
				s->p99_util_diff = (unsigned long)i;
				break;
			}
		}
	}
}

/* every event, after sched_state took it: the replay's own */
static int on_event(void *arg, const struct ftrace_event *ev)
{
	struct replay *rp = arg;

	if (!strcmp(ev->name, "sched_migrate_task"))
		on_migrate(rp, ev);
	else if (!strcmp(ev->name, "lisa__sched_pelt_se"))
		on_lisa_se(rp, ev);
	else if (!strncmp(ev->name, "lisa__sched_pelt_", 17))
		on_lisa_rq(rp, ev);
	else if (!strcmp(ev->name, "capsim_pelt_se"))
		on_capsim_se(rp, ev);
	return 0;
}

static int setup(struct replay *rp, const struct pelt_replay_opts *o,
		 struct pelt_replay_result *r, struct trace_reader *rd)
{
	const struct platform *p = o->platform;
	int i;

	memset(r, 0, sizeof(*r));
	memset(rp, 0, sizeof(*rp));
	rp->o = o;
	rp->r = r;
	if (!p || p->ncpus <= 0) {
		fprintf(stderr, "pelt replay: no platform\n");
		return -1;
	}
	rp->ncpus = p->ncpus;
	rp->cpus = calloc((size_t)p->ncpus, sizeof(*rp->cpus));
	if (!rp->cpus)
		return -1;
	for (i = 0; i < p->ncpus; i++) {
		const struct pdomain *d = &p->domains[p->cpus[i].domain];

		rp->cpus[i].capacity = p->cpus[i].capacity;
		rp->cpus[i].max_khz = d->opps[d->nopps - 1].khz;
		/* until its first cpu_frequency: the top */
		rp->cpus[i].cur_khz = rp->cpus[i].max_khz;
	}
	rp->ss.ops = (struct sched_state_ops){
		.arg = rp, .task_size = sizeof(struct task),
		.wakeup = on_wakeup, .switched = on_switch,
		.freq = on_frequency, .event = on_event,
	};
	rp->ss.cpu_limit = p->ncpus;
	rp->ss.platform = p->name;
	rp->ss.platform_ncpus = p->ncpus;
	sched_state_init(&rp->ss, rd);
	sched_state_grow(&rp->ss, p->ncpus - 1);
	return 0;
}

/* @rd's events through the schedule into the replay: 0, or -1 (said) */
static int replay_events(struct trace_reader *rd,
			 const struct pelt_replay_opts *o,
			 struct pelt_replay_result *r)
{
	struct replay rp;
	struct ftrace_event ev;
	long lost = 0;
	int k;

	if (setup(&rp, o, r, rd)) {
		trace_reader_close(rd);
		return -1;
	}
	while ((k = trace_reader_next(rd, &ev)) > 0) {
		if (rd->lost != lost) {	/* a hole before this event */
			lost = rd->lost;
			all_gap(&rp);
		}
		ticks_upto(&rp, ev.ts_ns);
		if (sched_state_feed(&rp.ss, &ev)) {
			k = -1;		/* said file:line:col */
			break;
		}
	}
	trace_reader_close(rd);
	sched_state_free(&rp.ss);
	free(rp.cpus);
	finish(r);
	return k < 0 ? -1 : 0;
}

int pelt_replay_stream(FILE *f, const char *name,
		       const struct pelt_replay_opts *o,
		       struct pelt_replay_result *r)
{
	struct trace_reader rd = { 0 };

	trace_reader_open_stream(&rd, f, name);
	return replay_events(&rd, o, r);
}

int pelt_replay_named(const char *path, const char *name,
		      const struct pelt_replay_opts *o,
		      struct pelt_replay_result *r)
{
	struct trace_reader rd = { 0 };

	if (trace_reader_open_as(&rd, path, name)) {
		memset(r, 0, sizeof(*r));
		return -1;
	}
	return replay_events(&rd, o, r);
}

int pelt_replay_trace(const char *path, const struct pelt_replay_opts *o,
		      struct pelt_replay_result *r)
{
	return pelt_replay_named(path, path, o, r);
}

void pelt_replay_print_interval(FILE *out,
				const struct pelt_replay_interval *iv)
{
	fprintf(out,
		"    pid=%d comm=%s cpu=%d ts=%" PRIu64 ".%06" PRIu64
		"..%" PRIu64 ".%06" PRIu64 " changes=%d ticks=%d%s util %lu/%lu"
		" util_sum %" PRIu32 "/%" PRIu32 " load_sum %" PRIu64
		"/%" PRIu64 " runnable_sum %" PRIu64 "/%" PRIu64,
		iv->pid, iv->comm, iv->cpu, iv->ts0_ns / 1000000000u,
		iv->ts0_ns % 1000000000u / 1000u, iv->ts1_ns / 1000000000u,
		iv->ts1_ns % 1000000000u / 1000u, iv->nchanges, iv->nticks,
		iv->flags_mismatch ? " (inputs differ)" : "",
		iv->expected.util_avg, iv->logged.util_avg,
		iv->expected.util_sum, iv->logged.util_sum,
		iv->expected.load_sum, iv->logged.load_sum,
		iv->expected.runnable_sum, iv->logged.runnable_sum);
	if (iv->split_units >= 0)
		fprintf(out, " exact with an unlogged update at +%d us",
			iv->split_units);
	if (iv->tick_units >= 0)
		fprintf(out, " (tick estimated at +%d us)", iv->tick_units);
	if (iv->delayed_units >= 0)
		fprintf(out, " exact if dequeued delayed at +%d us",
			iv->delayed_units);
	if (iv->jitter)
		fprintf(out, " exact with the changes moved within %d us",
			PELT_REPLAY_TICK_SLACK);
	fputc('\n', out);
}

void pelt_replay_print(FILE *out, const struct pelt_replay_result *r)
{
	static const char *const names[] = { "(a) uniform", "(b) changes" };
	int c, i;

	fprintf(out, "task events %lu, chains started %lu, inputs differing "
		"from the logged ones %lu\n", r->events, r->first,
		r->flags_mismatch);
	fprintf(out, "(c) skipped: migrated %lu, chain reset %lu, gap %lu\n",
		r->skipped[PELT_SKIP_MIGRATED], r->skipped[PELT_SKIP_CHAIN],
		r->skipped[PELT_SKIP_GAP]);
	for (c = 0; c < PELT_REPLAY_NCLASSES; c++) {
		const struct pelt_replay_stats *s = &r->cls[c];

		fprintf(out, "%s: %lu intervals, exact %lu (%.2f%%), util "
			"exact %lu, max |util diff| %lu, p99 %lu, max "
			"|util_sum diff| %" PRIu64 ", max load/runnable diff "
			"%lu/%lu", names[c], s->n, s->exact,
			s->n ? 100.0 * (double)s->exact / (double)s->n : 100.0,
			s->util_exact, s->max_util_diff, s->p99_util_diff,
			s->max_util_sum_diff, s->max_load_diff,
			s->max_runnable_diff);
		if (c == PELT_REPLAY_UNIFORM)
			fprintf(out, ", explained by one unlogged update %lu"
				" (at a known tick %lu)", s->split_explained,
				s->split_at_tick);
		if (c == PELT_REPLAY_CHANGES)
			fprintf(out, ", exact with the changes within %d us "
				"of their estimates %lu", PELT_REPLAY_TICK_SLACK,
				s->jitter_explained);
		if (s->delay_explained)
			fprintf(out, ", by a delayed dequeue %lu",
				s->delay_explained);
		fputc('\n', out);
		for (i = 0; i < s->nworst; i++)
			pelt_replay_print_interval(out, &s->worst[i]);
	}
}
