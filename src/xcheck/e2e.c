// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "ftrace.h"
#include "sched_state.h"
#include "sugov_line.h"
#include "trace_reader.h"

/* A task as the pass sees it: the schedule's (sched_state.h), and what
 * the level's figures need of it */
struct e2e_pid {
	struct sched_task st;	/* first: the schedule's task */
	int seq;		/* the order the pass met it in, -1 not yet */
	int cpu;		/* RUNNABLE in a clamp aggregate there, or -1 */
	unsigned int max;	/* its capacity_max key while RUNNABLE */
	int task;		/* index in r->tasks, or -1 */
	int other;		/* index in r->others, or -1 */
	bool woken;
	uint64_t woken_at;
};

/* A decision: who let its frequency through, who asked for it */
struct e2e_dec {
	bool valid;
	enum e2e_gap why;	/* when not valid */
	int opp;		/* the next frequency it chose */
	unsigned int lift_max;
	struct e2e_who lifter, demand;
};

/*
 * Per domain: the decision behind the frequency in force (the last one
 * that chose it), and the last one that chose another, not yet applied
 * (a driver that switches from a worker applies it later)
 */
struct e2e_dom_dec {
	struct e2e_dec active, pending;
};

struct e2e_pass {
	const struct platform *pl;
	struct e2e_run *r;
	char *const *comms;
	int ncomms;
	uint64_t now;
	/* the schedule: tasks, each CPU's current one */
	struct sched_state ss;
	unsigned int *cmin, *cmax;
	int *dom_opp;		/* OPP index per domain, -1 unknown */
	int nseq;
	/* a guest trace may name 10^5 pids: the ones queued on a CPU
	 * (cpu >= 0) listed in the order the pass met them, which the
	 * accounting walks at each event instead of every pid */
	struct e2e_pid **queued;
	int nqueued;
	FILE *tl;
	bool tl_started;
	struct sugov_line *lines;	/* [trace CPU][logged CPU], NULL: none */
	struct e2e_dom_dec *dec;	/* per domain */
	struct e2e_who *gone;	/* per CPU: the task that left it last */
};

/*
 * The causes are kept for platforms of at most this many CPUs: each
 * decision's lines are held per (logging CPU, CPU) pair
 */
#define E2E_CAUSE_CPUS 64

static int clamp_opp(const struct pdomain *pd, unsigned int scale,
		     unsigned int cap);

/* Every domain's frequency and CPU's range at @t s, for step plots */
static void tl_state(struct e2e_pass *p, double t)
{
	const struct platform *pl = p->pl;

	for (int d = 0; d < pl->ndomains; d++)
		if (p->dom_opp[d] >= 0)
			fprintf(p->tl, "f %d %.6f %u\n", d, t,
				pl->domains[d].opps[p->dom_opp[d]].khz);
	for (int c = 0; c < pl->ncpus; c++) {
		const struct pdomain *pd = &pl->domains[pl->cpus[c].domain];
		unsigned int sc = pl->cpus[c].capacity;

		fprintf(p->tl, "b %d %.6f %u %u\n", c, t,
			pd->opps[clamp_opp(pd, sc, p->cmin[c])].khz,
			pd->opps[clamp_opp(pd, sc, p->cmax[c])].khz);
	}
}

static bool is_workload(const struct e2e_pass *p, const char *comm)
{
	for (int i = 0; i < p->ncomms; i++)
		if (!strcmp(p->comms[i], comm))
			return true;
	return false;
}

static struct e2e_pid *pid_find(const struct e2e_pass *p, int pid)
{
	return (struct e2e_pid *)sched_state_find(&p->ss, pid);
}

/* The task CPU @c runs, or NULL (idle, unknown) */
static struct e2e_pid *curr_of(const struct e2e_pass *p, int c)
{
	int i = p->ss.cpus[c].curr;

	return i >= 0 ? (struct e2e_pid *)p->ss.tasks[i] : NULL;
}

/* @e is queued on a CPU (@on) or no longer; queued stays sorted by seq */
static void set_queued(struct e2e_pass *p, struct e2e_pid *e, bool on)
{
	int lo = 0, hi = p->nqueued;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (p->queued[mid]->seq < e->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (on == (lo < p->nqueued && p->queued[lo] == e))
		return;
	if (on) {
		/* the tasks bound it: each once */
		p->queued = xrealloc(p->queued, (size_t)(p->nqueued + 1) *
				     sizeof(*p->queued));
		memmove(p->queued + lo + 1, p->queued + lo,
			(size_t)(p->nqueued - lo) * sizeof(*p->queued));
		p->queued[lo] = e;
		p->nqueued++;
	} else {
		memmove(p->queued + lo, p->queued + lo + 1,
			(size_t)(p->nqueued - lo - 1) * sizeof(*p->queued));
		p->nqueued--;
	}
}

static struct e2e_pid *pid_get(struct e2e_pass *p, int pid, const char *comm)
{
	struct e2e_pid *e;
	struct e2e_run *r = p->r;
	int i;

	e = (struct e2e_pid *)sched_state_task(&p->ss, pid, comm);
	if (!e)
		return NULL;
	if (e->seq < 0)
		e->seq = p->nseq++;
	if (!comm || e->task >= 0)
		return e;
	/*
	 * The first comm seen names it, a workload task or another; a task
	 * the runner forks is first seen as the runner and renamed after
	 */
	if (e->other >= 0 && !is_workload(p, comm))
		return e;
	if (is_workload(p, comm)) {
		for (i = 0; i < r->ntasks; i++)
			if (!strcmp(r->tasks[i].comm, comm))
				break;
		if (i == r->ntasks) {
			r->tasks = xrealloc(r->tasks, (size_t)(i + 1) *
					    sizeof(*r->tasks));
			memset(&r->tasks[i], 0, sizeof(r->tasks[i]));
			r->tasks[i].comm = xstrdup(comm);
			r->ntasks++;
		}
		e->task = i;
		e->other = -1;
	} else {
		for (i = 0; i < r->nothers; i++)
			if (!strcmp(r->others[i].comm, comm))
				break;
		if (i == r->nothers) {
			r->others = xrealloc(r->others, (size_t)(i + 1) *
					     sizeof(*r->others));
			memset(&r->others[i], 0, sizeof(r->others[i]));
			r->others[i].comm = xstrdup(comm);
			r->nothers++;
		}
		e->other = i;
	}
	return e;
}

/* schedutil's OPP for a clamp value: the lowest at or above fmax*cap/scale */
static int clamp_opp(const struct pdomain *pd, unsigned int scale,
		     unsigned int cap)
{
	unsigned long long raw;
	int i;

	if (cap >= scale)
		return pd->nopps - 1;
	raw = (unsigned long long)pd->opps[pd->nopps - 1].khz * cap / scale;
	for (i = 0; i < pd->nopps - 1 && pd->opps[i].khz < raw; i++)
		;
	return i;
}

/* The OPP a cpu_frequency or next frequency of @khz is */
static int khz_opp(const struct pdomain *pd, int64_t khz)
{
	int i;

	for (i = pd->nopps - 1; i > 0; i--)
		if ((int64_t)pd->opps[i].khz <= khz)
			break;
	return i;
}

static bool same_who(const struct e2e_who *a, const struct e2e_who *b)
{
	if (a->cpu != b->cpu || !a->comm != !b->comm)
		return false;
	return !a->comm || !strcmp(a->comm, b->comm);
}

/*
 * @dt from @from of a CPU busy above its capacity_max (OPP @cap_opp) in
 * domain @d:
 * charged to the decision that chose the frequency, when its range
 * allowed it
 */
static void charge(struct e2e_pass *p, int d, int cap_opp, uint64_t from,
		   uint64_t dt)
{
	const struct pdomain *pd = &p->pl->domains[d];
	const struct e2e_dec *dec = &p->dec[d].active;
	struct e2e_run *r = p->r;
	unsigned int scale = p->pl->cpus[pd->cpus[0]].capacity;
	int i;

	/*
	 * A decision with no CPU counted (lifter at CPU -1) is a cause: the
	 * RFC composes no range for an idle domain, and the frequency it
	 * chose holds until the next decision
	 */
	if (!dec->valid || (dec->lifter.cpu >= 0 &&
	    clamp_opp(pd, scale, dec->lift_max) <= cap_opp)) {
		enum e2e_gap g = !dec->valid ? dec->why : E2E_GAP_RANGE;

		r->unexplained_ns += dt;
		if (!r->gap_ns[g])
			r->gap_first[g] = from;
		r->gap_ns[g] += dt;
		return;
	}
	for (i = 0; i < r->ncauses; i++)
		if (same_who(&r->causes[i].lifter, &dec->lifter) &&
		    same_who(&r->causes[i].demand, &dec->demand))
			break;
	if (i == r->ncauses) {
		r->causes = xrealloc(r->causes, (size_t)(i + 1) *
				     sizeof(*r->causes));
		r->causes[i].lifter = dec->lifter;
		r->causes[i].demand = dec->demand;
		r->causes[i].ns = 0;
		r->ncauses++;
	}
	r->causes[i].ns += dt;
}

static void advance(struct e2e_pass *p, uint64_t to)
{
	const struct platform *pl = p->pl;
	struct e2e_run *r = p->r;
	uint64_t from = p->now, dt;
	int c, d, i;

	p->now = to;
	if (from < r->t0)
		from = r->t0;
	if (to > r->t1)
		to = r->t1;
	if (to <= from)
		return;
	dt = to - from;
	for (d = 0; d < pl->ndomains; d++) {
		const struct pdomain *pd = &pl->domains[d];
		unsigned int wl_max = 0;
		bool wl_any = false, lifted = false;

		freq_residency_add(&r->res[d], p->dom_opp[d], from - r->t0,
				   to - r->t0);
		for (i = 0; i < pd->ncpus; i++) {
			const struct opp *o;
			unsigned int scale;
			int cap_opp;

			c = pd->cpus[i];
			if (p->ss.cpus[c].curr < 0 || p->dom_opp[d] < 0)
				continue;
			o = &pd->opps[p->dom_opp[d]];
			scale = pl->cpus[c].capacity;
			r->busy_ns += dt;
			r->energy_mj += (double)o->power_mw * (double)dt / 1e9;
			cap_opp = clamp_opp(pd, scale, p->cmax[c]);
			if (p->dom_opp[d] > cap_opp) {
				r->above_ns += dt;
				if (p->dec)
					charge(p, d, cap_opp, from, dt);
			}
			if (p->dom_opp[d] < clamp_opp(pd, scale, p->cmin[c]))
				r->below_ns += dt;
		}
		/* who holds the domain's MAX of maxes up */
		for (i = 0; i < p->nqueued; i++) {
			const struct e2e_pid *e = p->queued[i];

			if (e->cpu < 0 || pl->cpus[e->cpu].domain != d ||
			    e->task < 0)
				continue;
			wl_any = true;
			if (e->max > wl_max)
				wl_max = e->max;
		}
		for (i = 0; i < p->nqueued; i++) {
			const struct e2e_pid *e = p->queued[i];

			if (e->cpu < 0 || pl->cpus[e->cpu].domain != d ||
			    e->other < 0)
				continue;
			r->others[e->other].runnable_ns += dt;
			if (wl_any && e->max > wl_max) {
				r->others[e->other].lift_ns += dt;
				lifted = true;
			}
		}
		if (lifted)
			r->lifted_ns += dt;
	}
	for (c = 0; c < pl->ncpus; c++) {
		const struct e2e_pid *e = curr_of(p, c);

		if (!e)
			continue;
		if (e->task >= 0) {
			struct e2e_task *t = &r->tasks[e->task];
			int d = pl->cpus[c].domain;

			t->run_ns += dt;
			if (d < E2E_MAX_DOMS)
				t->dom_run_ns[d] += dt;
		} else if (e->other >= 0) {
			r->others[e->other].run_ns += dt;
		}
	}
}

static int geti(const struct ftrace_event *ev, const char *k, int64_t *v)
{
	return ftrace_get_i64(ev, k, v);
}

/*
 * CPU @cpu's RUNNABLE task with the highest capacity_max (from the clamp
 * ops, the guest's), else the task running there, else the one that
 * left it last (a decision at a dequeue logs the leaving task's range:
 * the trace's dequeue line comes first)
 */
static struct e2e_who who_on(const struct e2e_pass *p, int cpu)
{
	struct e2e_who w = { .comm = NULL, .cpu = cpu };
	unsigned int best = 0;

	if (cpu < 0)
		return w;

	for (int i = 0; i < p->nqueued; i++) {
		const struct e2e_pid *e = p->queued[i];

		if (e->cpu != cpu || (w.comm && e->max <= best))
			continue;
		if (e->task >= 0)
			w.comm = p->r->tasks[e->task].comm;
		else if (e->other >= 0)
			w.comm = p->r->others[e->other].comm;
		else
			continue;
		best = e->max;
	}
	if (!w.comm && p->gone) {
		const struct e2e_pid *e = curr_of(p, cpu);

		if (e && e->task >= 0)
			w.comm = p->r->tasks[e->task].comm;
		else if (e && e->other >= 0)
			w.comm = p->r->others[e->other].comm;
		else
			w = p->gone[cpu];
	}
	return w;
}

/* @e left CPU @cpu (switched out or dequeued): it names the CPU next */
static void left(struct e2e_pass *p, const struct e2e_pid *e, int cpu)
{
	if (!p->gone || cpu < 0 || cpu >= p->pl->ncpus)
		return;
	if (e->task >= 0)
		p->gone[cpu].comm = p->r->tasks[e->task].comm;
	else if (e->other >= 0)
		p->gone[cpu].comm = p->r->others[e->other].comm;
}

static void on_cpu_line(struct e2e_pass *p, const struct ftrace_event *ev)
{
	struct sugov_line l;
	int cpu;

	if (p->lines && ev->cpu >= 0 && ev->cpu < p->pl->ncpus &&
	    sugov_line_parse(ev, p->pl->ncpus, &cpu, &l))
		p->lines[ev->cpu * p->pl->ncpus + cpu] = l;
}

/* What a CPU asks for: its utilization, or RT's floor while RT runs */
static unsigned long demand(const struct sugov_cpu_input *in)
{
	unsigned long u = in->util_cfs + in->util_rt + in->util_dl;

	return in->rt_runnable && in->rt_floor > u ? in->rt_floor : u;
}

/*
 * A decision logged on trace CPU @tcpu for CPU @caller's domain @d (a
 * remote update, such as a migration's, decides for @caller from
 * another CPU: @caller is the one that counts even when idle, as
 * level 2's replay has it): remember its causes
 */
static void on_decision(struct e2e_pass *p, int tcpu, int caller, int d,
			int opp)
{
	const struct pdomain *pd = &p->pl->domains[d];
	struct sugov_line *lines;
	struct e2e_dec dec = { .valid = true, .opp = opp };
	int i, lift = -1, dem = -1;

	if (!p->lines)
		return;
	lines = &p->lines[tcpu * p->pl->ncpus];
	for (i = 0; i < pd->ncpus; i++) {
		const struct sugov_line *l = &lines[pd->cpus[i]];

		if (!l->set) {
			dec.valid = false;
			dec.why = E2E_GAP_LINES;
			break;
		}
		if (sugov_line_counts(l, pd->cpus[i], caller) &&
		    (lift < 0 || l->in.clamp.max > lines[lift].in.clamp.max))
			lift = pd->cpus[i];
		if (dem < 0 || demand(&l->in) > demand(&lines[dem].in))
			dem = pd->cpus[i];
	}
	if (dec.valid) {
		dec.lift_max = lift < 0 ? 0 :
			       (unsigned int)lines[lift].in.clamp.max;
		dec.lifter = who_on(p, lift);
		dec.demand = who_on(p, dem);
	}
	for (i = 0; i < p->pl->ncpus; i++)
		lines[i].set = false;
	if (opp == p->dom_opp[d])
		p->dec[d].active = dec;
	else
		p->dec[d].pending = dec;
}

/* Domain @d's frequency changed to @opp: the decision that chose it */
static void applied(struct e2e_pass *p, int d, int opp)
{
	struct e2e_dom_dec *dd = p->dec ? &p->dec[d] : NULL;

	if (!dd)
		return;
	if (dd->pending.valid && dd->pending.opp == opp) {
		dd->active = dd->pending;
	} else {
		dd->active.valid = false;
		dd->active.why = E2E_GAP_UNCHOSEN;
	}
	dd->pending.valid = false;
}

/* A task the schedule met: not yet named by the pass */
static void on_task_new(void *arg, struct sched_task *st)
{
	struct e2e_pid *e = (struct e2e_pid *)st;

	(void)arg;
	e->seq = -1;
	e->cpu = -1;
	e->task = -1;
	e->other = -1;
}

/* Every event, after the schedule took it: the level's own figures */
static int on_event(void *arg, const struct ftrace_event *ev)
{
	struct e2e_pass *p = arg;
	const struct platform *pl = p->pl;
	struct e2e_run *r = p->r;
	bool in = ev->ts_ns >= r->t0 && ev->ts_ns <= r->t1;
	int64_t a, b, c;

	if (in && p->tl && !p->tl_started) {
		p->tl_started = true;
		tl_state(p, 0);
	}
	if (!strcmp(ev->name, "sched_switch")) {
		const char *nc = ftrace_get(ev, "next_comm");

		/* the schedule has CPU ev->cpu running next already */
		if (!geti(ev, "next_pid", &a))
			return 0;
		if (geti(ev, "prev_pid", &b) && b > 0 && pid_find(p, (int)b))
			left(p, pid_find(p, (int)b), ev->cpu);
		if (a > 0) {
			struct e2e_pid *e = pid_get(p, (int)a, nc);

			if (e && e->woken && in && e->task >= 0) {
				samples_add(&r->tasks[e->task].wlat,
					    (int64_t)(ev->ts_ns - e->woken_at));
				r->tasks[e->task].wakeups++;
			}
			if (e)
				e->woken = false;
		}
	} else if (!strcmp(ev->name, "sched_wakeup") ||
		   !strcmp(ev->name, "sched_wakeup_new")) {
		struct e2e_pid *e;

		if (!geti(ev, "pid", &a) || a <= 0)
			return 0;
		e = pid_get(p, (int)a, ftrace_get(ev, "comm"));
		if (!e)
			return 0;
		e->woken = true;
		e->woken_at = ev->ts_ns;
	} else if (!strcmp(ev->name, "cpu_frequency")) {
		int d, i;

		if (!geti(ev, "cpu_id", &a) || !geti(ev, "state", &b) ||
		    a < 0 || a >= pl->ncpus)
			return 0;
		d = pl->cpus[a].domain;
		i = khz_opp(&pl->domains[d], b);
		if (p->dom_opp[d] != i && in)
			r->freq_changes++;
		if (p->dom_opp[d] != i && in && p->tl)
			fprintf(p->tl, "f %d %.6f %u\n", d,
				(double)(ev->ts_ns - r->t0) / 1e9,
				pl->domains[d].opps[i].khz);
		if (p->dom_opp[d] != i)
			applied(p, d, i);
		p->dom_opp[d] = i;
	} else if (!strcmp(ev->name, "capsim_sugov")) {
		int d, i;

		if (!geti(ev, "caller", &a) || !geti(ev, "khz", &b) || a < 0 ||
		    a >= pl->ncpus)
			return 0;
		d = pl->cpus[a].domain;
		i = khz_opp(&pl->domains[d], b);
		/*
		 * A policy whose frequency never changed after tracing began
		 * has no cpu_frequency line; its decisions say where it is
		 * (the next frequency: applied at once, fast switch)
		 */
		if (p->dom_opp[d] < 0)
			p->dom_opp[d] = i;
		if (ev->cpu >= 0 && ev->cpu < pl->ncpus)
			on_decision(p, ev->cpu, (int)a, d, i);
	} else if (!strcmp(ev->name, "capsim_sugov_cpu")) {
		on_cpu_line(p, ev);
	} else if (!strcmp(ev->name, "cap_clamp_cpu")) {
		if (!geti(ev, "cpu", &a) || !geti(ev, "min", &b) ||
		    !geti(ev, "max", &c) || a < 0 || a >= pl->ncpus)
			return 0;
		p->cmin[a] = (unsigned int)b;
		p->cmax[a] = (unsigned int)c;
		if (in && p->tl) {
			const struct pdomain *pd =
				&pl->domains[pl->cpus[a].domain];
			unsigned int sc = pl->cpus[a].capacity;

			fprintf(p->tl, "b %d %.6f %u %u\n", (int)a,
				(double)(ev->ts_ns - r->t0) / 1e9,
				pd->opps[clamp_opp(pd, sc, p->cmin[a])].khz,
				pd->opps[clamp_opp(pd, sc, p->cmax[a])].khz);
		}
	} else if (!strcmp(ev->name, "cap_clamp_enqueue") ||
		   !strcmp(ev->name, "cap_clamp_dequeue")) {
		bool enq = ev->name[10] == 'e';
		struct e2e_pid *e;

		if (!geti(ev, "pid", &a) || !geti(ev, "cpu", &b) ||
		    !geti(ev, "max", &c) || b < 0 || b >= pl->ncpus)
			return 0;
		r->has_ops = true;
		e = pid_get(p, (int)a, ftrace_get(ev, "comm"));
		if (!e)		/* the idle task is never queued */
			return 0;
		e->cpu = enq ? (int)b : -1;
		set_queued(p, e, enq);
		if (!enq)
			left(p, e, (int)b);
		e->max = (unsigned int)c;
		if (enq && in && e->other >= 0)
			r->others[e->other].enqueues++;
	} else if (!strcmp(ev->name, "cap_clamp_update")) {
		struct e2e_pid *e;

		if (!geti(ev, "pid", &a) || !geti(ev, "max", &c))
			return 0;
		e = pid_get(p, (int)a, ftrace_get(ev, "comm"));
		if (e)
			e->max = (unsigned int)c;
	}
	return 0;
}

/* Open @trace (any format trace_reader.h reads), named @name in
 * messages: 0, or -1 (reported) */
static int open_trace(struct trace_reader *rd, const char *trace,
		      const char *name)
{
	memset(rd, 0, sizeof(*rd));
	if (trace_reader_open(rd, trace))
		return -1;
	rd->path = name;
	return 0;
}

/*
 * The window's start @t0: the first event of a workload task, or, with
 * @offset, that many ns after the trace's first event; @first is the
 * trace's first event
 */
static int find_start(const char *trace, const char *name,
		      char *const *comms, int ncomms, const uint64_t *offset,
		      uint64_t *t0, uint64_t *first)
{
	struct trace_reader rd;
	struct ftrace_event ev;
	bool any = false;
	int found = -1, r;

	if (open_trace(&rd, trace, name))
		return -1;
	while (found < 0 && (r = trace_reader_next(&rd, &ev)) > 0) {
		const char *n = ftrace_get(&ev, "next_comm");

		if (!any) {
			any = true;
			*first = ev.ts_ns;
			if (offset) {
				*t0 = ev.ts_ns + *offset;
				found = 0;
				break;
			}
		}
		if (!n)
			n = ftrace_get(&ev, "comm");
		for (int i = 0; i < ncomms && n; i++)
			if (!strcmp(n, comms[i]) ||
			    !strcmp(ev.comm, comms[i])) {
				*t0 = ev.ts_ns;
				found = 0;
				break;
			}
	}
	trace_reader_close(&rd);
	if (found && r >= 0)
		fprintf(stderr, "capsim: %s: no event of the workload's tasks\n",
			name);
	return found;
}

static int by_ns_desc(const void *a, const void *b)
{
	const struct e2e_cause *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

int e2e_scan(const char *trace, const struct platform *pl,
	     char *const *comms, int ncomms, uint64_t duration_ns,
	     struct e2e_run *r)
{
	return e2e_scan_timeline(trace, trace, pl, comms, ncomms, NULL,
				 duration_ns, NULL, r, NULL);
}

int e2e_scan_timeline(const char *trace, const char *name,
		      const struct platform *pl, char *const *comms,
		      int ncomms, const uint64_t *offset, uint64_t duration_ns,
		      const uint64_t *cut, struct e2e_run *r, FILE *tl)
{
	struct e2e_pass p = { .pl = pl, .r = r, .comms = comms,
			      .ncomms = ncomms, .tl = tl };
	struct trace_reader rd;
	struct ftrace_event ev;
	int d, c, ret = 0, k;

	memset(r, 0, sizeof(*r));
	if (find_start(trace, name, comms, ncomms, offset, &r->t0,
		       &r->first_ts))
		return -1;
	r->t1 = r->t0 + duration_ns;
	if (open_trace(&rd, trace, name))
		return -1;
	p.ss.ops = (struct sched_state_ops){
		.arg = &p,
		.task_size = sizeof(struct e2e_pid),
		.task_new = on_task_new,
		.event = on_event,
	};
	p.ss.cpu_limit = pl->ncpus;
	p.ss.platform = pl->name;
	p.ss.platform_ncpus = pl->ncpus;
	sched_state_init(&p.ss, &rd);
	sched_state_grow(&p.ss, pl->ncpus - 1);
	r->res = xcalloc((size_t)pl->ndomains, sizeof(*r->res));
	p.dom_opp = xmalloc((size_t)pl->ndomains * sizeof(int));
	for (d = 0; d < pl->ndomains; d++) {
		freq_residency_init(&r->res[d], pl->domains[d].nopps,
				    cut ? cut[d] : 0);
		p.dom_opp[d] = -1;
	}
	p.cmin = xcalloc((size_t)pl->ncpus, sizeof(unsigned int));
	p.cmax = xcalloc((size_t)pl->ncpus, sizeof(unsigned int));
	r->causes_kept = pl->ncpus <= E2E_CAUSE_CPUS;
	if (r->causes_kept) {
		p.lines = xcalloc((size_t)pl->ncpus * (size_t)pl->ncpus,
				  sizeof(*p.lines));
		p.dec = xcalloc((size_t)pl->ndomains, sizeof(*p.dec));
		p.gone = xcalloc((size_t)pl->ncpus, sizeof(*p.gone));
		for (c = 0; c < pl->ncpus; c++)
			p.gone[c].cpu = c;
	}
	for (c = 0; c < pl->ncpus; c++)
		p.cmax[c] = 1024;
	while ((k = trace_reader_next(&rd, &ev)) > 0) {
		if (ev.ts_ns > p.now)
			advance(&p, ev.ts_ns);
		if (ev.ts_ns > r->t1)
			break;
		if (sched_state_feed(&p.ss, &ev)) {
			ret = -1;
			break;
		}
	}
	if (k < 0)
		ret = -1;
	advance(&p, r->t1);
	if (tl)
		tl_state(&p, (double)duration_ns / 1e9);
	trace_reader_close(&rd);
	sched_state_free(&p.ss);
	free(p.dom_opp);
	free(p.cmin);
	free(p.cmax);
	free(p.queued);
	free(p.lines);
	free(p.dec);
	free(p.gone);
	if (r->ncauses)
		qsort(r->causes, (size_t)r->ncauses, sizeof(*r->causes),
		      by_ns_desc);
	return ret;
}

void e2e_free(struct e2e_run *r, const struct platform *pl)
{
	int i;

	for (i = 0; r->res && i < pl->ndomains; i++)
		freq_residency_free(&r->res[i]);
	free(r->res);
	for (i = 0; i < r->ntasks; i++) {
		free(r->tasks[i].comm);
		samples_free(&r->tasks[i].wlat);
	}
	free(r->tasks);
	for (i = 0; i < r->nothers; i++)
		free(r->others[i].comm);
	free(r->others);
	free(r->causes);
	memset(r, 0, sizeof(*r));
}

double e2e_tvd(const struct e2e_run *a, const struct e2e_run *b, int d,
	       double *known_s)
{
	double known, tvd = freq_residency_tvd(&a->res[d], &b->res[d], &known);

	if (known_s)
		*known_s = known;
	/* nothing both know: nothing agrees, the gate fails */
	return isnan(tvd) ? 1.0 : tvd;
}

uint64_t *e2e_unknown_ns(const struct e2e_run *r, const struct platform *pl)
{
	uint64_t *u = xcalloc((size_t)pl->ndomains, sizeof(uint64_t));

	for (int d = 0; d < pl->ndomains; d++)
		u[d] = r->res[d].unknown_ns;
	return u;
}

const char *e2e_gap_name(enum e2e_gap g)
{
	static const char *const names[E2E_GAPS] = {
		[E2E_GAP_UNCHOSEN] = "no decision chose the frequency",
		[E2E_GAP_LINES] = "its decision lacked a CPU's line",
		[E2E_GAP_RANGE] = "its decision's range was below it",
	};

	return g < E2E_GAPS ? names[g] : "?";
}

struct e2e_task *e2e_task(const struct e2e_run *r, const char *comm)
{
	for (int i = 0; i < r->ntasks; i++)
		if (!strcmp(r->tasks[i].comm, comm))
			return &r->tasks[i];
	return NULL;
}
