// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "perfetto_arena.h"

struct pf_chunk {
	struct pf_chunk *next;
	size_t used, size;
	max_align_t data[];
};

static void *arena_alloc(void *data, size_t size)
{
	struct pf_arena *a = data;
	size_t n = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	struct pf_chunk *c;
	void *p;

	while (a->cur && a->cur->size - a->cur->used < n)
		a->cur = a->cur->next;
	if (!a->cur) {
		/* 64 KiB first (most packets are small), doubling to 1 MiB */
		size_t sz = a->tail ? a->tail->size * 2 : 65536;

		if (sz > PF_CHUNK)
			sz = PF_CHUNK;
		if (sz < n)
			sz = n;
		if (a->total + sz > PF_DECODED_MAX) {
			a->full = true;
			return NULL;
		}
		c = malloc(sizeof(*c) + sz);
		if (!c) {	/* the machine's limit before ours */
			a->full = true;
			return NULL;
		}
		c->next = NULL;
		c->used = 0;
		c->size = sz;
		if (a->tail)
			a->tail->next = c;
		else
			a->head = c;
		a->tail = a->cur = c;
		a->total += sz;
	}
	c = a->cur;
	p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

static void arena_free(void *data, void *p)
{
	(void)data, (void)p;
}

void pf_arena_reset(struct pf_arena *a, bool all)
{
	struct pf_chunk *c = a->head, *prev = NULL;
	size_t total = 0;

	while (c) {
		struct pf_chunk *next = c->next;

		if (!all && total + c->size <= PF_KEEP) {
			c->used = 0;
			total += c->size;
			prev = c;
		} else {
			free(c);
			if (prev)
				prev->next = next;
			else
				a->head = next;
		}
		c = next;
	}
	a->tail = prev;
	a->cur = a->head;
	a->total = total;
	a->full = false;
}

void pf_arena_init(struct pf_arena *a)
{
	*a = (struct pf_arena){ .alloc = { arena_alloc, arena_free, a } };
}
