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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int jobs_path_check(const char *file)
{
	char *slurm;
	struct stat st, ss;
	bool has_file, has_slurm;
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
	/* a pair from an earlier --emit-jobs is replaced; anything else
	 * (a workload, a script of the user's) is not capsim's to replace */
	if ((has_file || has_slurm) && !(has_slurm && slurm_is_ours(slurm))) {
		fprintf(stderr, "capsim: --emit-jobs %s: %s exists and was not written by capsim; choose another --emit-jobs or remove it\n",
			file, has_file ? file : slurm);
		goto out;
	}
	ret = 0;
out:
	free(slurm);
	return ret;
}

/* A new file beside @path, to be renamed onto it; NULL (said) or open */
static FILE *open_aside(const char *path, mode_t mode, char **tmp)
{
	mode_t um = umask(0);
	int fd;
	FILE *f;

	umask(um);
	*tmp = xasprintf("%s.tmp-XXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	/* mkstemp makes it 0600; the files are shared as any output */
	if (fchmod(fd, mode & ~um) || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	return f;
}

int jobs_write(const char *file, char *const *lines, int n)
{
	char *slurm = xasprintf("%s.slurm", file), *tmp = NULL, *stmp = NULL;
	char rp[PATH_MAX], *abs = NULL, *qabs = NULL, *qslurm = NULL;
	FILE *f = open_aside(file, 0666, &tmp), *sf = NULL;
	int i, ret = -1;

	if (!f)
		goto out;
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	if (fclose(f)) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", file,
			strerror(errno));
		goto out;
	}
	/* the script reads FILE by its absolute path, wherever it runs */
	if (realpath(tmp, rp)) {
		char *slash = strrchr(rp, '/'), *base = strrchr(file, '/');

		*slash = '\0';
		abs = xasprintf("%s/%s", rp, base ? base + 1 : file);
	} else {
		abs = xstrdup(file);
	}
	if (job_value_refused("the absolute --emit-jobs path", abs))
		goto out;
	qabs = shell_quote(abs);
	{
		char *s = xasprintf("%s.slurm", abs);

		qslurm = shell_quote(s);
		free(s);
	}
	sf = open_aside(slurm, 0777, &stmp);
	if (!sf)
		goto out;
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
		"n=$((${CAPSIM_JOBS_OFFSET:-0} + SLURM_ARRAY_TASK_ID))\n"
		"line=$(sed -n \"${n}p\" \"$jobs\")\n"
		"if [ -z \"$line\" ]; then\n"
		"\techo \"capsim sweep: $jobs has no line $n (CAPSIM_JOBS_OFFSET ${CAPSIM_JOBS_OFFSET:-0} + array index $SLURM_ARRAY_TASK_ID)\" >&2\n"
		"\texit 1\n"
		"fi\n"
		"exec sh -c \"$line\"\n", slurm_mark, qslurm, qslurm, n, qabs);
	if (fclose(sf) || rename(tmp, file) ||
	    rename(stmp, slurm)) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", slurm,
			strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		if (tmp)
			unlink(tmp);
		if (stmp)
			unlink(stmp);
	}
	free(tmp);
	free(stmp);
	free(slurm);
	free(abs);
	free(qabs);
	free(qslurm);
	return ret;
}
