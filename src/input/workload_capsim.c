// SPDX-License-Identifier: GPL-2.0
/*
 * The "capsim" object, capsim's own part of a workload: the task groups
 * and their ranges, the timed writes to them, the uclamp sysctls, the
 * model's settings (platform, policy, clamp order, domain rule, jitter,
 * bandwidths). Unlike rt-app's part, an unknown key here is an error.
 */
#include <stdlib.h>
#include <string.h>

#include "uclamp_percent.h"
#include "workload_internal.h"
#include "util.h"

/*
 * A cgroup cpu.uclamp.min/max value as the file takes it: "max" or a
 * percentage with at most two decimals (a string, or a JSON number),
 * converted to capacity units by capacity_from_percent()'s rounding.
 */
static bool get_uclamp_pct(struct wl_parser *p, json_t *v, const char *ptr,
			   unsigned int *cap)
{
	char buf[64];
	const char *s = buf;
	unsigned int x100;

	if (json_is_string(v))
		s = json_string_value(v);
	else if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%.17g", json_real_value(v));
	else
		buf[0] = '\0';
	if (uclamp_parse_percent(s, &x100)) {
		char *b = jdoc_brief(v);

		wl_err(p, ptr, "%s is not a uclamp value: \"max\" or a percentage with at most two decimals, allowed [0, 100]",
		       b);
		free(b);
		return false;
	}
	*cap = uclamp_capacity_from_percent(x100);
	return true;
}

/*
 * A group's uclamp_min/max is its capacity_min/max in uclamp's words:
 * one range, which each policy applies its own way. Both given must
 * agree (after the percent's rounding).
 */
static void group_uclamp(struct wl_parser *p, struct wl_group *grp, json_t *g,
			 const char *ptr, bool max, unsigned int cap)
{
	json_t *other = json_object_get(g, max ? "capacity_max" :
					    "capacity_min");

	if (json_is_integer(other) && json_integer_value(other) != cap) {
		wl_err(p, ptr, "%s is %u in capacity units, but the group's %s is %lld: give one of them, or the same value",
		       max ? "uclamp_max" : "uclamp_min", cap,
		       max ? "capacity_max" : "capacity_min",
		       (long long)json_integer_value(other));
		return;
	}
	if (max) {
		grp->max_set = true;
		grp->max = cap;
	} else {
		grp->min_set = true;
		grp->min = cap;
	}
}

static int cmp_gevent(const void *a, const void *b)
{
	const struct wl_group_event *x = a, *y = b;

	if (x->at_ns != y->at_ns)
		return x->at_ns < y->at_ns ? -1 : 1;
	return x < y ? -1 : 1;
}

/* One capsim.events write (@attr 0: min, 1: max) */
static void add_gevent(struct workload *wl, uint64_t at_ns, const char *group,
		       const char *ptr, int attr, uint64_t value)
{
	struct wl_group_event *ge = &wl->gevents[wl->ngevents++];

	ge->at_ns = at_ns;
	ge->group = xstrdup(group);
	ge->ptr = xstrdup(ptr);
	ge->attr = attr;
	ge->value = value;
}

/* capsim.uclamp: the uclamp sysctls and the bucket count */
static void parse_uclamp_sys(struct wl_parser *p, struct workload *wl,
			     json_t *v, const char *kp)
{
	const char *k;
	json_t *x;

	if (!json_is_object(v)) {
		wl_err(p, kp, "must be an object {\"util_min\", \"util_max\", \"util_min_rt_default\", \"buckets\"}");
		return;
	}
	json_object_foreach(v, k, x) {
		char *vp = jptr_key(kp, k);
		long long n;

		if (streq(k, "buckets")) {
			if (wl_get_int(p, x, vp, 5, 20, &n))
				wl->uclamp_buckets = (int)n;
		} else if (wl_key_listed(k, wl_uclamp_keys)) {
			if (wl_get_int(p, x, vp, 0, 1024, &n)) {
				if (streq(k, "util_min"))
					wl->uclamp_util_min = (int)n;
				else if (streq(k, "util_max"))
					wl->uclamp_util_max = (int)n;
				else
					wl->uclamp_util_min_rt_default = (int)n;
			}
		} else {
			wl_capsim_unknown(p, vp, k, wl_uclamp_keys);
		}
		free(vp);
	}
}

/* capsim.taskgroups: each group's capacity (or uclamp) range */
static void parse_taskgroups(struct wl_parser *p, json_t *v, const char *kp)
{
	struct workload *wl = p->wl;
	long long x;
	const char *path;
	json_t *g;

	if (!json_is_object(v)) {
		wl_err(p, kp, "must be an object {\"/path\": {\"capacity_min\", \"capacity_max\"}}");
		return;
	}
	wl->groups = xcalloc(json_object_size(v) + 1,
			     sizeof(*wl->groups));
	json_object_foreach(v, path, g) {
		char *gp = jptr_key(kp, path);
		struct wl_group *grp = &wl->groups[wl->ngroups];
		const char *gk;
		json_t *gv;

		if (!wl_group_path_ok(path)) {
			wl_bad_group_path(p, gp, path);
		} else if (!json_is_object(g)) {
			wl_err(p, gp, "must be an object {\"capacity_min\", \"capacity_max\"}");
		} else {
			unsigned int u;

			grp->path = xstrdup(path);
			grp->ptr = xstrdup(gp);
			wl->ngroups++;
			json_object_foreach(g, gk, gv) {
				char *vp = jptr_key(gp, gk);

				if ((streq(gk, "uclamp_min") ||
				     streq(gk, "uclamp_max")) &&
				    get_uclamp_pct(p, gv, vp, &u)) {
					group_uclamp(p, grp, g, vp,
						     streq(gk, "uclamp_max"), u);
				} else if (streq(gk, "capacity_min") &&
				    wl_get_int(p, gv, vp, 0, 1024, &x)) {
					grp->min_set = true;
					grp->min = (unsigned int)x;
				} else if (streq(gk, "capacity_max") &&
					   wl_get_int(p, gv, vp, 0, 1024, &x)) {
					grp->max_set = true;
					grp->max = (unsigned int)x;
				} else if (!wl_key_listed(gk, wl_group_keys)) {
					wl_capsim_unknown(p, vp, gk,
							  wl_group_keys);
				}
				free(vp);
			}
		}
		free(gp);
	}
}

/* capsim.events: timed writes to a group's range */
static void parse_gevents(struct wl_parser *p, json_t *v, const char *kp)
{
	struct workload *wl = p->wl;
	long long x;
	size_t i;

	if (!json_is_array(v)) {
		wl_err(p, kp, "must be an array of {\"at_ms\", \"group\", \"capacity_min\"|\"capacity_max\"}");
		return;
	}
	wl->gevents = xcalloc(2 * json_array_size(v) + 1,
			      sizeof(*wl->gevents));
	for (i = 0; i < json_array_size(v); i++) {
		json_t *ev = json_array_get(v, i);
		char *ep = jptr_idx(kp, i);
		json_t *at, *grp;
		const char *ek;
		json_t *evv;
		uint64_t at_ns = 0;
		const char *gpath = NULL;
		int nattr = 0;

		if (!json_is_object(ev)) {
			wl_err(p, ep, "must be an object");
			free(ep);
			continue;
		}
		at = json_object_get(ev, "at_ms");
		grp = json_object_get(ev, "group");
		if (!at) {
			wl_err(p, ep, "missing \"at_ms\"");
		} else {
			char *ap = jptr_key(ep, "at_ms");

			if (wl_get_int(p, at, ap, 0, 3600LL * 1000 * 24, &x))
				at_ns = (uint64_t)x * NSEC_PER_MSEC;
			free(ap);
		}
		if (!json_is_string(grp)) {
			wl_err(p, ep, "\"group\" must be a group path such as \"/bg\"");
		} else if (!wl_group_path_ok(json_string_value(grp))) {
			char *gp = jptr_key(ep, "group");

			wl_bad_group_path(p, gp, json_string_value(grp));
			free(gp);
		} else {
			gpath = json_string_value(grp);
		}
		json_object_foreach(ev, ek, evv) {
			char *vp = jptr_key(ep, ek);
			unsigned int u;

			if ((streq(ek, "uclamp_min") ||
			     streq(ek, "uclamp_max")) &&
			    get_uclamp_pct(p, evv, vp, &u) &&
			    gpath) {
				/* cpu.uclamp.*: the same write,
				 * in capacity units */
				add_gevent(wl, at_ns, gpath, vp,
					   streq(ek, "uclamp_max"), u);
				nattr++;
			} else if (streq(ek, "capacity_min") ||
			    streq(ek, "capacity_max")) {
				/* out-of-range writes are the
				 * kernel's to reject: keep any
				 * non-negative value */
				if (wl_get_int(p, evv, vp, 0, 1LL << 32, &x) &&
				    gpath) {
					add_gevent(wl, at_ns, gpath, vp,
						   streq(ek, "capacity_max"),
						   (uint64_t)x);
					nattr++;
				}
			} else if (!wl_key_listed(ek, wl_gevent_keys)) {
				wl_capsim_unknown(p, vp, ek,
						  wl_gevent_keys);
			}
			free(vp);
		}
		if (!nattr && gpath)
			wl_err(p, ep, "needs \"capacity_min\", \"capacity_max\", \"uclamp_min\" or \"uclamp_max\"");
		free(ep);
	}
}

/*
 * capsim.policy, .clamp_order, .domain_rule: a name of its registry
 * (clamp_names.h), else an error listing the names allowed
 */
static void parse_clamp_choice(struct wl_parser *p, const char *key,
			       json_t *v, const char *kp)
{
	struct workload *wl = p->wl;
	char allowed[CLAMP_NAMES_LIST_MAX];
	enum clamp_names_kind kind;
	const char *s;
	int bad;

	if (!wl_get_str(p, v, kp, &s))
		return;
	if (streq(key, "policy")) {
		kind = CLAMP_NAMES_POLICY;
		bad = clamp_policy_parse(s, &wl->policy);
	} else if (streq(key, "clamp_order")) {
		kind = CLAMP_NAMES_ORDER;
		bad = clamp_order_parse(s, &wl->clamp_order);
	} else {
		kind = CLAMP_NAMES_RULE;
		bad = domain_rule_parse(s, &wl->domain_rule);
	}
	if (bad)
		wl_err(p, kp, "allowed %s",
		       clamp_names_list(kind, true, allowed, sizeof(allowed)));
}

void wl_parse_capsim(struct wl_parser *p, json_t *c)
{
	struct workload *wl = p->wl;
	const char *key;
	json_t *v;

	if (!json_is_object(c)) {
		wl_err(p, "/capsim", "must be an object");
		return;
	}
	json_object_foreach(c, key, v) {
		char *kp = jptr_key("/capsim", key);
		long long x;
		const char *s;

		if (streq(key, "taskgroups")) {
			parse_taskgroups(p, v, kp);
		} else if (streq(key, "events")) {
			parse_gevents(p, v, kp);
		} else if (streq(key, "policy") || streq(key, "clamp_order") ||
			   streq(key, "domain_rule")) {
			parse_clamp_choice(p, key, v, kp);
		} else if (streq(key, "platform")) {
			if (wl_get_str(p, v, kp, &s))
				wl->platform = xstrdup(s);
		} else if (streq(key, "run_jitter_pct")) {
			if (wl_get_int(p, v, kp, 0, 50, &x))
				wl->run_jitter_pct = (unsigned int)x;
		} else if (streq(key, "io_bandwidth_mbps")) {
			if (wl_get_int(p, v, kp, 1, 1000000, &x))
				wl->io_bw = (uint64_t)x * 1000000;
		} else if (streq(key, "mem_bandwidth_mbps")) {
			if (wl_get_int(p, v, kp, 1, 10000000, &x))
				wl->mem_bw = (uint64_t)x * 1000000;
		} else if (streq(key, "description") ||
			   streq(key, "chains")) {
			/* chains: read after the tasks (workload_chains.c) */
		} else if (streq(key, "uclamp")) {
			parse_uclamp_sys(p, wl, v, kp);
		} else if (!wl_parse_knob(p, key, v, kp)) {
			wl_capsim_unknown(p, kp, key, wl_capsim_keys);
		}
		free(kp);
	}
	/* the run applies them in time order */
	if (wl->ngevents)
		qsort(wl->gevents, (size_t)wl->ngevents, sizeof(*wl->gevents),
		      cmp_gevent);
}
