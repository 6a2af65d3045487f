// SPDX-License-Identifier: GPL-2.0
/*
 * Wake-up dependencies, so chains survive the import: when one task W
 * is the waker of at least IMPORT_DEP_SHARE (80 %) of task B's wake-ups
 * (and B woke at least IMPORT_DEP_MIN times), B becomes rt-app's
 * `suspend` on its own name followed by its work, and W `resume`s it at
 * the point of its activation where it woke B in the trace (the mean
 * share of W's work done by then). The waker is the pid of the
 * sched_waking event (or of sched_wakeup when the trace has no waking);
 * the idle task, an interrupt or a timer is no task: a timer-woken task
 * keeps its own period (import_period.c).
 *
 * Two tasks that follow each other (W wakes B, B wakes W: a ping-pong,
 * rt-app's tutorial/example4) both become `suspend` then work then
 * `resume` of the other. A `resume` of a task not (yet) suspended is
 * lost, in rt-app (a condition broadcast) as in capsim (src/sim/task.c),
 * and with one token handed back and forth a lost resume stops both for
 * good. So the pair is written as example4 is, with two tokens at the
 * start: each task starts without a suspend, with its activations up to
 * the first its partner woke (at least its first) timed by sleeps as in
 * the trace, the last run ending with the resume; each resumes at the
 * end of its run, straight before its own suspend (resume_frac 1). The
 * first of the two to end its start resumes a partner not yet suspended,
 * which is lost; the second finds the first suspended and wakes it: one
 * token is left, whatever the timing, and the pair alternates from then
 * on. A longer cycle (B resumes W through a third task) is left out,
 * since each side would wait for the other; so are folded tasks.
 */
#include <stdlib.h>

#include "import.h"
#include "util.h"

/* Does following the wakers from @w reach @b? */
static bool reaches(const struct import_model *m, int w, int b)
{
	int hops = 0;

	while (w >= 0 && hops++ <= m->ss.ntasks) {
		if (w == b)
			return true;
		w = import_task(m, w)->waker;
	}
	return false;
}

/* The waker of most of @t's wake-ups, and how many */
static int top_waker(const struct import_model *m, const struct import_task *t,
		     int *count)
{
	int i, j, best = -1, bestn = 0;

	/* a few distinct wakers per task in practice: count by rescanning
	 * the candidates seen (bounded by the activations) */
	for (i = 0; i < t->nacts; i++) {
		int w = t->acts[i].waker, n = 0;

		if (w < 0 || w == best)
			continue;
		for (j = i; j < t->nacts; j++)
			n += t->acts[j].waker == w;
		if (n > bestn) {
			best = w;
			bestn = n;
		}
		if (bestn * 2 > t->nacts)
			break;	/* a majority: no other can win */
	}
	(void)m;
	*count = bestn;
	return best;
}

/* @t's first activation woken by @w (nacts: none) */
static int first_woken_by(const struct import_task *t, int w)
{
	int i;

	for (i = 0; i < t->nacts && t->acts[i].waker != w; i++)
		;
	return i;
}

/* @b now follows @w, which already follows @b: a two-way pair; each
 * starts with its activations before the first its partner woke, and at
 * least its first */
static void pair(struct import_task *b, struct import_task *w)
{
	int fb = first_woken_by(b, w->st.idx), fw = first_woken_by(w, b->st.idx);

	b->partner = w->st.idx;
	w->partner = b->st.idx;
	b->start_acts = fb > 1 ? fb : 1;
	w->start_acts = fw > 1 ? fw : 1;
}

static void follow(struct import_task *b, struct import_task *w)
{
	b->waker = w->st.idx;
	w->resumes = xrealloc(w->resumes,
			      (size_t)(w->nresumes + 1) * sizeof(int));
	w->resumes[w->nresumes++] = b->st.idx;
}

void import_deps(struct import_model *m)
{
	int i, n, w;

	for (i = 0; i < m->ss.ntasks; i++) {
		struct import_task *b = import_task(m, i), *wt;

		if (b->folded || b->nacts < IMPORT_DEP_MIN)
			continue;
		w = top_waker(m, b, &n);
		if (w < 0 || w == i || n < IMPORT_DEP_SHARE * b->nacts)
			continue;
		wt = import_task(m, w);
		if (wt->folded)
			continue;
		if (reaches(m, w, i)) {
			/* a cycle: kept when it is two tasks only */
			if (wt->waker != i)
				continue;
			pair(b, wt);
		}
		follow(b, wt);
	}
	for (i = 0; i < m->ss.ntasks; i++)
		import_resume_frac(import_task(m, i));
}

/* Where in its activation a waker resumes: the share of its run done
 * when it woke its dependants in the trace; a task of a two-way pair at
 * the end of its run, whatever the trace says (the top of this file) */
void import_resume_frac(struct import_task *t)
{
	double before = 0, all = 0;
	int j;

	if (!t->nresumes)
		return;
	if (t->partner >= 0) {
		t->resume_frac = 1.0;
		return;
	}
	for (j = 0; j < t->nacts; j++) {
		if (t->acts[j].work_at_wake < 0)
			continue;
		before += t->acts[j].work_at_wake;
		all += t->acts[j].work;
	}
	t->resume_frac = all > 0 ? before / all : 1.0;
}
