// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's --emit-jobs FILE: one shell command a line for `parallel <
 * FILE`, and FILE.slurm, a Slurm array script reading its line of FILE.
 * Every value is embedded through shell_quote() (single quotes, a ' as
 * '\''), where the shell substitutes nothing; a value holding a control
 * character is refused before anything is written, since a newline would
 * split a job line in two commands and no quoting survives that.
 */
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_write.h"
#include "sweep_jobs.h"
#include "util.h"

/* The first line of FILE.slurm after #!: how capsim knows its own files */
static const char slurm_mark[] =
	"# A Slurm job array running the points of a capsim sweep";

char *shell_quote(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_putc(&sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			sb_puts(&sb, "'\\''");
		else
			sb_putc(&sb, *s);
	}
	sb_putc(&sb, '\'');
	return sb.buf;
}

const char *control_char_in(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
	return NULL;
}

bool job_value_refused(const char *what, const char *s)
{
	const char *c = control_char_in(s);

	if (!c)
		return false;
	fprintf(stderr, "capsim: --emit-jobs: %s holds a control character (byte 0x%02x at offset %zu), which a job line cannot carry: rename it\n",
		what, (unsigned char)*c, (size_t)(c - s));
	return true;
}

char *job_line(char *const *argv, const char *dir, const char *log)
{
	struct strbuf sb;
	char *q;
	int i;

	if (control_char_in(dir) || control_char_in(log))
		return NULL;
	for (i = 0; argv[i]; i++)
		if (control_char_in(argv[i]))
			return NULL;
	sb_init(&sb);
	q = shell_quote(dir);
	sb_printf(&sb, "cd %s &&", q);
	free(q);
	for (i = 0; argv[i]; i++) {
		q = shell_quote(argv[i]);
		sb_printf(&sb, " %s", q);
		free(q);
	}
	q = shell_quote(log);
	sb_printf(&sb, " > %s 2>&1", q);
	free(q);
	return sb.buf;
}

/* @path is a FILE.slurm capsim wrote: its second line is ours */
static bool slurm_is_ours(const char *path)
{
	char line[128];
	FILE *f = fopen(path, "r");
	bool ours;

	if (!f)
		return false;
	ours = fgets(line, sizeof(line), f) && !strcmp(line, "#!/bin/sh\n") &&
	       fgets(line, sizeof(line), f) &&
	       !strncmp(line, slurm_mark, sizeof(slurm_mark) - 1);
	fclose(f);
	return ours;
}

/*
 * @path is a jobs file capsim wrote: a regular file (not a link) whose
 * every line is a job line as job_line() makes them. Judged by its own
 * content, whatever FILE.slurm beside it is: a workload or a script of
 * the user's next to a capsim FILE.slurm (copied, or FILE renamed) is
 * not capsim's to replace.
 */
static bool jobs_file_is_ours(const char *path)
{
	static const char head[] = "cd '", tail[] = "' 2>&1";
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	size_t cap = 0, nh = sizeof(head) - 1, nt = sizeof(tail) - 1;
	char *line = NULL;
	bool ours = false;
	struct stat st;
	ssize_t len;
	FILE *f;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return false;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		ours = (size_t)len > nh + nt && !memcmp(line, head, nh) &&
		       !memcmp(line + len - nt, tail, nt);
		if (!ours)
			break;
	}
	if (ferror(f))
		ours = false;
	free(line);
	fclose(f);
	return ours;
}

int jobs_path_check(const char *file)
{
	char *slurm;
	struct stat st, ss;
	bool has_file, has_slurm;
	const char *foreign = NULL;
	int ret = -1;

	if (!*file) {
		fprintf(stderr, "capsim: --emit-jobs needs a file, not an empty path\n");
		return -1;
	}
	if (job_value_refused("the --emit-jobs path", file))
		return -1;
	slurm = xasprintf("%s.slurm", file);
	has_file = !lstat(file, &st);
	has_slurm = !lstat(slurm, &ss);
	/* renaming over a device, a FIFO, a directory or a link is not
	 * writing a file */
	if ((has_file && !S_ISREG(st.st_mode)) ||
	    (has_slurm && !S_ISREG(ss.st_mode))) {
		fprintf(stderr, "capsim: --emit-jobs %s: %s exists and is not a regular file\n",
			file, has_file && !S_ISREG(st.st_mode) ? file : slurm);
		goto out;
	}
	/* a pair from an earlier --emit-jobs is replaced, each file judged
	 * on its own; anything else (a workload, a script of the user's) is
	 * not capsim's to replace */
	if (has_file && !jobs_file_is_ours(file))
		foreign = file;
	else if (has_slurm && !slurm_is_ours(slurm))
		foreign = slurm;
	if (foreign) {
		fprintf(stderr, "capsim: --emit-jobs %s: %s exists and was not written by capsim; choose another --emit-jobs or remove it\n",
			file, foreign);
		goto out;
	}
	ret = 0;
out:
	free(slurm);
	return ret;
}

/* A new file beside @path, renamed onto it by safe_fclose(); NULL
 * (said) or open */
static FILE *open_aside(const char *path, mode_t mode)
{
	FILE *f = safe_fopen_mode(path, mode);

	if (!f)
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
	return f;
}

/*
 * The Slurm script: each array task runs its line of the jobs file. The
 * two numbers it reads from the environment are checked to be plain
 * decimal numbers before any arithmetic: the shell's $((...)) evaluates
 * what a variable holds as an expression, and bash runs a command
 * substitution inside an array subscript there
 * (CAPSIM_JOBS_OFFSET='x[$(cmd)]'). At most 9 digits, and no leading
 * zero (an octal number to the shell): a sweep has at most
 * SWEEP_MAX_POINTS. POSIX sh: it runs under dash as under bash.
 */
static void put_slurm(FILE *sf, const char *qslurm, const char *qabs, int n)
{
	fprintf(sf, "#!/bin/sh\n"
		"%s, one\n"
		"# task per line of the jobs file. Submit: sbatch %s\n"
		"# then, when every task is done: capsim sweep --collect DIR\n"
		"# A cluster's MaxArraySize (1001 unless configured) bounds the\n"
		"# array's indices: submit a longer sweep in chunks, each task\n"
		"# running line CAPSIM_JOBS_OFFSET + its index, e.g. lines 1001-2000:\n"
		"#   sbatch --array=1-1000 --export=ALL,CAPSIM_JOBS_OFFSET=1000 %s\n"
		"#SBATCH --job-name=capsim-sweep\n"
		"#SBATCH --array=1-%d\n"
		"#SBATCH --ntasks=1\n"
		"#SBATCH --cpus-per-task=1\n"
		"jobs=%s\n"
		"# from the environment: decimal numbers only, checked before\n"
		"# any arithmetic (the shell evaluates a variable's text there)\n"
		"off=${CAPSIM_JOBS_OFFSET-0}\n"
		"idx=${SLURM_ARRAY_TASK_ID-}\n"
		"case $off in\n"
		"''|*[!0-9]*|0?*|??????????*)\n"
		"\techo 'capsim sweep: CAPSIM_JOBS_OFFSET is not a decimal number (0 to 999999999, no leading zero; unset: 0)' >&2\n"
		"\texit 2 ;;\n"
		"esac\n"
		"case $idx in\n"
		"''|*[!0-9]*|0?*|??????????*)\n"
		"\techo 'capsim sweep: SLURM_ARRAY_TASK_ID is not a decimal number (0 to 999999999, no leading zero): run this script as a Slurm array task' >&2\n"
		"\texit 2 ;;\n"
		"esac\n"
		"n=$((off + idx))\n"
		"line=\n"
		"if [ \"$n\" -ge 1 ] && [ \"$n\" -le %d ]; then\n"
		"\tline=$(sed -n \"${n}p\" \"$jobs\")\n"
		"fi\n"
		"if [ -z \"$line\" ]; then\n"
		"\techo \"capsim sweep: $jobs has no line $n (CAPSIM_JOBS_OFFSET $off + array index $idx)\" >&2\n"
		"\texit 1\n"
		"fi\n"
		"exec sh -c \"$line\"\n", slurm_mark, qslurm, qslurm, n, qabs, n);
}

/* The absolute path of @file, whose directory exists (caller frees) */
static char *abs_path(const char *file)
{
	const char *base = strrchr(file, '/');
	char *dir, rp[PATH_MAX], *abs;

	if (!base)
		dir = xstrdup(".");
	else if (base == file)
		dir = xstrdup("/");
	else
		dir = xasprintf("%.*s", (int)(base - file), file);
	if (realpath(dir, rp))
		abs = xasprintf("%s%s%s", rp, strcmp(rp, "/") ? "/" : "",
				base ? base + 1 : file);
	else
		abs = xstrdup(file);
	free(dir);
	return abs;
}

int jobs_write(const char *file, char *const *lines, int n)
{
	char *slurm = xasprintf("%s.slurm", file), *abs = abs_path(file);
	char *qabs = NULL, *qslurm = NULL, *s;
	FILE *f = NULL, *sf = NULL;
	int i, ret = -1;

	/* the script reads FILE by its absolute path, wherever it runs */
	if (job_value_refused("the absolute --emit-jobs path", abs))
		goto out;
	qabs = shell_quote(abs);
	s = xasprintf("%s.slurm", abs);
	qslurm = shell_quote(s);
	free(s);
	f = open_aside(file, 0666);
	sf = f ? open_aside(slurm, 0777) : NULL;
	if (!sf)
		goto out;
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	put_slurm(sf, qslurm, qabs, n);
	/* both whole, then renamed into place: the script last, so that no
	 * script is there before its lines */
	if (safe_fclose(f)) {
		f = NULL;
		fprintf(stderr, "capsim: cannot write %s: %s\n", file,
			strerror(errno));
		goto out;
	}
	f = NULL;
	if (safe_fclose(sf)) {
		sf = NULL;
		fprintf(stderr, "capsim: cannot write %s: %s\n", slurm,
			strerror(errno));
		goto out;
	}
	sf = NULL;
	ret = 0;
out:
	if (f)
		safe_fdiscard(f);
	if (sf)
		safe_fdiscard(sf);
	free(slurm);
	free(abs);
	free(qabs);
	free(qslurm);
	return ret;
}
