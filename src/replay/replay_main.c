/*
 * capsim-replay: drive the clamp core from an op log (see oplog.h) and print
 * what the core answers. Any malformed or inconsistent line stops the
 * replay with FILE:LINE:COL and exit status 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>

#include "clamp_host.h"
#include "cli_opts.h"
#include "oplog.h"
#include "oplog_apply.h"

static const char usage_replay[] =
"usage: capsim-replay [--cpus N] [FILE|-]\n"
"Replays a clamp op log through the capacity-clamping core.\n"
"  --cpus N   number of CPUs, 1..65536 (default 4)\n"
"Ops: group PATH | write PATH min|max VALUE |\n"
"     enqueue ENTITY CPU PATH | dequeue ENTITY |\n"
"     move ENTITY PATH | range CPU\n";

enum { OPT_CPUS = 256 };

static const struct option replay_options[] = {
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ 0 },
};

static const struct cli_cmd replay_cli = {
	.prog = "capsim-replay",
	.usage = usage_replay,
	.longopts = replay_options,
};

struct replay_opts {
	const char *file;	/* "-": stdin */
	unsigned long long cpus;
};

static int replay_opt(void *ctx, int key, const char *arg)
{
	struct replay_opts *ro = ctx;

	if (key == OPT_CPUS)
		return cli_parse_u64(&replay_cli, "--cpus", arg, 10, 1, 65536,
				     &ro->cpus);
	if (strcmp(ro->file, "-"))
		return cli_usage_error(&replay_cli, "one op log at a time ('%s' and '%s')",
				       ro->file, arg);
	ro->file = arg;
	return 0;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	struct replay_opts ro = { .file = "-", .cpus = 4 };
	struct clamp_host host;
	unsigned long lineno = 0;
	const char *file;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int status = 0;
	FILE *in;

	status = cli_parse(&replay_cli, argc, argv, replay_opt, &ro, NULL);
	if (status != CLI_CONTINUE)
		return status;
	status = 0;
	file = ro.file;
	in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!in) {
		fprintf(stderr, "capsim-replay: %s: %s\n", file,
			strerror(errno));
		return 2;
	}
	if (clamp_host_init(&host, (unsigned int)ro.cpus)) {
		fprintf(stderr, "capsim-replay: out of memory\n");
		return 1;
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	while ((len = getline(&line, &cap, in)) >= 0) {
		const char *msg;
		struct op op;
		int col, err;

		lineno++;
		if (memchr(line, '\0', (size_t)len)) {
			fprintf(stderr, "%s:%lu: NUL byte in the line\n", file,
				lineno);
			status = 2;
			break;
		}
		if (oplog_parse(line, &op, &msg, &col)) {
			fflush(stdout);
			fprintf(stderr, "%s:%lu:%d: %s\n", file, lineno, col,
				msg);
			status = 2;
			break;
		}
		err = oplog_apply(&host, &op, stdout, &msg);
		if (err) {
			fflush(stdout);
			fprintf(stderr, "%s:%lu: %s: %s\n", file, lineno,
				oplog_kind_name(op.kind), msg);
			status = err == -ENOMEM ? 1 : 2;
			break;
		}
	}
	if (!status && ferror(in)) {
		fprintf(stderr, "capsim-replay: %s: read error\n", file);
		status = 1;
	}
	free(line);
	if (in != stdin)
		fclose(in);
	clamp_host_destroy(&host);
	if (fflush(stdout) && !status)
		status = 1;
	return status;
}
