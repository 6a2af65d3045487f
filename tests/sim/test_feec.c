// SPDX-License-Identifier: GPL-2.0
/*
 * find_energy_efficient_cpu() as 6.12's fair.c has it, on hand-set
 * signals: cpu_util(p, dst) (the task's util and estimate added to the
 * CPU's separately, the larger sum counts), prev always a candidate whose
 * spare capacity another CPU of its domain must beat, and, when only the
 * task's util fits (its uclamp_min does not), the biggest actual capacity
 * compared with prev's.
 */
#include "simtest.h"

/* a task that sleeps through the test: its signals are set by hand */
static const char sleeper[] =
	"{ \"tasks\": { \"p\": { \"run\": 100, \"sleep\": 10000000 } } }";

static struct run *machine(const char *platform, enum clamp_policy pol)
{
	struct run *r = run_text(sleeper, platform, pol, CLAMP_ORDER_612,
				 0.01, NULL);
	int i;

	RUN_OK(r);
	for (i = 0; i < r->s->ncpus; i++) {
		struct sim_cpu *c = &r->s->cpus[i];

		c->cfs.avg.util_avg = c->cfs.avg.runnable_avg = 0;
		c->cfs.avg.util_est = 0;
		c->rt.avg.util_avg = c->dl.avg.util_avg = 0;
		c->dl.running_bw = 0;
	}
	return r;
}

/* the task on @prev, asleep, synced to its queue's clock */
static struct sim_task *place(struct run *r, int prev, unsigned long util,
			      unsigned long est)
{
	struct sim_task *t = task_named(r->s, "p");

	ck_assert(t != NULL);
	ck_assert_int_eq(t->state, TS_SLEEPING);
	t->cpu = prev;
	t->avg.util_avg = t->avg.runnable_avg = util;
	t->avg.util_est = (unsigned int)est;
	if (!r->s->cpus[prev].cfs.avg.last_update_time)
		r->s->cpus[prev].cfs.avg.last_update_time = 1 << 30;
	t->avg.last_update_time = r->s->cpus[prev].cfs.avg.last_update_time;
	return t;
}

static void cpu_util_set(struct run *r, int cpu, unsigned long util,
			 unsigned long est)
{
	r->s->cpus[cpu].cfs.avg.util_avg = util;
	r->s->cpus[cpu].cfs.avg.runnable_avg = util;
	r->s->cpus[cpu].cfs.avg.util_est = (unsigned int)est;
}

/*
 * juno-r0, LITTLE CPU 3 with util 250 / util_est 50, the task util 50 /
 * util_est 250: cpu_util(3, p, 3) = max(250 + 50, 50 + 250) = 300, which
 * fits 447 (300 x 1280 < 447 x 1024), and LITTLE is the cheaper domain.
 * (The sum of the maxima, 500, would not fit.) CPUs 0, 4, 5 are too full.
 */
START_TEST(cpu_util_adds_util_and_estimate_separately)
{
	struct run *r = machine("juno-r0", POLICY_NONE);
	struct sim_task *t = place(r, 1, 50, 250);

	cpu_util_set(r, 3, 250, 50);
	cpu_util_set(r, 0, 400, 400);
	cpu_util_set(r, 4, 400, 400);
	cpu_util_set(r, 5, 400, 400);
	ck_assert_int_eq(find_energy_efficient_cpu(r->s, t, &r->s->cpus[1])->id, 3);
	/* one more unit of estimate on CPU 3 and it no longer fits */
	cpu_util_set(r, 3, 250, 108);
	ck_assert_int_eq(find_energy_efficient_cpu(r->s, t, &r->s->cpus[1])->id, 1);
	run_free(r);
}
END_TEST

/*
 * prev (LITTLE CPU 3, util 150 with the task's 100 in it) and CPU 0
 * (idle, more spare capacity) give the domain the same OPP and energy:
 * CPU 0's delta must be below prev's, so the task stays.
 */
START_TEST(prev_wins_an_energy_tie)
{
	struct run *r = machine("juno-r0", POLICY_NONE);
	struct sim_task *t = place(r, 3, 100, 100);

	cpu_util_set(r, 3, 150, 0);
	ck_assert_int_eq(find_energy_efficient_cpu(r->s, t, &r->s->cpus[3])->id, 3);
	/* with prev fuller (a higher OPP for the domain) the idle CPU with
	 * the most spare capacity wins: the first of the domain's, CPU 0 */
	cpu_util_set(r, 3, 300, 0);
	ck_assert_int_eq(find_energy_efficient_cpu(r->s, t, &r->s->cpus[3])->id, 0);
	run_free(r);
}
END_TEST

/*
 * sd855 under uclamp, the task's uclamp_min 1024: on LITTLE (307) and
 * mid (872) CPUs only its util fits (-1), the prime CPU is full (0). On
 * a LITTLE prev it moves to the bigger mid domain; on a mid prev it
 * stays, though another mid CPU has more spare capacity: a fits < 0 CPU
 * must have a bigger actual capacity than prev's.
 */
START_TEST(actual_capacity_against_prev)
{
	struct run *r = machine("sd855", POLICY_UCLAMP);
	struct sim_task *t = place(r, 0, 100, 100);
	struct sim_cpu *c;

	t->uclamp_user[UCLAMP_MIN] = true;
	t->uclamp_req[UCLAMP_MIN] = 1024;
	cpu_util_set(r, 7, 1000, 1000);
	c = find_energy_efficient_cpu(r->s, t, &r->s->cpus[0]);
	ck_assert_int_eq(c->dom->pd->id, 1);
	t = place(r, 4, 100, 100);
	cpu_util_set(r, 4, 200, 0);
	ck_assert_int_eq(find_energy_efficient_cpu(r->s, t, &r->s->cpus[4])->id, 4);
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("feec", 60, CHECK_TESTS(
			  cpu_util_adds_util_and_estimate_separately,
			  prev_wins_an_energy_tie,
			  actual_capacity_against_prev));
}
