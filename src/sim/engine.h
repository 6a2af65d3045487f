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

/*
 * The engine knows nothing of what an event means: its kind indexes the
 * model's handler table, given at evq_init(), and @obj and @gen are the
 * model's (the index of the object the event is for, and the generation
 * it was posted for).
 */
struct event {
	uint64_t time;
	uint64_t seq;
	unsigned int kind;
	int obj;	/* index of the task, CPU, domain or group write */
	uint32_t gen;
};

typedef void ev_handler(void *model, const struct event *e);

struct evq {
	struct event *h;
	size_t n;
	size_t cap;
	uint64_t seq;
	ev_handler *const *handlers;
	unsigned int nkinds;
	void *model;
};

void evq_init(struct evq *q, ev_handler *const *handlers, unsigned int nkinds,
	      void *model);
void evq_free(struct evq *q);
void evq_push(struct evq *q, uint64_t time, unsigned int kind, int obj,
	      uint32_t gen);
int evq_pop(struct evq *q, struct event *out);	/* 0 if empty */

/* Run @e's handler */
static inline void evq_dispatch(const struct evq *q, const struct event *e)
{
	q->handlers[e->kind](q->model, e);
}

#endif
