// SPDX-License-Identifier: GPL-2.0
/*
 * One sugov_effective_cpu_perf() (issue 24): the governor
 * (sugov_next_perf()), placement (eas_cpu_perf(), eenv_pd_max_util()'s
 * per-CPU level) and the energy model (em_cpu_perf_in()) give the same
 * level for the same CPU numbers under every clamp policy. Each path is
 * given the CPU's numbers as the simulator gives them: the governor the
 * policy's cpu_clamp() values, EAS and the EM the same with the range
 * kept only where it is the rq's clamp (clamp_policy_ops.uclamp_used, as
 * em_cpu_clamp()). The expected levels are worked out by hand from 6.12's
 * effective_cpu_util() and sugov_effective_cpu_perf():
 *   min = max(bw_dl, clamp min, RT runnable ? RT floor : 0)
 *   max = min(scale, clamp max)
 *   perf = max(min, min(min(scale, util) * 1.25, max))
 */
#include "simtest.h"

#include <linux/sched.h>

#include "schedutil.h"

struct row {
	unsigned long scale;
	unsigned long cfs, rt, dl, bw_dl;
	bool rt_runnable;
	struct sugov_range clamp;	/* uclamp's rq clamps, or the RFC's range */
	unsigned long exp[3];		/* none, uclamp, rfc (by hand) */
};

enum { P_NONE, P_UCLAMP, P_RFC };
static const enum clamp_policy pols[] = { POLICY_NONE, POLICY_UCLAMP,
					  POLICY_RFC };

static const struct row rows[] = {
	/* 400 * 1.25 = 500 everywhere */
	{ 1024, 400, 0, 0, 0, false, { 0, 1024 }, { 500, 500, 500 } },
	/* a max of 300: uclamp's caps the CPU; the RFC's range is not EAS's
	   (the governor's rfc level with that range: domain_range_table) */
	{ 1024, 400, 0, 0, 0, false, { 0, 300 }, { 500, 300, 500 } },
	/* RT runnable: none at the top; uclamp's min 200 over 150 * 1.25;
	   rfc's RT floor is the scale clamped by the range: 1024 */
	{ 1024, 100, 50, 0, 0, true, { 200, 1024 }, { 1024, 200, 1024 } },
	/* DL bandwidth 300 above a max of 200: min wins over max (the old
	   EM and feec copies returned max here) */
	{ 1024, 600, 0, 0, 300, false, { 0, 200 }, { 750, 300, 750 } },
	/* DL util and bandwidth, no clamp: 450 * 1.25 = 562 */
	{ 1024, 300, 0, 150, 400, false, { 0, 1024 }, { 562, 562, 562 } },
	/* a LITTLE CPU (446): 300 * 1.25 = 375 */
	{ 446, 300, 0, 0, 0, false, { 0, 1024 }, { 375, 375, 375 } },
	/* util above the scale: 446, the headroom limited by the scale */
	{ 446, 500, 0, 0, 0, false, { 0, 1024 }, { 446, 446, 446 } },
	/* a uclamp_min of 1024 on the LITTLE: min above the scale, kept
	   (the governor asks above its top; the EM caps at the domain) */
	{ 446, 100, 0, 0, 0, false, { 1024, 1024 }, { 125, 1024, 125 } },
	/* RT runnable under a range max of 512: rfc's RT floor is 512 */
	{ 1024, 0, 200, 0, 0, true, { 0, 512 }, { 1024, 250, 512 } },
	/* a min of 600 above util 200 * 1.25 */
	{ 1024, 200, 0, 0, 0, false, { 600, 1024 }, { 250, 600, 250 } },
};

/* cpu_clamp() of each policy (clamp_rfc.c, clamp_none.c, clamp_uclamp.c) */
static struct sugov_cpu_input policy_input(const struct row *r, int pol)
{
	struct sugov_cpu_input c = {
		.util_cfs = r->cfs, .util_rt = r->rt, .util_dl = r->dl,
		.bw_dl = r->bw_dl, .rt_runnable = r->rt_runnable,
		.dl_runnable = r->bw_dl > 0,
	};

	switch (pol) {
	case P_NONE:
		c.clamp = (struct sugov_range){ 0, 1024 };
		c.rt_floor = r->scale;
		break;
	case P_UCLAMP:
		c.clamp = r->clamp;
		c.rt_floor = 0;
		break;
	case P_RFC:
		c.clamp = r->clamp;
		/* cap_clamp_rt_util(): the scale (1024) in the range */
		c.rt_floor = r->clamp.max < 1024 ? r->clamp.max : 1024;
		break;
	}
	return c;
}

/* em_cpu_clamp(): the range only where it is the rq's clamp */
static struct sugov_cpu_input eas_view(struct sugov_cpu_input c, int pol)
{
	if (!clamp_policy_ops(pols[pol])->uclamp_used)
		c.clamp = (struct sugov_range){ 0, SCHED_CAPACITY_SCALE };
	return c;
}

/*
 * The governor's level for one CPU: per CPU (none, uclamp), or the RFC's
 * domain rule with @range the domain's
 */
static unsigned long gov_perf(const struct row *r, struct sugov_cpu_input *c,
			      int pol, struct sugov_range range)
{
	struct sugov_input in = { .order = CLAMP_ORDER_612, .scale = r->scale,
				  .max_khz = 2500000, .ncpus = 1, .cpu = c };
	struct sugov_output out;

	if (pol == P_RFC) {
		in.domain_clamp = true;
		in.range = range;
	}
	sugov_next_perf(&in, 0, &out);
	return out.perf;
}

START_TEST(three_paths_agree)
{
	size_t i;
	int pol;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		for (pol = P_NONE; pol <= P_RFC; pol++) {
			struct sugov_cpu_input g = policy_input(r, pol);
			struct sugov_cpu_input e = eas_view(g, pol);
			/* under rfc the range EAS sees: the whole scale */
			unsigned long gov = gov_perf(r, &g, pol, e.clamp);
			unsigned long em = em_cpu_perf_in(&e, r->scale);
			unsigned long eas = eas_cpu_perf(&e, r->scale, NULL,
							 false);

			/* the RFC's domain rule is at most the scale */
			if (pol == P_RFC) {
				em = em < r->scale ? em : r->scale;
				eas = eas < r->scale ? eas : r->scale;
			}
			ck_assert_msg(gov == r->exp[pol] && em == gov &&
				      eas == gov,
				      "row %zu policy %s: governor %lu, EM %lu, placement %lu, expected %lu",
				      i, clamp_policy_name(pols[pol]), gov, em, eas,
				      r->exp[pol]);
		}
	}
}
END_TEST

/* The RFC's range reaches the governor: the same function, its inputs */
START_TEST(domain_range_table)
{
	const struct row *r = &rows[1];	/* 400, range max 300 */
	struct sugov_cpu_input g = policy_input(r, P_RFC);
	struct sugov_input in = { .order = CLAMP_ORDER_612, .scale = 1024,
				  .ncpus = 1, .cpu = &g, .domain_clamp = true,
				  .range = { 0, 300 } };
	struct sugov_perf_in p;

	ck_assert_uint_eq(gov_perf(r, &g, P_RFC, r->clamp), 300);
	sugov_domain_perf_in(&in, &p);
	ck_assert_uint_eq(p.actual, 400);
	ck_assert_uint_eq(p.min, 0);
	ck_assert_uint_eq(p.max, 300);
	/* 4.10: clamp 400 to 300, then the headroom: 375; min 0 */
	in.order = CLAMP_ORDER_410;
	sugov_domain_perf_in(&in, &p);
	ck_assert_uint_eq(p.max, 375);
	ck_assert_uint_eq(sugov_effective_cpu_perf(&p), 375);
	/* 4.10, a stale min above the max: the max wins (375, not 750) */
	in.range = (struct sugov_range){ 600, 300 };
	sugov_domain_perf_in(&in, &p);
	ck_assert_uint_eq(sugov_effective_cpu_perf(&p), 375);
	/* 6.12 with the same range: min 600 wins (the floor of the range) */
	in.order = CLAMP_ORDER_612;
	sugov_domain_perf_in(&in, &p);
	ck_assert_uint_eq(sugov_effective_cpu_perf(&p), 600);
}
END_TEST

/* feec's dst CPU under uclamp: the task's clamps widen min and max */
START_TEST(placement_task_uclamp)
{
	struct sugov_cpu_input c = { .util_cfs = 400,
				     .clamp = { 100, 300 } };
	unsigned int boost[UCLAMP_CNT] = { 700, 1024 };
	unsigned int capped[UCLAMP_CNT] = { 0, 200 };

	/* without the task: 500 limited by 300 */
	ck_assert_uint_eq(eas_cpu_perf(&c, 1024, NULL, false), 300);
	ck_assert_uint_eq(em_cpu_perf_in(&c, 1024), 300);
	/* the task's min 700 and max 1024: 700 <- max(700, min(500, 1024)) */
	ck_assert_uint_eq(eas_cpu_perf(&c, 1024, boost, false), 700);
	/* a task max below the rq's: the rq's max stays (300) */
	ck_assert_uint_eq(eas_cpu_perf(&c, 1024, capped, false), 300);
	/* an idle rq's held max is the task's: 200 */
	ck_assert_uint_eq(eas_cpu_perf(&c, 1024, capped, true), 200);
}
END_TEST

int main(void)
{
	return check_main("effective-perf", 30, CHECK_TESTS(
			  three_paths_agree,
			  domain_range_table,
			  placement_task_uclamp));
}
