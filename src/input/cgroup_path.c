// SPDX-License-Identifier: GPL-2.0
/*
 * The group paths capsim accepts: what cgroupfs could create, within
 * the kernel's PATH_MAX and NAME_MAX, in letters a shell and a trace line
 * keep intact.
 */
#include <string.h>

#include "workload.h"

const char *wl_group_path_problem(const char *p)
{
	const char *s, *name;

	if (!p || p[0] != '/')
		return "a group path starts with '/'";
	if (strlen(p) >= WL_GROUP_PATH_MAX)
		return "longer than the kernel's PATH_MAX (4096 with its NUL)";
	if (!p[1])
		return NULL;
	for (name = s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			size_t n = (size_t)(s - name);

			if (!n)
				return "empty name between '/'";
			if (n > WL_GROUP_NAME_MAX)
				return "a name longer than the kernel's NAME_MAX (255)";
			/* cgroupfs has no such directories to create */
			if ((n == 1 && name[0] == '.') ||
			    (n == 2 && name[0] == '.' && name[1] == '.'))
				return "\".\" and \"..\" are not group names";
			if (!*s)
				return NULL;
			name = s + 1;
		} else if (!(*s == '_' || *s == '-' || *s == '.' ||
			     (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			     (*s >= '0' && *s <= '9'))) {
			return "allowed letters, digits, _ - . between '/'";
		}
	}
}

bool wl_group_path_ok(const char *p)
{
	return !wl_group_path_problem(p);
}
