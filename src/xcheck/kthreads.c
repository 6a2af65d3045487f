// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diag.h"
#include "jsondoc.h"
#include "kthreads.h"
#include "safe_write.h"
#include "sched_state.h"
#include "trace_reader.h"
#include "util.h"

/* A task of the guest's schedule, and what the model takes of it */
struct kt_pid {
	struct sched_task st;	/* first: the schedule's task */
	bool asleep;		/* its next run is an activation */
	long activations;
	uint64_t run_ns;
};

struct kt_pass {
	uint64_t t0, t1;
	uint64_t now;		/* the event being fed */
};

static bool in_window(const struct kt_pass *p)
{
	return p->now >= p->t0 && p->now < p->t1;
}

/* A task first seen is taken asleep, as the schedule takes it */
static void on_task_new(void *arg, struct sched_task *st)
{
	(void)arg;
	((struct kt_pid *)st)->asleep = true;
}

/*
 * An activation is a task leaving sleep: its sched_wakeup(_new), or,
 * where the trace has none, its switch-in after it slept (a wake-up of
 * a task still running is none; a preempted task only waits). The
 * clamp ops counted enqueues, which also counted each migration.
 */
static void activate(struct kt_pass *p, struct kt_pid *e)
{
	if (e->asleep && in_window(p))
		e->activations++;
	e->asleep = false;
}

static void on_wakeup(void *arg, struct sched_task *st, int waker,
		      int target_cpu, bool waking)
{
	(void)waker;
	(void)target_cpu;
	if (!waking)
		activate(arg, (struct kt_pid *)st);
}

static void on_switched(void *arg, int cpu, struct sched_task *prev,
			const char *prev_state, struct sched_task *next)
{
	(void)cpu;
	/* the schedule's reading of prev_state: R is preempted, the rest
	 * (and none said) left the CPU to sleep or die */
	if (prev)
		((struct kt_pid *)prev)->asleep =
			!(prev_state && prev_state[0] == 'R');
	if (next)
		activate(arg, (struct kt_pid *)next);
}

static void on_interval(void *arg, const struct sched_task *st, uint64_t t0,
			uint64_t t1, enum sched_task_state state, int cpu)
{
	const struct kt_pass *p = arg;

	(void)cpu;
	if (state != SCHED_RUNNING)
		return;
	if (t0 < p->t0)
		t0 = p->t0;
	if (t1 > p->t1)
		t1 = p->t1;
	if (t1 > t0)
		((struct kt_pid *)st)->run_ns += t1 - t0;
}

static bool named_in(const struct sched_task *st, char *const *comms,
		     int ncomms)
{
	for (int k = 0; k < st->ncomms; k++)
		for (int i = 0; i < ncomms; i++)
			if (!strcmp(st->comms[k], comms[i]))
				return true;
	return false;
}

/*
 * @e's figures added to its name's entry in @k. The name is its last:
 * a process is first seen as its parent's (the runner's pid is "sh"
 * until it execs capsim-run); a kernel thread keeps its one name.
 */
static void add_task(struct kthreads *k, const struct kt_pid *e)
{
	const char *comm = e->st.ncomms ? e->st.comms[e->st.ncomms - 1] :
			   e->st.comm;
	int i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->tasks[i].comm, comm))
			break;
	if (i == k->n) {
		k->tasks = xrealloc(k->tasks, (size_t)(i + 1) *
				    sizeof(*k->tasks));
		k->tasks[i] = (struct kthread){ .comm = xstrdup(comm) };
		k->n++;
	}
	k->tasks[i].activations += e->activations;
	k->tasks[i].run_ns += e->run_ns;
}

int kthreads_scan(const char *trace, const char *name,
		  const struct platform *pl, char *const *comms, int ncomms,
		  uint64_t t0, uint64_t t1, struct kthreads *k)
{
	struct kt_pass p = { .t0 = t0, .t1 = t1 };
	struct sched_state ss = { 0 };
	struct trace_reader rd = { 0 };
	struct ftrace_event ev;
	uint64_t end = 0;
	int r, ret = 0;

	memset(k, 0, sizeof(*k));
	if (trace_reader_open(&rd, trace))
		return -1;
	rd.path = name;
	ss.ops = (struct sched_state_ops){
		.arg = &p,
		.task_size = sizeof(struct kt_pid),
		.task_new = on_task_new,
		.wakeup = on_wakeup,
		.switched = on_switched,
		.interval = on_interval,
	};
	ss.cpu_limit = pl->ncpus;
	ss.platform = pl->name;
	ss.platform_ncpus = pl->ncpus;
	sched_state_init(&ss, &rd);
	sched_state_grow(&ss, pl->ncpus - 1);
	while ((r = trace_reader_next(&rd, &ev)) > 0) {
		end = ev.ts_ns;
		if (ev.ts_ns > t1)
			break;
		p.now = ev.ts_ns;
		if (sched_state_feed(&ss, &ev)) {
			ret = -1;
			break;
		}
	}
	if (r < 0)
		ret = -1;
	/* the running tasks' intervals end at the window's end, or where
	 * the trace ends before it: past that, it shows nothing */
	sched_state_finish(&ss, end < t1 ? end : t1);
	for (int i = 0; i < ss.ntasks && !ret; i++) {
		const struct kt_pid *e = (const struct kt_pid *)ss.tasks[i];

		if ((e->activations || e->run_ns) &&
		    strncmp(e->st.comm, "swapper", 7) &&
		    !named_in(&e->st, comms, ncomms))
			add_task(k, e);
	}
	trace_reader_close(&rd);
	sched_state_free(&ss);
	if (ret)
		kthreads_free(k);
	return ret;
}

void kthreads_free(struct kthreads *k)
{
	for (int i = 0; i < k->n; i++)
		free(k->tasks[i].comm);
	free(k->tasks);
	memset(k, 0, sizeof(*k));
}

/* "ksoftirqd/1" -> "kt-ksoftirqd-1": a task name the grammar takes */
static char *task_name(const char *comm)
{
	char *n = xasprintf("kt-%s", comm);

	for (char *p = n + 3; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			*p = '-';
	return n;
}

/* The CPU a per-CPU kernel thread's comm names ("name/N"), or -1 */
static int comm_cpu(const char *comm, int ncpus)
{
	const char *slash = strrchr(comm, '/');
	char *end;
	long c;

	if (!slash || !slash[1])
		return -1;
	c = strtol(slash + 1, &end, 10);
	return *end || c < 0 || c >= ncpus ? -1 : (int)c;
}

int kthreads_workload(const char *wfile, const struct kthreads *k,
		      double window_s, int ncpus, const char *out,
		      const char *out_name)
{
	struct diag d;
	struct jdoc doc;
	json_t *tasks;
	FILE *f;
	int added = 0;

	diag_init(&d, false);
	if (jdoc_load_rtapp_file(&doc, wfile, &d)) {
		diag_free(&d);
		return -1;
	}
	tasks = json_object_get(doc.root, "tasks");
	if (!json_is_object(tasks)) {
		fprintf(stderr, "capsim: %s: no tasks object\n", wfile);
		goto fail;
	}
	for (int i = 0; i < k->n; i++) {
		const struct kthread *o = &k->tasks[i];
		double period_us, run_us;
		char *name;
		json_t *t;
		int cpu;

		if (o->activations < 1)
			continue;
		period_us = window_s * 1e6 / (double)o->activations;
		run_us = (double)o->run_ns / 1e3 / (double)o->activations;
		if (run_us < 1)
			run_us = 1;
		if (run_us > period_us / 2)
			run_us = period_us / 2;
		name = task_name(o->comm);
		/* runtime: wall time, as a kernel thread's short burst is */
		t = json_pack("{s:I,s:{s:s,s:I}}", "runtime",
			      (json_int_t)(run_us + 0.5), "timer", "ref", name,
			      "period", (json_int_t)(period_us + 0.5));
		cpu = comm_cpu(o->comm, ncpus);
		if (cpu >= 0)
			json_object_set_new(t, "cpus", json_pack("[i]", cpu));
		json_object_set_new(tasks, name, t);
		free(name);
		added++;
	}
	f = safe_fopen(out);
	if (f && json_dumpf(doc.root, f, JSON_INDENT(2))) {
		safe_fdiscard(f);
		f = NULL;
	}
	if (!f || safe_fclose(f)) {
		fprintf(stderr, "capsim: cannot write %s\n", out_name);
		goto fail;
	}
	jdoc_free(&doc);
	diag_free(&d);
	return added;
fail:
	jdoc_free(&doc);
	diag_free(&d);
	return -1;
}
