// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "engine.h"
#include "util.h"

void evq_init(struct evq *q, ev_handler *const *handlers, unsigned int nkinds,
	      void *model)
{
	q->h = NULL;
	q->n = q->cap = 0;
	q->seq = 0;
	q->handlers = handlers;
	q->nkinds = nkinds;
	q->model = model;
}

void evq_free(struct evq *q)
{
	free(q->h);
	q->h = NULL;
	q->n = q->cap = 0;
}

static int before(const struct event *x, const struct event *y)
{
	if (x->time != y->time)
		return x->time < y->time;
	return x->seq < y->seq;
}

void evq_push(struct evq *q, uint64_t time, unsigned int kind, int obj,
	      uint32_t gen)
{
	struct event e = { time, q->seq++, kind, obj, gen };
	size_t i;

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 256;
		q->h = xrealloc(q->h, q->cap * sizeof(*q->h));
	}
	i = q->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!before(&e, &q->h[parent]))
			break;
		q->h[i] = q->h[parent];
		i = parent;
	}
	q->h[i] = e;
}

/*
 * The root leaves; the hole it leaves goes down to a leaf along the
 * smaller child (one comparison a level), then the last entry goes up
 * from there (Floyd's bottom-up pop). The last entry came from the
 * bottom, so it rarely climbs: about half the comparisons of sifting it
 * down from the root, which compares it with a child at every level. The
 * keys are unique (seq), so the order popped is the same either way.
 */
int evq_pop(struct evq *q, struct event *out)
{
	struct event last;
	size_t i = 0, n;

	if (!q->n)
		return 0;
	*out = q->h[0];
	n = --q->n;
	if (!n)
		return 1;
	last = q->h[n];
	for (;;) {
		size_t l = 2 * i + 1;

		if (l + 1 < n) {
			l += before(&q->h[l + 1], &q->h[l]);
		} else if (l >= n) {
			break;
		}
		q->h[i] = q->h[l];
		i = l;
	}
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!before(&last, &q->h[parent]))
			break;
		q->h[i] = q->h[parent];
		i = parent;
	}
	q->h[i] = last;
	return 1;
}
