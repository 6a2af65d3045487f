// SPDX-License-Identifier: GPL-2.0
/*
 * Capacity clamping, exact aggregator: each CPU keeps, per clamp index, a
 * count of its RUNNABLE entities at every value 0..SCHED_CAPACITY_SCALE
 * and a two-level bitmap of the values whose count is not zero (struct
 * cap_clamp_refs). Enqueue, dequeue and update are O(1) whatever the
 * number of entities: a count moves, at most two bits flip per level, and
 * when the last entity at the CPU's maximum leaves, the new maximum is one
 * find_last_bit() over the words in use plus one __fls() in the last one.
 *
 * Mainline uclamp also counts tasks per value range, but in a few buckets
 * shared by neighbouring values, so a CPU can keep a departed task's value
 * until its bucket empties. Here no two values share a count: the CPU's
 * range is always the MAX of the keys of its RUNNABLE entities, as with
 * the rbtree aggregator.
 *
 * The memory is part of struct cap_clamp_cpu, which the host embeds in its
 * per-CPU runqueue: nothing is allocated, at init or on any path.
 */
#include <linux/array_size.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/sched/cap_clamp.h>

#include "cap_clamp_backend.h"

static_assert(SCHED_CAPACITY_SCALE + 1 == CAP_CLAMP_NR_VALUES);

void cap_clamp_exact_cpu_init(struct cap_clamp_cpu *cc)
{
	unsigned int i;
	int id;

	cap_clamp_cpu_init_published(cc, true);
	for (id = 0; id < CAP_CLAMP_CNT; id++) {
		struct cap_clamp_refs *refs = &cc->refs[id];

		for (i = 0; i < ARRAY_SIZE(refs->used_words); i++)
			refs->used_words[i] = 0;
		for (i = 0; i < CAP_CLAMP_WORDS; i++)
			refs->used[i] = 0;
		for (i = 0; i < CAP_CLAMP_NR_VALUES; i++)
			refs->count[i] = 0;
	}
}

/* The largest value with a non-zero count, @empty if there is none */
static unsigned int cap_clamp_refs_last(const struct cap_clamp_refs *refs,
					unsigned int empty)
{
	unsigned long w = find_last_bit(refs->used_words, CAP_CLAMP_WORDS);

	if (w >= CAP_CLAMP_WORDS)
		return empty;
	return w * BITS_PER_LONG + __fls(refs->used[w]);
}

/* Count one more entity at @v for @id. */
static __always_inline void cap_clamp_get(struct cap_clamp_cpu *cc,
					  enum cap_clamp_id id,
					  unsigned int v)
{
	struct cap_clamp_refs *refs = &cc->refs[id];

	if (!refs->count[v]++) {
		__set_bit(v, refs->used);
		__set_bit(BIT_WORD(v), refs->used_words);
	}
	/* on an empty CPU, the published value is the default: replace it */
	if (!cc->nr || v > cc->value[id])
		WRITE_ONCE(cc->value[id], v);
}

/*
 * Count one entity less at @v for @id. The published value is the
 * maximum, so it only moves when the last entity at that value leaves.
 */
static __always_inline void cap_clamp_put(struct cap_clamp_cpu *cc,
					  enum cap_clamp_id id,
					  unsigned int v)
{
	struct cap_clamp_refs *refs = &cc->refs[id];

	if (--refs->count[v])
		return;
	__clear_bit(v, refs->used);
	if (!refs->used[BIT_WORD(v)])
		__clear_bit(BIT_WORD(v), refs->used_words);
	if (v == cc->value[id])
		WRITE_ONCE(cc->value[id],
			   cap_clamp_refs_last(refs, cap_clamp_empty_value(id)));
}

static __always_inline void cap_clamp_add(struct cap_clamp_cpu *cc,
					  struct cap_clamp_se *se,
					  enum cap_clamp_id id)
{
	cap_clamp_get(cc, id, se->key[id]);
}

static __always_inline void cap_clamp_remove(struct cap_clamp_cpu *cc,
					     struct cap_clamp_se *se,
					     enum cap_clamp_id id)
{
	cap_clamp_put(cc, id, se->key[id]);
}

/* The new value first: the CPU never looks empty in between. */
static __always_inline void cap_clamp_rekey(struct cap_clamp_cpu *cc,
					    struct cap_clamp_se *se,
					    enum cap_clamp_id id,
					    unsigned int key)
{
	cap_clamp_get(cc, id, key);
	cap_clamp_put(cc, id, se->key[id]);
	se->key[id] = key;
}

bool cap_clamp_exact_enqueue(struct cap_clamp_cpu *cc,
			     struct cap_clamp_se *se,
			     const struct cap_clamp_group *grp,
			     raw_spinlock_t *lock)
{
	return cap_clamp_enqueue_frame(cc, se, grp, lock, cap_clamp_add);
}

bool cap_clamp_exact_dequeue(struct cap_clamp_cpu *cc,
			     struct cap_clamp_se *se, raw_spinlock_t *lock)
{
	return cap_clamp_dequeue_frame(cc, se, lock, cap_clamp_remove);
}

bool cap_clamp_exact_update(struct cap_clamp_cpu *cc,
			    struct cap_clamp_se *se,
			    const struct cap_clamp_group *grp,
			    raw_spinlock_t *lock)
{
	return cap_clamp_update_frame(cc, se, grp, lock, cap_clamp_rekey);
}
