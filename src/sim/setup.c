// SPDX-License-Identifier: GPL-2.0
/*
 * Building the simulated machine from a platform and a workload: CPUs,
 * domains, the group tree (through the core's link/write rules, so a bad
 * hierarchy is an input error naming the group and the rule), tasks and
 * the initial events. Input errors are reported here, before anything
 * runs or is written.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/spinlock.h>

#include "sim.h"

/* The group of @path, created with any missing ancestors */
static struct host_group *ensure_group(struct sim *s, const char *path)
{
	struct host_group *g = clamp_host_group(&s->host, path);
	char *pp, *slash;
	int err;

	if (g)
		return g;
	pp = xstrdup(path);
	slash = strrchr(pp, '/');
	if (slash == pp)
		pp[1] = '\0';
	else
		*slash = '\0';
	ensure_group(s, pp);
	free(pp);
	err = clamp_host_group_create(&s->host, path, &g);
	if (err == -ENOMEM)
		xoom();
	return g;
}

static int depth(const char *p)
{
	int d = 0;

	for (; *p; p++)
		d += *p == '/';
	return d;
}

static int setup_groups(struct sim *s)
{
	const struct workload *wl = s->wl;
	struct host_group *root = s->host.root;
	int err = 0, dmax = 0, d, i, j;

	for (i = 0; i < wl->ngroups; i++)
		if (depth(wl->groups[i].path) > dmax)
			dmax = depth(wl->groups[i].path);
	for (d = 1; d <= dmax; d++) {
		for (i = 0; i < wl->ngroups; i++) {
			const struct wl_group *wg = &wl->groups[i];
			struct host_group *g;
			int ids[2] = { CAP_CLAMP_MAX, CAP_CLAMP_MIN };
			unsigned int vals[2] = { wg->max, wg->min };
			bool set[2] = { wg->max_set, wg->min_set };

			if (depth(wg->path) != d)
				continue;
			if (!strcmp(wg->path, "/")) {
				g = root;
			} else {
				g = ensure_group(s, wg->path);
			}
			for (j = 0; j < 2; j++) {
				int ret;

				if (!set[j])
					continue;
				/*
				 * The policy's write, as at run time; no task
				 * exists yet, so there is nothing to apply
				 */
				ret = s->clamp->group_set(s, g, ids[j], vals[j]);
				if (ret) {
					char why[PATH_MAX + 160];
					char *p = jptr_key(wg->ptr, j ? "capacity_min" :
							   "capacity_max");

					if (!clamp_host_explain(&s->host, g, ids[j],
								vals[j], why,
								sizeof(why)))
						snprintf(why, sizeof(why),
							 "rejected (-EINVAL)");
					jdoc_error((struct jdoc *)&wl->doc, p,
						   "group %s: %s", wg->path, why);
					free(p);
					err = -1;
				}
			}
		}
	}
	/* the root may be configured too: "/" has depth 1 as a path */
	for (i = 0; i < wl->ntasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (t->attrs.group)	/* NULL only in a rejected task */
			ensure_group(s, t->attrs.group);
		for (j = 0; j < t->nphases; j++)
			if (t->phases[j].attrs.group_set)
				ensure_group(s, t->phases[j].attrs.group);
	}
	for (i = 0; i < wl->ngevents; i++) {
		if (!clamp_host_group(&s->host, wl->gevents[i].group)) {
			jdoc_error((struct jdoc *)&wl->doc, wl->gevents[i].ptr,
				   "group %s is neither declared in capsim.taskgroups nor used by a task",
				   wl->gevents[i].group);
			err = -1;
		}
	}
	return err;
}

void sim_opts_resolve(struct sim_opts *o, const struct workload *wl)
{
	if (!o->clamp_policy)
		o->clamp_policy = wl && wl->policy ? wl->policy :
				  CLAMP_POLICY_DEFAULT;
	if (!o->order)
		o->order = wl && wl->clamp_order ? wl->clamp_order :
			   CLAMP_ORDER_DEFAULT;
	if (!o->domain_rule)
		o->domain_rule = wl && wl->domain_rule ? wl->domain_rule :
				 DOMAIN_RULE_DEFAULT;
	if (!o->hz)
		o->hz = wl && wl->hz ? wl->hz : SIM_HZ_DEFAULT;
}

bool sim_opts_resolved(const struct sim_opts *o)
{
	return clamp_policy_ops(o->clamp_policy) &&
	       clamp_order_name(o->order) && domain_rule_name(o->domain_rule) &&
	       o->hz;
}

struct workload *sim_workload_check(struct workload *wl, struct diag *d,
				    int errors_before,
				    enum clamp_policy policy)
{
	struct sim_opts o = { .clamp_policy = policy };
	struct sim *s;

	if (!wl || d->errors == errors_before)
		return wl;
	/*
	 * the group tree alone, under the rules of the policy that would
	 * run it: a value one policy refuses may be another's to take
	 */
	sim_opts_resolve(&o, wl);
	s = xcalloc(1, sizeof(*s));
	s->clamp = clamp_policy_ops(o.clamp_policy);
	s->wl = wl;
	s->diag = d;
	if (clamp_host_init(&s->host, 1))
		xoom();
	setup_groups(s);
	sim_destroy(s);
	workload_free(wl);
	return NULL;
}

static int check_cpus(struct sim *s, const struct wl_attrs *a)
{
	int i;

	if (!a->cpus_set)
		return 0;
	for (i = 0; i < a->ncpus; i++) {
		if (a->cpus[i] >= s->ncpus) {
			char *p = jptr_idx(a->cpus_ptr, (size_t)i);

			jdoc_error((struct jdoc *)&s->wl->doc, p,
				   "CPU %d does not exist on platform %s: allowed [0, %d]",
				   a->cpus[i], s->pl->name, s->ncpus - 1);
			free(p);
			return -1;
		}
	}
	return 0;
}

/* A slot for each distinct unique timer the task's events use */
static void task_timers_init(const struct workload *wl, struct sim_task *t)
{
	const struct wl_task *wt = t->wt;
	int p, e, k, n = 0;

	for (p = 0; p < wt->nphases; p++)
		n += wt->phases[p].nev;
	t->timers = xcalloc((size_t)(n ? n : 1), sizeof(*t->timers));
	for (p = 0; p < wt->nphases; p++) {
		for (e = 0; e < wt->phases[p].nev; e++) {
			const struct wl_event *ev = &wt->phases[p].ev[e];

			if (ev->type != WL_EV_TIMER || !wl->res[ev->res].unique)
				continue;
			for (k = 0; k < t->ntimers; k++)
				if (t->timers[k].res == ev->res)
					break;
			if (k == t->ntimers)
				t->timers[t->ntimers++].res = ev->res;
		}
	}
}

struct sim *sim_create(const struct platform *pl, const struct workload *wl,
		       const struct sim_opts *o, struct diag *dg)
{
	double dl_total = 0, cap_total = 0;
	int err = 0, i, j, k, n, log2;
	struct sim *s;

	if (!sim_opts_resolved(o)) {
		diag_report(dg, true, NULL, 0, 0,
			    "internal error: the run's options were not completed by sim_opts_resolve()");
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->o = *o;
	s->clamp = clamp_policy_ops(o->clamp_policy);
	/* uclamp's defaults: no system limit, RT boosted to the top */
	s->uclamp = (struct uclamp_sys){ UCLAMP_SCALE, UCLAMP_SCALE,
					 UCLAMP_SCALE, UCLAMP_BUCKETS_DEFAULT };
	if (wl->uclamp_util_min >= 0)
		s->uclamp.util_min = (unsigned int)wl->uclamp_util_min;
	if (wl->uclamp_util_max >= 0)
		s->uclamp.util_max = (unsigned int)wl->uclamp_util_max;
	if (wl->uclamp_util_min_rt_default >= 0)
		s->uclamp.util_min_rt_default =
			(unsigned int)wl->uclamp_util_min_rt_default;
	if (wl->uclamp_buckets >= 0)
		s->uclamp.buckets = (unsigned int)wl->uclamp_buckets;
	s->pl = pl;
	s->wl = wl;
	s->diag = dg;
	chains_init(s);
	s->ncpus = pl->ncpus;
	s->ndoms = pl->ndomains;
	if (clamp_host_init(&s->host, (unsigned int)s->ncpus))
		xoom();
	clamp_host_set_callback(&s->host, sim_clamp_range_changed, s);
	/* the CLI checked the name; nothing is queued yet */
	if (o->clamp_backend)
		clamp_host_set_backend(&s->host, o->clamp_backend);
	sim_init_events(s);
	s->doms = xcalloc((size_t)s->ndoms, sizeof(*s->doms));
	for (i = 0; i < s->ndoms; i++) {
		struct sim_domain *d = &s->doms[i];
		const struct pdomain *pd = &pl->domains[i];

		d->pd = pd;
		d->idx = i;
		d->freq_caller = pd->cpus[0];
		d->opp_khz = xcalloc((size_t)pd->nopps, sizeof(*d->opp_khz));
		for (j = 0; j < pd->nopps; j++)
			d->opp_khz[j] = pd->opps[j].khz;
		d->gov_params.opp_khz = d->opp_khz;
		d->gov_params.nopps = pd->nopps;
		d->gov_params.up_rate_limit_ns =
			(uint64_t)pd->up_rate_limit_us * NSEC_PER_USEC;
		d->gov_params.down_rate_limit_ns =
			(uint64_t)pd->down_rate_limit_us * NSEC_PER_USEC;
		/* Android's min_rate_limit_ns; mainline's when neither given */
		d->gov_params.rate_limit_ns =
			d->gov_params.up_rate_limit_ns <
			d->gov_params.down_rate_limit_ns ?
			d->gov_params.up_rate_limit_ns :
			d->gov_params.down_rate_limit_ns;
		d->gov_params.iowait_boost_off = wl->no_iowait_boost;
		d->headroom_pm = wl->headroom_pm;
		d->gov_params.transition_ns =
			(uint64_t)pd->transition_latency_us * NSEC_PER_USEC;
		/* a fixed-frequency governor sets the OPP once, at start */
		d->governor = o->governor_set ? o->governor : pd->gov;
		d->fixed_opp = governor_fixed_opp(&d->governor, d->opp_khz,
						  pd->nopps);
		if (d->fixed_opp >= 0)
			d->cur_opp = d->next_opp = d->fixed_opp;
		d->residency_ns = xcalloc((size_t)pd->nopps, sizeof(uint64_t));
		d->gov_in = xcalloc((size_t)pd->ncpus, sizeof(*d->gov_in));
	}
	s->cpus = xcalloc((size_t)s->ncpus, sizeof(*s->cpus));
	s->all_cpus = xcalloc((size_t)s->ncpus, sizeof(bool));
	for (i = 0; i < s->ncpus; i++)
		s->all_cpus[i] = true;
	cpu_load_index_init(&s->load_idx, s->ncpus);
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];

		c->id = i;
		c->dom = &s->doms[pl->cpus[i].domain];
		c->capacity = pl->cpus[i].capacity;
		raw_spin_lock_init(&c->lock);
		snprintf(c->idle_comm, sizeof(c->idle_comm), "swapper/%d", i);
		INIT_LIST_HEAD(&c->cfs.tasks);
		cfs_tree_init(&c->cfs.tree);
		INIT_LIST_HEAD(&c->rt.tasks);
		INIT_LIST_HEAD(&c->dl.tasks);
		c->busy_ns = xcalloc((size_t)c->dom->pd->nopps, sizeof(uint64_t));
		c->idle_ns = xcalloc((size_t)c->dom->pd->nidle, sizeof(uint64_t));
		c->idle_state = -1;
		/*
		 * The rq clocks of a machine that has been up a while: a PELT
		 * clock at 0 would read as "never updated" (last_update_time 0
		 * means detached), so it starts at a period-aligned offset.
		 */
		c->pelt.clock_task = c->pelt.clock_pelt = SIM_PELT_BOOT_NS;
		uclamp_cpu_init(&c->uclamp, s->uclamp.buckets);
		cap_total += c->capacity / 1024.0;
	}
	sim_overutilized_init(s);
	s->tick_ns = NSEC_PER_SEC / o->hz;
	for (i = 0; i < s->ndoms; i++)	/* the iowait boost's reset */
		s->doms[i].gov_params.tick_ns = s->tick_ns;
	for (log2 = 0, n = s->ncpus < 8 ? s->ncpus : 8; n > 1; n >>= 1)
		log2++;
	s->base_slice_ns = 750000ULL * (uint64_t)(1 + log2);
	s->rng = o->seed ^ 0x63617073696dULL;
	s->ref_capacity = 1024;
	s->util_est = !wl->no_util_est;
	if (wl->calib_cpu >= 0) {
		if (wl->calib_cpu >= s->ncpus) {
			jdoc_error((struct jdoc *)&wl->doc, "/global/calibration",
				   "CPU%d does not exist on platform %s", wl->calib_cpu,
				   pl->name);
			err = -1;
		} else {
			s->ref_capacity = s->cpus[wl->calib_cpu].capacity;
		}
	}

	err |= setup_groups(s);
	for (i = 0; i < wl->ntasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		err |= check_cpus(s, &t->attrs);
		for (j = 0; j < t->nphases; j++)
			err |= check_cpus(s, &t->phases[j].attrs);
		if (t->attrs.policy == WL_SCHED_DEADLINE) {
			if (t->attrs.cpus_set && t->attrs.ncpus < s->ncpus) {
				jdoc_error((struct jdoc *)&wl->doc, t->attrs.cpus_ptr,
					   "a SCHED_DEADLINE task cannot have a restricted affinity (sched_setattr() returns -EPERM)");
				err = -1;
			}
			dl_total += (double)t->instances * (double)t->dl_runtime_us /
				    (double)t->dl_period_us;
		}
	}
	if (dl_total > 0.95 * cap_total) {
		jdoc_error((struct jdoc *)&wl->doc, "/tasks",
			   "SCHED_DEADLINE admission: total bandwidth %.3f exceeds 0.95 x %.2f CPUs of capacity (sched_setattr() returns -EBUSY)",
			   dl_total, cap_total);
		err = -1;
	}
	if (o->duration_ns)
		s->end = o->duration_ns;
	else if (wl->duration_s > 0)
		s->end = (uint64_t)(wl->duration_s * 1e9);
	else if (workload_tasks_end(wl))
		s->end = UINT64_MAX;
	else {
		diag_report(dg, true, wl->doc.file, 0, 0,
			    "the workload never ends (global.duration is -1 and a task loops forever): set global.duration or --duration");
		err = -1;
	}
	if (err) {
		sim_destroy(s);
		return NULL;
	}

	s->res = xcalloc((size_t)(wl->nres ? wl->nres : 1), sizeof(*s->res));
	for (i = 0, n = 0; i < wl->ntasks; i++)
		n += wl->tasks[i].instances;
	s->tasks = xcalloc((size_t)(n ? n : 1), sizeof(*s->tasks));
	for (i = 0; i < wl->ntasks; i++) {
		const struct wl_task *wt = &wl->tasks[i];

		for (k = 0; k < wt->instances; k++) {
			struct sim_task *t = xcalloc(1, sizeof(*t));

			t->idx = s->ntasks;
			t->pid = 1001 + s->ntasks;
			t->wt = wt;
			if (wt->instances > 1)
				t->name = xasprintf("%s-%d", wt->name, k);
			else
				t->name = xstrdup(wt->name);
			snprintf(t->comm, sizeof(t->comm), "%s", t->name);
			/* no affinity: the machine's shared mask (a byte per
			 * CPU per task was a run's largest memory, 100 MB for
			 * 100 000 tasks on 1 024 CPUs); sim_set_cpus_allowed()
			 * gives a task its own mask at its first change */
			t->allowed = s->all_cpus;
			if (wt->attrs.cpus_set) {
				t->allowed = xcalloc((size_t)s->ncpus,
						     sizeof(bool));
				for (j = 0; j < wt->attrs.ncpus; j++)
					t->allowed[wt->attrs.cpus[j]] = true;
			}
			t->policy = wt->attrs.policy;
			t->prio = wt->attrs.prio;
			t->cls = sim_policy_class(t->policy);
			t->se.node.weight = cfs_weight(t->policy, t->prio);
			t->uclamp_req[UCLAMP_MAX] = UCLAMP_SCALE;
			t->uclamp_user[UCLAMP_MIN] = wt->attrs.util_min_set;
			t->uclamp_req[UCLAMP_MIN] = wt->attrs.util_min;
			if (wt->attrs.util_max_set) {
				t->uclamp_user[UCLAMP_MAX] = true;
				t->uclamp_req[UCLAMP_MAX] = wt->attrs.util_max;
			}
			t->dl.runtime = wt->dl_runtime_us * NSEC_PER_USEC;
			t->dl.rel_deadline = wt->dl_deadline_us * NSEC_PER_USEC;
			t->dl.period = wt->dl_period_us * NSEC_PER_USEC;
			if (t->dl.period)
				t->dl.bw = t->dl.runtime * 1024 / t->dl.period;
			INIT_LIST_HEAD(&t->run_node);
			t->group = clamp_host_group(&s->host, wt->attrs.group);
			if (clamp_host_entity_get(&s->host, (uint64_t)t->idx,
						  &t->ce))
				xoom();
			task_timers_init(wl, t);
			t->pending_migrate = -1;
			t->wait_mutex = -1;
			t->sleep_state = 'S';
			t->state = TS_NEW;
			task_init_exec(s, t);
			s->tasks[s->ntasks++] = t;
			evq_push(&s->q, wt->delay_us * NSEC_PER_USEC,
				 EVK_TASK_START, t->idx, 0);
		}
	}
	for (i = 0; i < wl->ngevents; i++)
		evq_push(&s->q, wl->gevents[i].at_ns, EVK_GROUP_WRITE, i, 0);
	if (s->end != UINT64_MAX)
		evq_push(&s->q, s->end, EVK_END, 0, 0);
	return s;
}

bool sim_pull_gates_consistent(const struct sim *s)
{
	int i, cfs = 0, rt = 0;

	for (i = 0; i < s->ncpus; i++) {
		cfs += s->cpus[i].cfs.nr >= 2;
		rt += s->cpus[i].rt.nr > 0;
	}
	return cfs == s->nr_cfs_overloaded && rt == s->nr_rt_cpus;
}

bool sim_load_index_consistent(const struct sim *s)
{
	int *nr = xcalloc((size_t)s->ncpus, sizeof(*nr));
	bool ok;
	int i;

	for (i = 0; i < s->ncpus; i++)
		nr[i] = s->cpus[i].nr_running;
	ok = cpu_load_index_consistent(&s->load_idx, nr);
	free(nr);
	return ok;
}

void sim_destroy(struct sim *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->ntasks; i++) {
		struct sim_task *t = s->tasks[i];

		free(t->name);
		free(t->cpu_time);
		free(t->acts);
		if (t->allowed != s->all_cpus)
			free(t->allowed);
		free(t->timers);
		samples_free(&t->wlat);
		samples_free(&t->resp);
		samples_free(&t->tlat);
		samples_free(&t->slack);
		free(t);
	}
	free(s->tasks);
	free(s->all_cpus);
	cpu_load_index_free(&s->load_idx);
	clamp_host_destroy(&s->host);
	for (i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];

		free(c->busy_ns);
		free(c->idle_ns);
		timer_heap_free(&c->timers);
	}
	free(s->cpus);
	free(s->ou_changed);
	for (i = 0; i < s->ndoms; i++) {
		free(s->doms[i].residency_ns);
		free(s->doms[i].opp_khz);
		free(s->doms[i].gov_in);
	}
	free(s->doms);
	if (s->res) {
		for (i = 0; i < s->wl->nres; i++)
			tvec_free(&s->res[i].waiters);
		free(s->res);
	}
	free(s->gw);
	chains_free(s);
	free(s->ugroups);
	evq_free(&s->q);
	free(s);
}
