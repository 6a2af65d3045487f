// SPDX-License-Identifier: GPL-2.0
/*
 * A workload's resources (mutexes, conditions, timers, barriers, suspend
 * points): rt-app creates each from its first use by name, one namespace
 * per kind.
 */
#include <stdlib.h>
#include <string.h>

#include "workload_internal.h"
#include "util.h"

static bool same_res(const void *ctx, int idx, uint64_t kind,
		     const char *name, size_t len)
{
	const struct wl_resource *r = &((const struct workload *)ctx)->res[idx];

	return r->kind == (enum wl_res_kind)kind &&
	       !strncmp(r->name, name, len) && !r->name[len];
}

/* O(1), as a workload may give each of 10^5 tasks its own timer */
int wl_res_index(struct workload *wl, const char *name,
		 enum wl_res_kind kind)
{
	size_t len = strlen(name);
	int i = strmap_get(&wl->res_by_name, kind, name, len, same_res, wl);
	struct wl_resource *r;

	if (i >= 0)
		return i;
	if (wl->nres == wl->res_cap) {
		wl->res_cap = wl->res_cap ? wl->res_cap * 2 : 32;
		wl->res = xrealloc(wl->res, (size_t)wl->res_cap * sizeof(*r));
	}
	r = &wl->res[wl->nres];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->kind = kind;
	r->unique = kind == WL_RES_TIMER && !strncmp(name, "unique", 6);
	strmap_put(&wl->res_by_name, kind, name, len, wl->nres, same_res, wl);
	return wl->nres++;
}
