/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The armed sleep/timer expiries of one CPU, earliest first, so an idle
 * CPU finds its next wake-up in O(log n) (the idle governor's
 * tick_nohz_get_sleep_length(), here for choosing the idle state) instead
 * of scanning every task. Entries are never removed in place: the owner
 * says which are still valid when asked, and stale ones are dropped then.
 */
#ifndef CAPSIM_TIMER_HEAP_H
#define CAPSIM_TIMER_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct timer_entry {
	uint64_t at;
	int task;
	uint32_t gen;
};

struct timer_heap {
	struct timer_entry *v;
	size_t n, cap;
};

void timer_heap_push(struct timer_heap *h, uint64_t at, int task,
		     uint32_t gen);
/*
 * The earliest entry @valid(@ctx, entry) accepts, dropping the stale ones
 * before it; NULL when none is left.
 */
const struct timer_entry *timer_heap_first(struct timer_heap *h,
		bool (*valid)(void *ctx, const struct timer_entry *e),
		void *ctx);
/* Drop every entry @valid rejects (O(n)), keeping the heap order */
void timer_heap_compact(struct timer_heap *h,
		bool (*valid)(void *ctx, const struct timer_entry *e),
		void *ctx);
void timer_heap_free(struct timer_heap *h);

#endif
