// SPDX-License-Identifier: GPL-2.0
/* POSIX only, as cli.c: <sys/stat.h> must not see kcompat's linux/ */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_opts.h"
#include "cli_tracedat.h"
#include "outmark.h"
#include "safe_write.h"
#include "trace_file.h"
#include "tracedat.h"
#include "util.h"

static const char usage_trace_dat[] =
"usage: capsim trace-dat IN.txt OUT.dat [--force]\n"
"\n"
"Converts ftrace text as capsim run writes it (trace.txt) into trace-cmd's\n"
"trace.dat (version 6) with the kernel's event formats, so that\n"
"`trace-cmd report OUT.dat` and KernelShark open it. `capsim run\n"
"--trace-dat` does the same for its own trace. OUT.dat is written to a\n"
"temporary file and renamed at the end: on an error nothing is left.\n"
"\n"
"IN.txt must be a regular file. OUT.dat may be a new path or an existing\n"
"trace.dat (a file that starts as trace-cmd's do), which is replaced; any\n"
"other existing file is refused unless --force is given. The input itself\n"
"(under any name), a directory, a device, a FIFO or a symbolic link are\n"
"never replaced, --force or not. Exit status 2 for these refusals and bad\n"
"input, 1 when the output could not be written.\n";

/* The first bytes of every trace.dat: 0x17 0x08 0x44 "tracing" */
static const char tracedat_magic[10] = "\027\010\104tracing";

/*
 * The ftrace text @txt, read from @in, converted into @out (opened by
 * safe_fopen_mode(), left open): 0, or the exit status (said): 2 for bad
 * input, 1 when the output could not be written
 */
static int convert_to(const char *txt, FILE *in, FILE *out)
{
	char err[512];
	int r = tracedat_convert(in, txt, out, err, sizeof(err));

	if (!r)
		return 0;
	fprintf(stderr, "%s: error: %s\n", txt, err);
	return r == TRACEDAT_IO_ERROR ? 1 : 2;
}

/* Whether the regular file @path starts as a trace.dat does */
static bool is_trace_dat(const char *path)
{
	return outmark_file_starts_with(path, tracedat_magic,
					sizeof(tracedat_magic));
}

/*
 * May @out be (re)placed by the conversion of the input @in_st? 0, or 2
 * with the reason printed. Checked before converting and again just before
 * the rename, which would replace whatever is there then.
 */
static int check_output(const char *out, const char *in,
			const struct stat *in_st, bool force)
{
	struct stat lst, st;

	if (lstat(out, &lst)) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "capsim: trace-dat: cannot check %s: %s\n", out,
			strerror(errno));
		return 2;
	}
	/* the input under another name (a hard link, a symbolic link, a
	 * path through ..): replacing it would lose the trace */
	if (!stat(out, &st) && st.st_dev == in_st->st_dev &&
	    st.st_ino == in_st->st_ino) {
		fprintf(stderr, "capsim: trace-dat: %s is the input %s: choose another OUT.dat\n",
			out, in);
		return 2;
	}
	/* rename() would replace the node itself: a device (as root,
	 * /dev/null), a FIFO, a symbolic link (not what it points to) */
	if (!S_ISREG(lst.st_mode)) {
		fprintf(stderr, "capsim: trace-dat: %s exists and is not a regular file (a directory, a device, a FIFO or a symbolic link): not replaced\n",
			out);
		return 2;
	}
	if (!force && !is_trace_dat(out)) {
		fprintf(stderr, "capsim: trace-dat: %s exists and is not a trace.dat: not replaced (--force replaces it)\n",
			out);
		return 2;
	}
	return 0;
}

enum { OPT_FORCE = 256 };

static const struct option trace_dat_options[] = {
	{ "force", no_argument, NULL, OPT_FORCE },
	{ 0 },
};

static const struct cli_cmd trace_dat_cli = {
	.prog = "capsim", .name = "trace-dat", .usage = usage_trace_dat,
	.longopts = trace_dat_options,
};

struct trace_dat_args {
	const char *in_path, *out_path;
	int npaths;
	bool force;
};

static int trace_dat_opt(void *ctx, int key, const char *arg)
{
	struct trace_dat_args *ta = ctx;

	if (key == OPT_FORCE) {
		ta->force = true;
	} else {
		/* a third path is said with the count below */
		if (ta->npaths == 0)
			ta->in_path = arg;
		else if (ta->npaths == 1)
			ta->out_path = arg;
		ta->npaths++;
	}
	return 0;
}

/*
 * Convert @in (opened from ta->in_path, its stat in @in_st) into a
 * temporary file beside ta->out_path (safe_write.h), then rename it
 * over: the output is checked again just before, as it may have changed
 * meanwhile.
 */
static int convert_into(const struct trace_dat_args *ta, FILE *in,
			const struct stat *in_st, mode_t mode)
{
	FILE *out = safe_fopen_mode(ta->out_path, mode);
	int ret;

	if (!out) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", ta->out_path,
			strerror(errno));
		return 1;
	}
	ret = convert_to(ta->in_path, in, out);
	if (!ret)
		ret = check_output(ta->out_path, ta->in_path, in_st, ta->force);
	if (ret) {
		safe_fdiscard(out);
	} else if (safe_fclose(out)) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", ta->out_path,
			strerror(errno));
		ret = 1;
	}
	return ret;
}

int cmd_trace_dat(int argc, char **argv, mode_t mode)
{
	struct trace_dat_args ta = { 0 };
	enum trace_file_err ferr;
	struct stat in_st;
	FILE *in;
	int ret = cli_parse(&trace_dat_cli, argc, argv, trace_dat_opt, &ta,
			    NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (ta.npaths != 2)
		return cli_usage_error(&trace_dat_cli, "trace-dat needs IN.txt and OUT.dat");
	if (!*ta.out_path) {
		fprintf(stderr, "capsim: trace-dat: OUT.dat is empty\n");
		return 2;
	}
	in = trace_file_open(ta.in_path, &ferr);
	if (!in)
		return ferr == TRACE_FILE_IO ? 1 : 2;
	if (fstat(fileno(in), &in_st)) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", ta.in_path,
			strerror(errno));
		fclose(in);
		return 1;
	}
	ret = check_output(ta.out_path, ta.in_path, &in_st, ta.force);
	if (!ret)
		ret = convert_into(&ta, in, &in_st, mode);
	fclose(in);
	return ret;
}
