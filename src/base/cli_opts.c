// SPDX-License-Identifier: GPL-2.0
/* The command line convention of every capsim command (cli_opts.h) */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"

/* The most long options a command has, --help included */
#define CLI_MAX_LONGOPTS 40

int cli_usage_error(const struct cli_cmd *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee `%s%s%s --help`\n", c->prog, c->name ? " " : "",
		c->name ? c->name : "");
	return CLI_EXIT_USAGE;
}

/*
 * getopt_long's complaint (@k '?' or ':') about argv[optind - 1], said.
 * A long option is named as written, without its "=VALUE"; a short one
 * by its letter (it may sit inside a cluster such as -qx).
 */
static int option_error(const struct cli_cmd *c, const struct option *lo,
			int k, char **argv)
{
	const char *a = argv[optind - 1];
	int len = (int)strcspn(a, "="), n = 0;
	char alts[256] = "";
	const struct option *o;

	if (strncmp(a, "--", 2))
		return cli_usage_error(c, k == ':' ? "-%c needs a value" :
				       "unknown option: -%c", optopt);
	if (k == ':')
		return cli_usage_error(c, "%.*s needs a value", len, a);
	/* a known option that takes no value, given one */
	if (optopt && a[len] == '=')
		return cli_usage_error(c, "%.*s takes no value", len, a);
	/* getopt_long takes a unique prefix; more than one is no typo */
	for (o = lo; o->name; o++) {
		size_t used = strlen(alts);

		if (strncmp(o->name, a + 2, (size_t)len - 2))
			continue;
		snprintf(alts + used, sizeof(alts) - used, "%s--%s",
			 n++ ? ", " : "", o->name);
	}
	if (n > 1)
		return cli_usage_error(c, "ambiguous option: %.*s (%s)", len, a,
				       alts);
	return cli_usage_error(c, "unknown option: %.*s", len, a);
}

int cli_parse(const struct cli_cmd *c, int argc, char **argv,
	      cli_handler *handle, void *ctx, int *rest)
{
	struct option lo[CLI_MAX_LONGOPTS + 1];
	char so[64];
	int n = 0, k, r;

	while (c->longopts && c->longopts[n].name) {
		if (n >= CLI_MAX_LONGOPTS - 1)
			abort();	/* a table beyond the limit: raise it */
		lo[n] = c->longopts[n];
		n++;
	}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n] = (struct option){ 0 };
	/* "-": positionals in order, as key 1; "+": stop at the first;
	 * ":": a missing value is ours to say */
	snprintf(so, sizeof(so), "%s:h%s", c->stop_at_positional ? "+" : "-",
		 c->shortopts ? c->shortopts : "");
	optind = 0;	/* a fresh parse: capsim_main already parsed argv */
	opterr = 0;
	while ((k = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (k == 'h') {
			if (c->print_usage)
				c->print_usage();
			else
				fputs(c->usage, stdout);
			return 0;
		}
		if (k == '?' || k == ':')
			return option_error(c, lo, k, argv);
		r = handle(ctx, k, optarg);
		if (r)
			return r;
	}
	/* getopt_long stops at "--": every word after it is a positional,
	 * even one that starts with '-' (a file named -x.json) */
	for (; !c->stop_at_positional && optind < argc; optind++) {
		r = handle(ctx, 1, argv[optind]);
		if (r)
			return r;
	}
	if (rest)
		*rest = optind;
	return CLI_CONTINUE;
}

int cli_parse_u64(const struct cli_cmd *c, const char *opt, const char *arg,
		  int base, unsigned long long min, unsigned long long max,
		  unsigned long long *out)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(arg, &end, base);
	/* no '-' at all: strtoull would wrap " -1" around to a huge value */
	if (end == arg || *end || errno || strchr(arg, '-') || x < min ||
	    x > max) {
		if (min == 0 && max == ULLONG_MAX)
			return cli_usage_error(c, "%s needs a non-negative integer: %s",
					       opt, arg);
		return cli_usage_error(c, "%s needs an integer in [%llu, %llu]: %s",
				       opt, min, max, arg);
	}
	*out = x;
	return 0;
}

int cli_parse_int(const struct cli_cmd *c, const char *opt, const char *arg,
		  int min, int max, int *out)
{
	unsigned long long x;

	if (min < 0)
		abort();	/* no option takes a negative count */
	if (cli_parse_u64(c, opt, arg, 10, (unsigned long long)min,
			  (unsigned long long)max, &x))
		return CLI_EXIT_USAGE;
	*out = (int)x;
	return 0;
}

int cli_parse_double(const struct cli_cmd *c, const char *opt,
		     const char *arg, double min, double max,
		     const char *what, double *out)
{
	char *end;
	double x = strtod(arg, &end);

	/* the negated tests refuse NaN too */
	if (end == arg || *end || !(x >= min) || !(x <= max))
		return cli_usage_error(c, "%s needs %s: %s", opt, what, arg);
	*out = x;
	return 0;
}

bool cli_takes_next_value(const struct cli_cmd *c, const char *a)
{
	const struct option *o;
	const char *l;

	if (a[0] != '-' || !a[1])
		return false;
	if (a[1] != '-') {	/* -X: X is a letter with ':' after it */
		l = c->shortopts ? strchr(c->shortopts, a[1]) : NULL;
		return !a[2] && l && l[1] == ':';
	}
	for (o = c->longopts; o && o->name; o++)
		if (!strcmp(a + 2, o->name))
			return o->has_arg == required_argument;
	return false;
}
