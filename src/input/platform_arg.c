// SPDX-License-Identifier: GPL-2.0
/*
 * --platform NAME|FILE and a workload's capsim.platform as every command
 * takes them: an embedded platform's name, else a file (a bare name that
 * is a readable file here is that file, read as ./NAME).
 */
/* POSIX only: <unistd.h> must not see kcompat's linux/ */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "spelling.h"
#include "util.h"

bool platform_arg_unknown(const char *arg)
{
	return !platform_embedded_find(arg) && !strchr(arg, '/') &&
	       !strstr(arg, ".json") && access(arg, R_OK) != 0;
}

char *platform_arg_hint(const char *arg)
{
	int i, n = platform_embedded_count();
	const char **names = xcalloc((size_t)n + 1, sizeof(*names));
	const char *near;
	char *hint;

	for (i = 0; i < n; i++)
		names[i] = platform_embedded_name(i);
	near = spelling_suggest(arg, names);
	hint = near ? xasprintf(": did you mean \"%s\"?", near) :
	       xstrdup(" (see `capsim platforms`; a file path needs a '/' or .json)");
	free(names);
	return hint;
}

struct platform *platform_load_arg(const char *arg, struct diag *d)
{
	if (!platform_embedded_find(arg) && !strchr(arg, '/') &&
	    access(arg, R_OK) == 0) {
		char *p = xasprintf("./%s", arg);
		struct platform *pl = platform_load(p, d);

		free(p);
		return pl;
	}
	return platform_load(arg, d);
}
