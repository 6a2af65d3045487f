// SPDX-License-Identifier: GPL-2.0
/*
 * uclamp's bucket aggregation and value rules (src/sim/uclamp_rq.c)
 * alone, and the documented over-boost against the RFC core's exact
 * answer (through the clamp host). Expected values are worked out by
 * hand from 6.12's rules in the comments.
 */
#include <check.h>

#include "check_main.h"
#include "clamp_host.h"
#include "uclamp_percent.h"
#include "uclamp_rq.h"

START_TEST(bucket_ids)
{
	/* 5 buckets: delta DIV_ROUND_CLOSEST(1024, 5) = 205 */
	ck_assert_uint_eq(uclamp_bucket_id(204, 5), 0);
	ck_assert_uint_eq(uclamp_bucket_id(205, 5), 1);
	ck_assert_uint_eq(uclamp_bucket_id(300, 5), 1);
	ck_assert_uint_eq(uclamp_bucket_id(400, 5), 1);
	ck_assert_uint_eq(uclamp_bucket_id(1024, 5), 4);	/* 1024/205 = 4 */
	/* 20 buckets: delta 51; 1024/51 = 20, capped to the last, 19 */
	ck_assert_uint_eq(uclamp_bucket_id(1024, 20), 19);
	ck_assert_uint_eq(uclamp_bucket_id(300, 20), 5);
}
END_TEST

/*
 * Two tasks boosted to 300 and 400 share bucket 1 of 5. When the 400 one
 * leaves, the bucket still has a task and keeps 400: the CPU reports 400
 * (the kernel's documented over-boost). The RFC's core aggregates the
 * exact values and reports 300.
 */
START_TEST(bucket_over_boost_against_rfc_exact)
{
	unsigned int t300[UCLAMP_CNT] = { 300, 1024 };
	unsigned int t400[UCLAMP_CNT] = { 400, 1024 };
	struct uclamp_cpu c;
	struct clamp_host h;
	struct host_group *ga, *gb;
	struct host_entity *ea, *eb;
	struct cap_clamp_range r;

	uclamp_cpu_init(&c, 5);
	uclamp_cpu_inc(&c, t300);
	uclamp_cpu_inc(&c, t400);
	ck_assert_uint_eq(uclamp_cpu_value(&c, UCLAMP_MIN), 400);
	uclamp_cpu_dec(&c, t400);
	ck_assert_uint_eq(uclamp_cpu_value(&c, UCLAMP_MIN), 400);
	/* with 20 buckets (delta 51) they are apart: 300 exactly */
	uclamp_cpu_init(&c, 20);
	uclamp_cpu_inc(&c, t300);
	uclamp_cpu_inc(&c, t400);
	uclamp_cpu_dec(&c, t400);
	ck_assert_uint_eq(uclamp_cpu_value(&c, UCLAMP_MIN), 300);
	/* the bucket empties: back to no boost */
	uclamp_cpu_dec(&c, t300);
	ck_assert_uint_eq(uclamp_cpu_value(&c, UCLAMP_MIN), 0);

	ck_assert_int_eq(clamp_host_init(&h, 1), 0);
	ck_assert_int_eq(clamp_host_group_create(&h, "/a", &ga), 0);
	ck_assert_int_eq(clamp_host_group_create(&h, "/b", &gb), 0);
	ck_assert_int_eq(clamp_host_write(&h, ga, CAP_CLAMP_MIN, 300), 0);
	ck_assert_int_eq(clamp_host_write(&h, gb, CAP_CLAMP_MIN, 400), 0);
	ck_assert_int_eq(clamp_host_entity_get(&h, 1, &ea), 0);
	ck_assert_int_eq(clamp_host_entity_get(&h, 2, &eb), 0);
	clamp_host_enqueue(&h, ea, 0, ga);
	clamp_host_enqueue(&h, eb, 0, gb);
	clamp_host_range(&h, 0, &r);
	ck_assert_uint_eq(r.min, 400);
	clamp_host_dequeue(&h, eb);
	clamp_host_range(&h, 0, &r);
	ck_assert_uint_eq(r.min, 300);
	clamp_host_destroy(&h);
}
END_TEST

/*
 * UCLAMP_FLAG_IDLE: the last task's max clamp is held while the CPU is
 * idle (so a capped CPU does not jump up while idle), and the next
 * enqueue replaces it, even by a lower value.
 */
START_TEST(idle_holds_the_max_clamp)
{
	unsigned int capped[UCLAMP_CNT] = { 0, 200 };
	unsigned int lower[UCLAMP_CNT] = { 0, 100 };
	unsigned int free_[UCLAMP_CNT] = { 0, 1024 };
	struct uclamp_cpu c;

	uclamp_cpu_init(&c, 5);
	ck_assert(c.idle);
	uclamp_cpu_inc(&c, capped);
	ck_assert_uint_eq(uclamp_cpu_value(&c, UCLAMP_MAX), 200);
	ck_assert(!c.idle);
	uclamp_cpu_dec(&c, capped);
	ck_assert(c.idle);
	ck_assert_uint_eq(uclamp_cpu_value(&c, UCLAMP_MAX), 200);
	/* uclamp_rq_util_with(): the held max still caps, unless a task
	 * is being placed there (it would reset the hold) */
	ck_assert_uint_eq(uclamp_rq_util_with(&c, 800, NULL), 200);
	ck_assert_uint_eq(uclamp_rq_util_with(&c, 800, free_), 800);
	uclamp_cpu_inc(&c, lower);
	ck_assert_uint_eq(uclamp_cpu_value(&c, UCLAMP_MAX), 100);
	/* not idle: the MAX of the task's and the CPU's clamps applies */
	ck_assert_uint_eq(uclamp_rq_util_with(&c, 800, free_), 800);
	ck_assert_uint_eq(uclamp_rq_util_with(&c, 800, lower), 100);
}
END_TEST

/*
 * cgroup cpu.uclamp.* text to capacity: DIV_ROUND_CLOSEST(p << 10,
 * 10000) with p in hundredths of a percent: 0.01% = 1024/10000 -> 0,
 * 25% -> 256, 33.33% = 3412992/10000 = 341.3 -> 341, 99.99% ->
 * 1023.9 -> 1024.
 */
START_TEST(percent_to_capacity)
{
	static const struct { const char *s; unsigned int x100, cap; } ok[] = {
		{ "0", 0, 0 }, { "0.01", 1, 0 }, { "25", 2500, 256 },
		{ "33.33", 3333, 341 }, { "50", 5000, 512 }, { "50.5", 5050, 517 },
		{ "99.99", 9999, 1024 }, { "100", 10000, 1024 },
		{ "max", 10000, 1024 },
	};
	static const char *const bad[] = {
		"", "100.01", "101", "1.234", "-1", "abc", "50.", ".5", "5 ",
	};
	unsigned int v;

	for (unsigned int i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_msg(!uclamp_parse_percent(ok[i].s, &v), "%s", ok[i].s);
		ck_assert_uint_eq(v, ok[i].x100);
		ck_assert_uint_eq(uclamp_capacity_from_percent(v), ok[i].cap);
	}
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(uclamp_parse_percent(bad[i], &v), "\"%s\"", bad[i]);
}
END_TEST

/*
 * uclamp_tg_restrict() + uclamp_eff_get(); cpu_util_update_eff(): a
 * child asking wider than its parent is accepted and restricted.
 */
START_TEST(effective_values)
{
	const unsigned int sys[UCLAMP_CNT] = { 1024, 1024 };
	const unsigned int sys_cap[UCLAMP_CNT] = { 1024, 800 };
	const unsigned int root[UCLAMP_CNT] = { 1024, 1024 };
	unsigned int g[UCLAMP_CNT], child[UCLAMP_CNT], eff[UCLAMP_CNT];

	/* first-level group {100, 500}: the root restricts nothing */
	uclamp_group_effective((unsigned int[]){ 100, 500 }, root, g);
	ck_assert_uint_eq(g[UCLAMP_MIN], 100);
	ck_assert_uint_eq(g[UCLAMP_MAX], 500);
	/* a child asking {700, 900}: each no above the parent's */
	uclamp_group_effective((unsigned int[]){ 700, 900 }, g, child);
	ck_assert_uint_eq(child[UCLAMP_MIN], 100);
	ck_assert_uint_eq(child[UCLAMP_MAX], 500);
	/* a min above its own max is capped by the max */
	uclamp_group_effective((unsigned int[]){ 600, 300 }, root, child);
	ck_assert_uint_eq(child[UCLAMP_MIN], 300);

	/* a task asking {600, 1024} in g: clamped into [100, 500] */
	uclamp_task_effective((unsigned int[]){ 600, 1024 }, g, sys, eff);
	ck_assert_uint_eq(eff[UCLAMP_MIN], 500);
	ck_assert_uint_eq(eff[UCLAMP_MAX], 500);
	/* a task asking nothing in g gets the group's floor */
	uclamp_task_effective((unsigned int[]){ 0, 1024 }, g, sys, eff);
	ck_assert_uint_eq(eff[UCLAMP_MIN], 100);
	/* in the root group: its request as is, then the system limits */
	uclamp_task_effective((unsigned int[]){ 1024, 1024 }, NULL, sys_cap, eff);
	ck_assert_uint_eq(eff[UCLAMP_MIN], 1024);
	ck_assert_uint_eq(eff[UCLAMP_MAX], 800);
	/* an RT task's default min (1024) in g: the group's max caps it */
	uclamp_task_effective((unsigned int[]){ 1024, 1024 }, g, sys, eff);
	ck_assert_uint_eq(eff[UCLAMP_MIN], 500);
}
END_TEST

/*
 * util_fits_cpu() on a LITTLE (446) and a big (1024) CPU: fits_capacity()
 * is util * 1280 < capacity * 1024 (300 on 446: 384000 < 456704; 400:
 * 512000, not); a uclamp_max at or below the CPU's capacity fits; a
 * boost above the CPU's capacity fits with -1.
 */
START_TEST(util_fits_cpu_rules)
{
	ck_assert_int_eq(uclamp_util_fits_cpu(300, 0, 1024, 446, 446, 446), 1);
	ck_assert_int_eq(uclamp_util_fits_cpu(400, 0, 1024, 446, 446, 446), 0);
	ck_assert_int_eq(uclamp_util_fits_cpu(400, 0, 300, 446, 446, 446), 1);
	ck_assert_int_eq(uclamp_util_fits_cpu(400, 0, 446, 446, 446, 446), 1);
	ck_assert_int_eq(uclamp_util_fits_cpu(400, 0, 447, 446, 446, 446), 0);
	ck_assert_int_eq(uclamp_util_fits_cpu(900, 0, 1024, 1024, 1024, 1024), 0);
	ck_assert_int_eq(uclamp_util_fits_cpu(900, 0, 300, 1024, 1024, 1024), 1);
	ck_assert_int_eq(uclamp_util_fits_cpu(100, 600, 1024, 446, 446, 446), -1);
	ck_assert_int_eq(uclamp_util_fits_cpu(100, 600, 1024, 1024, 1024, 1024), 1);
	/* the boost is capped by the max first: 600 -> 400, fits 446 */
	ck_assert_int_eq(uclamp_util_fits_cpu(100, 600, 400, 446, 446, 446), 1);
}
END_TEST

int main(void)
{
	return check_main("uclamp", 60, CHECK_TESTS(
			  bucket_ids,
			  bucket_over_boost_against_rfc_exact,
			  idle_holds_the_max_clamp,
			  percent_to_capacity,
			  effective_values,
			  util_fits_cpu_rules));
}
