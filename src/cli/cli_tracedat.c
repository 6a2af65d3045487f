// SPDX-License-Identifier: GPL-2.0
/* POSIX only, as cli.c: <sys/stat.h> must not see kcompat's linux/ */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_tracedat.h"
#include "tracedat.h"
#include "util.h"

static const char usage_trace_dat[] =
"usage: capsim trace-dat IN.txt OUT.dat\n"
"\n"
"Converts ftrace text as capsim run writes it (trace.txt) into trace-cmd's\n"
"trace.dat (version 6) with the kernel's event formats, so that\n"
"`trace-cmd report OUT.dat` and KernelShark open it. `capsim run\n"
"--trace-dat` does the same for its own trace. OUT.dat is written to a\n"
"temporary file and renamed at the end: on an error nothing is left.\n";

char *tracedat_to_temp(const char *txt, const char *dir, mode_t mode)
{
	char *tmp = xasprintf("%s/.trace.dat.XXXXXX", dir);
	FILE *in = fopen(txt, "r"), *out = NULL;
	char err[512];
	int fd = -1;

	if (!in) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", txt,
			strerror(errno));
		goto fail;
	}
	fd = mkstemp(tmp);
	if (fd < 0 || fchmod(fd, mode) || !(out = fdopen(fd, "w"))) {
		fprintf(stderr, "capsim: cannot write in %s: %s\n", dir,
			strerror(errno));
		goto fail;
	}
	fd = -1;
	if (tracedat_convert(in, txt, out, err, sizeof(err))) {
		fprintf(stderr, "%s: error: %s\n", txt, err);
		goto fail;
	}
	if (fclose(out)) {
		out = NULL;
		fprintf(stderr, "capsim: error writing trace.dat in %s: %s\n",
			dir, strerror(errno));
		goto fail;
	}
	fclose(in);
	return tmp;
fail:
	if (out)
		fclose(out);
	if (fd >= 0)
		close(fd);
	if (in)
		fclose(in);
	unlink(tmp);
	free(tmp);
	return NULL;
}

int cmd_trace_dat(int argc, char **argv, mode_t mode)
{
	char *dir, *slash, *tmp;
	int ret = 0;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_trace_dat, stdout);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "capsim: trace-dat needs IN.txt and OUT.dat\nsee `capsim trace-dat --help`\n");
		return 2;
	}
	dir = xstrdup(argv[2]);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	tmp = tracedat_to_temp(argv[1], slash ? (*dir ? dir : "/") : ".",
			       mode);
	if (!tmp) {
		ret = 2;
	} else if (rename(tmp, argv[2])) {
		fprintf(stderr, "capsim: cannot rename into %s: %s\n", argv[2],
			strerror(errno));
		unlink(tmp);
		ret = 1;
	}
	free(tmp);
	free(dir);
	return ret;
}
