/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers for the tests of the command line: capsim_main() in process,
 * its exit status and its stderr, files of the source tree. */
#ifndef CAPSIM_CLITEST_H
#define CAPSIM_CLITEST_H

#include <fcntl.h>
#include <unistd.h>

#include "simtest.h"

#include "cli.h"

/* argv of "capsim" and the arguments from @a0 to NULL (at most 30) */
static inline int make_argv(char **argv, const char *a0, va_list ap)
{
	int argc = 0;
	const char *a;

	argv[argc++] = (char *)"capsim";
	for (a = a0; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	argv[argc] = NULL;
	return argc;
}

static inline int cli(const char *a0, ...)
{
	char *argv[32];
	va_list ap;
	int argc;

	va_start(ap, a0);
	argc = make_argv(argv, a0, ap);
	va_end(ap);
	return capsim_main(argc, argv);
}

static inline char *src(const char *rel)
{
	const char *root = getenv("CAPSIM_SRCDIR");

	return xasprintf("%s/%s", root ? root : "../..", rel);
}

static inline bool exists(const char *p)
{
	return access(p, F_OK) == 0;
}

/* Write @text to the file @name (in the test's directory) */
static inline void put_file(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");

	ck_assert_msg(f, "cannot write %s", name);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Remove an output directory of capsim run left by an earlier test run */
static inline void remove_run_dir(const char *dir)
{
	const char *const names[] = { "trace.txt", "summary.json",
				      "trace.dat", "activations.csv",
				      ".capsim-output", NULL };
	int i;

	for (i = 0; names[i]; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		unlink(p);
		free(p);
	}
	rmdir(dir);
}

static inline char *slurp_file(const char *p, size_t *len)
{
	char *b = read_file(p, len);

	ck_assert_msg(b, "cannot read %s", p);
	return b;
}

/* stderr of a capsim_main() call */
static inline char *cli_stderr(int *rc, const char *a0, ...)
{
	char *argv[32];
	int argc, saved, fd;
	va_list ap;
	size_t len;
	char *out, *name;

	va_start(ap, a0);
	argc = make_argv(argv, a0, ap);
	va_end(ap);
	fflush(stderr);
	saved = dup(2);
	/* per process: the suites run in parallel in one directory */
	name = xasprintf("stderr-%d.txt", (int)getpid());
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert(saved >= 0 && fd >= 0 && dup2(fd, 2) == 2);
	close(fd);
	*rc = capsim_main(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	out = slurp_file(name, &len);
	unlink(name);
	free(name);
	return out;
}

/* A usage error: exit 2, @want then `see capsim CMD --help` on stderr */
static inline void expect_short_usage(const char *want, const char *cmd, ...)
{
	/* the arguments after @cmd, up to NULL (at most 4) */
	const char *v[5] = { NULL };
	char see[64];
	va_list ap;
	int rc, n = 0;
	char *err;

	va_start(ap, cmd);
	while (n < 4 && (v[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	err = cli_stderr(&rc, v[0], v[1], v[2], v[3], NULL);
	snprintf(see, sizeof(see), "see `capsim%s%s --help`\n", cmd ? " " : "",
		 cmd ? cmd : "");
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(!strncmp(err, want, strlen(want)) &&
		      strchr(err, '\n') && !strcmp(strchr(err, '\n') + 1, see),
		      "got:\n%s", err);
	free(err);
}

#endif
