// SPDX-License-Identifier: GPL-2.0
/*
 * Chains inferred from rt-app's own events, for a workload without
 * capsim.chains (a declared "chains", even {}, is the whole list). The
 * rule, docs/simulator.md "Chains inferred from resume/suspend":
 *
 *   a trigger task paced by one timer (its period is the chain's) that
 *   resumes a task suspended waiting for it, which may resume the next
 *   one the same way, and so on: [trigger, resumed, ...]. Every task of
 *   it has one instance, the same pattern in every phase, resumes at
 *   most one other and blocks only in its timer or suspend (no sleep,
 *   wait, barrier or iorun: its completion, where it switches out
 *   asleep, is then the end of its part); the trigger suspends on
 *   nothing; each resumed task suspends once per loop on a point nobody
 *   else resumes nor waits on, and has no timer.
 *
 * Anything else is not inferred, and a task that looks like a trigger (a
 * timer and a resume, no suspend) gets a note saying why. The chain is
 * named after its trigger task, its start is the trigger's timer, its
 * period and deadline the timer's period. What the model does with a
 * chain is src/sim/chains.c's, the same for a declared one.
 */
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "workload_internal.h"
#include "util.h"

/* A task's suspend/resume pattern, per loop of a phase */
struct pattern {
	int ntimer, nsuspend, nresume;
	int timer_res, suspend_res, resume_res;	/* the first of each */
	uint64_t timer_us;
	const char *blocks;	/* another event that sleeps, or NULL */
};

/* What a task's phases say: the pattern if every phase has the same */
struct task_events {
	struct pattern pat;
	const char *differs;	/* the first phase whose pattern differs */
	bool any_timer, any_suspend, any_resume;
};

/* Per suspend point: the distinct tasks that resume it, that suspend on
 * it (the first two of each, for the messages) */
struct point_users {
	int nresumers, nsuspenders;
	int resumer[2], suspender[2];
};

struct infer {
	struct wl_parser *p;
	struct task_events *te;	/* by task */
	struct point_users *pu;	/* by resource */
	int *in_chain;		/* by task: the chain's index + 1, or 0 */
	struct strmap names;	/* the inferred chains by name */
};

static void phase_pattern(const struct wl_phase *ph, struct pattern *pt)
{
	int i;

	*pt = (struct pattern){ .timer_res = -1, .suspend_res = -1,
				.resume_res = -1 };
	for (i = 0; i < ph->nev; i++) {
		const struct wl_event *e = &ph->ev[i];

		switch (e->type) {
		case WL_EV_TIMER:
			if (!pt->ntimer++) {
				pt->timer_res = e->res;
				pt->timer_us = e->us;
			}
			break;
		case WL_EV_SUSPEND:
			if (!pt->nsuspend++)
				pt->suspend_res = e->res;
			break;
		case WL_EV_RESUME:
			if (!pt->nresume++)
				pt->resume_res = e->res;
			break;
		case WL_EV_SLEEP:
		case WL_EV_WAIT:
		case WL_EV_BARRIER:
		case WL_EV_IORUN:
			if (!pt->blocks)
				pt->blocks = e->key;
			break;
		default:
			break;
		}
	}
}

static bool pattern_same(const struct pattern *a, const struct pattern *b)
{
	return a->ntimer == b->ntimer && a->nsuspend == b->nsuspend &&
	       a->nresume == b->nresume && a->timer_res == b->timer_res &&
	       a->suspend_res == b->suspend_res &&
	       a->resume_res == b->resume_res && a->timer_us == b->timer_us &&
	       !a->blocks == !b->blocks;
}

/* Adds task @t to the users of @res (each task counted once) */
static void add_user(int *n, int who[2], int t)
{
	if ((*n > 0 && who[0] == t) || (*n > 1 && who[1] == t))
		return;
	if (*n < 2)
		who[*n] = t;
	(*n)++;
}

static void scan_task(struct infer *in, int t)
{
	const struct wl_task *wt = &in->p->wl->tasks[t];
	struct task_events *te = &in->te[t];
	int i, j;

	for (i = 0; i < wt->nphases; i++) {
		const struct wl_phase *ph = &wt->phases[i];
		struct pattern pt;

		phase_pattern(ph, &pt);
		if (!i)
			te->pat = pt;
		else if (!te->differs && !pattern_same(&te->pat, &pt))
			te->differs = ph->name;
		te->any_timer |= pt.ntimer > 0;
		te->any_suspend |= pt.nsuspend > 0;
		te->any_resume |= pt.nresume > 0;
		for (j = 0; j < ph->nev; j++) {
			const struct wl_event *e = &ph->ev[j];
			struct point_users *u;

			if (e->res < 0 || (e->type != WL_EV_SUSPEND &&
					   e->type != WL_EV_RESUME))
				continue;
			u = &in->pu[e->res];
			if (e->type == WL_EV_RESUME)
				add_user(&u->nresumers, u->resumer, t);
			else
				add_user(&u->nsuspenders, u->suspender, t);
		}
	}
}

static const char *task_name(const struct infer *in, int t)
{
	return in->p->wl->tasks[t].name;
}

static const char *res_name(const struct infer *in, int res)
{
	return in->p->wl->res[res].name;
}

/* Whether task @t cannot be in a chain, whatever its role (the reason
 * into @sb): one instance, the same pattern in every phase, at most one
 * resume, no blocking but its timer or suspend */
static bool task_unfit(const struct infer *in, int t, struct strbuf *sb)
{
	const struct wl_task *wt = &in->p->wl->tasks[t];
	const struct task_events *te = &in->te[t];

	if (wt->instances != 1)
		sb_printf(sb, "\"%s\" has %d instances", wt->name,
			  wt->instances);
	else if (te->differs)
		sb_printf(sb, "\"%s\"'s phases differ (\"%s\" has other timer, resume, suspend or blocking events than \"%s\")",
			  wt->name, te->differs, wt->phases[0].name);
	else if (te->pat.nresume > 1)
		sb_printf(sb, "\"%s\" resumes %d times per loop (a fork, not a chain)",
			  wt->name, te->pat.nresume);
	else if (te->pat.blocks)
		sb_printf(sb, "\"%s\" also blocks in \"%s\" (a completion there would end its part early)",
			  wt->name, te->pat.blocks);
	else
		return false;
	return true;
}

/* Whether @t cannot be a trigger (the reason into @sb) */
static bool trigger_unfit(const struct infer *in, int t, struct strbuf *sb)
{
	const struct pattern *pt = &in->te[t].pat;

	if (task_unfit(in, t, sb))
		return true;
	if (pt->ntimer != 1 || pt->timer_res < 0)
		sb_printf(sb, "\"%s\" has %d timers per loop", task_name(in, t),
			  pt->ntimer);
	else if (pt->timer_us < WL_CHAIN_PERIOD_MIN_US ||
		 pt->timer_us > WL_CHAIN_PERIOD_MAX_US)
		sb_printf(sb, "its timer's period %llu us is outside a chain's [%d, %d]",
			  (unsigned long long)pt->timer_us,
			  WL_CHAIN_PERIOD_MIN_US, WL_CHAIN_PERIOD_MAX_US);
	else
		return false;
	return true;
}

/* Whether @t, resumed by @by on @res, cannot be the chain's next task
 * (the reason into @sb) */
static bool resumed_unfit(const struct infer *in, int t, int by, int res,
			  struct strbuf *sb)
{
	const struct pattern *pt = &in->te[t].pat;

	if (task_unfit(in, t, sb))
		return true;
	if (pt->ntimer)
		sb_printf(sb, "\"%s\", resumed by \"%s\", has its own timer",
			  task_name(in, t), task_name(in, by));
	else if (pt->nsuspend != 1 || pt->suspend_res != res)
		sb_printf(sb, "\"%s\" suspends %d times per loop, not once on \"%s\"",
			  task_name(in, t), pt->nsuspend, res_name(in, res));
	else
		return false;
	return true;
}

/* Appends task @t to @ch's tasks, grown as a chain is followed (a
 * workload of many tasks has short chains: no array of all tasks each) */
static void chain_add(struct wl_chain *ch, int t)
{
	if (!(ch->ntasks & (ch->ntasks - 1)))	/* 0, 1, 2, 4, ...: full */
		ch->tasks = xrealloc(ch->tasks, 2 * ((size_t)ch->ntasks + 1) *
					     sizeof(*ch->tasks));
	ch->tasks[ch->ntasks++] = t;
}

static bool in_list(const struct wl_chain *ch, int t)
{
	int i;

	for (i = 0; i < ch->ntasks; i++)
		if (ch->tasks[i] == t)
			return true;
	return false;
}

/* The tasks from trigger @t down its resumes into @ch, or false with why */
static bool follow(const struct infer *in, int t, struct wl_chain *ch,
		   struct strbuf *sb)
{
	int cur = t, res = in->te[t].pat.resume_res;

	chain_add(ch, t);
	while (res >= 0) {
		const struct point_users *u = &in->pu[res];
		int next = u->suspender[0];

		if (u->nresumers > 1) {
			sb_printf(sb, "\"%s\" is resumed by \"%s\" and \"%s\"%s",
				  res_name(in, res),
				  task_name(in, u->resumer[0]),
				  task_name(in, u->resumer[1]),
				  u->nresumers > 2 ? " and more" : "");
			return false;
		}
		if (!u->nsuspenders)	/* a resume nobody waits for */
			break;
		if (u->nsuspenders > 1) {
			sb_printf(sb, "\"%s\" and \"%s\" both suspend on \"%s\"",
				  task_name(in, u->suspender[0]),
				  task_name(in, u->suspender[1]),
				  res_name(in, res));
			return false;
		}
		if (in->in_chain[next] || in_list(ch, next)) {
			sb_printf(sb, "\"%s\" is already in a chain",
				  task_name(in, next));
			return false;
		}
		if (resumed_unfit(in, next, cur, res, sb))
			return false;
		chain_add(ch, next);
		cur = next;
		res = in->te[next].pat.nresume ? in->te[next].pat.resume_res : -1;
	}
	if (ch->ntasks < 2) {
		sb_printf(sb, "no task suspends on \"%s\"",
			  res_name(in, in->te[t].pat.resume_res));
		return false;
	}
	return true;
}

/* The chain's name: the trigger's, with the characters a chain's name
 * cannot have as '_' */
static char *chain_name(const char *task)
{
	char *s = xstrdup(task), *c;

	for (c = s; *c; c++)
		if (!wl_chain_name_char_ok(*c))
			*c = '_';
	return s;
}

/* The events the chain was read from: the trigger's timer, then each
 * resume and the suspend it ends */
static void chain_links(const struct infer *in, struct wl_chain *ch)
{
	int i;

	ch->from = xcalloc(2 * (size_t)ch->ntasks - 1, sizeof(*ch->from));
	ch->from[ch->nfrom++] = (struct wl_chain_link){
		ch->tasks[0], WL_EV_TIMER, ch->start_timer };
	for (i = 1; i < ch->ntasks; i++) {
		int res = in->te[ch->tasks[i]].pat.suspend_res;

		ch->from[ch->nfrom++] = (struct wl_chain_link){
			ch->tasks[i - 1], WL_EV_RESUME, res };
		ch->from[ch->nfrom++] = (struct wl_chain_link){
			ch->tasks[i], WL_EV_SUSPEND, res };
	}
}

/* strmap's test: inferred chain @idx is named @key */
static bool chain_named(const void *ctx, int idx, uint64_t ns,
			const char *key, size_t len)
{
	const struct workload *wl = ctx;

	(void)ns;
	return !strncmp(wl->chains[idx].name, key, len) &&
	       !wl->chains[idx].name[len];
}

/* Trigger candidate @t: its chain appended to the workload, or a note */
static void try_trigger(struct infer *in, int t)
{
	struct workload *wl = in->p->wl;
	const struct wl_task *wt = &wl->tasks[t];
	struct wl_chain *ch = &wl->chains[wl->nchains];
	struct strbuf why, list;
	int i;

	sb_init(&why);
	*ch = (struct wl_chain){ .start_timer = -1 };
	ch->name = chain_name(wt->name);
	if (!trigger_unfit(in, t, &why) && follow(in, t, ch, &why) &&
	    strmap_get(&in->names, 0, ch->name, strlen(ch->name), chain_named,
		       wl) >= 0)
		sb_printf(&why, "another inferred chain is named \"%s\"",
			  ch->name);
	if (why.len) {
		jdoc_note(in->p->doc, wt->ptr, "no chain inferred from \"%s\"'s timer and resume: %s; name it in capsim.chains if it is one",
			  wt->name, why.buf);
		sb_free(&why);
		free(ch->tasks);
		free(ch->name);
		return;
	}
	sb_free(&why);
	ch->ptr = xstrdup(wt->ptr);
	ch->inferred = true;
	ch->start_timer = in->te[t].pat.timer_res;
	ch->start = xstrdup(res_name(in, ch->start_timer));
	ch->period_us = ch->deadline_us = in->te[t].pat.timer_us;
	chain_links(in, ch);
	strmap_put(&in->names, 0, ch->name, strlen(ch->name), wl->nchains,
		   chain_named, wl);
	wl->nchains++;
	sb_init(&list);
	for (i = 0; i < ch->ntasks; i++) {
		in->in_chain[ch->tasks[i]] = wl->nchains;
		sb_printf(&list, "%s%s", i ? " -> " : "",
			  task_name(in, ch->tasks[i]));
	}
	jdoc_note(in->p->doc, wt->ptr, "chain %s inferred from resume/suspend: %s (start: timer \"%s\", period and deadline %llu us)",
		  ch->name, list.buf, ch->start,
		  (unsigned long long)ch->period_us);
	sb_free(&list);
}

/* No trigger candidate, but a resume someone waits for: say so once */
static void note_no_trigger(const struct infer *in)
{
	const struct workload *wl = in->p->wl;
	int r;

	for (r = 0; r < wl->nres; r++) {
		const struct point_users *u = &in->pu[r];

		if (wl->res[r].kind != WL_RES_SUSPEND || !u->nresumers ||
		    !u->nsuspenders)
			continue;
		jdoc_note(in->p->doc, wl->tasks[u->resumer[0]].ptr,
			  "no chain inferred from resume/suspend: no task that resumes another is paced by a timer without suspending itself (\"%s\" resumes \"%s\"); name chains in capsim.chains",
			  task_name(in, u->resumer[0]), res_name(in, r));
		return;
	}
}

/* A task that may start a chain: paced by a timer, resumes another and
 * waits for none */
static bool is_trigger_candidate(const struct task_events *te)
{
	return te->any_timer && te->any_resume && !te->any_suspend;
}

void wl_infer_chains(struct wl_parser *p)
{
	struct workload *wl = p->wl;
	struct infer in = { .p = p };
	int t, candidates = 0;

	in.te = xcalloc((size_t)wl->ntasks + 1, sizeof(*in.te));
	in.pu = xcalloc((size_t)wl->nres + 1, sizeof(*in.pu));
	in.in_chain = xcalloc((size_t)wl->ntasks + 1, sizeof(*in.in_chain));
	for (t = 0; t < wl->ntasks; t++)
		scan_task(&in, t);
	for (t = 0; t < wl->ntasks; t++)
		candidates += is_trigger_candidate(&in.te[t]);
	/* at most a chain per candidate: sized so, not per task (a
	 * workload of 100 000 tasks and no chain keeps no array) */
	if (candidates)
		wl->chains = xcalloc((size_t)candidates, sizeof(*wl->chains));
	for (t = 0; t < wl->ntasks && candidates; t++)
		if (is_trigger_candidate(&in.te[t]))
			try_trigger(&in, t);
	if (!candidates)
		note_no_trigger(&in);
	free(in.te);
	free(in.pu);
	free(in.in_chain);
	strmap_free(&in.names);
}
