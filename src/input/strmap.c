// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "strmap.h"
#include "util.h"

/* FNV-1a over the namespace, then the key's bytes, folded to 32 bits
 * (the slot index takes the low bits: the high half mixes in) */
static uint32_t key_hash(uint64_t ns, const char *key, size_t len)
{
	uint64_t h = (1469598103934665603ULL ^ ns) * 1099511628211ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 1099511628211ULL;
	}
	return (uint32_t)(h ^ h >> 32);
}

/* The slot holding @key, or the empty slot where it would go */
static struct strmap_slot *slot_of(const struct strmap *m, uint32_t h,
				   uint64_t ns, const char *key, size_t len,
				   strmap_same_fn *same, const void *ctx)
{
	size_t mask = m->cap - 1, i = (size_t)h & mask;

	for (; m->slots[i].idx1; i = (i + 1) & mask)
		if (m->slots[i].hash == h &&
		    same(ctx, m->slots[i].idx1 - 1, ns, key, len))
			break;
	return &m->slots[i];
}

int strmap_get(const struct strmap *m, uint64_t ns, const char *key,
	       size_t len, strmap_same_fn *same, const void *ctx)
{
	if (!m->cap)
		return -1;
	return slot_of(m, key_hash(ns, key, len), ns, key, len, same,
		       ctx)->idx1 - 1;
}

/* Twice the slots; the keys are distinct, so each goes to the first
 * empty slot of its probe */
static void grow(struct strmap *m)
{
	struct strmap_slot *old = m->slots;
	size_t old_cap = m->cap, i, j;

	m->cap = old_cap ? old_cap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (i = 0; i < old_cap; i++) {
		if (!old[i].idx1)
			continue;
		for (j = (size_t)old[i].hash & (m->cap - 1); m->slots[j].idx1;
		     j = (j + 1) & (m->cap - 1))
			;
		m->slots[j] = old[i];
	}
	free(old);
}

void strmap_put(struct strmap *m, uint64_t ns, const char *key, size_t len,
		int idx, strmap_same_fn *same, const void *ctx)
{
	uint32_t h = key_hash(ns, key, len);
	struct strmap_slot *s;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	s = slot_of(m, h, ns, key, len, same, ctx);
	if (!s->idx1)
		m->n++;
	s->hash = h;
	s->idx1 = idx + 1;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}
