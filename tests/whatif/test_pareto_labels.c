// SPDX-License-Identifier: GPL-2.0
/*
 * Where the Pareto plot's labels go (src/whatif/pareto_labels.c), in
 * process:
 *  - labels far apart all keep the default spot, above right;
 *  - the frame sweep's two uclamp points on sd855 (9.91 J at 92.6 % and
 *    10.63 J at 91.8 %, a panel of points over 15.3 J and 92.6 %), whose
 *    labels printed as one "307512", get two spots;
 *  - the same two points in different panels do not move each other;
 *  - four labels at one spot take the four spots;
 *  - a long label at the right edge of its panel goes left, one below
 *    a point on the axis's floor goes up.
 */
#include <check.h>

#include "../sim/check_main.h"
#include "pareto_labels.h"

static const double sd855_x[] = { 15.28, 15.28 };
static const double sd855_y[] = { 92.62, 92.62 };

START_TEST(far_apart_keep_the_default)
{
	struct pareto_label l[] = {
		{ .x = 11.72, .y = 0, .panel = 1, .len = 3 },
		{ .x = 14.64, .y = 0, .panel = 1, .len = 3 },
		{ .x = 17.77, .y = 0, .panel = 1, .len = 3 },
		{ .x = 13.52, .y = 80.1, .panel = 1, .len = 3 },
	};
	int i;

	pareto_place_labels(l, 4, 2, sd855_x, sd855_y);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(l[i].pos, PARETO_LABEL_ABOVE_RIGHT);
}
END_TEST

START_TEST(neighbours_move_apart)
{
	struct pareto_label l[] = {
		{ .x = 9.91, .y = 92.62, .panel = 1, .len = 3 },
		{ .x = 10.63, .y = 91.75, .panel = 1, .len = 3 },
	};

	pareto_place_labels(l, 2, 2, sd855_x, sd855_y);
	ck_assert_int_eq(l[0].pos, PARETO_LABEL_ABOVE_RIGHT);
	ck_assert_int_ne(l[1].pos, PARETO_LABEL_ABOVE_RIGHT);
}
END_TEST

START_TEST(other_panels_do_not_count)
{
	struct pareto_label l[] = {
		{ .x = 9.91, .y = 92.62, .panel = 1, .len = 3 },
		{ .x = 10.63, .y = 91.75, .panel = 2, .len = 3 },
	};

	pareto_place_labels(l, 2, 2, sd855_x, sd855_y);
	ck_assert_int_eq(l[0].pos, PARETO_LABEL_ABOVE_RIGHT);
	ck_assert_int_eq(l[1].pos, PARETO_LABEL_ABOVE_RIGHT);
}
END_TEST

START_TEST(one_spot_four_ways)
{
	struct pareto_label l[4];
	int i, j;

	for (i = 0; i < 4; i++)
		l[i] = (struct pareto_label){ .x = 5, .y = 50, .panel = 1,
					      .len = 4 };
	pareto_place_labels(l, 4, 1, sd855_x, sd855_y);
	for (i = 0; i < 4; i++)
		for (j = 0; j < i; j++)
			ck_assert_int_ne(l[i].pos, l[j].pos);
}
END_TEST

/* a long label at the panel's right edge goes left of its point, where
 * gnuplot does not clip it; without the bounds it stays right */
START_TEST(long_label_at_the_edge_goes_left)
{
	static const double area[] = { 0.1, 4.0, 2, 16 }, xs[] = { 3.3 },
			    ys[] = { 12 };
	struct pareto_label l = { .x = 3.6, .y = 3, .panel = 1, .len = 60 };

	pareto_place_labels_within(&l, 1, 1, area, xs, ys);
	ck_assert(l.pos == PARETO_LABEL_ABOVE_LEFT ||
		  l.pos == PARETO_LABEL_BELOW_LEFT);
	pareto_place_labels(&l, 1, 1, xs, ys);
	ck_assert_int_eq(l.pos, PARETO_LABEL_ABOVE_RIGHT);
}
END_TEST

/* a label below a point on the floor of the axis goes above it */
START_TEST(no_label_below_the_floor)
{
	static const double area[] = { 0, 30, 0, 100 }, xs[] = { 20 },
			    ys[] = { 95 };
	struct pareto_label l[] = {
		{ .x = 10, .y = 0, .panel = 1, .len = 8 },
		{ .x = 10.2, .y = 0, .panel = 1, .len = 8 },
	};

	pareto_place_labels_within(l, 2, 1, area, xs, ys);
	ck_assert_int_eq(l[0].pos, PARETO_LABEL_ABOVE_RIGHT);
	ck_assert_int_eq(l[1].pos, PARETO_LABEL_ABOVE_LEFT);
}
END_TEST

int main(void)
{
	return check_main("pareto_labels", 0, CHECK_TESTS(
		far_apart_keep_the_default, neighbours_move_apart,
		other_panels_do_not_count,
		one_spot_four_ways, long_label_at_the_edge_goes_left,
		no_label_below_the_floor));
}
