// SPDX-License-Identifier: GPL-2.0
/*
 * Chains through a run, by causality. Period k starts at its trigger T_k =
 * origin + k * period (origin 0 for "period", else the start timer's
 * first period). The first task's activation for period k carries frame
 * k: paced by the start timer, the activation that follows its passing
 * the timer whose expiry is in period k (frame 0 from its start); else
 * the activation a wake-up in period k begins. A task of the chain woken
 * by the previous task of the chain while that one carries frame k
 * carries frame k until it completes (switches out asleep). The frame is
 * finished when its last task's activation completes; a resume by a task
 * carrying frame k that finds the next task still busy (nobody waiting on
 * that suspend point) loses frame k. Late: finished after T_k +
 * deadline_us, or never. docs/simulator.md, "Chains and frames".
 *
 * Each task instance carries at most one frame, so at most as many frames
 * are open as the chain has instances; only begun frames are stored.
 */
#include <stdlib.h>
#include <string.h>

#include "chains.h"
#include "sim.h"

/* The resources @wt suspends on, in @out (a fresh array), their count */
static int suspends_of(const struct wl_task *wt, int **out)
{
	int n = 0, p, e;

	*out = NULL;
	for (p = 0; p < wt->nphases; p++)
		for (e = 0; e < wt->phases[p].nev; e++) {
			const struct wl_event *ev = &wt->phases[p].ev[e];

			if (ev->type != WL_EV_SUSPEND)
				continue;
			*out = xrealloc(*out, (size_t)(n + 1) * sizeof(**out));
			(*out)[n++] = ev->res;
		}
	return n;
}

/* Whether @wt waits on timer @res */
static bool uses_timer(const struct wl_task *wt, int res)
{
	int p, e;

	for (p = 0; p < wt->nphases; p++)
		for (e = 0; e < wt->phases[p].nev; e++)
			if (wt->phases[p].ev[e].type == WL_EV_TIMER &&
			    wt->phases[p].ev[e].res == res)
				return true;
	return false;
}

void chains_init(struct sim *s)
{
	int i, j;

	s->nchains = s->wl->nchains;
	s->chains = xcalloc((size_t)s->nchains + 1, sizeof(*s->chains));
	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		const struct wl_chain *wc = &s->wl->chains[i];

		cr->wc = wc;
		/* fixed ticks from time 0 */
		cr->origin_known = wc->start_timer < 0;
		cr->timer_paced = wc->start_timer >= 0 &&
			uses_timer(&s->wl->tasks[wc->tasks[0]], wc->start_timer);
		cr->susp = xcalloc((size_t)wc->ntasks, sizeof(*cr->susp));
		cr->nsusp = xcalloc((size_t)wc->ntasks, sizeof(*cr->nsusp));
		for (j = 0; j < wc->ntasks; j++)
			cr->nsusp[j] = suspends_of(&s->wl->tasks[wc->tasks[j]],
						   &cr->susp[j]);
	}
}

void chains_free(struct sim *s)
{
	int i, j;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];

		for (j = 0; j < cr->wc->ntasks; j++)
			free(cr->susp[j]);
		free(cr->susp);
		free(cr->nsusp);
		free(cr->slot);
		free(cr->carry);
		free(cr->f);
		free(cr->st);
		samples_free(&cr->lat);
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

static struct chain_stage *stage_at(struct chain_run *cr, size_t i,
				    int stage)
{
	return &cr->st[i * (size_t)cr->wc->ntasks + (size_t)stage];
}

const struct chain_stage *chain_stage_of(const struct chain_run *cr,
					 size_t i, int stage)
{
	return &cr->st[i * (size_t)cr->wc->ntasks + (size_t)stage];
}

static bool is_stage(const struct sim *s, const struct chain_run *cr,
		     const struct sim_task *t, int stage)
{
	return t->wt == &s->wl->tasks[cr->wc->tasks[stage]];
}

/* @t's carry in @cr, NULL if no stage of the chain is its task. The map
 * is made at the first look, once every task exists. */
static struct chain_carry *carry_of(const struct sim *s, struct chain_run *cr,
				    const struct sim_task *t)
{
	int i, j;

	if (!cr->slot) {
		cr->slot = xmalloc((size_t)s->ntasks * sizeof(*cr->slot));
		for (i = 0; i < s->ntasks; i++) {
			cr->slot[i] = -1;
			for (j = 0; j < cr->wc->ntasks; j++)
				if (is_stage(s, cr, s->tasks[i], j)) {
					cr->slot[i] = cr->ncarry++;
					break;
				}
		}
		cr->carry = xcalloc((size_t)cr->ncarry + 1, sizeof(*cr->carry));
	}
	return cr->slot[t->idx] < 0 ? NULL : &cr->carry[cr->slot[t->idx]];
}

/* @t's CPU time so far and its sum of ns x kHz, with what the CPU has
 * not accounted yet (read only: the model's own updates stay where they
 * are) */
static uint64_t run_now(const struct sim *s, const struct sim_task *t,
			double *khz_ns)
{
	const struct sim_cpu *c = &s->cpus[t->cpu];
	uint64_t run = t->runtime_ns;

	*khz_ns = t->run_khz_ns;
	if (c->curr == t && t->state == TS_RUNNABLE && s->now > c->last_update) {
		uint64_t d = s->now - c->last_update;

		run += d;
		*khz_ns += (double)d * c->dom->pd->opps[c->dom->cur_opp].khz;
	}
	return run;
}

/* @t begins stage @stage of frame @i now; @slept: it was woken (its
 * wake-up latency is measured at its switch-in) */
static void stage_begin(struct sim *s, struct chain_run *cr,
			struct chain_carry *cy, const struct sim_task *t,
			size_t i, int stage, bool slept)
{
	struct chain_stage *st = stage_at(cr, i, stage);
	struct chain_frame *f = &cr->f[i];

	cy->active = true;
	cy->f = i;
	cy->stage = stage;
	cy->waiting_run = slept;
	cy->run0 = run_now(s, t, &cy->khz0);
	st->begun = true;
	st->task = t->idx;
	st->wake = s->now;
	st->wlat_ns = 0;
	if (f->lost && f->lost_stage == stage)
		f->lost = false;	/* a later resume found it waiting */
}

/* @t's stage of its frame completes now */
static void stage_end(struct sim *s, struct chain_run *cr,
		      struct chain_carry *cy, const struct sim_task *t)
{
	struct chain_stage *st = stage_at(cr, cy->f, cy->stage);
	struct chain_frame *f = &cr->f[cy->f];
	double kn;
	uint64_t run = run_now(s, t, &kn);

	cy->active = false;
	cy->waiting_run = false;
	st->run_ns = run - cy->run0;
	st->khz = st->run_ns ? (kn - cy->khz0) / (double)st->run_ns : 0;
	st->end = s->now;
	st->cpu = t->cpu;
	/* a first task that passed its timer without working (a timer
	 * before its run) did nothing for the frame, which never began */
	if (cy->stage == 0 && !st->run_ns &&
	    (cr->wc->ntasks == 1 || !stage_at(cr, cy->f, 1)->begun)) {
		st->begun = false;
		return;
	}
	st->done = true;
	if (cy->stage == cr->wc->ntasks - 1 && !f->finished) {
		f->finished = true;
		f->done = s->now;
	}
}

/* The first task @t begins frame @k now, unless that frame (or a later
 * one) already began: then it carries none */
static void frame_begin(struct sim *s, struct chain_run *cr,
			struct chain_carry *cy, const struct sim_task *t,
			uint64_t k, bool slept)
{
	struct chain_frame *f;
	size_t nt = (size_t)cr->wc->ntasks;

	if (cr->any_frame && k <= cr->last_k)
		return;
	cr->any_frame = true;
	cr->last_k = k;
	if (cr->n == cr->cap) {
		cr->cap = cr->cap ? 2 * cr->cap : 64;
		cr->f = xrealloc(cr->f, cr->cap * sizeof(*cr->f));
		cr->st = xrealloc(cr->st, cr->cap * nt * sizeof(*cr->st));
	}
	f = &cr->f[cr->n];
	/* its trigger is known once the timer is armed: chain_trigger() */
	*f = (struct chain_frame){ .k = k };
	memset(stage_at(cr, cr->n, 0), 0, nt * sizeof(*cr->st));
	stage_begin(s, cr, cy, t, cr->n++, 0, slept);
}

/* The period of time @at, false before the origin or without it */
static bool period_of(const struct chain_run *cr, uint64_t at, uint64_t *k)
{
	if (!cr->origin_known || at < cr->origin)
		return false;
	*k = (at - cr->origin) / (cr->wc->period_us * NSEC_PER_USEC);
	return true;
}

void chains_task_started(struct sim *s, const struct sim_task *t)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		struct chain_carry *cy = carry_of(s, cr, t);
		uint64_t k;

		if (!cy || !is_stage(s, cr, t, 0))
			continue;
		/* a timer-paced task arms the timer at its first use, from
		 * its start: period 0 unless another user armed it before */
		if (period_of(cr, s->now, &k))
			frame_begin(s, cr, cy, t, k, true);
		else if (cr->timer_paced && !cr->origin_known)
			frame_begin(s, cr, cy, t, 0, true);
	}
}

void chains_woken(struct sim *s, const struct sim_task *t,
		  const struct sim_task *waker)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		struct chain_carry *cy = carry_of(s, cr, t), *wcy;
		uint64_t k;
		int next;

		if (!cy || cy->active)
			continue;	/* woken before it switched out */
		if (is_stage(s, cr, t, 0)) {
			if (cr->timer_paced && cy->pending) {
				cy->pending = false;
				frame_begin(s, cr, cy, t, cy->pending_k, true);
				continue;
			}
			if (!cr->timer_paced && period_of(cr, s->now, &k)) {
				frame_begin(s, cr, cy, t, k, true);
				continue;
			}
		}
		if (!waker)
			continue;
		wcy = carry_of(s, cr, waker);
		if (!wcy || !wcy->active)
			continue;
		next = wcy->stage + 1;
		if (next < cr->wc->ntasks && is_stage(s, cr, t, next) &&
		    !stage_at(cr, wcy->f, next)->begun)
			stage_begin(s, cr, cy, t, wcy->f, next, true);
	}
}

void chains_task_in(struct sim *s, const struct sim_task *t)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		struct chain_carry *cy = carry_of(s, cr, t);
		struct chain_stage *st;

		if (!cy || !cy->active || !cy->waiting_run)
			continue;
		cy->waiting_run = false;
		st = stage_at(cr, cy->f, cy->stage);
		st->wlat_ns = s->now - st->wake;
	}
}

void chains_timer_pass(struct sim *s, const struct sim_task *t, int res,
		       uint64_t expiry, bool sleeps)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		struct chain_carry *cy;
		uint64_t k;

		if (!cr->timer_paced || cr->wc->start_timer != res ||
		    !is_stage(s, cr, t, 0))
			continue;
		cy = carry_of(s, cr, t);
		if (cy->active)
			stage_end(s, cr, cy, t);
		cy->pending = false;
		if (!period_of(cr, expiry, &k))
			continue;
		if (sleeps) {
			cy->pending = true;
			cy->pending_k = k;
		} else {
			frame_begin(s, cr, cy, t, k, false);
		}
	}
}

void chains_resume_lost(struct sim *s, const struct sim_task *t, int res)
{
	int i, j;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		struct chain_carry *cy = carry_of(s, cr, t);
		struct chain_frame *f;
		int next;

		if (!cy || !cy->active)
			continue;
		next = cy->stage + 1;
		if (next >= cr->wc->ntasks ||
		    stage_at(cr, cy->f, next)->begun)
			continue;
		for (j = 0; j < cr->nsusp[next]; j++)
			if (cr->susp[next][j] == res)
				break;
		f = &cr->f[cy->f];
		if (j == cr->nsusp[next] || f->lost)
			continue;
		f->lost = true;
		f->lost_stage = next;
		f->lost_at = s->now;
	}
}

void chains_task_done(struct sim *s, const struct sim_task *t, bool exited)
{
	int i;

	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		struct chain_carry *cy = carry_of(s, cr, t);

		if (!cy || !cy->active)
			continue;
		/* a timer-paced first task's activation ends at its timer */
		if (cy->stage == 0 && cr->timer_paced && !exited)
			continue;
		stage_end(s, cr, cy, t);
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

bool chain_frame_late(const struct chain_run *cr, const struct chain_frame *f)
{
	return !f->finished ||
	       f->done > chain_trigger(cr, f->k) +
			  cr->wc->deadline_us * NSEC_PER_USEC;
}

int64_t chain_frame_latency(const struct chain_run *cr,
			    const struct chain_frame *f)
{
	uint64_t trig = chain_trigger(cr, f->k);

	/* a frame begun before its timer was armed by another task */
	return f->done > trig ? (int64_t)(f->done - trig) : 0;
}

double chain_jank_pct(const struct chain_run *cr)
{
	return cr->judged ? 100.0 * (double)cr->late / (double)cr->judged : 0;
}

/* The run log's and summary.json's word on a chain that lost frames */
static void warn_lost(struct sim *s, const struct chain_run *cr)
{
	const struct wl_chain *wc = cr->wc;
	const struct chain_frame *first = NULL;
	size_t k;

	for (k = 0; k < cr->n && !first; k++)
		if (cr->f[k].lost && cr->f[k].k < cr->judged)
			first = &cr->f[k];
	diag_report(s->diag, false, NULL, 0, 0,
		    "chain %s: %llu of %llu frames lost (the first, frame %llu, at %.6f s): \"%s\" resumed \"%s\" while it was still busy (nobody waited on its suspend); each lost frame counts as dropped and late",
		    wc->name, (unsigned long long)cr->lost,
		    (unsigned long long)cr->judged,
		    (unsigned long long)first->k, (double)first->lost_at / 1e9,
		    s->wl->tasks[wc->tasks[first->lost_stage - 1]].name,
		    s->wl->tasks[wc->tasks[first->lost_stage]].name);
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
		for (k = 0; k < cr->n && cr->f[k].k < cr->judged; k++) {
			const struct chain_frame *f = &cr->f[k];

			if (!f->finished) {
				cr->lost += f->lost;
				continue;
			}
			done++;
			on_time += !chain_frame_late(cr, f);
			samples_add(&cr->lat, chain_frame_latency(cr, f));
		}
		/* the rest: never begun, lost, or begun and not finished */
		cr->late = cr->judged - on_time;
		cr->dropped = cr->judged - done;
		if (cr->lost)
			warn_lost(s, cr);
	}
}
