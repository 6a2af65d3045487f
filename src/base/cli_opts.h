/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line convention every capsim command follows, over glibc's
 * getopt_long:
 *   - a command is a struct cli_cmd: its program and name, its usage text
 *     (printed by -h/--help, which every command accepts) and one
 *     struct option table with its short letters;
 *   - options and positional arguments mix in any order, each handled in
 *     the order given (getopt's "-" mode), unless the command stops at its
 *     first positional argument (.stop_at_positional: a dispatcher);
 *   - --opt VALUE and --opt=VALUE, -o VALUE and -oVALUE are the same;
 *     a unique prefix names its option (getopt_long's rule: --dur);
 *   - a usage error is two lines on stderr and exit status 2, the first
 *     naming the option or argument, the second where the usage is:
 *         capsim: --hz needs an integer in [10, 10000]: 0
 *         see `capsim run --help`
 */
#ifndef CAPSIM_CLI_OPTS_H
#define CAPSIM_CLI_OPTS_H

#include <getopt.h>
#include <stdbool.h>

/* The key a positional argument is handed to the handler under */
#define CLI_POSITIONAL 1
/* What cli_parse() returns when the command goes on to do its work */
#define CLI_CONTINUE (-1)
/* Exit status of a usage error */
#define CLI_EXIT_USAGE 2

struct cli_cmd {
	const char *prog;		/* "capsim", "capsim-replay" */
	const char *name;		/* "run"; NULL for the program itself */
	const char *usage;		/* the --help text */
	void (*print_usage)(void);	/* or this prints it (computed) */
	const char *shortopts;		/* getopt letters, without "-+:" or h */
	const struct option *longopts;	/* ends with a zero entry */
	bool stop_at_positional;	/* the rest is a subcommand's */
};

/*
 * Handles one option (@key: its getopt value, @arg: its value or NULL) or
 * positional argument (@key CLI_POSITIONAL); 0, or a usage error said
 * (cli_usage_error()) and its exit status.
 */
typedef int cli_handler(void *ctx, int key, const char *arg);

/*
 * Parse @argv (@argv[0] is the command's name) with @c's options, each
 * handed to @handle. Returns CLI_CONTINUE when the command goes on, with
 * *@rest (if not NULL) the index of the first argument left (a
 * .stop_at_positional command's subcommand, else @argc); 0 when --help
 * printed the usage; 2 after a usage error (an unknown option, a missing
 * value, or one the handler refused), said.
 */
int cli_parse(const struct cli_cmd *c, int argc, char **argv,
	      cli_handler *handle, void *ctx, int *rest);

/* A usage error of @c: "PROG: MESSAGE" and where the usage is; returns 2 */
int cli_usage_error(const struct cli_cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A whole decimal integer in [@min, @max] (@base as strtoull: 0 also
 * takes 0x.. and 0..; no sign) into *@out; else a usage error naming
 * @opt and @arg: "OPT needs an integer in [MIN, MAX]: ARG", or "OPT needs
 * a non-negative integer: ARG" when the range is all of them. 0 or 2.
 */
int cli_parse_u64(const struct cli_cmd *c, const char *opt, const char *arg,
		  int base, unsigned long long min, unsigned long long max,
		  unsigned long long *out);
/* cli_parse_u64() in base 10 into an int */
int cli_parse_int(const struct cli_cmd *c, const char *opt, const char *arg,
		  int min, int max, int *out);
/*
 * A whole number in [@min, @max] into *@out; else "OPT needs @what: ARG"
 * (@what says the unit and range: "seconds in [1e-06, 1e+06]"). 0 or 2.
 */
int cli_parse_double(const struct cli_cmd *c, const char *opt,
		     const char *arg, double min, double max,
		     const char *what, double *out);

/* Whether the argument @a is an option of @c whose value is the next
 * argument (--set, -o; not --set=X) */
bool cli_takes_next_value(const struct cli_cmd *c, const char *a);

#endif
