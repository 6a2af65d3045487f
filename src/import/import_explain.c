// SPDX-License-Identifier: GPL-2.0
/*
 * --explain: per task what the import inferred and why, in the words of
 * docs/import.md's rules, so a surprising workload can be traced back to
 * the trace.
 */
#include <math.h>
#include <string.h>

#include "import.h"
#include "escape.h"

static const char *kind_name(enum import_kind k)
{
	switch (k) {
	case IMPORT_PERIODIC: return "periodic";
	case IMPORT_RUNSLEEP: return "run then a regular sleep";
	case IMPORT_SEQUENCE: return "run/sleep sequence";
	case IMPORT_SUMMARY: return "summarized sequence";
	case IMPORT_SUSPENDED: return "suspended until resumed";
	case IMPORT_HOG: return "always running";
	case IMPORT_LOOP: return "a loop of several steps";
	}
	return "?";
}

static void explain_policy(const struct import_task *t, FILE *f)
{
	int p = t->st.prio;

	if (p >= 0 && p < 100)
		fprintf(f, "  policy: SCHED_FIFO priority %d (trace prio %d < 100 is RT: 99 - prio; SCHED_RR looks the same)\n",
			99 - p, p);
	else if (p >= 100 && p <= 139)
		fprintf(f, "  policy: SCHED_OTHER nice %d (trace prio %d: prio - 120)\n",
			p - 120, p);
	else
		fprintf(f, "  policy: SCHED_OTHER nice 0 (the trace gives no prio for it%s)\n",
			p < 0 ? "" : ", or one outside 0..139");
}

static void explain_cpus(const struct import_model *m,
			 const struct import_task *t, FILE *f)
{
	int c, n = 0;

	for (c = 0; c < m->ncpus; c++)
		n += !!(t->cpus_ran[c / 64] & (1ULL << (c % 64)));
	if (n != 1) {
		fprintf(f, "  cpus: %s: no affinity (only a task seen on a single CPU is pinned)\n",
			n ? "ran on several CPUs" : "never ran in the window");
		return;
	}
	for (c = 0; c < m->ncpus; c++)
		if (t->cpus_ran[c / 64] & (1ULL << (c % 64)))
			fprintf(f, "  cpus: ran only on CPU %d: pinned there (what it did, not a mask the trace shows)\n",
				c);
}

/* import_loop.c's finding: the loop and its steps, or why there is none */
/* A step whose wait is a barrier's (import_barrier.c) */
static void explain_barrier_wait(const struct import_model *m, int idx,
				 FILE *f)
{
	const struct import_barrier *b = &m->barriers[idx];

	fprintf(f, "barrier %s (%d users): woken in every pass by %s, the last to arrive, which ran on (wake-ups of a pass within %d us)",
		b->name, b->users, import_task(m, b->waker)->name,
		IMPORT_BARRIER_TOL_NS / 1000);
}

static void explain_loop(const struct import_model *m,
			 const struct import_task *t, FILE *f)
{
	const struct import_loop *lp = t->loop;
	int j;

	if (!lp) {
		if (t->loop_best_k)
			fprintf(f, "  loop: none: one step per activation spreads %.3f, and the closest of k = 2..%d steps, k = %d, %.3f (not under %.2f)\n",
				t->loop_flat_spread, IMPORT_LOOP_KMAX,
				t->loop_best_k, t->loop_best_spread,
				IMPORT_LOOP_TOL);
		return;
	}
	fprintf(f, "  loop: %d steps per loop, %d loops (activations %d..%d; %d before, %d after as measured steps): spread %.3f < %.2f, one step per activation %.3f\n",
		lp->k, lp->loops, lp->head, lp->head + lp->k * lp->loops - 1,
		lp->head, lp->tail, lp->spread, IMPORT_LOOP_TOL,
		lp->flat_spread);
	if (lp->aligned)
		fprintf(f, "    its first pass moved %d activation(s) later (they are measured steps): the users of its barriers begin their loops at one pass\n",
			lp->aligned);
	for (j = 0; j < lp->k; j++) {
		const struct import_step *s = &lp->steps[j];

		fprintf(f, "    step %d: run %.0f us, interval %.0f us (spread %.3f), ",
			j, s->run_us, s->interval_us, s->spread);
		if (t->waker >= 0)
			fputs("after a suspend its waker resumes", f);
		else if (s->barrier_wait >= 0)
			explain_barrier_wait(m, s->barrier_wait, f);
		else if (j + 1 == lp->k && lp->timer)
			fprintf(f, "timer of the loop period %.0f us (its CV %.3f; the sleep's %.3f)",
				lp->period_us, lp->period_cv, lp->last_sleep_cv);
		else
			fprintf(f, "sleep %.0f us", s->sleep_us);
		if (s->resume_frac >= 0)
			fprintf(f, ", resuming after %.0f %% of its run",
				s->resume_frac * 100);
		if (s->barrier_arrive >= 0)
			fprintf(f, ", arriving last at barrier %s after %.0f %% of its run (it wakes the %d others there and runs on)",
				m->barriers[s->barrier_arrive].name,
				s->barrier_frac * 100,
				m->barriers[s->barrier_arrive].users - 1);
		fputs("\n", f);
	}
}

/* import_runtime.c's answer: run (work) or runtime (wall time), and why */
static void explain_bound(const struct import_task *t, FILE *f)
{
	const struct import_bound_fit *b = &t->bound;

	fprintf(f, "  run or runtime: %d activations compared, %d of them >= %.0f %% off their step's or phase's speed (>= %d needed)",
		b->n, b->distinct, (exp(IMPORT_RT_SPEED) - 1) * 100,
		IMPORT_RT_MIN);
	if (!isnan(b->slope))
		fprintf(f, ", log wall time against log speed: slope %.3f (standard error %.3f, <= %.2f needed)",
			b->slope, b->se, IMPORT_RT_SE);
	switch (b->verdict) {
	case IMPORT_BOUND_NO_EVIDENCE:
		fputs(": run (work), no evidence\n", f);
		break;
	case IMPORT_BOUND_WALL:
		fprintf(f, ": runtime (wall time), within %.2f of 0: the bursts last as long whatever the speed\n",
			IMPORT_RT_TOL);
		break;
	case IMPORT_BOUND_WORK:
		fprintf(f, ": run (work), within %.2f of -1: the bursts shrink as the speed rises\n",
			IMPORT_RT_TOL);
		break;
	case IMPORT_BOUND_UNCLEAR:
		fprintf(f, ": run (work), unclear: not within %.2f of 0 (wall time) or -1 (work)\n",
			IMPORT_RT_TOL);
		break;
	}
}

/* A two-way pair (import_deps.c): how it starts */
static void explain_pair(const struct import_model *m,
			 const struct import_task *t, FILE *f)
{
	const char *other;

	if (t->partner < 0)
		return;
	other = import_task(m, t->partner)->name;
	fprintf(f, "  two-way with %s: each follows the other -> suspend, run, then resume the other at the end of the run\n",
		other);
	fprintf(f, "  pair start: without a suspend, its first %d activation(s) (to the first %s woke, at least one) as measured, then the resume: both start running, and the first resume lost leaves one token\n",
		t->start_acts, other);
}

/* A task's group, and the path the trace gave it if not one capsim takes
 * as it is (import_clamp.c) */
static void explain_group(const struct import_group *g, FILE *f)
{
	if (!g->path) {
		fputs("  group: enqueued in a group the trace never names (no cap_clamp_write): left out\n",
		      f);
		return;
	}
	fprintf(f, "  group: %s", g->path);
	if (g->renamed) {
		fputs(" (the trace's ", f);
		term_put(f, g->trace_path);
		fputs(", its bytes a group name does not take '_', its empty names dropped, or -ID added: another group had the path)",
		      f);
	}
	fputs("\n", f);
}

/* import_names.c's rule where it changed the comm: cut, shared, taken */
static void explain_name(const struct import_task *t, FILE *f)
{
	if (t->comm_cut)
		fprintf(f, "  comm: cut at the kernel's 15 bytes (TASK_COMM_LEN 16 with its NUL): %zu bytes dropped\n",
			t->comm_cut);
	if (t->name_shared > 1)
		fprintf(f, "  name: %s: %d tasks' comms give one name: COMM-PID\n",
			t->name, t->name_shared);
	else if (t->name_shared)
		fprintf(f, "  name: %s: a name like the background's bg_cpuN: COMM-PID\n",
			t->name);
	if (t->name_suffix > 1)
		fprintf(f, "  name: ... and COMM-PID is another task's name: -%d added\n",
			t->name_suffix);
}

static void explain_task(const struct import_model *m,
			 const struct import_task *t, FILE *f)
{
	double window = (double)(m->we - m->ws);
	int i;

	/* a comm is any bytes: none reaches the terminal as a control */
	fprintf(f, "%s: pid %d comm ", t->name, t->st.pid);
	term_put(f, t->st.comm);
	for (i = 1; i < t->st.ncomms; i++) {
		fputs(i == 1 ? " (also " : ", ", f);
		term_put(f, t->st.comms[i]);
	}
	fprintf(f, "%s: busy %.3f ms (%.2f %% of the window), %d activations\n",
		t->st.ncomms > 1 ? ")" : "", (double)t->busy_ns / 1e6,
		100.0 * (double)t->busy_ns / window, t->nacts);
	explain_name(t, f);
	if (t->folded) {
		fprintf(f, "  folded into the background: %s\n", t->fold_why);
		return;
	}
	explain_policy(t, f);
	explain_cpus(m, t, f);
	fprintf(f, "  work: %.0f us at capacity 1024 from %.0f us running",
		t->work / 1000.0, (double)t->busy_ns / 1000.0);
	if (t->unknown_khz_ns)
		fprintf(f, " (%.0f us before its CPU's first frequency event, counted at the CPU's full capacity)",
			(double)t->unknown_khz_ns / 1000.0);
	fputs("\n", f);
	if (t->pre_work >= 1000)
		fprintf(f, "  start: %.0f us of work before its first wake-up in the window (it was running or runnable)\n",
			t->pre_work / 1000.0);
	if (t->waker >= 0)
		fprintf(f, "  follows %s: the waker of >= %.0f %% of its wake-ups -> suspend \"%s\", resumed by it\n",
			import_task(m, t->waker)->name, IMPORT_DEP_SHARE * 100,
			t->name);
	explain_pair(m, t, f);
	for (i = 0; i < t->nresumes; i++)
		fprintf(f, "  resumes %s after %.0f %% of its run (%s)\n",
			import_task(m, t->resumes[i])->name,
			t->resume_frac * 100, t->partner >= 0 ?
			"at its end: a two-way pair" :
			"where it woke it in the trace");
	if (t->uclamp_samples)
		fprintf(f, "  uclamp: min %d, max %d: the lowest of its CPU's clamps over %ld lisa__uclamp_util_se while it ran%s\n",
			t->uclamp_min, t->uclamp_max, t->uclamp_samples,
			t->uclamp_min > 0 || t->uclamp_max < 1024 ?
			" (written as util_min/util_max)" :
			" (the defaults: nothing written)");
	if (t->group >= 0)
		explain_group(&m->groups[t->group], f);
	explain_bound(t, f);
	explain_loop(m, t, f);
	for (i = 0; t->nacts && i < t->nphases; i++) {
		const struct import_phase *p = &t->phases[i];

		fprintf(f, "  p%d: activations %d..%d: %s", i, p->first,
			p->first + p->n - 1, kind_name(p->kind));
		if (p->kind == IMPORT_LOOP) {
			fprintf(f, ", run %.0f us per loop, loop period %.0f us\n",
				p->run_us, p->period_us);
			continue;
		}
		if (p->kind == IMPORT_HOG) {
			fprintf(f, " (busy >= %.0f %% of its time, never slept)\n",
				IMPORT_HOG_SHARE * 100);
			continue;
		}
		fprintf(f, ", run %.0f us, interval %.0f us", p->run_us,
			p->period_us);
		if (p->cv < 1e9)
			fprintf(f, " (CV %.3f, %.0f %% within 10 %% of the median%s)",
				p->cv, p->near_share * 100,
				p->kind == IMPORT_PERIODIC ? ": timer" :
				p->kind == IMPORT_SUSPENDED ? "" :
				": not periodic");
		if (p->kind == IMPORT_RUNSLEEP)
			fprintf(f, ", sleep %.0f us (CV %.3f < 0.10)",
				p->sleep_us, p->sleep_cv);
		if (p->runs_vary && p->kind == IMPORT_PERIODIC)
			fprintf(f, ", runs varying (CV %.3f >= 0.10): each activation's own run under the timer",
				p->run_cv);
		else if (p->runs_vary)
			fprintf(f, ", sleep %.0f us (CV %.3f < 0.10) but runs varying (CV %.3f >= 0.10): the measured steps",
				p->sleep_us, p->sleep_cv, p->run_cv);
		if (p->kind == IMPORT_SUMMARY)
			fprintf(f, ", %d > %d steps: mean run and sleep %.0f us",
				p->n, IMPORT_SEQ_MAX, p->sleep_us);
		fputs("\n", f);
	}
}

void import_explain(const struct import_model *m, FILE *f)
{
	double window = (double)(m->we - m->ws);
	int i, c, nf = 0;

	for (i = 0; i < m->ss.ntasks; i++) {
		const struct import_task *t = import_task(m, i);

		nf += t->folded;
		explain_task(m, t, f);
	}
	for (i = 0; i < m->ngroups; i++) {
		const struct import_group *g = &m->groups[i];

		if (!g->renamed)
			continue;
		fprintf(f, "group %s: the trace's ", g->path);
		term_put(f, g->trace_path);
		fputs(" made one capsim takes (import_clamp.c: bytes a group name does not take '_', empty names dropped, -ID where another group had the path)\n",
		      f);
	}
	for (c = 0; c < m->ncpus; c++) {
		double run = m->bg_work[c] * IMPORT_BG_PERIOD_US / window;

		if (run >= 1.0)
			fprintf(f, "bg_cpu%d: %.0f us of work every %d us on CPU %d: the %d folded tasks' work there over the window\n",
				c, run, IMPORT_BG_PERIOD_US, c, nf);
	}
}
