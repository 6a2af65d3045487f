// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "timer_heap.h"
#include "util.h"

void timer_heap_push(struct timer_heap *h, uint64_t at, int task,
		     uint32_t gen)
{
	struct timer_entry e = { at, task, gen };
	size_t i;

	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->v = xrealloc(h->v, h->cap * sizeof(*h->v));
	}
	i = h->n++;
	while (i > 0 && h->v[(i - 1) / 2].at > e.at) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = e;
}

static void pop(struct timer_heap *h)
{
	struct timer_entry last = h->v[--h->n];
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, m = i;
		uint64_t best = last.at;

		if (l < h->n && h->v[l].at < best) {
			m = l;
			best = h->v[l].at;
		}
		if (l + 1 < h->n && h->v[l + 1].at < best)
			m = l + 1;
		if (m == i)
			break;
		h->v[i] = h->v[m];
		i = m;
	}
	if (h->n)
		h->v[i] = last;
}

const struct timer_entry *timer_heap_first(struct timer_heap *h,
		bool (*valid)(void *ctx, const struct timer_entry *e),
		void *ctx)
{
	while (h->n && !valid(ctx, &h->v[0]))
		pop(h);
	return h->n ? &h->v[0] : NULL;
}

void timer_heap_compact(struct timer_heap *h,
		bool (*valid)(void *ctx, const struct timer_entry *e),
		void *ctx)
{
	struct timer_heap keep = *h;
	size_t i, n = h->n;

	/* re-push the valid ones into the same array, in place */
	keep.n = 0;
	for (i = 0; i < n; i++) {
		struct timer_entry e = h->v[i];

		if (valid(ctx, &e))
			timer_heap_push(&keep, e.at, e.task, e.gen);
	}
	*h = keep;
}

void timer_heap_free(struct timer_heap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}
