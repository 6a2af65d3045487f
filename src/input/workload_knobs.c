// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel knobs of the "capsim" object: settings a device's kernel
 * build or its sysfs/debugfs fixes, given in the workload so that a sweep
 * (`sweep --set capsim.dvfs_headroom=1:1.5:0.25`) varies them like any
 * other parameter. docs/knobs.md names the 6.12 code each stands for.
 *
 *   hz             CONFIG_HZ, the tick (`run --hz` wins over it)
 *   dvfs_headroom  map_util_perf()'s factor (6.12: util + util/4, 1.25)
 *   util_est       sched_feat(UTIL_EST) (6.12: true)
 *   iowait_boost   schedutil's I/O-wait boost (6.12: always on)
 *
 * The per-domain rate limits live in the platform file with rate_limit_us
 * (platform.c). Each value is checked here: a wrong type or a value out
 * of range is an error naming the field and the range.
 */
#include <stdlib.h>

#include "workload_internal.h"

#define HEADROOM_MIN	1.0
#define HEADROOM_MAX	4.0

/*
 * A switch: true or false, or 1 or 0, so that a sweep's list or range of
 * numbers (--set capsim.util_est=0,1) reaches it; else an error naming
 * the field
 */
static bool get_switch(struct wl_parser *p, json_t *v, const char *ptr,
		       bool *out)
{
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return true;
	}
	if (json_is_integer(v) && (json_integer_value(v) == 0 ||
				   json_integer_value(v) == 1)) {
		*out = json_integer_value(v) == 1;
		return true;
	}
	{
		char *b = jdoc_brief(v);

		wl_err(p, ptr, "%s is not a switch: allowed true, false, 1, 0",
		       b);
		free(b);
	}
	return false;
}

/* The factor as thousandths, rounded: 1.25 is 1250, the kernel's exactly */
static void get_headroom(struct wl_parser *p, json_t *v, const char *ptr)
{
	double x;

	if (!json_is_number(v)) {
		char *b = jdoc_brief(v);

		wl_err(p, ptr, "%s is not a number: allowed [%g, %g]", b,
		       HEADROOM_MIN, HEADROOM_MAX);
		free(b);
		return;
	}
	x = json_number_value(v);
	if (x < HEADROOM_MIN || x > HEADROOM_MAX) {
		wl_err(p, ptr, "%g is out of range: allowed [%g, %g]", x,
		       HEADROOM_MIN, HEADROOM_MAX);
		return;
	}
	p->wl->headroom_pm = (unsigned int)(x * 1000 + 0.5);
}

bool wl_parse_knob(struct wl_parser *p, const char *key, json_t *v,
		   const char *ptr)
{
	struct workload *wl = p->wl;
	long long x;
	bool b;

	if (streq(key, "hz")) {
		/* the range of run --hz */
		if (wl_get_int(p, v, ptr, WL_HZ_MIN, WL_HZ_MAX, &x))
			wl->hz = (unsigned int)x;
	} else if (streq(key, "dvfs_headroom")) {
		get_headroom(p, v, ptr);
	} else if (streq(key, "util_est")) {
		if (get_switch(p, v, ptr, &b))
			wl->no_util_est = !b;
	} else if (streq(key, "iowait_boost")) {
		if (get_switch(p, v, ptr, &b))
			wl->no_iowait_boost = !b;
	} else {
		return false;
	}
	return true;
}
