/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSIM_PARETO_LABELS_H
#define CAPSIM_PARETO_LABELS_H

/*
 * Where each label of a Pareto panel goes, beside its point: two points
 * a few pixels apart otherwise print their labels over each other
 * ("307512"). A label is placed at the first of six spots (four beside
 * the point, two a line higher) that keeps clear of the labels placed
 * before it in its panel.
 */
enum pareto_label_pos {
	PARETO_LABEL_ABOVE_RIGHT = 1,	/* the default: gnuplot's labels */
	PARETO_LABEL_BELOW_RIGHT,
	PARETO_LABEL_ABOVE_LEFT,
	PARETO_LABEL_BELOW_LEFT,
	/* a line higher: for a row of points whose first line is taken */
	PARETO_LABEL_HIGH_RIGHT,
	PARETO_LABEL_HIGH_LEFT,
};
#define PARETO_LABEL_SPOTS PARETO_LABEL_HIGH_LEFT

struct pareto_label {
	double x, y;		/* its point, in data units */
	int panel;		/* from 1 */
	int len;		/* characters */
	enum pareto_label_pos pos;	/* out */
};

/*
 * Place @n labels, in order, on @npanels panels as plots/pareto.gp draws
 * them (its offsets and sizes: the boxes are estimates in pixels scaled
 * to each panel's data ranges, which are those of all its points, not
 * only the labelled ones: @x_span/@y_span per panel, index panel - 1).
 */
void pareto_place_labels(struct pareto_label *l, int n, int npanels,
			 const double *x_span, const double *y_span);
/*
 * The same, a label also kept inside its panel's plot area: @area per
 * panel (4 values from index 4 * (panel - 1): x from, x to, y from, y
 * to, in data units; the caller knows pareto.gp's margins), the part of
 * a label's box outside it counting as covered, so a long label at the
 * right edge goes left and one below a point on a floor of 0 goes up
 */
void pareto_place_labels_within(struct pareto_label *l, int n, int npanels,
				const double *area, const double *x_span,
				const double *y_span);

#endif
