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
#include "oplog.h"
#include "oplog_apply.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: capsim-replay [--cpus N] [FILE|-]\n"
		"Replays a clamp op log through the capacity-clamping core.\n"
		"  --cpus N   number of CPUs, 1..65536 (default 4)\n"
		"Ops: group PATH | write PATH min|max VALUE |\n"
		"     enqueue ENTITY CPU PATH | dequeue ENTITY |\n"
		"     move ENTITY PATH | range CPU\n");
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	const char *file = "-";
	unsigned long cpus = 4;
	struct clamp_host host;
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int i, status = 0;
	FILE *in;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--cpus")) {
			char *end;

			if (++i >= argc) {
				fprintf(stderr, "capsim-replay: --cpus needs a value\n");
				return 2;
			}
			errno = 0;
			cpus = strtoul(argv[i], &end, 10);
			if (errno || *end || argv[i][0] == '-' || cpus < 1 ||
			    cpus > 65536) {
				fprintf(stderr,
					"capsim-replay: --cpus: '%s' is not in 1..65536\n",
					argv[i]);
				return 2;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "capsim-replay: unknown option '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		} else if (strcmp(file, "-")) {
			fprintf(stderr, "capsim-replay: one op log at a time ('%s' and '%s')\n",
				file, argv[i]);
			return 2;
		} else {
			file = argv[i];
		}
	}

	in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!in) {
		fprintf(stderr, "capsim-replay: %s: %s\n", file,
			strerror(errno));
		return 2;
	}
	if (clamp_host_init(&host, (unsigned int)cpus)) {
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
