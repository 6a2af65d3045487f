// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>

#include "clamp_host.h"
#include "ftrace.h"
#include "clamp_replay.h"
#include "trace_reader.h"
#include "util.h"

#define REPLAY_MAX_CPUS 64

/*
 * Replay the cap_clamp events of a trace through the user-space clamp core
 * (src/core, through its host src/clamphost): per CPU, in seq order, each
 * enqueue, dequeue and update the kernel logged is made on a one-CPU host,
 * and after each the core's range (and the task count) must equal what the
 * kernel reported. Each task gets a group of its own whose values are the
 * keys the event carries, so an update rekeys it the way a group write
 * repositions it in the kernel. A gap in seq (lost events, e.g. while
 * tracing re-enables boot-time events) makes the CPU unsynced until the
 * next operation that leaves it empty (nr=0), where the host starts
 * afresh; operations replayed while unsynced are counted, not checked.
 */
struct ev {
	int cpu, kind, pid;
	unsigned long long seq;
	unsigned int min, max, omin, omax, cmin, cmax, nr;
};

enum { EV_ENQ, EV_DEQ, EV_UPD, EV_CPU };

static int ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	/* the op comes before the range change it caused */
	return x->kind - y->kind;
}

/* Unsigned field @key of @ev; clears *ok when missing or not a number */
static unsigned long long field(const struct ftrace_event *ev, const char *key,
				int *ok)
{
	int64_t v;

	if (!ftrace_get_i64(ev, key, &v) || v < 0) {
		*ok = 0;
		return 0;
	}
	return (unsigned long long)v;
}

/* report the first few problems only, to the caller's log */
static long replay_reports;
static FILE *replay_log;
#define report(...) do {						\
	if (replay_log && replay_reports++ < 20)			\
		fprintf(replay_log, __VA_ARGS__);			\
} while (0)

/* The entity of task @pid on a one-CPU host, with a group of its own */
static struct host_entity *task_entity(struct clamp_host *h, int pid)
{
	struct host_entity *e;
	char path[32];

	if (clamp_host_entity_get(h, (uint64_t)(unsigned int)pid, &e))
		xoom();
	if (!e->grp) {
		snprintf(path, sizeof(path), "/pid%d", pid);
		if (clamp_host_group_create(h, path, &e->grp) == -ENOMEM)
			xoom();
	}
	return e;
}

/*
 * Make @e's group carry [@min, @max], writing in the order the RFC's rules
 * allow (min <= max at every step); a RUNNABLE entity is repositioned by
 * the core, as after a group write in the kernel.
 */
static int set_keys(struct clamp_host *h, struct host_entity *e,
		    unsigned int min, unsigned int max)
{
	struct host_group *g = e->grp;
	enum cap_clamp_id first = CAP_CLAMP_MIN, second = CAP_CLAMP_MAX;
	unsigned int v[CAP_CLAMP_CNT];
	int ret;

	v[CAP_CLAMP_MIN] = min;
	v[CAP_CLAMP_MAX] = max;
	if (min > g->cg.value[CAP_CLAMP_MAX]) {
		first = CAP_CLAMP_MAX;
		second = CAP_CLAMP_MIN;
	}
	ret = clamp_host_write(h, g, first, v[first]);
	return ret ? ret : clamp_host_write(h, g, second, v[second]);
}

/* The keys the core holds @e by (its snapshot, not its group's values) */
static bool keys_are(const struct host_entity *e, unsigned int min,
		     unsigned int max)
{
	return e->se.key[CAP_CLAMP_MIN] == min &&
	       e->se.key[CAP_CLAMP_MAX] == max;
}

/* The group at @path in @h, created with its missing ancestors (mkdir) */
static struct host_group *write_group(struct clamp_host *h, const char *path)
{
	struct host_group *g = clamp_host_group(h, path);
	char *p, *slash;

	if (g)
		return g;
	p = xstrdup(path);
	slash = strrchr(p, '/');
	if (slash && slash != p) {
		*slash = 0;
		write_group(h, p);
	}
	free(p);
	if (clamp_host_group_create(h, path, &g))
		return NULL;
	return g;
}

/*
 * A cap_clamp_write event: the same write made through the core, on a
 * group tree built from the paths the trace names (a group inherits its
 * parent's values when created, as the cgroup's css_online does); the
 * kernel's result and the group's values after it must be the core's.
 */
static void clamp_write_event(struct clamp_host *h,
			      struct clamp_replay_result *res,
			      const struct ftrace_event *fe, const char *file,
			      long lineno)
{
	const char *path = ftrace_get(fe, "path"), *attr = ftrace_get(fe, "attr");
	int64_t value, ret, min, max;
	struct host_group *g;
	int got;

	res->writes++;
	if (!path || !attr || !ftrace_get_i64(fe, "value", &value) ||
	    !ftrace_get_i64(fe, "ret", &ret) ||
	    !ftrace_get_i64(fe, "min", &min) ||
	    !ftrace_get_i64(fe, "max", &max) || path[0] != '/') {
		report("replay: %s:%ld: a cap_clamp_write field is missing\n",
		       file, lineno);
		return;
	}
	g = write_group(h, path);
	if (!g) {
		report("replay: %s:%ld: cannot make group %s\n", file, lineno,
		       path);
		return;
	}
	got = clamp_host_write(h, g, strcmp(attr, "capacity_max") ?
			       CAP_CLAMP_MIN : CAP_CLAMP_MAX, (uint64_t)value);
	if (got != ret || g->cg.value[CAP_CLAMP_MIN] != min ||
	    g->cg.value[CAP_CLAMP_MAX] != max) {
		report("replay: %s:%ld: write %s %s=%lld: kernel ret=%lld [%lld,%lld], core ret=%d [%u,%u]\n",
		       file, lineno, path, attr, (long long)value,
		       (long long)ret, (long long)min, (long long)max, got,
		       g->cg.value[CAP_CLAMP_MIN], g->cg.value[CAP_CLAMP_MAX]);
		return;
	}
	res->writes_matched++;
}

int clamp_replay_named(const char *file, const char *name, FILE *log,
		       struct clamp_replay_result *res)
{
	/* the reader skips every other line unparsed */
	struct trace_reader rd = { .only = ": cap_clamp_" };
	size_t n = 0, cap = 1 << 16, i;
	struct ev *evs;
	long bad = 0, gaps = 0, ops = 0, checked = 0, resyncs = 0, unsynced_end = 0;
	long compared = 0, matched = 0;
	struct clamp_host wh;	/* the group tree the writes go through */
	struct ftrace_event fe;
	int cpus = 0, rc;

	memset(res, 0, sizeof(*res));
	replay_log = log;
	replay_reports = 0;
	if (trace_reader_open_as(&rd, file, name))
		return -1;
	if (clamp_host_init(&wh, 1))
		xoom();
	evs = xcalloc(cap, sizeof(*evs));
	while ((rc = trace_reader_next(&rd, &fe)) > 0) {
		struct ev e = { 0 };
		long lineno = rd.lineno;
		int ok = 1;

		if (!strcmp(fe.name, "cap_clamp_write")) {
			clamp_write_event(&wh, res, &fe, name, lineno);
			continue;
		}
		if (!strcmp(fe.name, "cap_clamp_enqueue"))
			e.kind = EV_ENQ;
		else if (!strcmp(fe.name, "cap_clamp_dequeue"))
			e.kind = EV_DEQ;
		else if (!strcmp(fe.name, "cap_clamp_update"))
			e.kind = EV_UPD;
		else if (!strcmp(fe.name, "cap_clamp_cpu"))
			e.kind = EV_CPU;
		else
			continue;
		e.cpu = field(&fe, "cpu", &ok);
		e.seq = field(&fe, "seq", &ok);
		e.min = field(&fe, "min", &ok);
		e.max = field(&fe, "max", &ok);
		if (e.kind != EV_CPU) {
			e.pid = field(&fe, "pid", &ok);
			e.cmin = field(&fe, "cpu_min", &ok);
			e.cmax = field(&fe, "cpu_max", &ok);
			e.nr = field(&fe, "nr", &ok);
		}
		if (e.kind == EV_UPD) {
			e.omin = field(&fe, "old_min", &ok);
			e.omax = field(&fe, "old_max", &ok);
		}
		if (!ok || e.cpu >= REPLAY_MAX_CPUS) {
			report("replay: %s:%ld: a field is missing or not a number\n",
			       name, lineno);
			bad++;
			continue;
		}
		if (n == cap)
			evs = xrealloc(evs, (cap *= 2) * sizeof(*evs));
		evs[n++] = e;
		if (e.cpu + 1 > cpus)
			cpus = e.cpu + 1;
	}
	trace_reader_close(&rd);
	if (rc < 0) {	/* said file:line:col */
		free(evs);
		clamp_host_destroy(&wh);
		return -1;
	}
	qsort(evs, n, sizeof(*evs), ev_cmp);

	for (int cpu = 0; cpu < cpus; cpu++) {
		struct clamp_host h;
		size_t ns = 0;
		unsigned long long last = 0;
		int first = 1, synced = 1;

		if (clamp_host_init(&h, 1))
			xoom();
		for (i = 0; i < n; i++) {
			struct ev *e = &evs[i];
			struct host_entity *ent = NULL;
			unsigned int kmin, kmax;
			struct cap_clamp_range r;
			bool queued;

			if (e->cpu != cpu)
				continue;
			if (e->kind != EV_CPU) {
				if ((first && e->seq != 1) || (!first && e->seq != last + 1)) {
					gaps++;
					synced = 0;
				}
				first = 0;
				last = e->seq;
				ops++;
				ent = task_entity(&h, e->pid);
			}
			queued = ent && ent->cpu >= 0;
			switch (e->kind) {
			case EV_ENQ:
				if (queued) {
					if (synced) {
						report("replay: cpu%d seq %llu: pid %d enqueued twice\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					clamp_host_dequeue(&h, ent);
					ns--;
				}
				if (set_keys(&h, ent, e->min, e->max) ||
				    clamp_host_enqueue(&h, ent, 0, ent->grp) < 0) {
					report("replay: cpu%d seq %llu: pid %d keys [%u,%u] refused\n",
						cpu, e->seq, e->pid, e->min, e->max);
					bad++;
					break;
				}
				ns++;
				break;
			case EV_DEQ:
			case EV_UPD:
				if (!queued) {
					if (synced) {
						report("replay: cpu%d seq %llu: pid %d not queued\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					if (e->kind == EV_UPD &&
					    !set_keys(&h, ent, e->min, e->max) &&
					    clamp_host_enqueue(&h, ent, 0, ent->grp) >= 0)
						ns++;
					break;
				}
				if (e->kind == EV_DEQ) {
					if (synced && !keys_are(ent, e->min, e->max)) {
						report("replay: cpu%d seq %llu: pid %d left with other keys\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					clamp_host_dequeue(&h, ent);
					ns--;
				} else {
					if (synced && !keys_are(ent, e->omin, e->omax)) {
						report("replay: cpu%d seq %llu: pid %d old keys differ\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					if (set_keys(&h, ent, e->min, e->max)) {
						report("replay: cpu%d seq %llu: pid %d keys [%u,%u] refused\n",
							cpu, e->seq, e->pid, e->min, e->max);
						bad++;
					}
				}
				break;
			}
			if (!synced) {
				if (e->kind != EV_CPU && e->nr == 0) {
					/* the kernel's CPU is empty: start afresh */
					clamp_host_destroy(&h);
					if (clamp_host_init(&h, 1))
						xoom();
					ns = 0;
					synced = 1;
					resyncs++;
				}
				continue;
			}
			clamp_host_range(&h, 0, &r);
			kmin = e->kind == EV_CPU ? e->min : e->cmin;
			kmax = e->kind == EV_CPU ? e->max : e->cmax;
			compared++;
			if (kmin != r.min || kmax != r.max ||
			    (e->kind != EV_CPU && e->nr != ns)) {
				report("replay: cpu%d seq %llu: kernel [%u,%u] nr=%u, replay [%u,%u] nr=%zu\n",
					cpu, e->seq, kmin, kmax, e->nr, r.min, r.max, ns);
				bad++;
			} else {
				matched++;
			}
			if (e->kind != EV_CPU)
				checked++;
		}
		if (!synced)
			unsynced_end++;
		clamp_host_destroy(&h);
	}
	res->events = (long)n;
	res->ops = ops;
	res->checked = checked;
	res->compared = compared;
	res->matched = matched;
	res->mismatches = bad;
	res->gaps = gaps;
	res->resyncs = resyncs;
	res->unsynced_end = unsynced_end;
	res->cpus = cpus;
	free(evs);
	clamp_host_destroy(&wh);
	return 0;
}

int clamp_replay_trace(const char *file, FILE *log,
		       struct clamp_replay_result *res)
{
	return clamp_replay_named(file, file, log, res);
}

bool clamp_replay_passed(const struct clamp_replay_result *r)
{
	/*
	 * every gap resynced, and at most 1% of the operations unchecked;
	 * not the writes: the write replay builds the group tree from the
	 * paths the writes name and cannot see a group removed and made
	 * again (no trace event says so), as the in-guest stress does
	 * (xcheck's workloads never remove a group: it gates the writes)
	 */
	return !r->mismatches && !r->unsynced_end && r->ops &&
	       (r->ops - r->checked) * 100 <= r->ops;
}

void clamp_replay_print(FILE *out, const struct clamp_replay_result *r)
{
	fprintf(out, "replay: events=%ld ops=%ld checked=%ld cpus=%d mismatches=%ld gaps=%ld resyncs=%ld unsynced=%ld writes=%ld writes_matched=%ld\n",
		r->events, r->ops, r->checked, r->cpus, r->mismatches,
		r->gaps, r->resyncs, r->unsynced_end, r->writes,
		r->writes_matched);
}

