/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSIM_PARETO_LABELS_H
#define CAPSIM_PARETO_LABELS_H

/*
 * Where each label of a Pareto panel goes, beside its point: two points
 * a few pixels apart otherwise print their labels over each other
 * ("307512"). A label is placed at the first of four spots that keeps
 * clear of the labels placed before it in its panel.
 */
enum pareto_label_pos {
	PARETO_LABEL_ABOVE_RIGHT = 1,	/* the default: gnuplot's labels */
	PARETO_LABEL_BELOW_RIGHT,
	PARETO_LABEL_ABOVE_LEFT,
	PARETO_LABEL_BELOW_LEFT,
};

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
 * The same, a label also kept inside its panel's plot area: @x_min per
 * panel is the least x of its points, and the part of a label's box
 * left of x_min - 5 % of the span or right of its points' largest x +
 * 12 % (pareto.gp's margins: gnuplot clips a label there) counts as
 * covered, so a long label at the right edge goes left
 */
void pareto_place_labels_within(struct pareto_label *l, int n, int npanels,
				const double *x_min, const double *x_span,
				const double *y_span);

#endif
