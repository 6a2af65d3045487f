// SPDX-License-Identifier: GPL-2.0
/*
 * The typed value readers of the workload parser: a wrong value is
 * reported at its line:column with the allowed range, and the parse goes
 * on to report the next.
 */
#include <stdlib.h>

#include "workload_internal.h"
#include "util.h"

void wl_err(struct wl_parser *p, const char *ptr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	jdoc_verror(p->doc, ptr, fmt, ap);
	va_end(ap);
	p->err = -1;
}

/* @s quoted and cut to a readable length, for messages (caller frees) */
char *wl_brief_str(const char *s)
{
	json_t *j = json_string(s);
	char *b = jdoc_brief(j);

	json_decref(j);
	return b;
}

void wl_bad_group_path(struct wl_parser *p, const char *ptr, const char *path)
{
	char *b = wl_brief_str(path);

	wl_err(p, ptr, "%s is not a group path (\"/name/sub\"): %s", b,
	       wl_group_path_problem(path));
	free(b);
}

/* An integer value in [lo, hi]; on error reports "field: allowed range" */
bool wl_get_int(struct wl_parser *p, json_t *v, const char *ptr, long long lo,
		long long hi, long long *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi) {
		if (json_is_integer(v))
			wl_err(p, ptr, "%lld is out of range: allowed [%lld, %lld]",
			       (long long)json_integer_value(v), lo, hi);
		else {
			char *b = jdoc_brief(v);

			wl_err(p, ptr, "%s is not an integer: allowed [%lld, %lld]",
			       b, lo, hi);
			free(b);
		}
		return false;
	}
	*out = json_integer_value(v);
	return true;
}

bool wl_get_str(struct wl_parser *p, json_t *v, const char *ptr,
		const char **out)
{
	if (!json_is_string(v)) {
		char *b = jdoc_brief(v);

		wl_err(p, ptr, "%s is not a string", b);
		free(b);
		return false;
	}
	*out = json_string_value(v);
	return true;
}
