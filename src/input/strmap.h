/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inputs' one hash table: a string key within a namespace (a JSON
 * node's parent, a resource's kind) to the index of an entry that the
 * caller keeps in its own array. The table holds no key: the caller's
 * entry does, and the caller's @same callback says whether entry @idx is
 * the key looked for, so an index over 10^6 JSON nodes costs no string
 * copies.
 *
 * Open addressing with linear probing, at most half full, so a probe is
 * short; a slot keeps the key's 32-bit hash, so the callback runs
 * (almost) only on the entry that matches and growing reads no key, in 8
 * bytes (an index over 10^6 JSON nodes costs 16-32 MB).
 * No deletion: the parsers only add.
 */
#ifndef CAPSIM_STRMAP_H
#define CAPSIM_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strmap {
	struct strmap_slot {
		uint32_t hash;
		int idx1;	/* the entry's index + 1; 0: an empty slot */
	} *slots;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

/* Whether entry @idx of the caller's array is @key (@len bytes) in @ns */
typedef bool strmap_same_fn(const void *ctx, int idx, uint64_t ns,
			    const char *key, size_t len);

/* The entry of @key in @ns, or -1 */
int strmap_get(const struct strmap *m, uint64_t ns, const char *key,
	       size_t len, strmap_same_fn *same, const void *ctx);
/* Map @key in @ns to entry @idx (>= 0); a key already mapped now maps to
 * @idx: the later entry wins, as a JSON member written twice */
void strmap_put(struct strmap *m, uint64_t ns, const char *key, size_t len,
		int idx, strmap_same_fn *same, const void *ctx);
void strmap_free(struct strmap *m);

#endif
