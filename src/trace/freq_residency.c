// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "freq_residency.h"
#include "util.h"

void freq_residency_init(struct freq_residency *r, int nopps, uint64_t cut_ns)
{
	memset(r, 0, sizeof(*r));
	r->nopps = nopps;
	r->cut_ns = cut_ns;
	/* at least one slot each: callers index them only below nopps */
	r->opp_ns = xcalloc((size_t)(nopps > 0 ? nopps : 1), sizeof(uint64_t));
	r->cut_opp_ns = xcalloc((size_t)(nopps > 0 ? nopps : 1),
				sizeof(uint64_t));
}

void freq_residency_free(struct freq_residency *r)
{
	free(r->opp_ns);
	free(r->cut_opp_ns);
	memset(r, 0, sizeof(*r));
}

void freq_residency_insert_opp(struct freq_residency *r, int at)
{
	size_t n = (size_t)r->nopps + 1;

	r->opp_ns = xrealloc(r->opp_ns, n * sizeof(uint64_t));
	r->cut_opp_ns = xrealloc(r->cut_opp_ns, n * sizeof(uint64_t));
	memmove(r->opp_ns + at + 1, r->opp_ns + at,
		(size_t)(r->nopps - at) * sizeof(uint64_t));
	memmove(r->cut_opp_ns + at + 1, r->cut_opp_ns + at,
		(size_t)(r->nopps - at) * sizeof(uint64_t));
	r->opp_ns[at] = 0;
	r->cut_opp_ns[at] = 0;
	r->nopps++;
}

uint64_t freq_residency_window_ns(const struct freq_residency *r)
{
	uint64_t ns = r->unknown_ns;

	for (int k = 0; k < r->nopps; k++)
		ns += r->opp_ns[k];
	return ns;
}

double freq_residency_pct(const struct freq_residency *r, int k)
{
	uint64_t win = freq_residency_window_ns(r);

	if (!win)
		return 0;
	return 100.0 * (double)(k < 0 ? r->unknown_ns : r->opp_ns[k]) /
	       (double)win;
}

/* From where @r counted the distance's part: its cut, or its first known
 * instant when that came later */
static uint64_t counted_from(const struct freq_residency *r)
{
	return r->unknown_ns > r->cut_ns ? r->unknown_ns : r->cut_ns;
}

double freq_residency_tvd(const struct freq_residency *a,
			  const struct freq_residency *b, double *known_s)
{
	double sa = 0, sb = 0, tvd = 0;
	int k;

	*known_s = 0;
	if (a->nopps != b->nopps || counted_from(a) != counted_from(b))
		return NAN;
	for (k = 0; k < a->nopps; k++) {
		sa += (double)a->cut_opp_ns[k];
		sb += (double)b->cut_opp_ns[k];
	}
	*known_s = (sa < sb ? sa : sb) / 1e9;
	if (sa == 0 || sb == 0)
		return NAN;
	for (k = 0; k < a->nopps; k++)
		tvd += fabs((double)a->cut_opp_ns[k] / sa -
			    (double)b->cut_opp_ns[k] / sb);
	return tvd / 2;
}
