// SPDX-License-Identifier: GPL-2.0
/*
 * The pure governor (schedutil.c) alone: per-CPU perf, OPP resolution,
 * the rate limit, no-change, the single-CPU hold and its capped exception,
 * the transition latency. Expected values are worked out by hand from
 * 6.12's formulas in the comments, not by calling the code under test.
 */
#include "simtest.h"

#include "governor_names.h"
#include "schedutil.h"

/* sym4-like: 4 OPPs, 2.5 GHz at the top, scale 1024 */
static const unsigned int khz[] = { 625000, 1000000, 1750000, 2500000 };

static struct sugov_params params(uint64_t rate_limit_ns, uint64_t lat_ns)
{
	struct sugov_params p = { .rate_limit_ns = rate_limit_ns,
				  .tick_ns = 4000000,	/* HZ=250 */
				  .transition_ns = lat_ns,
				  .opp_khz = khz, .nopps = 4 };
	return p;
}

static struct sugov_input one_cpu(struct sugov_cpu_input *c)
{
	struct sugov_input in = { .order = CLAMP_ORDER_612, .scale = 1024,
				  .max_khz = 2500000, .ncpus = 1, .cpu = c };

	return in;
}

static struct sugov_cpu_input unclamped(unsigned long util)
{
	struct sugov_cpu_input c = { .util_cfs = util, .rt_floor = 1024,
				     .clamp = { 0, 1024 } };

	return c;
}

START_TEST(per_cpu_perf_table)
{
	static const struct {
		unsigned long util, min, max, bw_dl;
		bool rt;
		unsigned int raw_khz;
	} rows[] = {
		/* perf = max(min, min(util * 1.25, max)); khz = 2.5 GHz * perf / 1024 */
		{ 400, 0, 1024, 0, false, 1220703 },	/* 500 */
		{ 400, 0, 256, 0, false, 625000 },	/* 256 */
		{ 100, 512, 1024, 0, false, 1250000 },	/* 512 */
		{ 100, 0, 1024, 300, false, 732421 },	/* bw_dl 300 */
		{ 100, 0, 1024, 0, true, 2500000 },	/* RT: floor 1024 */
		{ 1000, 0, 1024, 0, false, 2500000 },	/* 1250 -> max 1024 */
		{ 0, 0, 1024, 0, false, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct sugov_cpu_input c = unclamped(rows[i].util);
		struct sugov_input in = one_cpu(&c);
		struct sugov_output out;

		c.clamp.min = rows[i].min;
		c.clamp.max = rows[i].max;
		c.bw_dl = rows[i].bw_dl;
		c.rt_runnable = rows[i].rt;
		ck_assert_msg(sugov_next_perf(&in, 0, &out) == rows[i].raw_khz,
			      "row %zu: %u kHz", i, out.khz);
	}
}
END_TEST

START_TEST(shared_domain_takes_the_max)
{
	struct sugov_cpu_input c[3] = { unclamped(100), unclamped(600),
					unclamped(0) };
	struct sugov_input in = one_cpu(c);
	struct sugov_output out;

	in.ncpus = 3;
	/* the busiest CPU decides: 600 * 1.25 = 750 */
	sugov_next_perf(&in, 2, &out);
	ck_assert_uint_eq(out.perf, 750);
	ck_assert_uint_eq(out.util, 600);
	/* a per-CPU cap binds only its own CPU */
	c[1].clamp.max = 300;
	sugov_next_perf(&in, 0, &out);
	ck_assert_uint_eq(out.perf, 300);
	c[0].util_cfs = 800;
	sugov_next_perf(&in, 0, &out);
	ck_assert_uint_eq(out.perf, 1000);
}
END_TEST

START_TEST(resolution_is_the_lowest_opp_at_or_above)
{
	struct sugov_params p = params(0, 0);

	ck_assert_int_eq(sugov_resolve_opp(&p, 0), 0);
	ck_assert_int_eq(sugov_resolve_opp(&p, 625000), 0);
	ck_assert_int_eq(sugov_resolve_opp(&p, 625001), 1);
	ck_assert_int_eq(sugov_resolve_opp(&p, 1750000), 2);
	ck_assert_int_eq(sugov_resolve_opp(&p, 9000000), 3);
}
END_TEST

START_TEST(rate_limit_and_no_change)
{
	struct sugov_params p = params(2000000, 0);
	struct sugov_state st = { 0 };
	struct sugov_cpu_input c[2] = { unclamped(400), unclamped(0) };
	struct sugov_input in = one_cpu(c);
	struct sugov_decision d;

	in.ncpus = 2;	/* a shared policy: never held */
	/* 400 * 1.25 = 500 -> 1.22 GHz -> the 1.75 GHz OPP */
	ck_assert(sugov_should_update(&st, &p, 0));
	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	ck_assert_int_eq(d.opp, 2);
	ck_assert_uint_eq(d.apply_at_ns, 0);
	/* within rate_limit_us of the last change: no evaluation */
	ck_assert(!sugov_should_update(&st, &p, 1999999));
	ck_assert(sugov_should_update(&st, &p, 2000000));
	/* the same OPP again: no change, and the clock does not restart */
	ck_assert(!sugov_update(&st, &p, &in, 1, 2000000, &d));
	ck_assert_uint_eq(st.last_freq_update_ns, 0);
	ck_assert(sugov_should_update(&st, &p, 2500000));
	/* a shared policy goes down at once, busy or not */
	c[0].util_cfs = 0;
	ck_assert(sugov_update(&st, &p, &in, 1, 2500000, &d));
	ck_assert_int_eq(d.opp, 0);
	ck_assert(!sugov_should_update(&st, &p, 3000000));
}
END_TEST

START_TEST(hold_unless_capped)
{
	struct sugov_params p = params(0, 0);
	struct sugov_state st = { 0 };
	struct sugov_cpu_input c = unclamped(800);
	struct sugov_input in = one_cpu(&c);
	struct sugov_decision d;

	/* 800 * 1.25 = 1000 -> 2.44 GHz -> the top OPP */
	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	ck_assert_int_eq(d.opp, 3);
	/* not idle since (same idle_calls): the drop to 100 is held */
	c.util_cfs = 100;
	ck_assert(!sugov_update(&st, &p, &in, 0, 1000, &d));
	ck_assert_int_eq(st.next_opp, 3);
	/* once it has been idle, the frequency goes down */
	c.idle_calls = 1;
	ck_assert(sugov_update(&st, &p, &in, 0, 2000, &d));
	ck_assert_int_eq(d.opp, 0);
	/* busy again: up is never held */
	c.util_cfs = 800;
	ck_assert(sugov_update(&st, &p, &in, 0, 3000, &d));
	ck_assert_int_eq(d.opp, 3);
	/*
	 * Capped (util_cfs + util_rt >= clamp max < 1024, the rule of
	 * uclamp_rq_is_capped() and cap_clamp_rq_is_capped()): no hold,
	 * though the CPU was not idle.
	 */
	c.clamp.max = 256;
	ck_assert(sugov_update(&st, &p, &in, 0, 4000, &d));
	ck_assert_int_eq(d.opp, 0);
	/* below its max the capped CPU is not "capped": it holds again */
	c.clamp.max = 1024;
	ck_assert(sugov_update(&st, &p, &in, 0, 5000, &d));
	ck_assert_int_eq(d.opp, 3);
	c.clamp.max = 900;
	c.util_cfs = 100;
	ck_assert(!sugov_update(&st, &p, &in, 0, 6000, &d));
	ck_assert_int_eq(st.next_opp, 3);
}
END_TEST

START_TEST(transition_latency)
{
	struct sugov_params p = params(0, 500000);
	struct sugov_state st = { 0 };
	struct sugov_cpu_input c = unclamped(800);
	struct sugov_input in = one_cpu(&c);
	struct sugov_decision d;

	ck_assert(sugov_update(&st, &p, &in, 0, 7000000, &d));
	ck_assert_uint_eq(d.apply_at_ns, 7500000);
	ck_assert_uint_eq(st.last_freq_update_ns, 7000000);
	ck_assert_uint_eq(st.cached_raw_khz, 2441406);
}
END_TEST

/* ---- the fixed-frequency governors, end to end ---- */

static const char hogs[] =
	"{ \"tasks\": { \"hog\": { \"taskgroup\": \"/bg\", \"run\": 1000000 },\n"
	"    \"tick\": { \"run\": 1000, \"timer\": { \"ref\": \"t\", \"period\": 10000 } } },\n"
	"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 256 } } } }";

static struct run *with_governor(const char *gov, const char *platform,
				 enum clamp_policy pol)
{
	struct run *r = calloc(1, sizeof(*r));
	struct sim_opts o = { .clamp_policy = pol,
			      .duration_ns = 2 * NSEC_PER_SEC };
	const char *why = NULL;

	if (gov) {
		ck_assert_msg(!governor_parse(gov, &o.governor, &why), "%s", why);
		o.governor_set = true;
	}
	diag_init(&r->d, true);
	r->wl = workload_load_buffer_all("test.json", hogs, &r->d);
	r->pl = platform_load(platform, &r->d);
	ck_assert_msg(r->wl && r->pl, "%s", r->d.log.buf);
	sim_opts_resolve(&o, r->wl);
	r->s = sim_create(r->pl, r->wl, &o, &r->d);
	RUN_OK(r->s ? (r->ret = sim_run(r->s, NULL), r) : r);
	return r;
}

START_TEST(fixed_governors_pin_the_opp)
{
	/* sym4's OPPs: 500, 1000, 1500, 2000, 2500 MHz */
	static const struct {
		const char *gov;
		unsigned int khz;
	} rows[] = {
		{ "performance", 2500000 },
		{ "powersave", 500000 },
		{ "userspace:1000000", 1000000 },
		{ "userspace:1000001", 1500000 },	/* the lowest at or above */
		{ "userspace:9999999", 2500000 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct run *r = with_governor(rows[i].gov, "sym4", POLICY_RFC);

		/* the whole run at that OPP, the cap of 256 notwithstanding */
		ck_assert_msg(fabs(time_at(r->s, 0, rows[i].khz) - 2.0) < 1e-9,
			      "%s: %f s at %u kHz", rows[i].gov,
			      time_at(r->s, 0, rows[i].khz), rows[i].khz);
		ck_assert_uint_eq(r->s->doms[0].gov.ever_updated, false);
		run_free(r);
	}
	/* schedutil: the cap holds the hog down (rfc), none lets it up */
	{
		struct run *r = with_governor("schedutil", "sym4", POLICY_RFC);
		struct run *n = with_governor(NULL, "sym4", POLICY_NONE);

		ck_assert(time_above(r->s, 0, 1000000) < 0.5);
		ck_assert(time_at(n->s, 0, 2500000) > 1.5);
		run_free(r);
		run_free(n);
	}
}
END_TEST

/* A platform file's per-domain governor: big pinned, LITTLE on schedutil */
START_TEST(platform_file_governor_per_domain)
{
	char path[] = "/tmp/capsim-gov-XXXXXX";
	char *text, *at;
	size_t len;
	FILE *f;
	int fd = mkstemp(path);
	struct run *r;

	char src[4096];

	snprintf(src, sizeof(src), "%s/traces/platforms/juno-r0.json",
		 getenv("CAPSIM_SRCDIR") ? getenv("CAPSIM_SRCDIR") : ".");
	text = read_file(src, &len);
	ck_assert(text && fd >= 0);
	at = strstr(text, "\"name\": \"big\",");
	ck_assert(at);
	f = fdopen(fd, "w");
	fprintf(f, "%.*s\"governor\": \"performance\", %s",
		(int)(at - text), text, at);
	fclose(f);
	r = with_governor(NULL, path, POLICY_RFC);
	ck_assert_int_eq(r->s->doms[1].pd->cpus[0], 1);	/* the big one */
	ck_assert(fabs(time_at(r->s, 1, r->s->doms[1].pd->opps[
		r->s->doms[1].pd->nopps - 1].khz) - 2.0) < 1e-9);
	ck_assert_int_lt(r->s->doms[0].fixed_opp, 0);
	ck_assert_int_eq(r->s->doms[0].governor.kind, GOV_SCHEDUTIL);
	run_free(r);

	/* a bad one is an input error at its place */
	f = fopen(path, "w");
	fprintf(f, "%.*s\"governor\": \"ondemand\", %s", (int)(at - text),
		text, at);
	fclose(f);
	{
		struct diag d;
		struct platform *pl;

		diag_init(&d, true);
		pl = platform_load(path, &d);
		ck_assert_ptr_null(pl);
		ck_assert_msg(strstr(d.log.buf, "domains[1].governor") &&
			      strstr(d.log.buf, "allowed: schedutil, performance"),
			      "%s", d.log.buf);
		diag_free(&d);
	}
	unlink(path);
	free(text);
}
END_TEST

/*
 * The iowait boost of one CPU (6.12 sugov_iowait_boost()/_apply()),
 * each row a step: an update at t (µs) with or without the I/O flag,
 * then (apply) a decision at t, and the boost it gives at capacity 1024.
 * Ramp: 128, 256, 512, 1024, capped at 1024; a request while the last
 * one is pending does not double; decay: halved at each decision
 * without a request, dropped below 128; a tick (4 ms) without an
 * update resets it.
 */
START_TEST(iowait_boost_ramp_decay_and_reset)
{
	static const struct {
		unsigned int t_us;
		bool io, apply;
		unsigned long boost;	/* the apply's result */
		unsigned int state;	/* iowait_boost after the step */
	} step[] = {
		{ 0, true, true, 128, 128 },
		{ 1000, true, true, 256, 256 },
		{ 2000, true, false, 0, 512 },	/* requested, pending */
		{ 2100, true, true, 512, 512 },	/* pending: no doubling */
		{ 3000, true, true, 1024, 1024 },
		{ 4000, true, true, 1024, 1024 },	/* capped */
		{ 5000, false, true, 512, 512 },	/* no request: halve */
		{ 6000, false, true, 256, 256 },
		{ 7000, false, true, 128, 128 },
		{ 8000, false, true, 0, 0 },		/* 64 < 128: dropped */
		{ 9000, true, true, 128, 128 },
		/* 4.001 ms since the last update: reset, at the minimum */
		{ 13001, true, true, 128, 128 },
	};
	struct sugov_params p = params(0, 0);
	struct sugov_cpu_state cs = { 0 };
	unsigned int i;

	for (i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		uint64_t t = (uint64_t)step[i].t_us * 1000;

		sugov_iowait_boost(&cs, &p, t, step[i].io);
		if (step[i].apply)
			ck_assert_msg(sugov_iowait_apply(&cs, &p, t, 1024) == step[i].boost,
				      "step %u", i);
		ck_assert_msg(cs.iowait_boost == step[i].state, "step %u: %u",
			      i, cs.iowait_boost);
	}
	/* a decision more than a tick after the CPU's last update: none */
	ck_assert_uint_eq(sugov_iowait_apply(&cs, &p, 13001000 + 4000001, 1024), 0);
	ck_assert_uint_eq(cs.iowait_boost, 0);
	/* on a LITTLE CPU of capacity 446 the boost is scaled: 128 -> 55 */
	cs = (struct sugov_cpu_state){ 0 };
	sugov_iowait_boost(&cs, &p, 0, true);
	ck_assert_uint_eq(sugov_iowait_apply(&cs, &p, 0, 446), 55);
}
END_TEST

/* The boost is a floor under util, before the headroom (sugov_get_util()) */
START_TEST(iowait_boost_is_a_util_floor)
{
	struct sugov_cpu_input c = unclamped(100);
	struct sugov_input in = one_cpu(&c);
	struct sugov_output out;

	c.boost = 512;
	/* max(100, 512) * 1.25 = 640 -> 2.5 GHz * 640 / 1024 = 1.5625 GHz */
	ck_assert_uint_eq(sugov_next_perf(&in, 0, &out), 1562500);
	ck_assert_uint_eq(out.util, 512);
	c.boost = 0;
	ck_assert_uint_eq(sugov_next_perf(&in, 0, &out), 305175);
}
END_TEST

/*
 * ignore_dl_rate_limit(): a DL bandwidth above the CPU's last min
 * (bw_min) sets limits_changed; the next check passes the rate limit,
 * with need_freq_update, which also skips the cached_raw_freq shortcut
 * and the hold; the flag is cleared by the decision.
 */
START_TEST(dl_bandwidth_ignores_the_rate_limit)
{
	struct sugov_params p = params(10000000, 0);
	struct sugov_state st = { 0 };
	struct sugov_cpu_state cs = { 0 };
	struct sugov_cpu_input c = unclamped(100);
	struct sugov_input in = one_cpu(&c);
	struct sugov_decision d;

	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	ck_assert_int_eq(d.opp, 0);
	cs.bw_min = sugov_cpu_min(&in, 0);
	ck_assert_uint_eq(cs.bw_min, 0);
	/* 1 ms later, rate-limited (10 ms), a DL task of bw 600 arrives */
	ck_assert(!sugov_should_update(&st, &p, 1000000));
	c.bw_dl = 600;
	sugov_ignore_dl_rate_limit(&st, &cs, c.bw_dl);
	ck_assert(sugov_should_update(&st, &p, 1000000));
	ck_assert(st.need_freq_update);
	/* min 600 -> 2.5 GHz * 600 / 1024 = 1.46 GHz -> the 1.75 GHz OPP */
	ck_assert(sugov_update(&st, &p, &in, 0, 1000000, &d));
	ck_assert_int_eq(d.opp, 2);
	ck_assert(!st.need_freq_update);
	cs.bw_min = sugov_cpu_min(&in, 0);
	/* the same bandwidth again: bw_min covers it, the limit holds */
	sugov_ignore_dl_rate_limit(&st, &cs, c.bw_dl);
	ck_assert(!sugov_should_update(&st, &p, 2000000));
}
END_TEST

/*
 * cached_raw_freq and the hold: a single busy CPU (no idle in between)
 * holds its higher frequency and restores the raw frequency it came
 * from, so after an idle period the same low request resolves again
 * instead of reusing the held next_freq.
 */
START_TEST(hold_restores_cached_raw_freq)
{
	struct sugov_params p = params(0, 0);
	struct sugov_state st = { 0 };
	struct sugov_cpu_input c = unclamped(800);
	struct sugov_input in = one_cpu(&c);
	struct sugov_decision d;

	/* 800 * 1.25 = 1000 -> 2441406 kHz -> 2.5 GHz */
	ck_assert(sugov_update(&st, &p, &in, 0, 0, &d));
	ck_assert_int_eq(d.opp, 3);
	ck_assert_uint_eq(st.cached_raw_khz, 2441406);
	/* busy (idle_calls unchanged), util 200: held, raw restored */
	c.util_cfs = 200;
	ck_assert(!sugov_update(&st, &p, &in, 0, 1000, &d));
	ck_assert_int_eq(st.next_opp, 3);
	ck_assert_uint_eq(st.cached_raw_khz, 2441406);
	/* after an idle period the same request (raw 610351) goes down */
	c.idle_calls = 1;
	ck_assert(sugov_update(&st, &p, &in, 0, 2000, &d));
	ck_assert_int_eq(d.opp, 0);
	ck_assert_uint_eq(st.cached_raw_khz, 610351);
	/* the same raw frequency again: reused, no change */
	ck_assert(!sugov_update(&st, &p, &in, 0, 3000, &d));
}
END_TEST

int main(void)
{
	return check_main("governor", 30, CHECK_TESTS(
			  per_cpu_perf_table,
			  shared_domain_takes_the_max,
			  resolution_is_the_lowest_opp_at_or_above,
			  rate_limit_and_no_change,
			  hold_unless_capped,
			  transition_latency,
			  fixed_governors_pin_the_opp,
			  platform_file_governor_per_domain,
			  iowait_boost_ramp_decay_and_reset,
			  iowait_boost_is_a_util_floor,
			  dl_bandwidth_ignores_the_rate_limit,
			  hold_restores_cached_raw_freq));
}
