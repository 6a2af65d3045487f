/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The discrete-event engine: a binary min-heap of timed events ordered by
 * (time, insertion sequence), so that events at the same nanosecond run in
 * the order they were posted and every run is deterministic. Events are
 * never removed: each carries a generation number that the owner bumps to
 * invalidate it (the handler then ignores it).
 */
#ifndef CAPSIM_ENGINE_H
#define CAPSIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

enum ev_kind {
	EVK_END,		/* end of the simulated time */
	EVK_TASK_START,		/* a task's first activation (after delay) */
	EVK_TASK_WAKE,		/* a sleep/timer/iowait expires */
	EVK_RUN_DONE,		/* the running task's event or budget ends */
	EVK_TICK,		/* scheduler tick of a CPU */
	EVK_RESCHED,		/* a CPU reschedules (after idle exit) */
	EVK_FREQ,		/* a domain's frequency transition completes */
	EVK_DL_REPLENISH,	/* a throttled DEADLINE task's new period */
	EVK_GROUP_WRITE,	/* a capsim.events group write */
};

struct event {
	uint64_t time;
	uint64_t seq;
	enum ev_kind kind;
	int a;			/* cpu, domain, task or event index */
	uint32_t gen;
};

struct evq {
	struct event *h;
	size_t n;
	size_t cap;
	uint64_t seq;
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);
void evq_push(struct evq *q, uint64_t time, enum ev_kind kind, int a,
	      uint32_t gen);
int evq_pop(struct evq *q, struct event *out);	/* 0 if empty */

#endif
