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

static unsigned long cpu_util_sum(const struct sugov_cpu_input *c,
				  unsigned long scale)
{
	return ulmin(scale, c->util_cfs + c->util_rt + c->util_dl);
}

/* effective_cpu_util()'s *min */
static unsigned long cpu_min(const struct sugov_cpu_input *c)
{
	unsigned long lo = ulmax(c->bw_dl, c->clamp.min);

	if (c->rt_runnable)
		lo = ulmax(lo, c->rt_floor);
	return lo;
}

unsigned long sugov_cpu_min(const struct sugov_input *in, int j)
{
	return cpu_min(&in->cpu[j]);
}

/*
 * sugov_get_util(): effective_cpu_util() (its util, min and max), the
 * iowait boost as a floor under util, then sugov_effective_cpu_perf()
 */
static unsigned long cpu_perf(const struct sugov_input *in,
			      const struct sugov_cpu_input *c,
			      unsigned long *util)
{
	unsigned long scale = in->scale;
	unsigned long u = ulmax(cpu_util_sum(c, scale), c->boost);
	unsigned long lo = cpu_min(c);
	unsigned long hi = ulmin(scale, c->clamp.max);

	*util = u;
	return ulmax(lo, ulmin(map_util_perf(u), hi));
}

/* One range for the whole domain (the RFC's shared-domain rule) */
static unsigned long domain_perf(const struct sugov_input *in,
				 unsigned long *util)
{
	unsigned long scale = in->scale, floor = 0, u = 0;
	const struct sugov_range *r = &in->range;
	int j;

	for (j = 0; j < in->ncpus; j++) {
		const struct sugov_cpu_input *c = &in->cpu[j];
		bool rtdl = c->rt_runnable ||
			    (in->order == CLAMP_ORDER_410 && c->dl_runnable);

		u = ulmax(u, ulmax(cpu_util_sum(c, scale), c->boost));
		if (rtdl)
			floor = ulmax(floor, ulmin(c->rt_floor, scale));
		if (in->order == CLAMP_ORDER_612)
			floor = ulmax(floor, c->bw_dl);
	}
	*util = u;
	if (in->order == CLAMP_ORDER_612) {
		unsigned long h = map_util_perf(u);

		h = ulmax(ulmin(h, r->max), r->min);
		return ulmin(ulmax(h, floor), scale);
	}
	/* 4.10: clamp the larger of util and the RT/DL floor, then headroom */
	u = ulmax(u, floor);
	if (u < r->min)
		u = r->min;
	if (u > r->max)		/* the max wins over a stale min */
		u = r->max;
	return map_util_perf(u);
}

unsigned int sugov_next_perf(const struct sugov_input *in, int caller,
			     struct sugov_output *out)
{
	unsigned long util = 0, perf = 0;
	int j;

	if (in->domain_clamp) {
		perf = domain_perf(in, &util);
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
	st->ever_updated = true;
	st->next_opp = opp;
	st->last_freq_update_ns = now;
	dec->opp = opp;
	dec->apply_at_ns = now + p->transition_ns;
	return true;
}
