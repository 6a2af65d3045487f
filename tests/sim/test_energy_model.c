// SPDX-License-Identifier: GPL-2.0
/*
 * The energy model's estimate (src/sim/energy.c): 6.12's em_cpu_energy()
 * on a platform's OPPs, and its integral over a run, each against a hand
 * computation.
 */
#include "simtest.h"

/* juno-r0's LITTLE domain (traces/platforms/juno-r0.json): capacity, mW */
static const struct {
	unsigned long cap, mw;
} little[] = { { 235, 33 }, { 302, 46 }, { 368, 61 }, { 406, 76 }, { 447, 93 } };

static const struct pdomain *little_pd(struct run *r)
{
	return r->s->doms[r->s->cpus[0].dom->idx].pd;
}

static const char hog[] =
	"{ \"tasks\": { \"hog\": { \"cpus\": [0], \"run\": 5000000 } } }";

START_TEST(em_cpu_energy_by_hand)
{
	struct run *r = run_text(hog, "juno-r0", POLICY_NONE, CLAMP_ORDER_612,
				 0.01, NULL);
	const struct pdomain *pd;

	RUN_OK(r);
	pd = little_pd(r);
	/* em_pd_get_efficient_state(): the first OPP reaching max_util */
	ck_assert_int_eq(em_pd_efficient_state(pd, 0), 0);
	ck_assert_int_eq(em_pd_efficient_state(pd, 235), 0);
	ck_assert_int_eq(em_pd_efficient_state(pd, 236), 1);
	ck_assert_int_eq(em_pd_efficient_state(pd, 447), 4);
	ck_assert_int_eq(em_pd_efficient_state(pd, 1024), 4);
	/* cost = uW * 10 / performance, times sum_util: 460000 / 302 */
	ck_assert_uint_eq(em_cpu_energy(pd, 300, 500, 447), 1523UL * 500);
	ck_assert_uint_eq(em_cpu_energy(pd, 300, 0, 447), 0);
	/* max_util is clamped to the allowed capacity first */
	ck_assert_uint_eq(em_cpu_energy(pd, 900, 447, 368),
			  (61000UL * 10 / 368) * 447);
	ck_assert_uint_eq(em_cpu_energy(pd, 900, 447, 447),
			  (93000UL * 10 / 447) * 447);
	run_free(r);
}
END_TEST

/*
 * A hog pinned to LITTLE CPU 0, 2 s: at the end its CPU's utilization is
 * what it is; the estimate em_sample() holds must be the one computed by
 * hand from it, and a second sample 1 s later adds exactly that power x
 * 1 s to the integral.
 */
START_TEST(em_integral_by_hand)
{
	struct run *r = run_text(hog, "juno-r0", POLICY_NONE, CLAMP_ORDER_612,
				 2.0, NULL);
	struct sim *s;
	struct sim_cpu *c;
	struct sim_domain *d, *big;
	unsigned long util, sum, perf, cost;
	double want_uw, before;
	int i, opp;

	RUN_OK(r);
	s = r->s;
	c = &s->cpus[0];
	d = c->dom;
	big = s->cpus[1].dom;
	/* the other LITTLE CPUs and the big domain stayed idle */
	for (i = 3; i < 6; i++)
		ck_assert_uint_eq(cpu_util(s, &s->cpus[i]), 0);
	ck_assert(big->em_uw_ns == 0);
	/* by hand: util and util_est of the one busy CPU, no RT or DL */
	util = c->cfs.avg.util_avg;
	if (c->cfs.avg.runnable_avg > util)	/* cpu_util_cfs_boost() */
		util = c->cfs.avg.runnable_avg;
	if (c->cfs.avg.util_est > util)
		util = c->cfs.avg.util_est;
	if (util > 447)
		util = 447;
	ck_assert_uint_gt(util, 400);	/* saturated after 2 s */
	perf = util >= 447 ? 447 : util + util / 4;
	if (perf > 447)
		perf = 447;
	for (opp = 0; little[opp].cap < perf; opp++)
		;
	sum = c->cfs.avg.util_avg;	/* eenv_pd_busy_time(): not boosted */
	if (c->cfs.avg.util_est > sum)
		sum = c->cfs.avg.util_est;
	if (sum > 447)
		sum = 447;
	cost = little[opp].mw * 1000 * 10 / little[opp].cap;
	want_uw = (double)(cost * sum) / 10;
	ck_assert_double_eq_tol(d->em_uw, want_uw, 1e-6);
	/* about the top OPP's power: the CPU is busy all the time */
	ck_assert_double_eq_tol(want_uw, 93000.0, 93000.0 * 0.02);

	before = d->em_uw_ns;
	s->now += 1000000000ULL;
	em_sample(s, d);
	ck_assert_double_eq_tol(d->em_uw_ns - before, want_uw * 1e9, 1.0);
	/* the run's integral is close to the measured busy energy of CPU 0
	 * once the signal has grown (the first ~100 ms it lags) */
	ck_assert_double_gt(em_energy_mj(d), 0.9 * cpu_energy_mj(s, c));
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("energy-model", 120, CHECK_TESTS(
			  em_cpu_energy_by_hand, em_integral_by_hand));
}
