// SPDX-License-Identifier: GPL-2.0
/*
 * EAS's overutilized flag (fair.c: cpu_overutilized()), judged at every
 * tick, per domain (a CPU of it) and system-wide (any CPU), and the time
 * each flag was set.
 *
 * A CPU's verdict is a pure function of its stored signals (cpu_util():
 * the CFS util_avg and util_est, the RT and DL util_avg) and its fixed
 * capacity. Those signals change only where sim_signals_changed() is
 * called (cfs.c's update_load_avg() and util_est enqueue/dequeue,
 * signals.c's RT, DL and blocked updates), which puts the CPU on a
 * list. A tick judges the listed CPUs again and keeps each domain's
 * count of CPUs judged overutilized; every other CPU's signals are what
 * they were when it was last judged, so its verdict is too, and the
 * flags are those of judging every CPU at every tick (which cost
 * O(CPUs) per tick: most of a tick on 1 024 CPUs).
 * sim_overutilized_consistent() checks the claim against a fresh walk.
 */
#include "sim.h"

static bool cpu_overutilized(struct sim *s, struct sim_cpu *c)
{
	return (uint64_t)cpu_util(s, c) * 1280 > (uint64_t)c->capacity * 1024;
}

/* a flag holds from one tick to the next: accumulate its time when it falls */
static void account_overutilized(bool *was, bool now_ou, uint64_t *since,
				 uint64_t *total, uint64_t now)
{
	if (*was && !now_ou)
		*total += now - *since;
	else if (!*was && now_ou)
		*since = now;
	*was = now_ou;
}

void sim_overutilized_init(struct sim *s)
{
	int i;

	s->ou_changed = xcalloc((size_t)s->ncpus, sizeof(*s->ou_changed));
	/* nothing judged yet: the first tick judges every CPU */
	for (i = 0; i < s->ncpus; i++)
		sim_signals_changed(s, &s->cpus[i]);
}

void sim_overutilized_tick(struct sim *s)
{
	int i;

	for (i = 0; i < s->nr_ou_changed; i++) {
		struct sim_cpu *c = &s->cpus[s->ou_changed[i]];
		bool ou = cpu_overutilized(s, c);

		c->signals_changed = false;
		if (ou != c->overutilized) {
			c->overutilized = ou;
			c->dom->nr_overutilized += ou ? 1 : -1;
		}
	}
	/* only a domain with a CPU judged again can have changed its flag */
	for (i = 0; i < s->nr_ou_changed; i++) {
		struct sim_domain *d = s->cpus[s->ou_changed[i]].dom;
		bool ou = d->nr_overutilized > 0;

		if (ou != d->overutilized)
			s->nr_doms_overutilized += ou ? 1 : -1;
		account_overutilized(&d->overutilized, ou, &d->ou_since,
				     &d->ou_ns, s->now);
	}
	s->nr_ou_changed = 0;
	account_overutilized(&s->overutilized, s->nr_doms_overutilized > 0,
			     &s->ou_since, &s->ou_ns, s->now);
}

void sim_overutilized_end(struct sim *s)
{
	int i;

	for (i = 0; i < s->ndoms; i++) {
		struct sim_domain *d = &s->doms[i];

		account_overutilized(&d->overutilized, false, &d->ou_since,
				     &d->ou_ns, s->now);
	}
	account_overutilized(&s->overutilized, false, &s->ou_since, &s->ou_ns,
			     s->now);
}

bool sim_overutilized_consistent(struct sim *s)
{
	int i, listed = 0, doms = 0;

	for (i = 0; i < s->ndoms; i++) {
		doms += s->doms[i].nr_overutilized > 0;
		if (s->doms[i].nr_overutilized < 0)
			return false;
	}
	if (doms != s->nr_doms_overutilized)
		return false;
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];

		if (c->signals_changed) {
			listed++;
			continue;
		}
		/* not listed: its signals, so its verdict, are as judged */
		if (c->overutilized != cpu_overutilized(s, c))
			return false;
	}
	if (listed != s->nr_ou_changed)
		return false;
	for (i = 0; i < s->ndoms; i++) {
		const struct sim_domain *d = &s->doms[i];
		int j, n = 0;

		for (j = 0; j < d->pd->ncpus; j++)
			n += s->cpus[d->pd->cpus[j]].overutilized;
		if (n != d->nr_overutilized)
			return false;
	}
	return true;
}
