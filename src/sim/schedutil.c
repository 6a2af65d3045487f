// SPDX-License-Identifier: GPL-2.0
#include <linux/sched.h>

#include "schedutil.h"

static unsigned long ulmin(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static unsigned long ulmax(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

/* a CPU's util as the governor reads it: the sum, the iowait boost under it */
static unsigned long cpu_actual(const struct sugov_cpu_input *c,
				unsigned long scale)
{
	return ulmax(ulmin(scale, c->util_cfs + c->util_rt + c->util_dl),
		     c->boost);
}

unsigned long sugov_effective_cpu_perf(const struct sugov_perf_in *in)
{
	/* the headroom, then no more than max, but at least min */
	return ulmax(in->min, ulmin(map_util_perf(in->actual, in->headroom_pm),
				    in->max));
}

void sugov_effective_cpu_util(const struct sugov_cpu_input *c,
			      unsigned long scale, struct sugov_perf_in *out)
{
	unsigned long lo = ulmax(c->bw_dl, c->clamp.min);

	if (c->rt_runnable)
		lo = ulmax(lo, c->rt_floor);
	out->actual = ulmin(scale, c->util_cfs + c->util_rt + c->util_dl);
	out->min = lo;
	out->max = ulmin(scale, c->clamp.max);
	out->headroom_pm = c->headroom_pm;
}

unsigned long sugov_cpu_min(const struct sugov_input *in, int j)
{
	struct sugov_perf_in p;

	sugov_effective_cpu_util(&in->cpu[j], in->scale, &p);
	return p.min;
}

/*
 * sugov_get_util(): effective_cpu_util(), the iowait boost as a floor
 * under its util, then sugov_effective_cpu_perf()
 */
static unsigned long cpu_perf(const struct sugov_input *in,
			      const struct sugov_cpu_input *c,
			      unsigned long *util)
{
	struct sugov_perf_in p;

	sugov_effective_cpu_util(c, in->scale, &p);
	p.actual = cpu_actual(c, in->scale);
	*util = p.actual;
	return sugov_effective_cpu_perf(&p);
}

/*
 * One range for the whole domain (the RFC's shared-domain rule), as the
 * inputs of sugov_effective_cpu_perf(): util and floor the MAX over the
 * CPUs, the floor (RT's, and 6.12's DL bandwidth) not limited by the
 * range. 6.12: min(scale, max(floor, clamp(util * 1.25, range))), that is
 * min = min(scale, max(floor, range.min)), max = min(scale, range.max).
 * 4.10: clamp(max(util, floor), range) * 1.25, the max winning over a
 * stale min: actual = max(util, floor), min and max the range with the
 * headroom (map_util_perf() is monotonic, so it commutes with the clamp),
 * min at most max; no limit at the scale.
 */
void sugov_domain_perf_in(const struct sugov_input *in,
			  struct sugov_perf_in *out)
{
	unsigned long scale = in->scale, floor = 0, u = 0;
	const struct sugov_range *r = &in->range;
	int j;

	for (j = 0; j < in->ncpus; j++) {
		const struct sugov_cpu_input *c = &in->cpu[j];
		bool rtdl = c->rt_runnable ||
			    (in->order == CLAMP_ORDER_410 && c->dl_runnable);

		u = ulmax(u, cpu_actual(c, scale));
		if (rtdl)
			floor = ulmax(floor, ulmin(c->rt_floor, scale));
		if (in->order == CLAMP_ORDER_612)
			floor = ulmax(floor, c->bw_dl);
	}
	/* one headroom for the domain: its CPUs share their settings */
	out->headroom_pm = in->ncpus ? in->cpu[0].headroom_pm : 0;
	if (in->order == CLAMP_ORDER_612) {
		out->actual = u;
		out->min = ulmin(scale, ulmax(floor, r->min));
		out->max = ulmin(scale, r->max);
	} else {
		out->actual = ulmax(u, floor);
		out->max = map_util_perf(r->max, out->headroom_pm);
		out->min = ulmin(map_util_perf(r->min, out->headroom_pm),
				 out->max);
	}
}

/* The domain's util as traced: the MAX over its CPUs, before any floor */
static unsigned long domain_util(const struct sugov_input *in)
{
	unsigned long u = 0;
	int j;

	for (j = 0; j < in->ncpus; j++)
		u = ulmax(u, cpu_actual(&in->cpu[j], in->scale));
	return u;
}

unsigned int sugov_next_perf(const struct sugov_input *in, int caller,
			     struct sugov_output *out)
{
	unsigned long util = 0, perf = 0;
	int j;

	if (in->domain_clamp) {
		struct sugov_perf_in p;

		sugov_domain_perf_in(in, &p);
		perf = sugov_effective_cpu_perf(&p);
		util = domain_util(in);
		out->range = in->range;
	} else {
		for (j = 0; j < in->ncpus; j++) {
			unsigned long u, p = cpu_perf(in, &in->cpu[j], &u);

			perf = ulmax(perf, p);
			util = ulmax(util, u);
		}
		out->range.min = in->cpu[caller].clamp.min;
		out->range.max = ulmin(in->scale, in->cpu[caller].clamp.max);
	}
	out->util = util;
	out->perf = perf;
	out->khz = (unsigned int)((unsigned long long)in->max_khz * perf /
				  in->scale);
	return out->khz;
}

bool sugov_should_update(struct sugov_state *st,
			 const struct sugov_params *p, uint64_t now)
{
	if (st->limits_changed) {
		st->limits_changed = false;
		st->need_freq_update = true;
		return true;
	}
	return !st->ever_updated ||
	       now - st->last_freq_update_ns >= p->rate_limit_ns;
}

void sugov_ignore_dl_rate_limit(struct sugov_state *st,
				const struct sugov_cpu_state *cs,
				unsigned long bw_dl)
{
	if (bw_dl > cs->bw_min)
		st->limits_changed = true;
}

/* sugov_iowait_reset(): more than a tick since the CPU's last update */
static bool iowait_reset(struct sugov_cpu_state *cs,
			 const struct sugov_params *p, uint64_t now, bool set)
{
	if (now - cs->last_update <= p->tick_ns)
		return false;
	cs->iowait_boost = set ? SUGOV_IOWAIT_BOOST_MIN : 0;
	cs->iowait_boost_pending = set;
	return true;
}

void sugov_iowait_boost(struct sugov_cpu_state *cs,
			const struct sugov_params *p, uint64_t now,
			bool iowait)
{
	/* the boost switched off: as if no wake-up were from I/O */
	iowait = iowait && !p->iowait_boost_off;
	if (cs->iowait_boost && iowait_reset(cs, p, now, iowait))
		goto out;
	if (!iowait || cs->iowait_boost_pending)
		goto out;
	/* double once per request taken into account */
	cs->iowait_boost_pending = true;
	if (cs->iowait_boost)
		cs->iowait_boost = cs->iowait_boost << 1 > 1024 ?
				   1024 : cs->iowait_boost << 1;
	else
		cs->iowait_boost = SUGOV_IOWAIT_BOOST_MIN;
out:
	cs->last_update = now;
}

unsigned long sugov_iowait_apply(struct sugov_cpu_state *cs,
				 const struct sugov_params *p, uint64_t now,
				 unsigned long max_cap)
{
	if (!cs->iowait_boost)
		return 0;
	if (iowait_reset(cs, p, now, false))
		return 0;
	/* no new request since the last decision: decay */
	if (!cs->iowait_boost_pending) {
		cs->iowait_boost >>= 1;
		if (cs->iowait_boost < SUGOV_IOWAIT_BOOST_MIN) {
			cs->iowait_boost = 0;
			return 0;
		}
	}
	cs->iowait_boost_pending = false;
	return (cs->iowait_boost * max_cap) >> 10;
}

int sugov_resolve_opp(const struct sugov_params *p, unsigned int khz)
{
	int opp;

	for (opp = 0; opp < p->nopps - 1 && p->opp_khz[opp] < khz; opp++)
		;
	return opp;
}

/* uclamp_rq_is_capped() / cap_clamp_rq_is_capped() */
static bool cpu_capped(const struct sugov_cpu_input *c)
{
	return c->clamp.max != SCHED_CAPACITY_SCALE &&
	       c->util_cfs + c->util_rt >= c->clamp.max;
}

/* sugov_hold_freq(): a busy CPU keeps its frequency, unless capped */
static bool hold_freq(struct sugov_state *st, const struct sugov_cpu_input *c)
{
	bool hold;

	if (cpu_capped(c))
		return false;
	hold = c->idle_calls == st->saved_idle_calls;
	st->saved_idle_calls = c->idle_calls;
	return hold;
}

/*
 * Android's sugov_up_down_rate_limit(): a change to @opp within the
 * limit of its direction since the last change. A limits change
 * (need_freq_update) passes, as it passes mainline's single rate limit:
 * with neither up nor down limit given, the run is mainline's exactly.
 */
static bool direction_limited(const struct sugov_state *st,
			      const struct sugov_params *p, int opp,
			      uint64_t now)
{
	uint64_t limit = opp > st->next_opp ? p->up_rate_limit_ns :
			 p->down_rate_limit_ns;

	return now - st->last_freq_update_ns < limit;
}

bool sugov_update(struct sugov_state *st, const struct sugov_params *p,
		  const struct sugov_input *in, int caller, uint64_t now,
		  struct sugov_decision *dec)
{
	unsigned int khz = sugov_next_perf(in, caller, &dec->out);
	unsigned int cached = st->cached_raw_khz;
	bool need = st->need_freq_update;
	int opp;

	/* get_next_freq(): the same raw frequency resolves the same */
	if (st->ever_updated && khz == cached && !need) {
		opp = st->next_opp;
	} else {
		st->cached_raw_khz = khz;
		opp = sugov_resolve_opp(p, khz);
	}
	/*
	 * sugov_update_single_freq() only (a shared policy never holds):
	 * keep the higher frequency, and the raw one it came from
	 */
	if (in->ncpus == 1 && st->ever_updated &&
	    hold_freq(st, &in->cpu[0]) && opp < st->next_opp && !need) {
		opp = st->next_opp;
		st->cached_raw_khz = cached;
	}
	/* sugov_update_next_freq(): a limits change only clears the flag */
	st->need_freq_update = false;
	if (st->ever_updated && opp == st->next_opp)
		return false;
	if (st->ever_updated && !need &&
	    direction_limited(st, p, opp, now)) {
		/*
		 * Android restores prev_cached_raw_freq: the cache keeps
		 * the raw frequency that next_freq came from (its older
		 * "cached_raw_freq = 0" would read a raw 0, an idle
		 * policy's, as cached)
		 */
		st->cached_raw_khz = cached;
		return false;
	}
	st->ever_updated = true;
	st->next_opp = opp;
	st->last_freq_update_ns = now;
	dec->opp = opp;
	dec->apply_at_ns = now + p->transition_ns;
	return true;
}
