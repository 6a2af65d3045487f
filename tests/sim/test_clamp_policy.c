// SPDX-License-Identifier: GPL-2.0
/*
 * The clamp-policy seam (src/sim/clamp_policy.h, ops by enum in
 * policy.c) and the registries it is named from (src/input/
 * clamp_names.c): each policy is found by its name and no other, has
 * ops, and answers the questions where the policies differ through its
 * ops, so the simulator never needs to ask which policy it runs: the
 * task's own placement range and fit, the group write's verdict,
 * uclamp's use. The other layers ask the registry's traits.
 */
#include "simtest.h"

static const enum clamp_policy pols[] = {
	POLICY_RFC, POLICY_UCLAMP, POLICY_NONE,
};

START_TEST(registry_finds_each_policy_by_name_only)
{
	static const char *const names[] = { "rfc", "uclamp", "none" };
	enum clamp_policy q;
	int n = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		enum clamp_policy p = POLICY_END;

		ck_assert_int_eq(clamp_policy_parse(names[i], &p), 0);
		ck_assert_int_eq(p, pols[i]);
		ck_assert_str_eq(clamp_policy_name(p), names[i]);
		ck_assert_ptr_eq(clamp_policy_find(names[i]),
				 clamp_policy_info(p));
		ck_assert_int_eq(clamp_policy_info(p)->id, p);
	}
	/* every row of the registry has its ops, and no other value */
	for_each_clamp_policy(q) {
		ck_assert_msg(clamp_policy_ops(q), "%s has no ops",
			      clamp_policy_name(q));
		n++;
	}
	ck_assert_int_eq(n, 3);
	for (const char *const *bad = (const char *const[]){
		     "RFC", "", "uclamp ", "rfc2", "nonE", NULL };
	     *bad; bad++) {
		enum clamp_policy p = POLICY_UCLAMP;

		ck_assert_msg(clamp_policy_parse(*bad, &p) == -1,
			      "\"%s\" taken", *bad);
		ck_assert_int_eq(p, POLICY_UCLAMP);	/* left alone */
		ck_assert_ptr_null(clamp_policy_find(*bad));
	}
	ck_assert_ptr_null(clamp_policy_ops(POLICY_UNSET));
	ck_assert_ptr_null(clamp_policy_ops(POLICY_END));
	ck_assert_ptr_null(clamp_policy_info(POLICY_UNSET));
	ck_assert_ptr_null(clamp_policy_name(POLICY_END));
}
END_TEST

/* The traits the commands ask instead of a name, and the messages' lists */
START_TEST(registry_traits_and_lists)
{
	const struct clamp_policy_info *rfc = clamp_policy_info(POLICY_RFC);
	const struct clamp_policy_info *none = clamp_policy_info(POLICY_NONE);
	const struct clamp_policy_info *uc = clamp_policy_info(POLICY_UCLAMP);
	char buf[CLAMP_NAMES_LIST_MAX];
	enum clamp_order o = CLAMP_ORDER_UNSET;
	enum domain_rule d = DOMAIN_RULE_UNSET;

	ck_assert(rfc->capacity_range && !rfc->uclamp_values);
	ck_assert(!none->capacity_range && !none->uclamp_values);
	ck_assert(!uc->capacity_range && uc->uclamp_values);
	ck_assert(clamp_policy_clamps(rfc) && clamp_policy_clamps(uc));
	ck_assert(!clamp_policy_clamps(none) && !clamp_policy_clamps(NULL));
	ck_assert_str_eq(clamp_names_list(CLAMP_NAMES_POLICY, false, buf,
					  sizeof(buf)), "rfc, none, uclamp");
	ck_assert_str_eq(clamp_names_list(CLAMP_NAMES_POLICY, true, buf,
					  sizeof(buf)),
			 "\"rfc\", \"none\" or \"uclamp\"");
	ck_assert_str_eq(clamp_names_list(CLAMP_NAMES_ORDER, false, buf,
					  sizeof(buf)), "6.12, 4.10");
	ck_assert_str_eq(clamp_names_list(CLAMP_NAMES_ORDER, true, buf,
					  sizeof(buf)),
			 "\"6.12\" (headroom, then clamp) or \"4.10\" (clamp, then headroom)");
	ck_assert_str_eq(clamp_names_list(CLAMP_NAMES_RULE, false, buf,
					  sizeof(buf)), "rfc, nonidle");
	/* a short buffer is cut, still a string */
	ck_assert_str_eq(clamp_names_list(CLAMP_NAMES_POLICY, false, buf, 6),
			 "rfc, ");
	ck_assert_int_eq(clamp_order_parse("4.10", &o), 0);
	ck_assert_int_eq(o, CLAMP_ORDER_410);
	ck_assert_int_eq(clamp_order_parse("4.1", &o), -1);
	ck_assert_int_eq(o, CLAMP_ORDER_410);
	ck_assert_int_eq(domain_rule_parse("nonidle", &d), 0);
	ck_assert_int_eq(d, DOMAIN_RULE_NONIDLE);
	ck_assert_int_eq(domain_rule_parse("none", &d), -1);
	ck_assert_str_eq(clamp_order_name(CLAMP_ORDER_612), "6.12");
	ck_assert_str_eq(domain_rule_name(DOMAIN_RULE_RFC), "rfc");
	ck_assert_ptr_null(clamp_order_name(CLAMP_ORDER_UNSET));
	ck_assert_ptr_null(domain_rule_name(DOMAIN_RULE_END));
}
END_TEST

/*
 * sim_opts_resolve(): what no caller chose comes from the workload,
 * else the documented defaults; a choice made stays; sim_create()
 * refuses options left unset.
 */
START_TEST(resolve_fills_what_is_unset)
{
	struct diag d;
	struct workload *wl;
	struct platform *pl;
	struct sim_opts o = { 0 };

	sim_opts_resolve(&o, NULL);
	ck_assert_int_eq(o.clamp_policy, POLICY_RFC);
	ck_assert_int_eq(o.order, CLAMP_ORDER_612);
	ck_assert_int_eq(o.domain_rule, DOMAIN_RULE_NONIDLE);
	ck_assert_uint_eq(o.hz, 250);
	ck_assert(sim_opts_resolved(&o));

	diag_init(&d, true);
	wl = workload_load_buffer("w.json",
		"{ \"tasks\": { \"t\": { \"run\": 1000 } },\n"
		"  \"capsim\": { \"policy\": \"uclamp\", \"clamp_order\": \"4.10\",\n"
		"    \"domain_rule\": \"rfc\", \"hz\": 1000 } }", &d);
	ck_assert_msg(wl, "%s", d.log.buf);
	o = (struct sim_opts){ 0 };
	sim_opts_resolve(&o, wl);
	ck_assert_int_eq(o.clamp_policy, POLICY_UCLAMP);
	ck_assert_int_eq(o.order, CLAMP_ORDER_410);
	ck_assert_int_eq(o.domain_rule, DOMAIN_RULE_RFC);
	ck_assert_uint_eq(o.hz, 1000);
	/* the caller's choices win over the workload's */
	o = (struct sim_opts){ .clamp_policy = POLICY_NONE,
			       .order = CLAMP_ORDER_612,
			       .domain_rule = DOMAIN_RULE_NONIDLE, .hz = 100 };
	sim_opts_resolve(&o, wl);
	ck_assert_int_eq(o.clamp_policy, POLICY_NONE);
	ck_assert_int_eq(o.order, CLAMP_ORDER_612);
	ck_assert_int_eq(o.domain_rule, DOMAIN_RULE_NONIDLE);
	ck_assert_uint_eq(o.hz, 100);

	/* unresolved: refused with an error, no machine */
	pl = platform_load("sym4", &d);
	ck_assert_ptr_nonnull(pl);
	o = (struct sim_opts){ .clamp_policy = POLICY_RFC };
	ck_assert(!sim_opts_resolved(&o));
	ck_assert_ptr_null(sim_create(pl, wl, &o, &d));
	ck_assert_ptr_nonnull(strstr(d.log.buf, "sim_opts_resolve()"));
	platform_free(pl);
	workload_free(wl);
	diag_free(&d);
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
			      "%s domain_range", clamp_policy_name(want[i].p));
		ck_assert_msg((ops->task_range != NULL) == want[i].task_range,
			      "%s task_range", clamp_policy_name(want[i].p));
		ck_assert_msg((ops->task_fits != NULL) == want[i].task_fits,
			      "%s task_fits", clamp_policy_name(want[i].p));
		ck_assert_msg((ops->task_update != NULL) == want[i].task_update,
			      "%s task_update", clamp_policy_name(want[i].p));
		ck_assert_msg(ops->uclamp_used == want[i].uclamp_used,
			      "%s uclamp_used", clamp_policy_name(want[i].p));
		ck_assert_msg(ops->inc_after_class_update ==
			      want[i].inc_after_class_update,
			      "%s inc_after_class_update",
			      clamp_policy_name(want[i].p));
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

	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		enum clamp_policy p = pols[i];
		const char *name = clamp_policy_name(p);
		struct run *r;
		struct sim_task *t;
		struct host_group *bg, *kid;
		unsigned int range[UCLAMP_CNT] = { 0, UCLAMP_SCALE };
		int ret;

		r = run_text(text, "juno-r0", p, CLAMP_ORDER_612, 0.05, NULL);
		RUN_OK(r);
		t = task_named(r->s, "boosted");
		ck_assert_ptr_nonnull(t);
		ck_assert_int_eq(r->s->cpus[0].capacity < 1024, 1);
		ck_assert_msg(task_util_fits(r->s, t, &r->s->cpus[0], 100) ==
			      want_fit[i], "%s: fit %d", name,
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
			      name, ret);
		run_free(r);
	}
}
END_TEST

int main(void)
{
	return check_main("clamp-policy", 120, CHECK_TESTS(
			  registry_finds_each_policy_by_name_only,
			  registry_traits_and_lists,
			  resolve_fills_what_is_unset,
			  each_policy_answers_the_seam,
			  the_ops_decide_in_a_run));
}
