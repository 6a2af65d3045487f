// SPDX-License-Identifier: GPL-2.0
/* The shared option parser (src/input/cli_opts.c): what a command gets,
 * and the usage errors every command says the same way. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "cli_opts.h"

enum { OPT_NUM = 256, OPT_SET, OPT_FLAG, OPT_RATE, OPT_SETUP };

static const struct option demo_options[] = {
	{ "num", required_argument, NULL, OPT_NUM },
	{ "set", required_argument, NULL, OPT_SET },
	{ "flag", no_argument, NULL, OPT_FLAG },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "setup", no_argument, NULL, OPT_SETUP },
	{ 0 },
};

static const struct cli_cmd demo_cli = {
	.prog = "capsim", .name = "demo", .usage = "usage: capsim demo\n",
	.shortopts = "o:", .longopts = demo_options,
};

/* What the demo command was given, in order */
struct demo {
	int num;
	double rate;
	char seen[256];		/* "key=value;" per option or positional */
};

static int demo_opt(void *ctx, int key, const char *arg)
{
	struct demo *d = ctx;
	size_t len = strlen(d->seen);

	if (key == OPT_NUM)
		return cli_parse_int(&demo_cli, "--num", arg, 1, 10, &d->num);
	if (key == OPT_RATE)
		return cli_parse_double(&demo_cli, "--rate", arg, 0, 1,
					"a number in [0, 1]", &d->rate);
	snprintf(d->seen + len, sizeof(d->seen) - len, "%d=%s;", key,
		 arg ? arg : "");
	return 0;
}

/*
 * cli_parse() of the demo command over @args (NULL-terminated; "demo" is
 * argv[0]): its return value; its stderr and stdout in @err and @out
 */
static int parse(struct demo *d, char *err, char *out, size_t n,
		 const char *const *args)
{
	char *argv[16] = { (char *)"demo" };
	FILE *e = tmpfile(), *o = tmpfile();
	int argc = 1, saved_err = dup(2), saved_out = dup(1), ret;
	size_t got;

	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	ck_assert(e && o && saved_err >= 0 && saved_out >= 0);
	fflush(stdout);
	ck_assert(dup2(fileno(e), 2) == 2 && dup2(fileno(o), 1) == 1);
	memset(d, 0, sizeof(*d));
	ret = cli_parse(&demo_cli, argc, argv, demo_opt, d, NULL);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_err, 2);
	dup2(saved_out, 1);
	close(saved_err);
	close(saved_out);
	rewind(e);
	got = fread(err, 1, n - 1, e);
	err[got] = '\0';
	rewind(o);
	got = fread(out, 1, n - 1, o);
	out[got] = '\0';
	fclose(e);
	fclose(o);
	return ret;
}

#define PARSE(d, err, out, ...) \
	parse(d, err, out, sizeof(err), (const char *const[]){ __VA_ARGS__, NULL })

/* A usage error: exit status 2, @want then where the usage is */
#define EXPECT_USAGE(want, ...) do { \
	struct demo d_; \
	char e_[512], o_[512]; \
	ck_assert_int_eq(PARSE(&d_, e_, o_, __VA_ARGS__), 2); \
	ck_assert_str_eq(e_, want "\nsee `capsim demo --help`\n"); \
	ck_assert_str_eq(o_, ""); \
} while (0)

START_TEST(options_and_positionals_in_order)
{
	struct demo d;
	char err[512], out[512];

	ck_assert_int_eq(PARSE(&d, err, out, "w.json", "--set", "a=1",
			       "--flag", "--set=b=2", "-o", "dir", "x",
			       "--num=7", "-oD"), CLI_CONTINUE);
	ck_assert_str_eq(d.seen, "1=w.json;257=a=1;258=;257=b=2;111=dir;1=x;111=D;");
	ck_assert_int_eq(d.num, 7);
	/* a unique prefix, and an exact name that prefixes another */
	ck_assert_int_eq(PARSE(&d, err, out, "--fl", "--set", "s", "--setu"),
			 CLI_CONTINUE);
	ck_assert_str_eq(d.seen, "258=;257=s;260=;");
	ck_assert_str_eq(err, "");
	/* a value that looks like an option is still the value */
	ck_assert_int_eq(PARSE(&d, err, out, "--set", "--flag"), CLI_CONTINUE);
	ck_assert_str_eq(d.seen, "257=--flag;");
}
END_TEST

START_TEST(help_prints_the_usage)
{
	struct demo d;
	char err[512], out[512];

	ck_assert_int_eq(PARSE(&d, err, out, "w.json", "--help"), 0);
	ck_assert_str_eq(out, "usage: capsim demo\n");
	ck_assert_int_eq(PARSE(&d, err, out, "-h"), 0);
	ck_assert_str_eq(out, "usage: capsim demo\n");
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(unknown_options_are_named)
{
	EXPECT_USAGE("capsim: unknown option: --bogus", "w.json", "--bogus");
	EXPECT_USAGE("capsim: unknown option: --bogus", "--bogus=3");
	EXPECT_USAGE("capsim: unknown option: -x", "-x");
	EXPECT_USAGE("capsim: --flag takes no value", "--flag=1");
	/* a prefix of two options, and an exact name among them */
	EXPECT_USAGE("capsim: ambiguous option: --se (--set, --setup)", "--se");
}
END_TEST

START_TEST(missing_values_are_named)
{
	EXPECT_USAGE("capsim: --num needs a value", "w.json", "--num");
	EXPECT_USAGE("capsim: -o needs a value", "-o");
}
END_TEST

START_TEST(numbers_out_of_range_are_named)
{
	EXPECT_USAGE("capsim: --num needs an integer in [1, 10]: 11", "--num", "11");
	EXPECT_USAGE("capsim: --num needs an integer in [1, 10]: 0", "--num=0");
	EXPECT_USAGE("capsim: --num needs an integer in [1, 10]: 5x", "--num", "5x");
	EXPECT_USAGE("capsim: --num needs an integer in [1, 10]: ", "--num", "");
	EXPECT_USAGE("capsim: --rate needs a number in [0, 1]: nan", "--rate", "nan");
	EXPECT_USAGE("capsim: --rate needs a number in [0, 1]: 1.5", "--rate", "1.5");
}
END_TEST

START_TEST(u64_refuses_any_sign)
{
	unsigned long long x = 42;
	int saved = dup(2);
	FILE *null = fopen("/dev/null", "w");

	ck_assert(null && saved >= 0 && dup2(fileno(null), 2) == 2);
	/* strtoull would wrap these around to 2^64 - 1 */
	ck_assert_int_eq(cli_parse_u64(&demo_cli, "--seed", " -1", 0, 0,
				       ULLONG_MAX, &x), 2);
	ck_assert_int_eq(cli_parse_u64(&demo_cli, "--seed", "-1", 0, 0,
				       ULLONG_MAX, &x), 2);
	ck_assert_int_eq(cli_parse_u64(&demo_cli, "--seed",
				       "18446744073709551616", 0, 0,
				       ULLONG_MAX, &x), 2);
	dup2(saved, 2);
	close(saved);
	fclose(null);
	ck_assert_uint_eq(x, 42);
	ck_assert_int_eq(cli_parse_u64(&demo_cli, "--seed", "0x10", 0, 0,
				       ULLONG_MAX, &x), 0);
	ck_assert_uint_eq(x, 16);
}
END_TEST

START_TEST(takes_next_value)
{
	ck_assert(cli_takes_next_value(&demo_cli, "--set"));
	ck_assert(cli_takes_next_value(&demo_cli, "-o"));
	ck_assert(!cli_takes_next_value(&demo_cli, "--set=a"));
	ck_assert(!cli_takes_next_value(&demo_cli, "-oD"));
	ck_assert(!cli_takes_next_value(&demo_cli, "--flag"));
	ck_assert(!cli_takes_next_value(&demo_cli, "w.json"));
}
END_TEST

int main(void)
{
	return check_main("cli_opts", 0,
			  CHECK_TESTS(options_and_positionals_in_order,
				      help_prints_the_usage,
				      unknown_options_are_named,
				      missing_values_are_named,
				      numbers_out_of_range_are_named,
				      u64_refuses_any_sign, takes_next_value));
}
