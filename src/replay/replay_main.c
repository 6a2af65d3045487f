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

/* The group @path names, or NULL with *@why set */
static struct host_group *group_of(struct clamp_host *h, const struct op *op,
				   const char **why)
{
	struct host_group *g = clamp_host_group(h, op->path);

	if (!g)
		*why = "no such group";
	return g;
}

/*
 * One op through the host: 0, or a negative errno with *@why the message
 * (-ENOMEM is the only one that is not the log's fault).
 */
static int apply(struct clamp_host *h, const struct op *op, FILE *out,
		 const char **why)
{
	struct host_entity *e = NULL;
	struct host_group *g = NULL;
	struct cap_clamp_range r;
	int err = 0;

	*why = NULL;
	if ((op->kind == OP_WRITE || op->kind == OP_ENQUEUE ||
	     op->kind == OP_MOVE) && !(g = group_of(h, op, why)))
		return -ENOENT;
	if (op->kind == OP_ENQUEUE || op->kind == OP_MOVE)
		err = clamp_host_entity_get(h, op->entity, &e);
	else if (op->kind == OP_DEQUEUE && !(e = clamp_host_entity(h, op->entity))) {
		*why = "no such entity";
		return -ENOENT;
	}
	if (err)
		return err;

	switch (op->kind) {
	case OP_NONE:
		break;
	case OP_GROUP:
		err = clamp_host_group_create(h, op->path, NULL);
		if (err == -ENOENT)
			*why = "parent group does not exist";
		break;
	case OP_WRITE:
		err = clamp_host_write(h, g, op->clamp_id, op->value);
		if (!err || err == -EINVAL) {
			fputs(err ? "EINVAL\n" : "ok\n", out);
			err = 0;
		}
		break;
	case OP_ENQUEUE:
		err = clamp_host_enqueue(h, e, op->cpu, g);
		break;
	case OP_DEQUEUE:
		err = clamp_host_dequeue(h, e);
		break;
	case OP_MOVE:
		err = clamp_host_move(h, e, g);
		break;
	case OP_RANGE:
		err = clamp_host_range(h, op->cpu, &r);
		if (!err)
			fprintf(out, "cpu=%u min=%u max=%u\n", op->cpu, r.min,
				r.max);
		break;
	}
	if (err > 0)		/* "the range changed" is no error here */
		err = 0;
	if (err && !*why)
		*why = clamp_host_strerror(err);
	return err;
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
		err = apply(&host, &op, stdout, &msg);
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
