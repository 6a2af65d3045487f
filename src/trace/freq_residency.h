/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A frequency domain's residency over a window: the one rule every
 * command that reads a trace applies (`capsim plot` and `compare` through
 * trace_scan.c, `capsim import-check` through trace_profile.c, `capsim
 * xcheck` levels 4 and 5 through src/xcheck/e2e.c; docs/traces.md, "What
 * is unknown stays unknown"):
 *  - the window is split between the domain's OPPs and `unknown`, the
 *    stretch before its first frequency event, for which no OPP is
 *    assumed; every share is of the whole window, `unknown` a row like
 *    the others;
 *  - two residencies compare by their total variation distance (1/2 sum
 *    of |p - q| over the OPPs, 0 the same, 1 disjoint) over the time both
 *    know. Once known a frequency stays known, so each side's unknown
 *    stretch is a prefix of its window and the time both know runs from
 *    the later of the two first known instants to the end. The side
 *    that knows its frequency later (the trace) is read first; the other
 *    (a simulated run, which knows from 0 s) is read with that side's
 *    unknown stretch as its cut, and counts the time at each OPP from the
 *    cut on, which is what the distance compares. Read the other way
 *    round (the second side knowing later than the first's cut) the
 *    distance is NAN: freq_residency_tvd() does not re-read the first.
 * Times are ns from the window's start.
 */
#ifndef CAPSIM_TRACE_FREQ_RESIDENCY_H
#define CAPSIM_TRACE_FREQ_RESIDENCY_H

#include <stdint.h>

struct freq_residency {
	int nopps;
	uint64_t *opp_ns;	/* time at each OPP of the domain's table */
	uint64_t unknown_ns;	/* before the domain's first frequency event */
	uint64_t cut_ns;	/* cut_opp_ns counts from here on */
	uint64_t *cut_opp_ns;	/* time at each OPP from cut_ns on */
};

/* @nopps OPPs (growable: freq_residency_insert_opp), counting the
 * distance's part from @cut_ns on (0: the whole window) */
void freq_residency_init(struct freq_residency *r, int nopps, uint64_t cut_ns);
void freq_residency_free(struct freq_residency *r);
/* A new OPP at index @at (a frequency a platform-less trace revealed) */
void freq_residency_insert_opp(struct freq_residency *r, int at);

/* [@t0, @t1) of the window at OPP @k, or unknown (@k < 0) */
static inline void freq_residency_add(struct freq_residency *r, int k,
				      uint64_t t0, uint64_t t1)
{
	if (t1 <= t0)
		return;
	if (k < 0) {
		r->unknown_ns += t1 - t0;
		return;
	}
	r->opp_ns[k] += t1 - t0;
	if (t1 > r->cut_ns)
		r->cut_opp_ns[k] += t1 - (t0 > r->cut_ns ? t0 : r->cut_ns);
}

/* The window's length: every OPP's time and the unknown stretch */
uint64_t freq_residency_window_ns(const struct freq_residency *r);
/* OPP @k's share of the window (@k < 0: unknown's), in percent; 0 for an
 * empty window */
double freq_residency_pct(const struct freq_residency *r, int k);
/* The distance between @a and @b over the time both know, its length
 * in *@known_s; NAN when there is none, or when one side counted from
 * before the other knew its frequency (it was not read with the other's
 * unknown stretch as its cut) */
double freq_residency_tvd(const struct freq_residency *a,
			  const struct freq_residency *b, double *known_s);

#endif
