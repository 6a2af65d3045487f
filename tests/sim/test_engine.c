// SPDX-License-Identifier: GPL-2.0
/*
 * The event heap (src/sim/engine.c) pops in (time, posting order), the
 * order every run's outputs depend on: random streams of pushes and pops,
 * with many events at the same nanosecond, against a plain array scanned
 * for its earliest entry. Heaps of 1 to a few thousand entries, so every
 * shape of the bottom-up pop (a hole with one child, none, two) is met.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check_main.h"
#include "engine.h"

struct ref {
	struct event *v;
	size_t n;
};

/* the earliest (time, seq) of the reference, removed */
static struct event ref_pop(struct ref *r)
{
	size_t i, best = 0;
	struct event e;

	for (i = 1; i < r->n; i++)
		if (r->v[i].time < r->v[best].time ||
		    (r->v[i].time == r->v[best].time &&
		     r->v[i].seq < r->v[best].seq))
			best = i;
	e = r->v[best];
	r->v[best] = r->v[--r->n];
	return e;
}

static uint64_t rnd(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

START_TEST(pops_in_time_then_posting_order)
{
	static const size_t peaks[] = { 1, 2, 3, 7, 64, 65, 3000 };
	uint64_t x = 11;
	size_t pi;

	for (pi = 0; pi < sizeof(peaks) / sizeof(peaks[0]); pi++) {
		struct ref r = { malloc(peaks[pi] * sizeof(struct event)), 0 };
		struct evq q;
		uint64_t now = 0, seq = 0;
		int step;

		evq_init(&q, NULL, 1, NULL);
		for (step = 0; step < 40000; step++) {
			/* fill to the peak, then drain, at random */
			if (r.n < peaks[pi] && (r.n == 0 || rnd(&x) % 3)) {
				/* a few distinct times: ties are the rule */
				uint64_t t = now + rnd(&x) % 4;
				struct event e = { t, seq++, 0, (int)(rnd(&x) % 100),
						   (uint32_t)step };

				evq_push(&q, t, 0, e.obj, e.gen);
				r.v[r.n++] = e;
			} else {
				struct event want = ref_pop(&r), got;

				ck_assert_int_eq(evq_pop(&q, &got), 1);
				ck_assert_uint_eq(got.time, want.time);
				ck_assert_uint_eq(got.seq, want.seq);
				ck_assert_int_eq(got.obj, want.obj);
				ck_assert_uint_eq(got.gen, want.gen);
				now = got.time;
			}
			ck_assert_uint_eq(q.n, r.n);
		}
		while (r.n) {
			struct event want = ref_pop(&r), got;

			ck_assert_int_eq(evq_pop(&q, &got), 1);
			ck_assert_uint_eq(got.seq, want.seq);
		}
		ck_assert_int_eq(evq_pop(&q, &(struct event){ 0 }), 0);
		evq_free(&q);
		free(r.v);
	}
}
END_TEST

int main(void)
{
	return check_main("engine", 120,
			  CHECK_TESTS(pops_in_time_then_posting_order));
}
