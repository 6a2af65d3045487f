// SPDX-License-Identifier: GPL-2.0
/*
 * The imported workload as rt-app JSON, which rt-app itself reads: every
 * number an integer (rt-app's parser takes ints), capsim's own keys only
 * under "capsim" (which rt-app ignores), the header a C comment (json-c
 * and capsim's pre-pass both skip comments) naming the source trace, the
 * window and the rules. Written to a temporary file next to the output
 * and renamed into place, so an error or a signal leaves nothing behind.
 */
/* POSIX only: <sys/stat.h> must not see kcompat's linux/ */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"
#include "escape.h"
#include "jsondoc.h"
#include "safe_write.h"
#include "util.h"

/* An integer count of µs of at least @min */
static long long us(double x, long long min)
{
	long long v = llround(x);

	return v < min ? min : v;
}

/* @s as a JSON string, valid UTF-8 whatever its bytes */
static void put_str(struct strbuf *sb, const char *s)
{
	json_put_str(sb, s);
}

/* @s inside the header comment: no "*" followed by "/", no control,
 * valid UTF-8 (each byte that is none '?') */
static void put_comment(struct strbuf *sb, const char *s)
{
	size_t n;

	for (; *s; s += n) {
		unsigned char c = (unsigned char)*s;

		n = utf8_seq_len(s);
		if (!n || c < 0x20 || c == 0x7f || (c == '*' && s[1] == '/') ||
		    (c == 0xc2 && (unsigned char)s[1] < 0xa0)) {
			sb_putc(sb, '?');
			n = 1;
		} else {
			sb_putn(sb, s, n);
		}
	}
}

/* The keys of one phase: rt-app matches events by prefix, so each kind
 * is numbered in order (run0, run1, ...) */
struct keys {
	struct strbuf *sb;
	int run, sleep, resume, suspend, barrier, n;
};

static void key(struct keys *k, const char *kind, int *count)
{
	sb_printf(k->sb, "%s\"%s%d\": ", k->n++ ? ", " : "", kind, (*count)++);
}

/* What @t's bursts are written as: `run` (work), or `runtime` (wall
 * time) when import_runtime.c found them to keep their wall time */
static const char *run_key(const struct import_task *t)
{
	return t->bound.verdict == IMPORT_BOUND_WALL ? "runtime" : "run";
}

/* @work_us of run, with @t's resumes after @frac of it (< 0: none) */
static void put_run_resuming(struct keys *k, const struct import_model *m,
			     const struct import_task *t, double work_us,
			     double frac)
{
	bool resumes = t->nresumes && frac >= 0;
	double before = resumes ? work_us * frac : work_us;
	int i;

	if (before >= 1 || !resumes) {
		key(k, run_key(t), &k->run);
		sb_printf(k->sb, "%lld", us(before, 1));
	}
	for (i = 0; resumes && i < t->nresumes; i++) {
		key(k, "resume", &k->resume);
		put_str(k->sb, import_task(m, t->resumes[i])->name);
	}
	if (resumes && work_us - before >= 1) {
		key(k, run_key(t), &k->run);
		sb_printf(k->sb, "%lld", us(work_us - before, 1));
	}
}

/* @work_us of run, with @t's resumes at its share of it */
static void put_run(struct keys *k, const struct import_model *m,
		    const struct import_task *t, double work_us)
{
	put_run_resuming(k, m, t, work_us, t->nresumes ? t->resume_frac : -1);
}

static void put_sleep(struct keys *k, double sleep_us)
{
	key(k, "sleep", &k->sleep);
	sb_printf(k->sb, "%lld", us(sleep_us, 1));
}

/* The loops of phase @p left once a two-way pair's start has taken its
 * first activations (put_pair_start()) */
static int loops_after_start(const struct import_task *t,
			     const struct import_phase *p)
{
	int taken = t->start_acts - p->first;

	if (taken <= 0)
		return p->loops;
	return taken >= p->n ? 0 : p->loops - taken;
}

/* The mean run of phase @p's activations left once a two-way pair's
 * start has taken its first ones: p->run_us is the mean over all of
 * them, and the start already wrote its own runs one by one */
static double run_after_start(const struct import_task *t,
			      const struct import_phase *p)
{
	int taken = t->start_acts - p->first, i;
	double w = 0;

	if (taken <= 0)
		return p->run_us;
	if (taken >= p->n)
		return 0;
	for (i = p->first + taken; i < p->first + p->n; i++)
		w += t->acts[i].work;
	return w / (p->n - taken) / 1000.0;
}

/* @t's own timer (its name the ref), of @period_us */
static void put_timer(struct keys *k, const struct import_task *t,
		      double period_us)
{
	sb_puts(k->sb, ", \"timer\": { \"ref\": ");
	put_str(k->sb, t->name);
	sb_printf(k->sb, ", \"period\": %lld }", us(period_us, 1));
}

static void put_phase(struct strbuf *sb, const struct import_model *m,
		      const struct import_task *t,
		      const struct import_phase *p)
{
	struct keys k = { .sb = sb };

	switch (p->kind) {
	case IMPORT_PERIODIC:
		sb_printf(sb, "\"loop\": %d", p->loops);
		k.n = 1;
		put_run(&k, m, t, p->run_us);
		put_timer(&k, t, p->period_us);
		break;
	case IMPORT_RUNSLEEP:
	case IMPORT_SUMMARY:
		sb_printf(sb, "\"loop\": %d", p->loops);
		k.n = 1;
		put_run(&k, m, t, p->run_us);
		put_sleep(&k, p->sleep_us);
		break;
	case IMPORT_SUSPENDED:
		sb_printf(sb, "\"loop\": %d, \"suspend\": ",
			  loops_after_start(t, p));
		put_str(sb, t->name);
		k.n = 1;
		put_run(&k, m, t, run_after_start(t, p));
		break;
	case IMPORT_SEQUENCE:	/* put_steps() */
	case IMPORT_LOOP:	/* put_loop() */
	case IMPORT_HOG:
		break;
	}
}

/* A follower's wait for its waker's resume */
static void put_suspend(struct keys *k, const struct import_task *t)
{
	key(k, "suspend", &k->suspend);
	put_str(k->sb, t->name);
}

/* Activations [from, to) of @t as one rt-app phase @name (one pass: one
 * activation), each its run and the sleep to the next wake-up (a
 * follower's: the suspend before it, then its run) */
static void put_acts(struct strbuf *sb, const struct import_model *m,
		     const struct import_task *t, const char *name, int from,
		     int to, bool *first)
{
	struct keys k = { .sb = sb, .n = 1 };
	int i;

	if (from >= to)
		return;
	sb_printf(sb, "%s\n        \"%s\": { \"loop\": 1", *first ? "" : ",",
		  name);
	*first = false;
	for (i = from; i < to; i++) {
		if (t->waker >= 0)
			put_suspend(&k, t);
		put_run(&k, m, t, t->acts[i].work / 1000.0);
		if (i + 1 < t->nacts && t->waker < 0)
			put_sleep(&k, import_sleep_us(t, i));
	}
	sb_puts(sb, " }");
}

static void put_barrier(struct keys *k, const struct import_model *m,
			int idx)
{
	key(k, "barrier", &k->barrier);
	put_str(k->sb, m->barriers[idx].name);
}

/* A loop step's run, with its arrival at a barrier (import_barrier.c)
 * after its share of it, or its resumes */
static void put_step_run(struct keys *k, const struct import_model *m,
			 const struct import_task *t,
			 const struct import_step *s)
{
	double before = s->run_us * s->barrier_frac;

	if (s->barrier_arrive < 0) {
		put_run_resuming(k, m, t, s->run_us, s->resume_frac);
		return;
	}
	if (before >= 1)
		put_run_resuming(k, m, t, before, -1);
	put_barrier(k, m, s->barrier_arrive);
	if (s->run_us - before >= 1)
		put_run_resuming(k, m, t, s->run_us - before, -1);
}

/* A loop of k steps (import_loop.c): the head's measured steps, the
 * loop, the tail's; each step its mean run and sleep, the last a timer
 * of the loop period when that, not its sleep, is regular, a wait
 * import_barrier.c found a barrier's that barrier; a follower's each a
 * suspend and its run */
static void put_loop(struct strbuf *sb, const struct import_model *m,
		     const struct import_task *t, bool first)
{
	const struct import_loop *lp = t->loop;
	struct keys k = { .sb = sb, .n = 1 };
	int j;

	put_acts(sb, m, t, "head", 0, lp->head, &first);
	sb_printf(sb, "%s\n        \"p0\": { \"loop\": %d", first ? "" : ",",
		  lp->loops);
	first = false;
	for (j = 0; j < lp->k; j++) {
		const struct import_step *s = &lp->steps[j];

		if (t->waker >= 0) {
			put_suspend(&k, t);
			put_run_resuming(&k, m, t, s->run_us, s->resume_frac);
			continue;
		}
		put_step_run(&k, m, t, s);
		if (s->barrier_wait >= 0) {
			put_barrier(&k, m, s->barrier_wait);
			continue;
		}
		if (j + 1 < lp->k || !lp->timer) {
			put_sleep(&k, s->sleep_us);
			continue;
		}
		put_timer(&k, t, lp->period_us);
	}
	sb_puts(sb, " }");
	put_acts(sb, m, t, "tail", lp->head + lp->k * lp->loops, t->nacts,
		 &first);
}

/* A sequence phase, or a periodic one whose runs vary: one rt-app phase
 * per activation, "pI_J", its run, then the sleep to the next wake-up
 * or (periodic) the task's timer */
static void put_steps(struct strbuf *sb, const struct import_model *m,
		      const struct import_task *t, int pi)
{
	const struct import_phase *p = &t->phases[pi];
	int i;

	for (i = p->first; i < p->first + p->n; i++) {
		struct keys k = { .sb = sb, .n = 1 };

		sb_printf(sb, "%s\n        \"p%d_%d\": { \"loop\": 1",
			  i > p->first ? "," : "", pi, i - p->first);
		put_run(&k, m, t, t->acts[i].work / 1000.0);
		if (p->kind == IMPORT_PERIODIC)
			put_timer(&k, t, p->period_us);
		else if (i + 1 < t->nacts)
			put_sleep(&k, import_sleep_us(t, i));
		sb_puts(sb, " }");
	}
}

static const char *policy_of(const struct import_task *t, int *prio)
{
	if (t->st.prio >= 0 && t->st.prio < 100) {
		*prio = 99 - t->st.prio;
		return "SCHED_FIFO";
	}
	*prio = t->st.prio >= 100 && t->st.prio <= 139 ? t->st.prio - 120 : 0;
	return "SCHED_OTHER";
}

/* The CPUs @t ran on, when a strict subset of the platform's */
static void put_cpus(struct strbuf *sb, const struct import_model *m,
		     const struct import_task *t)
{
	int c, n = 0, all = 0;

	for (c = 0; c < m->ncpus; c++)
		all += !!(t->cpus_ran[c / 64] & (1ULL << (c % 64)));
	if (all != 1)
		return;
	sb_puts(sb, ", \"cpus\": [");
	for (c = 0; c < m->ncpus; c++)
		if (t->cpus_ran[c / 64] & (1ULL << (c % 64)))
			sb_printf(sb, "%s%d", n++ ? ", " : "", c);
	sb_putc(sb, ']');
}

/* Whether @t's phases open with a `start` phase: its work before its
 * first wake-up, or a task of a two-way pair's first activations */
static bool has_start(const struct import_task *t)
{
	return t->start_acts >= 0 || t->pre_work >= 1000 || !t->nacts;
}

/* A two-way pair's task starts without a suspend (import_deps.c): its
 * work before its first wake-up and a sleep to it (or that sleep alone),
 * then its first start_acts activations measured, each run and the
 * sleep to the next, the last run followed by the resume of its partner
 * (and its other dependants) */
static void put_pair_start(struct strbuf *sb, const struct import_model *m,
			   const struct import_task *t, double start_us)
{
	struct keys k = { .sb = sb, .n = 1 };
	double pre_us = t->pre_work / 1000.0;
	int i, j = t->start_acts;

	sb_puts(sb, ",\n      \"loop\": 1, \"phases\": {\n        \"start\": { \"loop\": 1");
	if (t->pre_work >= 1000) {
		key(&k, run_key(t), &k.run);
		sb_printf(sb, "%lld", us(pre_us, 1));
		put_sleep(&k, start_us - pre_us);
	} else if (start_us >= 1) {
		put_sleep(&k, start_us);
	}
	for (i = 0; i + 1 < j; i++) {
		key(&k, run_key(t), &k.run);
		sb_printf(sb, "%lld", us(t->acts[i].work / 1000.0, 1));
		put_sleep(&k, import_sleep_us(t, i));
	}
	put_run_resuming(&k, m, t, t->acts[j - 1].work / 1000.0, 1.0);
	sb_puts(sb, " }");
}

static void put_task(struct strbuf *sb, const struct import_model *m,
		     const struct import_task *t, bool *first)
{
	double start_us = t->nacts ? (double)(t->acts[0].wake - m->ws) / 1000.0
				   : 0;
	const char *pol;
	int prio, i;
	bool start;

	pol = policy_of(t, &prio);
	sb_printf(sb, "%s\n    ", *first ? "" : ",");
	*first = false;
	put_str(sb, t->name);
	sb_printf(sb, ": {\n      \"policy\": \"%s\"", pol);
	if (prio)
		sb_printf(sb, ", \"priority\": %d", prio);
	put_cpus(sb, m, t);
	if (t->group >= 0 && m->groups[t->group].path &&
	    strcmp(m->groups[t->group].path, "/")) {
		sb_puts(sb, ", \"taskgroup\": ");
		put_str(sb, m->groups[t->group].path);
	}
	/* rt-app's own keys; the defaults (0, 1024) go unsaid */
	if (t->uclamp_samples && t->uclamp_min > 0)
		sb_printf(sb, ", \"util_min\": %d", t->uclamp_min);
	if (t->uclamp_samples && t->uclamp_max < 1024)
		sb_printf(sb, ", \"util_max\": %d", t->uclamp_max);
	if (t->phases[0].kind == IMPORT_HOG) {
		/* from when it appeared (a task forked inside the window) */
		if (t->first_seen >= m->ws + 1000)
			sb_printf(sb, ", \"delay\": %lld",
				  us((double)(t->first_seen - m->ws) / 1000.0, 0));
		sb_puts(sb, ",\n      \"loop\": -1, \"run\": 100000\n    }");
		return;
	}
	/* work it did before its first wake-up in the window (it ran or
	 * waited to run at the window's start) comes first; else a delay */
	start = has_start(t);
	if (t->start_acts >= 0) {
		put_pair_start(sb, m, t, start_us);
	} else if (start) {
		double delay_us = 0;

		/* a task forked inside the window does its first work from
		 * when it appeared, not from the window's start (a follower
		 * keeps no delay, as below) */
		if (t->first_seen >= m->ws + 1000 && t->waker < 0) {
			delay_us = (double)(t->first_seen - m->ws) / 1000.0;
			sb_printf(sb, ", \"delay\": %lld", us(delay_us, 0));
		}
		sb_printf(sb, ",\n      \"loop\": 1, \"phases\": {\n        \"start\": { \"loop\": 1, \"%s\": %lld",
			  run_key(t), us(t->pre_work / 1000.0, 1));
		if (t->nacts)
			sb_printf(sb, ", \"sleep\": %lld",
				  us(start_us - delay_us - t->pre_work / 1000.0,
				     1));
		sb_puts(sb, " }");
	} else {
		/* a follower waits in suspend from the start: a delay could
		 * make it miss its waker's first resume */
		if (start_us >= 1 && t->waker < 0)
			sb_printf(sb, ", \"delay\": %lld", us(start_us, 0));
		sb_puts(sb, ",\n      \"loop\": 1, \"phases\": {");
	}
	for (i = 0; t->nacts && i < t->nphases; i++) {
		if (t->phases[i].kind == IMPORT_LOOP) {
			put_loop(sb, m, t, i == 0 && !start);
			continue;
		}
		if (t->start_acts >= 0 && !loops_after_start(t, &t->phases[i]))
			continue;	/* all in a pair's start */
		if (i || start)
			sb_putc(sb, ',');
		if (t->phases[i].kind == IMPORT_SEQUENCE ||
		    t->phases[i].runs_vary) {
			put_steps(sb, m, t, i);
			continue;
		}
		sb_printf(sb, "\n        \"p%d\": { ", i);
		put_phase(sb, m, t, &t->phases[i]);
		sb_puts(sb, " }");
	}
	sb_puts(sb, "\n      }\n    }");
}

static void put_background(struct strbuf *sb, const struct import_model *m,
			   bool *first)
{
	double window = (double)(m->we - m->ws);
	int c;

	for (c = 0; c < m->ncpus; c++) {
		double run = m->bg_work[c] * IMPORT_BG_PERIOD_US / window;

		if (run < 1.0)
			continue;
		sb_printf(sb, "%s\n    \"bg_cpu%d\": {\n      \"policy\": \"SCHED_OTHER\", \"cpus\": [%d],\n      \"run\": %lld, \"timer\": { \"ref\": \"bg_cpu%d\", \"period\": %d }\n    }",
			  *first ? "" : ",", c, c, us(run, 1), c,
			  IMPORT_BG_PERIOD_US);
		*first = false;
	}
}

static void put_groups(struct strbuf *sb, const struct import_model *m)
{
	int i, j, n = 0, ne = 0;

	for (i = 0; i < m->ngroups; i++) {
		const struct import_group *g = &m->groups[i];

		if (!g->path || !strcmp(g->path, "/") ||
		    (g->min < 0 && !g->nwrites))
			continue;
		sb_printf(sb, "%s\n      ", n++ ? "," : ",\n    \"taskgroups\": {");
		put_str(sb, g->path);
		/* first written inside the window: declared for its events,
		 * with its parent's range as a new group starts */
		if (g->min < 0)
			sb_puts(sb, ": {}");
		else
			sb_printf(sb, ": { \"capacity_min\": %d, \"capacity_max\": %d }",
				  g->min, g->max);
	}
	if (n)
		sb_puts(sb, "\n    }");
	for (i = 0; i < m->ngroups; i++) {
		const struct import_group *g = &m->groups[i];

		for (j = 0; g->path && j < g->nwrites; j++) {
			sb_printf(sb, "%s\n      { \"at_ms\": %llu, \"group\": ",
				  ne++ ? "," : ",\n    \"events\": [",
				  (unsigned long long)(g->writes[j].at / 1000000));
			put_str(sb, g->path);
			sb_printf(sb, ", \"%s\": %d }",
				  g->writes[j].max ? "capacity_max" :
				  "capacity_min", g->writes[j].value);
		}
	}
	if (ne)
		sb_puts(sb, "\n    ]");
}

/* The workload into @sb: true, or false when it has no task (rt-app and
 * capsim refuse an empty "tasks") */
static bool build(struct strbuf *sb, const struct import_model *m)
{
	const struct import_opts *o = m->o;
	double w0 = (double)(m->ws - m->t0) / 1e9,
	       w1 = (double)(m->we - m->t0) / 1e9;
	bool first = true;
	int i;

	sb_puts(sb, "/* capsim import of ");
	put_comment(sb, o->trace);
	sb_printf(sb, "\n * window: %.6f s to %.6f s from the trace's first event (%.6f s long)\n",
		  w0, w1, w1 - w0);
	sb_puts(sb, " * platform: ");
	put_comment(sb, m->pl->name);
	sb_printf(sb, " (run is work at capacity 1024, normalised from the observed frequency and CPU capacity)\n"
		  " * rules (docs/import.md): periodic = wake-up intervals' CV < %.2f (or 90 %% within 10 %% of the median) over >= %d, runs varying (CV >= %.2f) kept one by one up to %d activations a phase; change point = a block of %d activations whose mean interval moves > %.0f %% or duty > %.0f %%;\n"
		  " *   k = 2..%d wake-ups repeating per pass (each step's run and interval spread < %.0f %% over >= %d passes, one step's not) -> one loop of k steps;\n"
		  " *   a loop step's wait ended every pass by one loop task that runs on (the wake-ups of a pass within %d us) -> barrier, the users' passes aligned;\n"
		  " *   sequences over %d activations summarized as mean run/sleep; a waker of >= %.0f %% of the wake-ups -> resume/suspend (two tasks waking each other: both ways);\n"
		  " *   runtime (wall time) where log wall time against log speed has a slope within %.2f of 0 (>= %d activations >= %.0f %% off their step's speed, its standard error <= %.2f);\n"
		  " *   kernel threads and tasks busy < %g %% of the window fold into bg_cpuN (per-CPU load every %d us)\n"
		  " * run it for the window: capsim run THIS --duration %.6f\n */\n",
		  IMPORT_PERIODIC_CV, IMPORT_PERIODIC_MIN, IMPORT_PERIODIC_CV,
		  IMPORT_STEPS_MAX, IMPORT_CP_BLOCK,
		  IMPORT_CP_PERIOD * 100, IMPORT_CP_DUTY * 100,
		  IMPORT_LOOP_KMAX, IMPORT_LOOP_TOL * 100, IMPORT_LOOP_MIN,
		  IMPORT_BARRIER_TOL_NS / 1000, IMPORT_SEQ_MAX,
		  IMPORT_DEP_SHARE * 100, IMPORT_RT_TOL, IMPORT_RT_MIN,
		  (exp(IMPORT_RT_SPEED) - 1) * 100, IMPORT_RT_SE, o->min_busy_pct, IMPORT_BG_PERIOD_US,
		  w1 - w0);
	/* rt-app takes whole seconds: the window's, rounded up */
	sb_printf(sb, "{\n  \"global\": { \"duration\": %d, \"default_policy\": \"SCHED_OTHER\" },\n  \"capsim\": {\n    \"platform\": ",
		  (int)ceil(w1 - w0 > 0 ? w1 - w0 : 1));
	put_str(sb, o->platform_ref ? o->platform_ref : m->pl->name);
	put_groups(sb, m);
	sb_puts(sb, "\n  },\n  \"tasks\": {");
	for (i = 0; i < m->ss.ntasks && sb->len <= JDOC_MAX_BYTES; i++) {
		const struct import_task *t = import_task(m, i);

		if (!t->folded)
			put_task(sb, m, t, &first);
	}
	put_background(sb, m, &first);
	sb_puts(sb, "\n  }\n}\n");
	return !first;
}

int import_write_rtapp(const struct import_model *m)
{
	struct strbuf sb;
	FILE *f;
	int ret = 1;

	sb_init(&sb);
	if (!build(&sb, m)) {
		/* every task folded, and the background under 1 us a period
		 * on every CPU (a trace that runs nothing in the window) */
		fprintf(stderr, "%s: error: no task to import: none of the window's %d tasks is busy %g %% of it or more, and together they run under 1 us every %d us on each CPU: widen --window, lower --min-busy or widen --tasks\n",
			m->o->trace, m->ss.ntasks, m->o->min_busy_pct,
			IMPORT_BG_PERIOD_US);
		sb_free(&sb);
		return 2;
	}
	if (sb.len > JDOC_MAX_BYTES) {
		/* capsim reads no larger input (src/input/jsondoc.h): built
		 * no further than that */
		fprintf(stderr, "%s: error: the workload would be larger than capsim reads (%u MiB): import fewer tasks as their own (--tasks, a higher --min-busy, a shorter --window)\n",
			m->o->trace, JDOC_MAX_BYTES >> 20);
		sb_free(&sb);
		return 2;
	}
	/* checked before anything is written: a workload capsim would
	 * refuse never reaches -o */
	if (!m->o->unchecked &&
	    !import_validate(sb.buf, sb.len, m->o->out, m->o->trace)) {
		sb_free(&sb);
		return 2;
	}
	/* a temporary beside -o, renamed onto it (src/outputs/safe_write.h) */
	f = safe_fopen(m->o->out);
	if (!f) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", m->o->out,
			strerror(errno));
		goto out;
	}
	if (fwrite(sb.buf, 1, sb.len, f) != sb.len) {
		safe_fdiscard(f);
		fprintf(stderr, "capsim: cannot write %s: %s\n", m->o->out,
			strerror(errno));
		goto out;
	}
	if (safe_fclose(f)) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", m->o->out,
			strerror(errno));
		goto out;
	}
	ret = 0;
out:
	sb_free(&sb);
	return ret;
}
