// SPDX-License-Identifier: GPL-2.0
/* Clamping end to end on sym4, and schedutil's pure function. */
#include "simtest.h"

#include "clamp_policy.h"
#include "rfc_domain.h"
#include "schedutil.h"
#include "simtrace.h"

/*
 * The domain of @cpu's residency as the trace tells it (src/trace's
 * reader), checked against the simulator's counters: each cpu_frequency
 * timestamp is rounded to the us, so they agree within 1 us per change.
 */
static void trace_of_cpu(struct run *r, FILE *f, int cpu, struct trace_res *tr)
{
	const struct sim_domain *d = r->s->cpus[cpu].dom;
	int i;

	trace_residency(f, cpu, r->s->now, tr);
	for (i = 0; i < d->pd->nopps; i++) {
		double c = (double)d->residency_ns[i] / 1e9,
		       t = tr_at(tr, d->pd->opps[i].khz);

		ck_assert_msg(fabs(c - t) <= 1e-6 * (double)(tr->changes + 1),
			      "%u kHz: %f s in the counters, %f s in the trace",
			      d->pd->opps[i].khz, c, t);
	}
}

static const char capped_hog[] =
	"{ \"tasks\": { \"hog\": { \"taskgroup\": \"/bg\", \"run\": 1000000 } },\n"
	"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": %d } } } }";

/* The capped hog on sym4, its trace in @f (truncated first) */
static struct run *capped(int cap, enum clamp_policy pol, enum clamp_order ord,
			  FILE *f, struct trace_res *tr)
{
	char buf[1024];
	struct run *r;

	snprintf(buf, sizeof(buf), capped_hog, cap);
	ck_assert(ftruncate(fileno(f), 0) == 0);
	rewind(f);
	r = run_text(buf, "sym4", pol, ord, 3, f);
	RUN_OK(r);
	trace_of_cpu(r, f, 0, tr);
	return r;
}

START_TEST(capped_hog_stays_at_its_opp)
{
	FILE *f = tmpfile();
	struct trace_res tr;
	struct run *r = capped(256, POLICY_RFC, CLAMP_ORDER_612, f, &tr);

	/* the lowest OPP covering 256 is 1 GHz (capacity 410) */
	ck_assert(tr_above(&tr, 1000000) == 0);
	ck_assert(tr_at(&tr, 1000000) > 2.9);
	ck_assert_uint_eq(kcompat_warn_count, 0);
	run_free(r);

	r = capped(512, POLICY_RFC, CLAMP_ORDER_612, f, &tr);
	ck_assert(tr_above(&tr, 1500000) == 0);
	ck_assert(tr_at(&tr, 1500000) > 2.9);
	run_free(r);

	/* without clamping the same hog runs at the top */
	r = capped(256, POLICY_NONE, CLAMP_ORDER_612, f, &tr);
	ck_assert(tr_at(&tr, 2500000) > 2.5);
	run_free(r);
	fclose(f);
}
END_TEST

/* With every group at 0..1024, the RFC's clamping changes nothing. */
START_TEST(default_groups_are_neutral)
{
	static const char text[] =
		"{ \"tasks\": { \"hog\": { \"cpus\": [0], \"run\": 3000, \"sleep\": 7000 },\n"
		"   \"tick\": { \"instance\": 2, \"run\": 500, \"sleep\": 4500 },\n"
		"   \"grp\": { \"taskgroup\": \"/g\", \"run\": 1000, \"sleep\": 20000 } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/g\": { } } } }";
	static const unsigned int khz[] = {
		500000, 1000000, 1500000, 2000000, 2500000,
	};
	struct run *a = run_text(text, "sym4", POLICY_RFC, CLAMP_ORDER_612, 2, NULL);
	struct run *b = run_text(text, "sym4", POLICY_NONE, CLAMP_ORDER_612, 2, NULL);
	size_t i;

	RUN_OK(a);
	RUN_OK(b);
	for (i = 0; i < sizeof(khz) / sizeof(*khz); i++)
		ck_assert_msg(time_at(a->s, 0, khz[i]) == time_at(b->s, 0, khz[i]),
			      "%u kHz: %f s under rfc, %f s under none", khz[i],
			      time_at(a->s, 0, khz[i]), time_at(b->s, 0, khz[i]));
	ck_assert(time_above(b->s, 0, 500000) > 0.1);	/* not vacuous */
	run_free(a);
	run_free(b);
}
END_TEST

START_TEST(clamp_order_is_a_what_if)
{
	/* cap 350: 6.12 asks 350/1024 fmax (1 GHz); 4.10 asks 1.25x (1.5 GHz) */
	FILE *f = tmpfile();
	struct trace_res tr;
	struct run *r = capped(350, POLICY_RFC, CLAMP_ORDER_612, f, &tr);

	ck_assert(tr_above(&tr, 1000000) == 0);
	run_free(r);
	r = capped(350, POLICY_RFC, CLAMP_ORDER_410, f, &tr);
	ck_assert(tr_at(&tr, 1500000) > 2.5);
	ck_assert(tr_above(&tr, 1500000) == 0);
	run_free(r);
	fclose(f);
}
END_TEST

static const char boosted[] =
	"{ \"tasks\": { \"ui\": { \"taskgroup\": \"/top-app\", \"run\": 1000,\n"
	"      \"timer\": { \"ref\": \"vsync\", \"period\": 20000 } } },\n"
	"  \"capsim\": { \"taskgroups\": { \"/top-app\": { \"capacity_min\": 1024 } } } }";

START_TEST(boost_lifts_frequency_only_while_runnable)
{
	struct run *r = run_text(boosted, "sym4", POLICY_RFC, CLAMP_ORDER_612, 4, NULL);
	double top;

	RUN_OK(r);
	top = time_at(r->s, 0, 2500000);
	/* runnable 1 ms of each 20 ms (5 %): at the top then, and only then */
	ck_assert_msg(top > 0.15 && top < 0.4, "top residency %f s", top);
	ck_assert_uint_gt(r->s->doms[0].transitions, 300);
	run_free(r);

	r = run_text(boosted, "sym4", POLICY_NONE, CLAMP_ORDER_612, 4, NULL);
	RUN_OK(r);
	ck_assert(time_at(r->s, 0, 2500000) == 0);
	run_free(r);
}
END_TEST

/* A CPU aggregate holding one RUNNABLE entity of @grp (or none) */
struct fake_cpu {
	struct cap_clamp_cpu cc;
	struct cap_clamp_se se;
	raw_spinlock_t lock;
};

static void fake_cpu(struct fake_cpu *f, const struct cap_clamp_group *grp)
{
	cap_clamp_cpu_init(&f->cc);
	cap_clamp_se_init(&f->se);
	raw_spin_lock_init(&f->lock);
	if (!grp)
		return;
	raw_spin_lock(&f->lock);
	cap_clamp_enqueue(&f->cc, &f->se, grp, &f->lock);
	raw_spin_unlock(&f->lock);
}

static void group(struct cap_clamp_group *g, struct cap_clamp_group *root,
		  unsigned int min, unsigned int max)
{
	struct mutex m;

	mutex_init(&m);
	mutex_lock(&m);
	cap_clamp_group_link(g, root, &m);
	cap_clamp_group_write(g, CAP_CLAMP_MAX, max, &m);
	cap_clamp_group_write(g, CAP_CLAMP_MIN, min, &m);
	mutex_unlock(&m);
}

/* The RFC's domain range of the two CPUs, then the governor's answer */
static unsigned int decide(struct sugov_input *in,
			   const struct cap_clamp_cpu *const *ccs,
			   const bool *idle, int caller, enum domain_rule rule,
			   struct sugov_output *out)
{
	rfc_domain_compose(ccs, idle, 2, caller, rule, &in->range);
	return sugov_next_perf(in, caller, out);
}

START_TEST(idle_cpu_does_not_constrain_shared_domain)
{
	struct cap_clamp_group root, bg, boost;
	struct fake_cpu f0, f1, f1b;
	struct sugov_cpu_input c[2] = {
		{ .util_cfs = 1024 },
		{ .util_cfs = 0, .idle = true },
	};
	struct sugov_input in = { .order = CLAMP_ORDER_612, .scale = 1024,
				  .max_khz = 2500000, .ncpus = 2, .cpu = c,
				  .domain_clamp = true };
	const struct cap_clamp_cpu *ccs[2] = { &f0.cc, &f1.cc };
	bool idle[2] = { false, true };
	struct sugov_output out;

	cap_clamp_group_init_root(&root);
	group(&bg, &root, 0, 256);
	group(&boost, &root, 1024, 1024);
	fake_cpu(&f0, &bg);
	fake_cpu(&f1, NULL);
	fake_cpu(&f1b, &boost);

	/*
	 * Under either rule (the posted one here) an idle CPU's empty
	 * range (max 1024) does not uncap the domain
	 */
	decide(&in, ccs, idle, 0, DOMAIN_RULE_RFC, &out);
	ck_assert_uint_eq(out.perf, 256);
	ck_assert_uint_eq(out.range.max, 256);
	/* nor does an idle CPU's stale boost count */
	ccs[1] = &f1b.cc;
	decide(&in, ccs, idle, 0, DOMAIN_RULE_RFC, &out);
	ck_assert_uint_eq(out.perf, 256);
	/* a busy uncapped CPU does: the RFC composes MAX of the maxes */
	ccs[1] = &f1.cc;
	idle[1] = c[1].idle = false;
	decide(&in, ccs, idle, 0, DOMAIN_RULE_RFC, &out);
	ck_assert_uint_eq(out.perf, 1024);
	ck_assert_uint_eq(out.khz, 2500000);
	/* RFC patch 4 as posted: an idle *calling* CPU still counts, and
	 * lifts the cap; the core's rule (the default) drops it */
	idle[1] = c[1].idle = true;
	decide(&in, ccs, idle, 1, DOMAIN_RULE_RFC, &out);
	ck_assert_uint_eq(out.range.max, 1024);
	ck_assert_uint_eq(out.perf, 1024);
	decide(&in, ccs, idle, 1, DOMAIN_RULE_NONIDLE, &out);
	ck_assert_uint_eq(out.perf, 256);
	/* 4.10 order: clamp then headroom, 256 -> 0.3125 fmax */
	in.order = CLAMP_ORDER_410;
	ck_assert_uint_eq(decide(&in, ccs, idle, 0, DOMAIN_RULE_NONIDLE, &out),
			  781250);
	in.order = CLAMP_ORDER_612;
	ck_assert_uint_eq(decide(&in, ccs, idle, 0, DOMAIN_RULE_NONIDLE, &out),
			  625000);
	ck_assert_uint_eq(kcompat_warn_count, 0);
}
END_TEST

START_TEST(idle_cpus_end_to_end)
{
	/* one capped hog; three CPUs that come and go idle with capped work */
	static const char text[] =
		"{ \"tasks\": { \"hog\": { \"cpus\": [0], \"taskgroup\": \"/bg\", \"run\": 1000000 },\n"
		"   \"blip\": { \"instance\": 3, \"cpus\": [1, 2, 3], \"taskgroup\": \"/bg\", \"run\": 500, \"sleep\": 9000 },\n"
		"   \"boost\": { \"cpus\": [3], \"taskgroup\": \"/fg\", \"loop\": 1, \"run\": 200 } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 256 }, \"/fg\": { \"capacity_min\": 900 } } } }";
	struct run *r;
	struct sim_opts o = { .clamp_policy = POLICY_RFC,
			      .domain_rule = DOMAIN_RULE_RFC,
			      .duration_ns = 3 * NSEC_PER_SEC };
	FILE *f = tmpfile();
	struct trace_res tr;
	double above;

	/* --domain-rule rfc, RFC patch 4 as posted: each blip's CPU going
	 * idle calls schedutil with its own empty range [0, 1024], which
	 * lifts the cap until the next decision */
	r = calloc(1, sizeof(*r));
	diag_init(&r->d, true);
	r->wl = workload_load_buffer("test.json", text, &r->d);
	r->pl = platform_load("sym4", &r->d);
	sim_opts_resolve(&o, r->wl);
	r->s = sim_create(r->pl, r->wl, &o, &r->d);
	r->ret = sim_run(r->s, f);
	RUN_OK(r);
	trace_of_cpu(r, f, 0, &tr);
	above = tr_above(&tr, 1000000);
	ck_assert_msg(above > 0.1, "above: %f", above);
	run_free(r);
	fclose(f);

	/* the default, the core's rule: a CPU with nothing RUNNABLE never
	 * counts; after the boosted task's 0.2 ms at the start, the capped
	 * hog and blips never take the shared domain above 1 GHz, the lowest
	 * OPP covering 256 */
	f = tmpfile();
	r = run_text(text, "sym4", POLICY_RFC, CLAMP_ORDER_612, 3, f);
	RUN_OK(r);
	trace_of_cpu(r, f, 0, &tr);
	above = tr_above(&tr, 1000000);
	ck_assert_msg(above < 0.01, "above: %f", above);
	fclose(f);
	ck_assert_uint_eq(kcompat_warn_count, 0);
	run_free(r);
}
END_TEST

static const char capped_rt[] =
	"{ \"tasks\": { \"audio\": { \"policy\": \"SCHED_FIFO\", \"priority\": 80, \"taskgroup\": \"/rt\",\n"
	"      \"run\": 1000, \"timer\": { \"ref\": \"a\", \"period\": 10000 } } },\n"
	"  \"capsim\": { \"taskgroups\": { \"/rt\": { \"capacity_max\": 512 } } } }";

/* Run @text on sym4 with its trace; CPU 0's domain residency from it */
static struct run *traced(const char *text, enum clamp_policy pol,
			  double duration_s, struct trace_res *tr)
{
	FILE *f = tmpfile();
	struct run *r = run_text(text, "sym4", pol, CLAMP_ORDER_612, duration_s, f);

	RUN_OK(r);
	trace_of_cpu(r, f, 0, tr);
	fclose(f);
	return r;
}

START_TEST(capped_rt_does_not_drive_top_opp)
{
	struct trace_res tr;
	struct run *r = traced(capped_rt, POLICY_RFC, 2, &tr);

	ck_assert(tr_at(&tr, 2500000) == 0);
	ck_assert(tr_above(&tr, 1500000) == 0);
	ck_assert(tr_at(&tr, 1500000) > 0.1);
	ck_assert_uint_eq(task_named(r->s, "audio")->misses, 0);
	run_free(r);

	r = traced(capped_rt, POLICY_NONE, 2, &tr);
	ck_assert(tr_at(&tr, 2500000) > 0.1);
	run_free(r);
}
END_TEST

static const char capped_rt_and_cfs[] =
	"{ \"tasks\": { \"audio\": { \"cpus\": [0], \"policy\": \"SCHED_FIFO\", \"priority\": 80,\n"
	"      \"taskgroup\": \"/rt\", \"run\": 1000, \"timer\": { \"ref\": \"a\", \"period\": 10000 } },\n"
	"   \"light\": { \"cpus\": [%d], \"run\": 200, \"sleep\": 2000 } },\n"
	"  \"capsim\": { \"taskgroups\": { \"/rt\": { \"capacity_max\": 512 } } } }";

START_TEST(capped_rt_next_to_uncapped_task_is_uncapped)
{
	/* the CPU's max is the MAX over its RUNNABLE tasks: an uncapped CFS
	 * task on the RT task's CPU lifts the RT request to the top */
	char text[1024];
	struct trace_res tr;
	struct run *r;

	snprintf(text, sizeof(text), capped_rt_and_cfs, 0);
	r = traced(text, POLICY_RFC, 2, &tr);
	/* alone (capped_rt_does_not_drive_top_opp) it never reaches the top */
	ck_assert_msg(tr_at(&tr, 2500000) > 0.01, "top %f", tr_at(&tr, 2500000));
	ck_assert_uint_eq(task_named(r->s, "audio")->misses, 0);
	run_free(r);
}
END_TEST

START_TEST(capped_rt_next_to_uncapped_task_on_another_cpu)
{
	/*
	 * The uncapped CFS task on CPU 1 (same domain) widens the domain's
	 * range to 1024, but RFC patch 5's RT request is the scale clamped
	 * by the RT task's own CPU (512): still 1.5 GHz, not the top. Only
	 * "light"'s first activation (its initial util, half the spare
	 * capacity) asks a little more. Without clamping the RT task asks
	 * the top at each activation.
	 */
	char text[1024];
	struct trace_res tr;
	struct run *r;

	snprintf(text, sizeof(text), capped_rt_and_cfs, 1);
	r = traced(text, POLICY_RFC, 2, &tr);
	ck_assert(tr_at(&tr, 2500000) == 0);
	ck_assert_msg(tr_above(&tr, 1500000) < 0.005, "above 1.5 GHz: %f",
		      tr_above(&tr, 1500000));
	ck_assert(tr_at(&tr, 1500000) > 0.1);
	ck_assert_uint_eq(task_named(r->s, "audio")->misses, 0);
	ck_assert_uint_eq(task_named(r->s, "audio")->migrations, 0);
	run_free(r);

	r = traced(text, POLICY_NONE, 2, &tr);
	ck_assert(tr_at(&tr, 2500000) > 0.1);
	run_free(r);
}
END_TEST

/*
 * A DL task in a capped group: the DL bandwidth is a floor that the cap
 * does not lower (6.12 sugov_effective_cpu_perf(): min = bw_dl), so it
 * meets its deadlines while the capped hogs around it stay capped.
 * 5 ms / 10 ms is 512: 1.5 GHz while it is active, 1 GHz (the cap 256)
 * otherwise, never above.
 */
START_TEST(deadline_task_in_a_capped_group)
{
	static const char text[] =
		"{ \"tasks\": {\n"
		"  \"hogs\": { \"instance\": 6, \"taskgroup\": \"/bg\", \"run\": 1000000 },\n"
		"  \"dl\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 5000, \"dl-period\": 10000,\n"
		"          \"taskgroup\": \"/bg\", \"run\": 2000, \"timer\": { \"ref\": \"dlp\", \"period\": 10000 } } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 256 } } } }";
	struct trace_res tr;
	struct run *r = traced(text, POLICY_RFC, 5, &tr);
	struct sim_task *dl = task_named(r->s, "dl");

	ck_assert_uint_ge(dl->activations, 499);
	ck_assert_uint_eq(dl->misses, 0);
	ck_assert_int_gt(samples_pct(&dl->slack, 1), 0);
	ck_assert(tr_above(&tr, 1500000) == 0);
	ck_assert_msg(tr_at(&tr, 1500000) > 1.0, "1.5 GHz: %f", tr_at(&tr, 1500000));
	ck_assert_msg(tr_at(&tr, 1000000) > 2.5, "1 GHz: %f", tr_at(&tr, 1000000));
	ck_assert_uint_eq(kcompat_warn_count, 0);
	run_free(r);

	r = traced(text, POLICY_NONE, 5, &tr);
	ck_assert(tr_at(&tr, 2500000) > 4.9);
	ck_assert_uint_eq(task_named(r->s, "dl")->misses, 0);
	run_free(r);
}
END_TEST

START_TEST(group_writes_during_the_run)
{
	struct trace_res tr;
	struct run *r = traced(
		"{ \"tasks\": { \"hog\": { \"taskgroup\": \"/bg\", \"run\": 1000000 } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 1024 } },\n"
		"     \"events\": [ { \"at_ms\": 1000, \"group\": \"/bg\", \"capacity_max\": 256 },\n"
		"                 { \"at_ms\": 1500, \"group\": \"/bg\", \"capacity_min\": 512 } ] } }",
		POLICY_RFC, 3, &tr);

	ck_assert_int_eq(r->s->ngw, 2);
	ck_assert_int_eq(r->s->gw[0].ret, 0);
	ck_assert_int_eq(r->s->gw[1].ret, -EINVAL);	/* min 512 > max 256 */
	/* about 1 s at the top, then 2 s at 1 GHz */
	ck_assert(tr_at(&tr, 1000000) > 1.95);
	ck_assert(tr_at(&tr, 2500000) > 0.8 && tr_at(&tr, 2500000) < 1.01);
	run_free(r);
}
END_TEST

static char *trace_of(const char *text, uint64_t seed, size_t *len)
{
	FILE *f = tmpfile();
	struct run *r;
	struct sim_opts o = { .clamp_policy = POLICY_RFC, .seed = seed };
	char *buf;

	r = calloc(1, sizeof(*r));
	diag_init(&r->d, true);
	r->wl = workload_load_buffer("test.json", text, &r->d);
	r->pl = platform_load("sym4", &r->d);
	o.duration_ns = 2 * NSEC_PER_SEC;
	sim_opts_resolve(&o, r->wl);
	r->s = sim_create(r->pl, r->wl, &o, &r->d);
	ck_assert(r->s);
	ck_assert_int_eq(sim_run(r->s, f), 0);
	buf = slurp(f, len);
	fclose(f);
	run_free(r);
	return buf;
}

START_TEST(determinism)
{
	static const char text[] =
		"{ \"tasks\": { \"a\": { \"instance\": 3, \"run\": 3000, \"sleep\": 2000 },\n"
		"  \"b\": { \"taskgroup\": \"/bg\", \"run\": 7000, \"timer\": { \"ref\": \"t\", \"period\": 16000 } } },\n"
		"  \"capsim\": { \"run_jitter_pct\": 20, \"taskgroups\": { \"/bg\": { \"capacity_max\": 300 } } } }";
	size_t l1, l2, l3;
	char *t1 = trace_of(text, 7, &l1), *t2 = trace_of(text, 7, &l2),
	     *t3 = trace_of(text, 8, &l3);

	ck_assert_uint_eq(l1, l2);
	ck_assert(!memcmp(t1, t2, l1));
	ck_assert(l1 != l3 || memcmp(t1, t3, l1));	/* the seed matters */
	ck_assert(strstr(t1, "# tracer: nop\n"));
	ck_assert(strstr(t1, "sched_switch: prev_comm="));
	ck_assert(strstr(t1, "cap_clamp_cpu: cpu="));
	ck_assert(strstr(t1, "cpu_frequency: state="));
	free(t1);
	free(t2);
	free(t3);
}
END_TEST

/*
 * Every CPU's range from the core equals the MAX of the mins and of the
 * maxes of the tasks RUNNABLE on it (brute force), and every RUNNABLE
 * task sits in its own class's queue of its CPU, once.
 */
static void check_cpu_ranges(struct sim *s)
{
	int i, j;

	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		unsigned int min = 0, max = 0;
		struct cap_clamp_range r;
		int nr = 0;

		for (j = 0; j < s->ntasks; j++) {
			struct sim_task *t = s->tasks[j], *q;
			int seen = 0;

			if (t->state != TS_RUNNABLE || t->cpu != i) {
				ck_assert(!cap_clamp_se_queued(&t->ce->se) ||
					  t->cpu != i);
				continue;
			}
			nr++;
			if (t->group->cg.value[CAP_CLAMP_MIN] > min)
				min = t->group->cg.value[CAP_CLAMP_MIN];
			if (t->group->cg.value[CAP_CLAMP_MAX] > max)
				max = t->group->cg.value[CAP_CLAMP_MAX];
			list_for_each_entry(q, t->cls->tasks(c), run_node)
				seen += q == t;
			ck_assert_msg(seen == 1, "%s in its %s queue %d times",
				      t->name, t->cls->name, seen);
		}
		ck_assert_int_eq(c->nr_running, nr);
		if (!nr)
			continue;
		clamp_host_range(&s->host, (unsigned int)i, &r);
		ck_assert_msg(r.min == min && r.max == max,
			      "cpu%d at %.3f ms: core [%u, %u], tasks [%u, %u]",
			      i, (double)s->now / 1e6, r.min, r.max, min, max);
	}
}

/*
 * A task changes policy (OTHER -> FIFO -> OTHER) and group (/lo -> /hi ->
 * /lo) in its phases, next to a hog, on one CPU: stopped every 3 ms
 * around the changes, the ranges are right and the queues consistent.
 */
START_TEST(range_right_across_policy_and_group_changes)
{
	static const char text[] =
		"{ \"global\": { \"duration\": 1 },\n"
		"  \"tasks\": { \"hog\": { \"cpus\": [0], \"taskgroup\": \"/lo\", \"run\": 100000 },\n"
		"    \"t\": { \"cpus\": [0], \"loop\": -1, \"phases\": {\n"
		"      \"p1\": { \"taskgroup\": \"/lo\", \"policy\": \"SCHED_OTHER\", \"run\": 4000, \"sleep\": 3000 },\n"
		"      \"p2\": { \"taskgroup\": \"/hi\", \"policy\": \"SCHED_FIFO\", \"priority\": 10, \"run\": 5000, \"sleep\": 2000 },\n"
		"      \"p3\": { \"taskgroup\": \"/lo\", \"policy\": \"SCHED_OTHER\", \"run\": 3000 } } } },\n"
		"  \"capsim\": { \"taskgroups\": { \"/lo\": { \"capacity_max\": 300 },\n"
		"     \"/hi\": { \"capacity_min\": 700, \"capacity_max\": 900 } } } }";
	int ms, fifo_seen = 0, changes;

	for (ms = 1; ms <= 60; ms += 3) {
		struct run *r = run_text(text, "sym4", POLICY_RFC,
					 CLAMP_ORDER_612, ms / 1000.0, NULL);
		struct sim_task *t;

		RUN_OK(r);
		t = task_named(r->s, "t");
		fifo_seen += t->cls == &rt_sched_class;
		check_cpu_ranges(r->s);
		changes = (int)t->activations;
		ck_assert_uint_eq(kcompat_warn_count, 0);
		run_free(r);
	}
	/* the samples caught the task in its FIFO phase, and it went round */
	ck_assert_int_gt(fifo_seen, 0);
	ck_assert_int_gt(changes, 3);
}
END_TEST

/*
 * The core's two aggregators give the same ranges, so a run is the same
 * to the byte whichever the host uses: the traces' workloads with groups
 * and group writes, on the tri-cluster platform.
 */
START_TEST(both_clamp_backends_give_the_same_run)
{
	static const char *const workloads[] = {
		"traces/whatif-bg-cap.json", "traces/video-playback.json",
		"traces/bg-batch-capped.json", "traces/rt-capped.json",
	};
	size_t w, len[2];

	for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
		char *text = source_text(workloads[w]), *out[2];
		int b;

		ck_assert_msg(text, "%s", workloads[w]);
		for (b = 0; b < 2; b++) {
			struct sim_opts o = { .clamp_policy = POLICY_RFC,
					      .duration_ns = NSEC_PER_SEC * 3,
					      .clamp_backend = b ? "exact" : "rbtree" };
			FILE *f = tmpfile();
			struct run *r = run_with(text, "sd855", &o, f);

			RUN_OK(r);
			ck_assert_str_eq(clamp_host_backend(&r->s->host),
					 o.clamp_backend);
			out[b] = slurp(f, &len[b]);
			fclose(f);
			run_free(r);
		}
		ck_assert_msg(len[0] == len[1] && !memcmp(out[0], out[1], len[0]),
			      "%s: the traces differ", workloads[w]);
		free(out[0]);
		free(out[1]);
		free(text);
	}
}
END_TEST

/*
 * The host refuses an entity enqueued twice (-EBUSY) or dequeued when not
 * queued (-EALREADY) and keeps the aggregate as it was; the model must
 * never ask that, so the clamp tracking WARNs on it (kcompat counts each,
 * and every test and fuzzer fails on a WARN) instead of dropping it.
 */
START_TEST(host_refusals_warn)
{
	struct run *r = run_text(
		"{ \"tasks\": { \"once\": { \"cpus\": [0], \"loop\": 1, \"run\": 1000 } } }",
		"sym4", POLICY_RFC, CLAMP_ORDER_612, 0.01, NULL);
	struct sim_task *t;
	unsigned long w;

	RUN_OK(r);
	ck_assert_uint_eq(kcompat_warn_count, 0);
	t = task_named(r->s, "once");
	ck_assert_uint_eq(clamp_host_nr_queued(&r->s->host, 0), 0);
	kcompat_warn_quiet = true;
	w = kcompat_warn_count;
	clamp_track_enqueue(r->s, &r->s->cpus[0], t);
	ck_assert_uint_eq(kcompat_warn_count, w);
	clamp_track_enqueue(r->s, &r->s->cpus[0], t);
	ck_assert_uint_eq(kcompat_warn_count, w + 1);
	ck_assert_uint_eq(clamp_host_nr_queued(&r->s->host, 0), 1);
	clamp_track_dequeue(r->s, &r->s->cpus[0], t);
	ck_assert_uint_eq(kcompat_warn_count, w + 1);
	clamp_track_dequeue(r->s, &r->s->cpus[0], t);
	ck_assert_uint_eq(kcompat_warn_count, w + 2);
	ck_assert_uint_eq(clamp_host_nr_queued(&r->s->host, 0), 0);
	kcompat_warn_quiet = false;
	run_free(r);
}
END_TEST

int main(void)
{
	return check_main("clamp", 120, CHECK_TESTS(
			  capped_hog_stays_at_its_opp,
			  default_groups_are_neutral,
			  clamp_order_is_a_what_if,
			  boost_lifts_frequency_only_while_runnable,
			  idle_cpu_does_not_constrain_shared_domain,
			  idle_cpus_end_to_end,
			  capped_rt_does_not_drive_top_opp,
			  capped_rt_next_to_uncapped_task_is_uncapped,
			  capped_rt_next_to_uncapped_task_on_another_cpu,
			  deadline_task_in_a_capped_group,
			  group_writes_during_the_run,
			  range_right_across_policy_and_group_changes,
			  both_clamp_backends_give_the_same_run,
			  host_refusals_warn,
			  determinism));
}
