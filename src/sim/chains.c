// SPDX-License-Identifier: GPL-2.0
/*
 * Chains through a run. A period k starts at its trigger T_k (every
 * period_us from 0, or from the start timer's first period). Its first
 * task's activation counts when it woke at or after T_k and then switched
 * out asleep; each next task's counts when it woke at or after the
 * previous counted activation's wake-up and switched out asleep after the
 * previous task's completion. A completion is given to the oldest open
 * period it fits; when a period finishes, the older ones still open are
 * dropped (a later frame overtook them). Late: finished after T_k +
 * deadline_us, or never.
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

/* The periods whose trigger has come by @now */
static void add_periods(struct chain_run *cr, uint64_t now)
{
	uint64_t period = cr->wc->period_us * NSEC_PER_USEC;

	if (!cr->origin_known)
		return;
	while (cr->origin + cr->n * period <= now) {
		struct chain_period *p;

		if (cr->n == cr->cap) {
			cr->cap = cr->cap ? 2 * cr->cap : 64;
			cr->p = xrealloc(cr->p, cr->cap * sizeof(*cr->p));
		}
		p = &cr->p[cr->n];
		p->trigger = cr->origin + cr->n * period;
		p->ref = p->trigger;
		p->prev_done = p->trigger;
		p->done = 0;
		p->stage = 0;
		p->dropped = false;
		cr->n++;
	}
}

static bool period_open(const struct chain_run *cr,
			const struct chain_period *p)
{
	return !p->dropped && p->stage < cr->wc->ntasks;
}

/* Period @k finished: the older ones still open never will */
static void period_finished(struct chain_run *cr, size_t k, uint64_t now)
{
	size_t j;

	cr->p[k].done = now;
	for (j = cr->head; j < k; j++)
		if (period_open(cr, &cr->p[j]))
			cr->p[j].dropped = true;
	while (cr->head < cr->n && !period_open(cr, &cr->p[cr->head]))
		cr->head++;
}

void chains_task_done(struct sim *s, const struct sim_task *t,
		      uint64_t woke_ns)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		const struct wl_chain *wc = cr->wc;
		size_t k;

		add_periods(cr, s->now);
		for (k = cr->head; k < cr->n; k++) {
			struct chain_period *p = &cr->p[k];

			if (!period_open(cr, p) ||
			    t->wt != &s->wl->tasks[wc->tasks[p->stage]] ||
			    woke_ns < p->ref || s->now < p->prev_done)
				continue;
			p->ref = woke_ns;
			p->prev_done = s->now;
			if (++p->stage == wc->ntasks)
				period_finished(cr, k, s->now);
			break;	/* one period per completion */
		}
	}
}

bool chain_period_judged(const struct sim *s, const struct chain_run *cr,
			 const struct chain_period *p)
{
	return p->trigger + cr->wc->deadline_us * NSEC_PER_USEC <= s->now;
}

bool chain_period_late(const struct chain_run *cr,
		       const struct chain_period *p)
{
	return p->stage < cr->wc->ntasks ||
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
		size_t k;

		if (cr->closed)
			continue;
		cr->closed = true;
		add_periods(cr, s->now);
		for (k = 0; k < cr->n; k++) {
			const struct chain_period *p = &cr->p[k];

			if (!chain_period_judged(s, cr, p))
				continue;
			cr->judged++;
			if (chain_period_late(cr, p))
				cr->late++;
			if (p->stage < cr->wc->ntasks)
				cr->dropped++;
			else
				samples_add(&cr->lat,
					    (int64_t)(p->done - p->trigger));
		}
	}
}
