// SPDX-License-Identifier: GPL-2.0
/*
 * The clamp-policy seam (src/sim/clamp_policy.h, registry in policy.c):
 * each policy is found by its name and no other, and answers the
 * questions where the policies differ through its ops, so the
 * simulator never needs to ask which policy it runs: the task's own
 * placement range and fit, the group write's verdict, uclamp's use.
 */
#include "simtest.h"

static const char *const names[] = { "rfc", "uclamp", "none" };

START_TEST(registry_finds_each_policy_by_name_only)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		enum clamp_policy p = POLICY_NONE + 1;

		ck_assert_int_eq(policy_parse(names[i], &p), 0);
		ck_assert_ptr_nonnull(clamp_policy_ops(p));
		ck_assert_str_eq(clamp_policy_ops(p)->name, names[i]);
		ck_assert_str_eq(policy_name(p), names[i]);
	}
	for (const char *const *bad = (const char *const[]){
		     "RFC", "", "uclamp ", "rfc2", "nonE", NULL };
	     *bad; bad++) {
		enum clamp_policy p = POLICY_UCLAMP;

		ck_assert_msg(policy_parse(*bad, &p) == -1, "\"%s\" taken", *bad);
		ck_assert_int_eq(p, POLICY_UCLAMP);	/* left alone */
	}
	ck_assert_ptr_null(clamp_policy_ops((enum clamp_policy)(POLICY_NONE + 1)));
}
END_TEST

/* What each policy's ops table says, the questions the seam answers */
START_TEST(each_policy_answers_the_seam)
{
	static const struct {
		enum clamp_policy p;
		bool domain_range, task_range, task_fits, task_update;
		bool uclamp_used, inc_after_class_update;
	} want[] = {
		{ POLICY_RFC, true, false, false, false, false, false },
		{ POLICY_NONE, false, false, false, false, false, false },
		{ POLICY_UCLAMP, false, true, true, true, true, true },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct clamp_policy_ops *ops = clamp_policy_ops(want[i].p);

		ck_assert_ptr_nonnull(ops->enqueue);
		ck_assert_ptr_nonnull(ops->dequeue);
		ck_assert_ptr_nonnull(ops->move);
		ck_assert_ptr_nonnull(ops->group_set);
		ck_assert_ptr_nonnull(ops->group_apply);
		ck_assert_ptr_nonnull(ops->cpu_clamp);
		ck_assert_msg((ops->domain_range != NULL) == want[i].domain_range,
			      "%s domain_range", ops->name);
		ck_assert_msg((ops->task_range != NULL) == want[i].task_range,
			      "%s task_range", ops->name);
		ck_assert_msg((ops->task_fits != NULL) == want[i].task_fits,
			      "%s task_fits", ops->name);
		ck_assert_msg((ops->task_update != NULL) == want[i].task_update,
			      "%s task_update", ops->name);
		ck_assert_msg(ops->uclamp_used == want[i].uclamp_used,
			      "%s uclamp_used", ops->name);
		ck_assert_msg(ops->inc_after_class_update ==
			      want[i].inc_after_class_update,
			      "%s inc_after_class_update", ops->name);
	}
}
END_TEST

/*
 * The answers in a running simulation on juno-r0 (CPU 0 a LITTLE): a
 * task asking util_min 1024 in a group capped at 512 fits a LITTLE by
 * its utilization alone under rfc and none (fits_capacity()), under
 * uclamp its boost (512, restricted by the group) does not (-1,
 * util_fits_cpu()), and its placement range is that boost; a group
 * wider than its parent is refused by rfc and none, restricted by
 * uclamp.
 */
START_TEST(the_ops_decide_in_a_run)
{
	static const char text[] =
		"{ \"tasks\": { \"boosted\": { \"taskgroup\": \"/bg\",\n"
		"  \"util_min\": 1024, \"run\": 1000000 } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 512 } } } }";
	static const int want_fit[] = { 1, -1, 1 };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		enum clamp_policy p;
		struct run *r;
		struct sim_task *t;
		struct host_group *bg, *kid;
		unsigned int range[UCLAMP_CNT] = { 0, UCLAMP_SCALE };
		int ret;

		ck_assert_int_eq(policy_parse(names[i], &p), 0);
		r = run_text(text, "juno-r0", p, CLAMP_ORDER_612, 0.05, NULL);
		RUN_OK(r);
		t = task_named(r->s, "boosted");
		ck_assert_ptr_nonnull(t);
		ck_assert_int_eq(r->s->cpus[0].capacity < 1024, 1);
		ck_assert_msg(task_util_fits(r->s, t, &r->s->cpus[0], 100) ==
			      want_fit[i], "%s: fit %d", names[i],
			      task_util_fits(r->s, t, &r->s->cpus[0], 100));
		if (r->s->clamp->task_range)
			r->s->clamp->task_range(r->s, t, range);
		/* uclamp_tg_restrict(): 1024 asked, /bg's max 512 holds */
		ck_assert_uint_eq(range[UCLAMP_MIN], p == POLICY_UCLAMP ?
				  512 : 0);
		ck_assert_uint_eq(range[UCLAMP_MAX], p == POLICY_UCLAMP ?
				  512 : UCLAMP_SCALE);

		bg = clamp_host_group(&r->s->host, "/bg");
		ck_assert_int_eq(clamp_host_group_create(&r->s->host, "/bg/kid",
							 &kid), 0);
		ck_assert_ptr_nonnull(bg);
		ret = r->s->clamp->group_set(r->s, kid, CAP_CLAMP_MAX, 1024);
		ck_assert_msg(ret == (p == POLICY_UCLAMP ? 0 : -EINVAL),
			      "%s: a child wider than its parent: %d",
			      names[i], ret);
		run_free(r);
	}
}
END_TEST

int main(void)
{
	return check_main("clamp-policy", 120, CHECK_TESTS(
			  registry_finds_each_policy_by_name_only,
			  each_policy_answers_the_seam,
			  the_ops_decide_in_a_run));
}
