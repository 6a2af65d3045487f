// SPDX-License-Identifier: GPL-2.0
/*
 * Chains through a run. Period k starts at its trigger T_k = origin + k *
 * period (origin 0 for "period", else the start timer's first period).
 * The first task's completion (switched out asleep) starts the period
 * T_k <= its wake-up < T_k+1: the latest trigger before it woke; periods
 * no completion started are never done. Each next task's completion
 * counts for the oldest open period whose previous task it follows: it
 * woke at or after the previous counted activation's wake-up and
 * completed at or after the previous task's completion. When a period's
 * last task completes it is done, and older periods still open are
 * dropped (a later frame overtook them). Late: done after T_k +
 * deadline_us, or never. docs/simulator.md, "Chains and frames".
 *
 * Only started periods are stored, so memory follows the chain's
 * completions, not the run's length over the period.
 */
#include <stdlib.h>

#include "chains.h"
#include "sim.h"

void chains_init(struct sim *s)
{
	int i;

	s->nchains = s->wl->nchains;
	s->chains = xcalloc((size_t)s->nchains + 1, sizeof(*s->chains));
	for (i = 0; i < s->nchains; i++) {
		s->chains[i].wc = &s->wl->chains[i];
		/* fixed ticks from time 0 */
		s->chains[i].origin_known = s->wl->chains[i].start_timer < 0;
	}
}

void chains_free(struct sim *s)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		free(s->chains[i].p);
		samples_free(&s->chains[i].lat);
	}
	free(s->chains);
}

void chains_timer_armed(struct sim *s, int res, uint64_t first)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];

		if (cr->wc->start_timer == res && !cr->origin_known) {
			cr->origin_known = true;
			cr->origin = first;
		}
	}
}

uint64_t chain_trigger(const struct chain_run *cr, uint64_t k)
{
	return cr->origin + k * cr->wc->period_us * NSEC_PER_USEC;
}

bool chain_period_done(const struct chain_run *cr,
		       const struct chain_period *p)
{
	return p->stage == cr->wc->ntasks;
}

static bool period_open(const struct chain_run *cr,
			const struct chain_period *p)
{
	return !p->dropped && !chain_period_done(cr, p);
}

static void drop(struct chain_run *cr, struct chain_period *p)
{
	p->dropped = true;
	cr->nopen--;
}

/* Past the closed periods at the head */
static void advance_head(struct chain_run *cr)
{
	while (cr->head < cr->n && !period_open(cr, &cr->p[cr->head]))
		cr->head++;
}

/* One more stage of @p done at @now by an activation woken at @woke */
static void period_step(struct chain_run *cr, struct chain_period *p,
			uint64_t woke, uint64_t now)
{
	struct chain_period *q;

	p->ref = woke;
	p->prev_done = now;
	if (++p->stage < cr->wc->ntasks)
		return;
	p->done = now;
	cr->nopen--;
	/* the older ones still open never will be */
	for (q = &cr->p[cr->head]; q < p; q++)
		if (period_open(cr, q))
			drop(cr, q);
	advance_head(cr);
}

/* The first task completed an activation woken at @woke: it starts the
 * period of the latest trigger at or before @woke, unless that period
 * (or a later one) already started */
static void period_start(struct chain_run *cr, uint64_t woke, uint64_t now)
{
	uint64_t period = cr->wc->period_us * NSEC_PER_USEC, k;
	struct chain_period *p;

	if (!cr->origin_known || woke < cr->origin)
		return;
	k = (woke - cr->origin) / period;
	if (cr->n && cr->p[cr->n - 1].k >= k)
		return;
	if (cr->nopen == CHAIN_MAX_OPEN) {
		drop(cr, &cr->p[cr->head]);
		advance_head(cr);
	}
	if (cr->n == cr->cap) {
		cr->cap = cr->cap ? 2 * cr->cap : 64;
		cr->p = xrealloc(cr->p, cr->cap * sizeof(*cr->p));
	}
	p = &cr->p[cr->n++];
	p->k = k;
	p->trigger = chain_trigger(cr, k);
	p->stage = 0;
	p->done = 0;
	p->dropped = false;
	cr->nopen++;
	advance_head(cr);
	period_step(cr, p, woke, now);
}

void chains_task_done(struct sim *s, const struct sim_task *t,
		      uint64_t woke_ns)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		const struct wl_chain *wc = cr->wc;
		size_t k;

		/* a later stage of an open period first (the oldest) */
		for (k = cr->head; k < cr->n; k++) {
			struct chain_period *p = &cr->p[k];

			if (period_open(cr, p) &&
			    t->wt == &s->wl->tasks[wc->tasks[p->stage]] &&
			    p->stage > 0 && woke_ns >= p->ref &&
			    s->now >= p->prev_done)
				break;
		}
		if (k < cr->n)
			period_step(cr, &cr->p[k], woke_ns, s->now);
		else if (t->wt == &s->wl->tasks[wc->tasks[0]])
			period_start(cr, woke_ns, s->now);
	}
}

uint64_t chain_judged(const struct sim *s, const struct chain_run *cr)
{
	uint64_t period = cr->wc->period_us * NSEC_PER_USEC;
	uint64_t dl = cr->wc->deadline_us * NSEC_PER_USEC;

	if (!cr->origin_known || cr->origin + dl > s->now)
		return 0;
	return (s->now - cr->origin - dl) / period + 1;
}

bool chain_period_late(const struct chain_run *cr,
		       const struct chain_period *p)
{
	return !chain_period_done(cr, p) ||
	       p->done > p->trigger + cr->wc->deadline_us * NSEC_PER_USEC;
}

double chain_jank_pct(const struct chain_run *cr)
{
	return cr->judged ? 100.0 * (double)cr->late / (double)cr->judged : 0;
}

void chains_close(struct sim *s)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		uint64_t on_time = 0, done = 0;
		size_t k;

		if (cr->closed)
			continue;
		cr->closed = true;
		cr->judged = chain_judged(s, cr);
		for (k = 0; k < cr->n && cr->p[k].k < cr->judged; k++) {
			const struct chain_period *p = &cr->p[k];

			if (!chain_period_done(cr, p))
				continue;
			done++;
			on_time += !chain_period_late(cr, p);
			samples_add(&cr->lat, (int64_t)(p->done - p->trigger));
		}
		/* the rest: never started, or started and not done */
		cr->late = cr->judged - on_time;
		cr->dropped = cr->judged - done;
	}
}
