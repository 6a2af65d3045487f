// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_merge.h"

static struct pf_ev *at(struct pf_queue *q, uint32_t i)
{
	return &q->e[(q->head + i) & (q->cap - 1)];
}

/* Twice the room (realloc: a large ring is remapped, not copied and
 * faulted in again), the part wrapped to the front moved after the rest */
static void queue_grow(struct pf_queue *q)
{
	uint32_t cap = q->cap ? q->cap * 2 : 256, wrapped;

	q->e = realloc(q->e, cap * sizeof(*q->e));
	if (!q->e)
		abort();
	wrapped = q->head + q->n > q->cap ? q->head + q->n - q->cap : 0;
	memcpy(q->e + q->cap, q->e, wrapped * sizeof(*q->e));
	q->cap = cap;
}

static void secs(char *buf, size_t n, uint64_t ns)
{
	snprintf(buf, n, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns % 1000000000ull));
}

static void cpus(struct pf_merge *m, int cpu)
{
	int n = m->ncpus ? m->ncpus : 8;

	if (cpu < m->ncpus)
		return;
	while (n <= cpu)
		n *= 2;
	m->q = realloc(m->q, (size_t)n * sizeof(*m->q));
	if (!m->q)
		abort();
	memset(m->q + m->ncpus, 0, (size_t)(n - m->ncpus) * sizeof(*m->q));
	m->ncpus = n;
}

void pf_merge_expect(struct pf_merge *m, int cpu)
{
	cpus(m, cpu);
	m->q[cpu].expected = true;
}

int pf_merge_push(struct pf_merge *m, struct pf_ev *ev, char *err,
		  size_t errlen)
{
	struct pf_queue *q;
	uint32_t i;

	if (m->out_any && ev->ts < m->last_out) {
		char a[32], b[32];

		secs(a, sizeof(a), ev->ts);
		secs(b, sizeof(b), m->last_out);
		if (ev->cpu < m->ncpus && m->q[ev->cpu].hw > ev->ts)
			snprintf(err, errlen,
				 "CPU %d's events go back in time: one at %s s after events up to %s s were handed out (a CPU's events come in time order)",
				 ev->cpu, a, b);
		else
			snprintf(err, errlen,
				 "CPU %d's event at %s s comes after events up to %s s were handed out: capsim merges a Perfetto trace's CPUs over at most %u events, and this CPU lags further behind",
				 ev->cpu, a, b, PF_WINDOW);
		free(ev->blob);
		return -1;
	}
	cpus(m, ev->cpu);
	q = &m->q[ev->cpu];
	if (q->n == q->cap)
		queue_grow(q);
	/* a CPU's events come in order; one that does not is put in its
	 * place among those still queued */
	for (i = q->n; i > 0 && at(q, i - 1)->ts > ev->ts; i--)
		*at(q, i) = *at(q, i - 1);
	*at(q, i) = *ev;
	q->n++;
	if (ev->ts > q->hw)
		q->hw = ev->ts;
	m->total++;
	return 0;
}

int pf_merge_ready(const struct pf_merge *m, bool eof)
{
	uint64_t ts;
	int c, best = -1;

	for (c = 0; c < m->ncpus; c++)
		if (m->q[c].n && (best < 0 ||
				  m->q[c].e[m->q[c].head].ts <
				  m->q[best].e[m->q[best].head].ts))
			best = c;
	if (best < 0 || eof || m->total >= PF_WINDOW)
		return best;
	ts = m->q[best].e[m->q[best].head].ts;
	for (c = 0; c < m->ncpus; c++)
		if (m->q[c].expected && !m->q[c].n && m->q[c].hw < ts)
			return -1;
	return best;
}

void pf_merge_pop(struct pf_merge *m, int cpu, struct pf_ev *ev)
{
	struct pf_queue *q = &m->q[cpu];

	*ev = q->e[q->head];
	q->head = (q->head + 1) & (q->cap - 1);
	q->n--;
	m->total--;
	m->last_out = ev->ts;
	m->out_any = true;
}

void pf_merge_free(struct pf_merge *m)
{
	for (int c = 0; c < m->ncpus; c++) {
		struct pf_queue *q = &m->q[c];

		for (uint32_t i = 0; i < q->n; i++)
			free(at(q, i)->blob);
		free(q->e);
	}
	free(m->q);
	memset(m, 0, sizeof(*m));
}
