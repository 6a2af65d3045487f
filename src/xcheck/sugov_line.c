// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <string.h>

#include "sugov_line.h"
#include "util.h"

bool sugov_field(const struct ftrace_event *ev, const char *k,
		 unsigned long *out)
{
	int64_t v;

	if (!ftrace_get_i64(ev, k, &v) || v < 0)
		return false;
	*out = (unsigned long)v;
	return true;
}

bool sugov_line_parse(const struct ftrace_event *ev, int ncpus, int *cpu,
		      struct sugov_line *l)
{
	unsigned long v[13];
	static const char *const keys[] = {
		"cpu", "util_cfs", "util_rt", "util_dl", "bw_dl",
		"rt_runnable", "dl_runnable", "idle", "idle_calls",
		"clamp_min", "clamp_max", "rt_floor", "boost",
	};
	unsigned long nr;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!sugov_field(ev, keys[i], &v[i]))
			return false;
	if (v[0] >= (unsigned long)ncpus)
		return false;
	*cpu = (int)v[0];
	memset(l, 0, sizeof(*l));
	l->set = true;
	l->in.util_cfs = v[1];
	l->in.util_rt = v[2];
	l->in.util_dl = v[3];
	l->in.bw_dl = v[4];
	l->in.rt_runnable = v[5];
	l->in.dl_runnable = v[6];
	l->in.idle = v[7];
	l->in.idle_calls = v[8];
	l->in.clamp.min = v[9];
	l->in.clamp.max = v[10];
	l->in.rt_floor = v[11];
	l->in.boost = v[12];
	/* older traces: a CPU with nothing runnable had no entity either */
	l->clamp_nr = sugov_field(ev, "clamp_nr", &nr) ? (unsigned int)nr :
		      !l->in.idle;
	return true;
}
