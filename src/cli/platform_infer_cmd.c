// SPDX-License-Identifier: GPL-2.0
/*
 * capsim platform infer: the platform file a trace shows
 * (src/trace/platform_infer.h), checked by the platform parser before it
 * is printed or written, so that what it writes is a platform capsim
 * takes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_opts.h"
#include "diag.h"
#include "platform.h"
#include "platform_infer.h"
#include "platform_infer_cmd.h"
#include "safe_write.h"
#include "trace_file.h"
#include "util.h"

static const char usage_infer[] =
"usage: capsim platform infer TRACE [-o P.json] [--name NAME]\n"
"\n"
"Writes the platform a trace shows (any trace capsim reads): its CPUs,\n"
"the frequency domains (the CPUs that change frequency together), every\n"
"OPP each domain is seen at, capacities from the trace's capacity events\n"
"or else by each domain's top frequency, a SYNTHETIC power model and the\n"
"idle states cpu_idle shows; every assumption is listed in the file's\n"
"\"source\" (docs/traces.md, \"Platforms from traces\").\n"
"\n"
"  -o P.json    write it there (a new file; an existing one is refused),\n"
"               default: standard output\n"
"  --name NAME  the platform's name (letters, digits, '-', '_', '.'),\n"
"               default: inferred\n";

enum { OPT_NAME = 256 };

static const struct option infer_options[] = {
	{ "name", required_argument, NULL, OPT_NAME },
	{ 0 },
};

static const struct cli_cmd infer_cli = {
	.prog = "capsim", .name = "platform infer", .usage = usage_infer,
	.shortopts = "o:", .longopts = infer_options,
};

struct infer_args {
	const char *trace, *out, *name;
	int nargs;
};

static int infer_opt(void *ctx, int key, const char *arg)
{
	struct infer_args *a = ctx;

	if (key == 'o')
		a->out = arg;
	else if (key == OPT_NAME)
		a->name = arg;
	else if (a->nargs++ == 0)
		a->trace = arg;
	return 0;
}

static bool name_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789-_.", *s))
			return false;
	return true;
}

/* @text to @path, written aside and renamed (safe_write.h) */
static int write_new(const char *path, const char *text)
{
	FILE *f = safe_fopen(path);

	if (f && fputs(text, f) == EOF) {
		safe_fdiscard(f);
		f = NULL;
	} else if (f && safe_fclose(f) == 0) {
		return 0;
	}
	fprintf(stderr, "capsim: cannot write %s: %s\n", path, strerror(errno));
	return 1;
}

int cmd_platform_infer(int argc, char **argv)
{
	struct infer_args a = { .name = "inferred" };
	struct platform *pl;
	struct strbuf sb;
	struct diag d;
	struct stat st;
	int ret = cli_parse(&infer_cli, argc, argv, infer_opt, &a, NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (a.nargs != 1)
		return cli_usage_error(&infer_cli,
				       "platform infer needs one TRACE");
	if (!name_ok(a.name))
		return cli_usage_error(&infer_cli,
				       "--name: letters, digits, '-', '_' or '.', at most 64");
	if (a.out && (!*a.out || lstat(a.out, &st) == 0 || errno != ENOENT)) {
		if (!*a.out)
			return cli_usage_error(&infer_cli, "-o: an empty path");
		fprintf(stderr, "capsim: %s exists: platform infer writes only a new file\n",
			a.out);
		return CLI_EXIT_USAGE;
	}
	sb_init(&sb);
	ret = platform_infer(a.trace, a.name, &sb);
	if (ret) {
		sb_free(&sb);
		return ret == TRACE_FILE_IO ? 1 : CLI_EXIT_USAGE;
	}
	diag_init(&d, false);
	pl = platform_load_buffer("(inferred platform)", sb.buf, sb.len, &d);
	diag_free(&d);
	if (!pl) {
		fprintf(stderr, "capsim: %s: the inferred platform is not valid (a bug: please report it)\n",
			a.trace);
		sb_free(&sb);
		return 1;
	}
	fprintf(stderr, "capsim: %s: %d CPUs in %d frequency domains\n",
		a.trace, pl->ncpus, pl->ndomains);
	platform_free(pl);
	if (a.out)
		ret = write_new(a.out, sb.buf);
	else
		fputs(sb.buf, stdout);
	sb_free(&sb);
	return ret;
}
