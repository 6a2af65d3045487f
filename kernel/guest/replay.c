// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "replay.h"
#include "util.h"

#define REPLAY_MAX_CPUS 64

/*
 * Replay the cap_clamp events of a trace: per CPU, in seq order, rebuild
 * the set of queued tasks with their keys and check that the range (and
 * task count) the kernel reported after each operation is the MAX of the
 * mins and the MAX of the maxes of that set ([0, 1024] when empty). A gap
 * in seq (lost events, e.g. while tracing re-enables boot-time events)
 * makes the CPU unsynced until the next operation that leaves it empty
 * (nr=0); operations replayed while unsynced are counted, not checked.
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

struct ent {
	int pid;
	unsigned int min, max;
};

/* report the first few problems only */
static long replay_reports;
#define report(...) do {						\
	if (replay_reports++ < 20)					\
		fprintf(stderr, __VA_ARGS__);				\
} while (0)

int replay_trace(const char *file)
{
	FILE *f = fopen(file, "r");
	size_t n = 0, cap = 1 << 16, i;
	struct ev *evs = xcalloc(cap, sizeof(*evs));
	char line[1024];
	long lineno = 0;
	long bad = 0, gaps = 0, ops = 0, checked = 0, resyncs = 0, unsynced_end = 0;
	int cpus = 0;

	if (!f) {
		perror(file);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ev e = { 0 };
		struct ftrace_event fe;
		bool ours = strstr(line, ": cap_clamp_") != NULL;
		const char *err;
		int ok = 1, col, rc;

		lineno++;
		rc = ftrace_parse_line(line, &fe, &err, &col);
		if (rc < 0 && ours) {
			report("replay: %s:%ld:%d: %s\n", file, lineno, col, err);
			bad++;
		}
		if (rc != 1)
			continue;
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
			       file, lineno);
			bad++;
			continue;
		}
		if (n == cap)
			evs = xrealloc(evs, (cap *= 2) * sizeof(*evs));
		evs[n++] = e;
		if (e.cpu + 1 > cpus)
			cpus = e.cpu + 1;
	}
	fclose(f);
	qsort(evs, n, sizeof(*evs), ev_cmp);

	for (int cpu = 0; cpu < cpus; cpu++) {
		struct ent *set = NULL;
		size_t ns = 0, nsc = 0;
		unsigned long long last = 0;
		int first = 1, synced = 1;

		for (i = 0; i < n; i++) {
			struct ev *e = &evs[i];
			unsigned int rmin = 0, rmax = 1024, kmin, kmax;
			size_t j, at;

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
			}
			at = ns;
			for (j = 0; j < ns; j++)
				if (set[j].pid == e->pid)
					at = j;
			switch (e->kind) {
			case EV_ENQ:
				if (at != ns) {
					if (synced) {
						report("replay: cpu%d seq %llu: pid %d enqueued twice\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					set[at] = (struct ent){ e->pid, e->min, e->max };
					break;
				}
				if (ns == nsc)
					set = xrealloc(set, (nsc = nsc * 2 + 16) * sizeof(*set));
				set[ns++] = (struct ent){ e->pid, e->min, e->max };
				break;
			case EV_DEQ:
			case EV_UPD:
				if (at == ns) {
					if (synced) {
						report("replay: cpu%d seq %llu: pid %d not queued\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					if (e->kind == EV_UPD) {
						if (ns == nsc)
							set = xrealloc(set, (nsc = nsc * 2 + 16) * sizeof(*set));
						set[ns++] = (struct ent){ e->pid, e->min, e->max };
					}
					break;
				}
				if (e->kind == EV_DEQ) {
					if (synced && (set[at].min != e->min || set[at].max != e->max)) {
						report("replay: cpu%d seq %llu: pid %d left with other keys\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					set[at] = set[--ns];
				} else {
					if (synced && (set[at].min != e->omin || set[at].max != e->omax)) {
						report("replay: cpu%d seq %llu: pid %d old keys differ\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					set[at].min = e->min;
					set[at].max = e->max;
				}
				break;
			}
			if (!synced) {
				if (e->kind != EV_CPU && e->nr == 0) {
					ns = 0;
					synced = 1;
					resyncs++;
				}
				continue;
			}
			/* an empty CPU is unconstrained: [0, 1024] */
			if (ns) {
				rmin = 0;
				rmax = 0;
				for (j = 0; j < ns; j++) {
					if (set[j].min > rmin)
						rmin = set[j].min;
					if (set[j].max > rmax)
						rmax = set[j].max;
				}
			}
			kmin = e->kind == EV_CPU ? e->min : e->cmin;
			kmax = e->kind == EV_CPU ? e->max : e->cmax;
			if (kmin != rmin || kmax != rmax ||
			    (e->kind != EV_CPU && e->nr != ns)) {
				report("replay: cpu%d seq %llu: kernel [%u,%u] nr=%u, replay [%u,%u] nr=%zu\n",
					cpu, e->seq, kmin, kmax, e->nr, rmin, rmax, ns);
				bad++;
			}
			if (e->kind != EV_CPU)
				checked++;
		}
		if (!synced)
			unsynced_end++;
		free(set);
	}
	printf("replay: events=%zu ops=%ld checked=%ld cpus=%d mismatches=%ld gaps=%ld resyncs=%ld unsynced=%ld\n",
	       n, ops, checked, cpus, bad, gaps, resyncs, unsynced_end);
	free(evs);
	/* every gap resynced, and at most 1% of the operations unchecked */
	return (bad || unsynced_end || !ops || (ops - checked) * 100 > ops) ? 1 : 0;
}

