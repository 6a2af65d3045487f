// SPDX-License-Identifier: GPL-2.0
/*
 * Barriers between loop tasks (docs/import.md, "Barriers"). An rt-app
 * `barrier` blocks each task that names it until the last of them
 * arrives, and the last one, which does not block, wakes the others and
 * runs on (src/sim/task.c). In a trace that is: at one step of every pass
 * each waiting task is woken by the same task W, all at one instant, and
 * W keeps running after the wake-ups. Read one wake-up at a time such a
 * task is a sleep of the length it waited in the trace, so in a replay
 * the two tasks drift apart (rt-app's tutorial/example7).
 *
 * The rule, on tasks that are loops of k steps (import_loop.c) and
 * neither follow a waker, resume others nor belong to a two-way pair
 * (import_deps.c; their waits are already suspends):
 *   - an edge: task B's wait at the end of its step j ends, in every
 *     whole pass whose next wake-up is in the window, with a wake-up by
 *     the same loop task W; in the passes where W is inside its loop (at
 *     least IMPORT_LOOP_MIN), during the same step s of W, in W's pass
 *     q + c for B's pass q (c the same in every pass), and W did at least
 *     IMPORT_BARRIER_RUN_ON_NS of work after its first wake-up of that
 *     activation (it did not block there);
 *   - a barrier: the edges of one (W, s), each B once, whose wake-ups of
 *     one pass are within IMPORT_BARRIER_TOL_NS of each other; its users
 *     are W and the Bs;
 *   - the passes aligned: a barrier counts arrivals, so the n-th arrival
 *     of each user must be the same moment of the trace, and import_loop.c
 *     begins each task's pass at its own longest sleep. The tasks linked
 *     by barriers (at most IMPORT_BARRIER_TASKS) have their first pass
 *     moved forward by 0 to 2k - 1 activations each (a rotation of the
 *     steps and at most one whole pass; the activations before it become
 *     measured steps), the least moves that make c 0 on every edge; their
 *     loops are found again from there (the loop criterion must still
 *     hold), keep as many passes as the shortest of them, and their
 *     edges found again must all say c = 0. Else the set has no
 *     barriers and its loops are as they were.
 * Each user then arrives at the barrier at the same pass and the trace's
 * order of arrivals is every user's order, so the replay cannot deadlock
 * inside the loops.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "import.h"
#include "util.h"

struct edge {
	int b, j;		/* the waiting task and its step */
	int w, s;		/* the waker and its step */
	int c;			/* W's pass less B's */
	int iw, ib;		/* one pass's arrival: W's activation, and
				 * B's whose wait it ends */
	double frac;		/* share of W's run before the wake-up */
	bool dead, done;	/* dropped; its set aligned */
};

static bool eligible(const struct import_task *t)
{
	return t->loop && !t->folded && t->waker < 0 && t->partner < 0 &&
	       t->nresumes == 0;
}

/* The activation of @w under way at @at: the last woken at or before it */
static int act_at(const struct import_task *w, uint64_t at)
{
	int lo = 0, hi = w->nacts - 1, r = -1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (w->acts[mid].wake <= at) {
			r = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return r;
}

/* The activation that ends the wait of @b's step @j in its pass @q
 * (past its activations at the window's end: >= nacts) */
static int wait_end(const struct import_task *b, int j, int q)
{
	return b->loop->head + q * b->loop->k + j + 1;
}

/* Is @b's step @j's wait a barrier's, and whose (@e)? */
static bool find_edge(const struct import_model *m, int b, int j,
		      struct edge *e)
{
	const struct import_task *bt = import_task(m, b), *wt = NULL;
	const struct import_loop *lp = bt->loop, *wl = NULL;
	int q, matched = 0;
	double frac = 0;

	*e = (struct edge){ .b = b, .j = j, .w = -1, .s = -1 };
	for (q = 0; q < lp->loops; q++) {
		int i = wait_end(bt, j, q), iw, qw, sw;
		const struct import_act *a, *aw;

		if (i >= bt->nacts)
			continue;	/* the window ends in that wait */
		a = &bt->acts[i];
		if (a->waker < 0 || (e->w >= 0 && a->waker != e->w))
			return false;
		if (e->w < 0) {
			e->w = a->waker;
			wt = import_task(m, e->w);
			wl = wt->loop;
			if (!eligible(wt))
				return false;
		}
		iw = act_at(wt, a->wake);
		if (iw < wl->head || iw >= wl->head + wl->loops * wl->k)
			continue;	/* outside W's loop: not compared */
		qw = (iw - wl->head) / wl->k;
		sw = (iw - wl->head) % wl->k;
		if (matched && (sw != e->s || qw - q != e->c))
			return false;
		e->s = sw;
		e->c = qw - q;
		aw = &wt->acts[iw];
		if (aw->work_at_wake < 0 ||
		    aw->work - aw->work_at_wake < IMPORT_BARRIER_RUN_ON_NS)
			return false;	/* it blocked: not the last arrival */
		frac += aw->work > 0 ? aw->work_at_wake / aw->work : 0;
		if (!matched) {
			e->iw = iw;
			e->ib = i - 1;
		}
		matched++;
	}
	e->frac = matched ? frac / matched : 0;
	return matched >= IMPORT_LOOP_MIN;
}

/* Are @x's and @y's wake-ups (one waker, one step of it) one instant in
 * every pass both have? */
static bool same_instant(const struct import_model *m, const struct edge *x,
			 const struct edge *y)
{
	const struct import_task *bx = import_task(m, x->b),
				 *by = import_task(m, y->b);
	int q;

	if (x->b == y->b)
		return false;	/* one task twice at one arrival of W */
	for (q = 0; q < bx->loop->loops; q++) {
		int qy = q + x->c - y->c;	/* y's pass at W's pass */
		int ix = wait_end(bx, x->j, q), iy = wait_end(by, y->j, qy);
		uint64_t tx, ty;

		if (qy < 0 || qy >= by->loop->loops || ix >= bx->nacts ||
		    iy >= by->nacts)
			continue;
		tx = bx->acts[ix].wake;
		ty = by->acts[iy].wake;
		if ((tx > ty ? tx - ty : ty - tx) > IMPORT_BARRIER_TOL_NS)
			return false;
	}
	return true;
}

static void kill_group(struct edge *e, int n, int w, int s)
{
	int i;

	for (i = 0; i < n; i++)
		if (e[i].w == w && e[i].s == s)
			e[i].dead = true;
}

/* The tasks linked to @t by live edges, in @set (at most
 * IMPORT_BARRIER_TASKS + 1 of them: more is refused); their number */
static int linked(const struct edge *e, int n, int t, int *set)
{
	int ns = 1, i, x;
	bool changed = true;

	set[0] = t;
	while (changed && ns <= IMPORT_BARRIER_TASKS) {
		changed = false;
		for (i = 0; i < n && ns <= IMPORT_BARRIER_TASKS; i++) {
			bool hw = false, hb = false;

			if (e[i].dead)
				continue;
			for (x = 0; x < ns; x++) {
				hw |= set[x] == e[i].w;
				hb |= set[x] == e[i].b;
			}
			if (hw != hb) {
				set[ns++] = hw ? e[i].b : e[i].w;
				changed = true;
			}
		}
	}
	return ns;
}

static int slot(const int *set, int ns, int t)
{
	int x;

	for (x = 0; x < ns; x++)
		if (set[x] == t)
			return x;
	return -1;
}

/* A pass index: activation @i under a loop of @k steps from @head */
static int pass_of(int i, int head, int k)
{
	return i >= head ? (i - head) / k : -1 - (head - 1 - i) / k;
}

/*
 * The first passes of the linked tasks @set: each moved forward by 0 to
 * 2k - 1 activations (a rotation of its steps and at most one whole
 * pass) so that on every edge W's arrival and B's wait are in passes of
 * one number; the moves of least sum in @off. False: none does.
 */
static bool find_offsets(const struct import_model *m, const struct edge *e,
			 int n, const int *set, int ns, int *off)
{
	int cur[IMPORT_BARRIER_TASKS + 1] = { 0 }, best = INT_MAX, x, i;

	for (;;) {
		int sum = 0;
		bool ok = true;

		for (i = 0; ok && i < n; i++) {
			int xw = slot(set, ns, e[i].w), xb = slot(set, ns, e[i].b);
			const struct import_loop *lw, *lb;

			if (e[i].dead || xw < 0)
				continue;
			lw = import_task(m, e[i].w)->loop;
			lb = import_task(m, e[i].b)->loop;
			ok = pass_of(e[i].iw, lw->head + cur[xw], lw->k) ==
			     pass_of(e[i].ib, lb->head + cur[xb], lb->k);
		}
		for (x = 0; x < ns; x++)
			sum += cur[x];
		if (ok && sum < best) {
			best = sum;
			for (x = 0; x < ns; x++)
				off[x] = cur[x];
		}
		/* the next combination */
		for (x = 0; x < ns; x++) {
			if (++cur[x] < 2 * import_task(m, set[x])->loop->k)
				break;
			cur[x] = 0;
		}
		if (x == ns)
			return best != INT_MAX;
	}
}

/* The loops of a set of linked tasks as they were before align() */
struct saved_loops {
	struct import_loop loop[IMPORT_BARRIER_TASKS + 1];
	struct import_phase phase[IMPORT_BARRIER_TASKS + 1];
};

static void save(const struct import_model *m, const int *set, int ns,
		 struct saved_loops *sv)
{
	int x;

	for (x = 0; x < ns; x++) {
		sv->loop[x] = *import_task(m, set[x])->loop;
		sv->phase[x] = import_task(m, set[x])->phases[0];
	}
}

static void restore(const struct import_model *m, const int *set, int ns,
		    const struct saved_loops *sv)
{
	int x;

	for (x = 0; x < ns; x++) {
		*import_task(m, set[x])->loop = sv->loop[x];
		import_task(m, set[x])->phases[0] = sv->phase[x];
	}
}

/* @set's loops found again from their moved first passes, as many passes
 * each as the shortest; false when one misses the loop criterion there
 * or too few passes are left (the caller restores them) */
static bool align(struct import_model *m, const int *set, int ns,
		  const int *off)
{
	int x, loops = INT_MAX;
	bool ok = true;

	for (x = 0; ok && x < ns; x++) {
		struct import_task *u = import_task(m, set[x]);

		ok = !off[x] || import_loop_at(u, u->loop->head + off[x]);
		if (ok && u->loop->loops < loops)
			loops = u->loop->loops;
	}
	if (!ok || loops < IMPORT_LOOP_MIN)
		return false;
	for (x = 0; x < ns; x++) {
		struct import_task *u = import_task(m, set[x]);
		struct import_loop *lp = u->loop;

		lp->aligned = off[x];
		lp->loops = loops;
		lp->tail = u->nacts - lp->head - loops * lp->k;
		u->phases[0].loops = loops;
	}
	return true;
}

/* The edges of @set found again on the aligned loops: each the same
 * link, W's pass now B's; false when one is not */
static bool recheck(const struct import_model *m, struct edge *e, int n,
		    const int *set, int ns)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct import_loop *lb;
		struct edge again;

		if (e[i].dead || slot(set, ns, e[i].b) < 0)
			continue;
		lb = import_task(m, e[i].b)->loop;
		/* B's waiting activation is now step j' of its loop */
		again.j = ((e[i].ib - lb->head) % lb->k + lb->k) % lb->k;
		if (!find_edge(m, e[i].b, again.j, &again) ||
		    again.w != e[i].w || again.c != 0)
			return false;
		e[i].j = again.j;
		e[i].s = again.s;
		e[i].frac = again.frac;
	}
	return true;
}

/* The live edges of one (W, s): one barrier */
static void make_barriers(struct import_model *m, const struct edge *e,
			  int n)
{
	int i, x;

	for (i = 0; i < n; i++) {
		struct import_task *w;
		struct import_barrier *br;
		bool first = true;

		for (x = 0; x < i; x++)
			if (!e[x].dead && e[x].w == e[i].w && e[x].s == e[i].s)
				first = false;
		if (e[i].dead || !first)
			continue;
		w = import_task(m, e[i].w);
		m->barriers = xrealloc(m->barriers, (size_t)(m->nbarriers + 1) *
						    sizeof(*m->barriers));
		br = &m->barriers[m->nbarriers];
		*br = (struct import_barrier){
			.name = xasprintf("%s.%d", w->name, e[i].s),
			.waker = e[i].w, .step = e[i].s, .users = 1 };
		w->loop->steps[e[i].s].barrier_arrive = m->nbarriers;
		w->loop->steps[e[i].s].barrier_frac = e[i].frac;
		for (x = i; x < n; x++) {
			if (e[x].dead || e[x].w != e[i].w || e[x].s != e[i].s)
				continue;
			import_task(m, e[x].b)->loop->steps[e[x].j].barrier_wait =
				m->nbarriers;
			br->users++;
		}
		m->nbarriers++;
	}
}

void import_barriers(struct import_model *m)
{
	struct edge *e = NULL;
	int n = 0, cap = 0, b, j, x, ns, set[IMPORT_BARRIER_TASKS + 1],
	    off[IMPORT_BARRIER_TASKS + 1];

	for (b = 0; b < m->ss.ntasks; b++) {
		const struct import_task *t = import_task(m, b);

		for (j = 0; eligible(t) && j < t->loop->k; j++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 8;
				e = xrealloc(e, (size_t)cap * sizeof(*e));
			}
			n += find_edge(m, b, j, &e[n]);
		}
	}
	/* one barrier per (W, s): its waiters woken at one instant */
	for (j = 0; j < n; j++)
		for (x = j + 1; x < n; x++)
			if (!e[j].dead && e[x].w == e[j].w &&
			    e[x].s == e[j].s && !same_instant(m, &e[j], &e[x]))
				kill_group(e, n, e[j].w, e[j].s);
	/* each set of linked tasks aligned, or its edges dropped */
	for (j = 0; j < n; j++) {
		struct saved_loops sv;

		if (e[j].dead || e[j].done)
			continue;
		ns = linked(e, n, e[j].w, set);
		if (ns <= IMPORT_BARRIER_TASKS &&
		    find_offsets(m, e, n, set, ns, off)) {
			save(m, set, ns, &sv);
			if (align(m, set, ns, off) && recheck(m, e, n, set, ns)) {
				for (x = 0; x < n; x++)
					e[x].done |= slot(set, ns, e[x].w) >= 0;
				continue;
			}
			restore(m, set, ns, &sv);
		}
		/* (a set past IMPORT_BARRIER_TASKS: every edge of the part
		 * found, so that what is left of it is a set of its own) */
		for (x = 0; x < n; x++)
			if (slot(set, ns, e[x].w) >= 0 ||
			    slot(set, ns, e[x].b) >= 0)
				e[x].dead = true;
	}
	make_barriers(m, e, n);
	free(e);
}
