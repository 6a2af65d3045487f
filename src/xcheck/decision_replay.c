// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched/cap_clamp.h>

#include "rfc_domain.h"
#include "decision_replay.h"
#include "sugov_line.h"
#include "ftrace.h"
#include "schedutil.h"
#include "trace_reader.h"
#include "util.h"

#define DR_MAX_CPUS 64

/* What one trace CPU logged since its last decision line */
struct dr_pending {
	struct sugov_line cpu[DR_MAX_CPUS];	/* by CPU id */
};

/*
 * Per domain: the governor's state across decisions (get_next_freq()'s
 * cached raw frequency, the next frequency, sugov_hold_freq()'s idle
 * count), carried by the pure governor's own sugov_update()
 */
struct dr_dom {
	struct sugov_state st;
	bool seeded;
};

/* Go on from the state the trace logged, after a mismatch or at first */
static void resync(struct dr_dom *dd, const struct sugov_params *sp,
		   unsigned long target, unsigned long khz,
		   const struct sugov_cpu_input *first)
{
	int j;

	dd->seeded = true;
	dd->st.ever_updated = true;
	dd->st.cached_raw_khz = (unsigned int)target;
	dd->st.need_freq_update = false;
	dd->st.saved_idle_calls = first->idle_calls;
	for (j = 0; j < sp->nopps - 1 && sp->opp_khz[j] < khz; j++)
		;
	dd->st.next_opp = j;
}

static unsigned long ulmin(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static long dr_reports;
#define report(log, ...) do {						\
	if ((log) && dr_reports++ < 20)					\
		fprintf((log), __VA_ARGS__);				\
} while (0)

/* The RFC's domain range from the logged per-CPU ranges, by the core */
static void compose(const struct sugov_line *const *lines, int n, int caller,
		    struct sugov_range *out)
{
	struct cap_clamp_cpu cc[DR_MAX_CPUS];
	const struct cap_clamp_cpu *cp[DR_MAX_CPUS];
	bool idle[DR_MAX_CPUS];

	for (int j = 0; j < n; j++) {
		memset(&cc[j], 0, sizeof(cc[j]));
		cc[j].value[CAP_CLAMP_MIN] = (unsigned int)lines[j]->in.clamp.min;
		cc[j].value[CAP_CLAMP_MAX] = (unsigned int)lines[j]->in.clamp.max;
		cc[j].nr = lines[j]->clamp_nr;
		cp[j] = &cc[j];
		idle[j] = lines[j]->in.idle;
	}
	rfc_domain_compose(cp, idle, n, caller, DOMAIN_RULE_NONIDLE, out);
}

/*
 * A shared policy reads another CPU's signals without its lock, and patch
 * 11 logs them (and the decision's util, from them) right after the
 * decision read them: a remote CPU's PELT update may land in between (a
 * whole period's worth at once). Such a decision is recomputed with that
 * CPU's utilization at each value between its previous logged line and
 * this one (the signal moved from one to the other), then with that
 * CPU's whole previous line (a task enqueued there in between changes its
 * idleness and range too: 160 us between a decision's read and its last
 * line in a guest beside stress-ng); the decision's own perf, range and
 * target then found means a read race, not a governor difference.
 */
static bool same_output(const struct sugov_output *out,
			const struct sugov_output *want, unsigned long scale)
{
	return out->range.min == want->range.min &&
	       ulmin(out->range.max, scale) == ulmin(want->range.max, scale) &&
	       out->perf == want->perf && out->khz == want->khz;
}

/* The decision with remote CPU @j's previous line instead of this one */
static bool previous_state_matches(const struct sugov_input *si0,
				   const struct sugov_line *const *lines,
				   const struct sugov_line *prev,
				   const struct pdomain *pd, int me, int j,
				   const struct sugov_output *want)
{
	const struct sugov_line *lines2[DR_MAX_CPUS];
	struct sugov_cpu_input in2[DR_MAX_CPUS];
	struct sugov_input si = *si0;
	struct sugov_output out;

	for (int k = 0; k < pd->ncpus; k++) {
		lines2[k] = k == j ? prev : lines[k];
		in2[k] = lines2[k]->in;
	}
	si.cpu = in2;
	if (si.domain_clamp)
		compose(lines2, pd->ncpus, me, &si.range);
	sugov_next_perf(&si, me, &out);
	return same_output(&out, want, si.scale);
}

static bool remote_race(const struct sugov_input *si0,
			const struct sugov_line *const *lines,
			const struct pdomain *pd, int me,
			const struct dr_pending *last,
			const struct sugov_output *want)
{
	struct sugov_cpu_input in2[DR_MAX_CPUS];
	struct sugov_input si = *si0;
	struct sugov_output out;
	int j, k;

	for (j = 0; j < pd->ncpus; j++) {
		const struct sugov_line *prev = &last->cpu[pd->cpus[j]];
		unsigned long a, b, u;

		if (j == me || !prev->set)
			continue;
		a = prev->in.util_cfs + prev->in.util_rt + prev->in.util_dl;
		b = lines[j]->in.util_cfs + lines[j]->in.util_rt +
		    lines[j]->in.util_dl;
		if (a > b) {
			u = a;
			a = b;
			b = u;
		}
		for (k = 0; k < pd->ncpus; k++)
			in2[k] = lines[k]->in;
		si.cpu = in2;
		for (u = a; u <= b; u++) {
			in2[j].util_cfs = u;
			in2[j].util_rt = 0;
			in2[j].util_dl = 0;
			sugov_next_perf(&si, me, &out);
			if (same_output(&out, want, si.scale))
				return true;
		}
		if (previous_state_matches(si0, lines, prev, pd, me, j, want))
			return true;
	}
	return false;
}

static void one_decision(const struct ftrace_event *ev, struct dr_pending *p,
			 struct dr_pending *last,
			 const struct decision_replay_opts *o,
			 struct dr_dom *doms, FILE *log, const char *file,
			 long lineno, struct decision_replay_result *r)
{
	const struct platform *pl = o->pl;
	const struct sugov_line *lines[DR_MAX_CPUS];
	struct sugov_cpu_input in[DR_MAX_CPUS];
	unsigned long util, perf, min, max, target, khz, caller, need, changed;
	const struct pdomain *pd;
	struct sugov_input si = { .order = CLAMP_ORDER_612 };
	struct sugov_output out;
	struct sugov_params sp = { 0 };
	unsigned int opp_khz[64];
	unsigned int want_khz;
	struct sugov_decision dec;
	struct sugov_output want;
	struct dr_dom *dd;
	bool now_changed, race;
	int j, me = -1;
	bool ok = true;

	r->decisions++;
	if (!sugov_field(ev, "util", &util) || !sugov_field(ev, "perf", &perf) ||
	    !sugov_field(ev, "min", &min) || !sugov_field(ev, "max", &max) ||
	    !sugov_field(ev, "target_khz", &target) || !sugov_field(ev, "khz", &khz) ||
	    !sugov_field(ev, "caller", &caller) ||
	    !sugov_field(ev, "need_update", &need) ||
	    !sugov_field(ev, "changed", &changed) || (long)caller >= pl->ncpus) {
		report(log, "xcheck: %s:%ld: a capsim_sugov field is missing\n",
		       file, lineno);
		r->incomplete++;
		return;
	}
	r->changed += changed != 0;
	pd = &pl->domains[pl->cpus[caller].domain];
	for (j = 0; j < pd->ncpus; j++) {
		int cpu = pd->cpus[j];

		if (cpu >= DR_MAX_CPUS || !p->cpu[cpu].set) {
			ok = false;
			break;
		}
		lines[j] = &p->cpu[cpu];
		in[j] = p->cpu[cpu].in;
		if (cpu == (int)caller)
			me = j;
	}
	/* the next decision on this CPU starts from fresh input lines */
	for (j = 0; j < DR_MAX_CPUS; j++)
		p->cpu[j].set = false;
	if (!ok || me < 0 || pd->nopps > 64) {
		r->incomplete++;
		return;
	}
	si.scale = pl->cpus[caller].capacity;
	si.max_khz = pd->opps[pd->nopps - 1].khz;
	si.ncpus = pd->ncpus;
	si.cpu = in;
	si.domain_clamp = o->domain_clamp;
	if (o->domain_clamp)
		compose(lines, pd->ncpus, me, &si.range);
	sugov_next_perf(&si, me, &out);
	r->recomputed++;
	for (j = 0; j < pd->nopps; j++)
		opp_khz[j] = pd->opps[j].khz;
	sp.opp_khz = opp_khz;
	sp.nopps = pd->nopps;
	dd = &doms[pd - pl->domains];
	want.range.min = min;
	want.range.max = max;
	want.util = util;
	want.perf = perf;
	want.khz = (unsigned int)target;
	race = remote_race(&si, lines, pd, me, last, &want);
	/* these lines are now each CPU's last */
	for (j = 0; j < pd->ncpus; j++) {
		last->cpu[pd->cpus[j]] = *lines[j];
		last->cpu[pd->cpus[j]].set = true;
	}
	/*
	 * The kernel logs the range capped at the CPU's capacity (a LITTLE
	 * domain's max reads 447), the simulator as composed: compare both
	 * capped, as sugov_effective_cpu_perf() uses them
	 */
	if ((out.range.min != min ||
	     ulmin(out.range.max, si.scale) != ulmin(max, si.scale) ||
	     out.util != util || out.perf != perf || out.khz != target) &&
	    race) {
		r->remote_race++;
		report(log, "xcheck: %s:%ld: cpu%lu: a remote CPU's inputs moved between the decision's read and the trace's (recomputed equal with its utilization between its previous line and this one, or with its previous line)\n",
		       file, lineno, caller);
		resync(dd, &sp, target, khz, &in[0]);
		return;
	}
	if (out.range.min != min ||
	    ulmin(out.range.max, si.scale) != ulmin(max, si.scale)) {
		r->range_mismatch++;
		report(log, "xcheck: %s:%ld: cpu%lu's range: logged [%lu,%lu], the core's rule [%lu,%lu]\n",
		       file, lineno, caller, min, max, out.range.min,
		       out.range.max);
		resync(dd, &sp, target, khz, &in[0]);
		return;
	}
	if (out.util != util || out.perf != perf || out.khz != target) {
		r->perf_mismatch++;
		report(log, "xcheck: %s:%ld: cpu%lu: logged util=%lu perf=%lu target=%lu kHz, recomputed util=%lu perf=%lu target=%u kHz\n",
		       file, lineno, caller, util, perf, target, out.util,
		       out.perf, out.khz);
		resync(dd, &sp, target, khz, &in[0]);
		return;
	}
	/*
	 * The policy's state before the trace's first decision is unknown
	 * (tracing starts mid-run): the first one seeds it
	 */
	if (!dd->seeded) {
		resync(dd, &sp, target, khz, &in[0]);
		r->seeded++;
		r->matched++;
		return;
	}
	/* a limits change the trace logged forces the update */
	dd->st.need_freq_update = need;
	now_changed = sugov_update(&dd->st, &sp, &si, me, 0, &dec);
	want_khz = opp_khz[dd->st.next_opp];
	if (want_khz != khz || now_changed != (changed != 0)) {
		r->khz_mismatch++;
		report(log, "xcheck: %s:%ld: cpu%lu: target %lu kHz: logged next %lu kHz changed=%lu, the governor's %u kHz changed=%d\n",
		       file, lineno, caller, target, khz, changed, want_khz,
		       now_changed);
		resync(dd, &sp, target, khz, &in[0]);
		return;
	}
	r->matched++;
}

int decision_replay_named(const char *file, const char *name,
			  const struct decision_replay_opts *o, FILE *log,
			  struct decision_replay_result *r)
{
	/* the reader skips every other line unparsed */
	struct trace_reader rd = { .only = ": capsim_sugov" };
	struct dr_pending *pend, *last;
	struct ftrace_event ev;
	struct dr_dom *doms;
	const int ncpus = o->pl->ncpus < DR_MAX_CPUS ? o->pl->ncpus :
			  DR_MAX_CPUS;
	int rc;

	memset(r, 0, sizeof(*r));
	dr_reports = 0;
	if (trace_reader_open_as(&rd, file, name))
		return -1;
	pend = xcalloc(DR_MAX_CPUS, sizeof(*pend));
	last = xcalloc(1, sizeof(*last));
	doms = xcalloc((size_t)o->pl->ndomains, sizeof(*doms));
	while ((rc = trace_reader_next(&rd, &ev)) > 0) {
		struct sugov_line l;
		int cpu;

		if (ev.cpu < 0 || ev.cpu >= DR_MAX_CPUS)
			continue;
		if (!strcmp(ev.name, "capsim_sugov_cpu")) {
			if (sugov_line_parse(&ev, ncpus, &cpu, &l))
				pend[ev.cpu].cpu[cpu] = l;
			else
				report(log, "xcheck: %s:%ld: a capsim_sugov_cpu field is missing\n",
				       name, rd.lineno);
		} else if (!strcmp(ev.name, "capsim_sugov")) {
			one_decision(&ev, &pend[ev.cpu], last, o, doms, log,
				     name, rd.lineno, r);
		}
	}
	trace_reader_close(&rd);
	free(pend);
	free(last);
	free(doms);
	return rc < 0 ? -1 : 0;	/* a bad line is said file:line:col */
}

int decision_replay_trace(const char *file,
			  const struct decision_replay_opts *o, FILE *log,
			  struct decision_replay_result *r)
{
	return decision_replay_named(file, file, o, log, r);
}
