// SPDX-License-Identifier: GPL-2.0
/*
 * Label placement for the Pareto plot (pareto_labels.h). The sizes are
 * those plots/pareto.gp draws at: a 1000-pixel wide figure whose plot area
 * is about 620 pixels beside the key, a panel about 290 pixels high when
 * there are several (600 alone), labels in a 9-point font (7-8 pixels a
 * character in pngcairo, 13 a line), set off by about one character from
 * the point; pareto.gp's margins widen each axis beyond its points' span
 * (x by 17 %, y by 13 %) and gnuplot then extends it to whole ticks (the
 * frame sweep's sd855 panel: points over 15.3 J, axis 20 J), taken here
 * as 35 % and 30 %. Estimates, on the large side: a box too large only
 * moves a label that might have fitted.
 */
#include <math.h>
#include <stddef.h>

#include "pareto_labels.h"

#define PLOT_W_PX	620.0
#define PANEL_H_PX	290.0
#define ALONE_H_PX	600.0
#define CHAR_W_PX	7.5
#define LINE_H_PX	13.0

struct box {
	double x0, x1, y0, y1;
};

/* a span of 0 (every point at one value) is drawn as some range */
static double range_of(double span, double at)
{
	if (span > 0)
		return span;
	return fabs(at) > 0 ? fabs(at) * 0.1 : 1.0;
}

static struct box box_at(const struct pareto_label *l, enum pareto_label_pos p,
			 double cw, double lh)
{
	double w = (l->len + 1) * cw;
	struct box b;

	if (p == PARETO_LABEL_ABOVE_RIGHT || p == PARETO_LABEL_BELOW_RIGHT ||
	    p == PARETO_LABEL_HIGH_RIGHT) {
		b.x0 = l->x + cw;
		b.x1 = l->x + w;
	} else {
		b.x0 = l->x - w;
		b.x1 = l->x - cw;
	}
	if (p == PARETO_LABEL_HIGH_RIGHT || p == PARETO_LABEL_HIGH_LEFT) {
		b.y0 = l->y + 1.3 * lh;
		b.y1 = l->y + 2.3 * lh;
	} else if (p == PARETO_LABEL_ABOVE_RIGHT || p == PARETO_LABEL_ABOVE_LEFT) {
		b.y0 = l->y + 0.2 * lh;
		b.y1 = l->y + 1.2 * lh;
	} else {
		b.y0 = l->y - 1.2 * lh;
		b.y1 = l->y - 0.2 * lh;
	}
	return b;
}

static double overlap(const struct box *a, const struct box *b)
{
	double w = fmin(a->x1, b->x1) - fmax(a->x0, b->x0);
	double h = fmin(a->y1, b->y1) - fmax(a->y0, b->y0);

	return w > 0 && h > 0 ? w * h : 0;
}

/* The part of @b outside @a (x from, x to, y from, y to), as an area */
static double outside(const struct box *b, const double *a)
{
	double w = b->x1 - b->x0, h = b->y1 - b->y0;
	double ox = fmin(w, fmax(0, a[0] - b->x0) + fmax(0, b->x1 - a[1]));
	double oy = fmin(h, fmax(0, a[2] - b->y0) + fmax(0, b->y1 - a[3]));

	return w * h - (w - ox) * (h - oy);
}

void pareto_place_labels(struct pareto_label *l, int n, int npanels,
			 const double *x_span, const double *y_span)
{
	pareto_place_labels_within(l, n, npanels, NULL, x_span, y_span);
}

void pareto_place_labels_within(struct pareto_label *l, int n, int npanels,
				const double *area, const double *x_span,
				const double *y_span)
{
	double panel_h = npanels > 1 ? PANEL_H_PX : ALONE_H_PX;
	int i, j;

	for (i = 0; i < n; i++) {
		int k = l[i].panel - 1;
		double cw = 1.35 * range_of(x_span[k], l[i].x) * CHAR_W_PX /
			    PLOT_W_PX;
		double lh = 1.30 * range_of(y_span[k], l[i].y) * LINE_H_PX /
			    panel_h;
		enum pareto_label_pos p, best = PARETO_LABEL_ABOVE_RIGHT;
		double least = INFINITY;

		/* the first spot clear of every label placed before it in
		 * the panel; else the one that covers least of them */
		for (p = PARETO_LABEL_ABOVE_RIGHT; p <= PARETO_LABEL_SPOTS;
		     p++) {
			struct box b = box_at(&l[i], p, cw, lh);
			double covered = 0;

			if (area)
				covered = outside(&b, &area[4 * k]);

			for (j = 0; j < i; j++) {
				struct box o;

				if (l[j].panel != l[i].panel)
					continue;
				o = box_at(&l[j], l[j].pos, cw, lh);
				covered += overlap(&b, &o);
			}
			if (covered < least) {
				least = covered;
				best = p;
			}
			if (covered == 0)
				break;
		}
		l[i].pos = best;
	}
}
