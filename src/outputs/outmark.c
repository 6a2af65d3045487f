// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outmark.h"
#include "safe_write.h"
#include "util.h"

static char *command;		/* the command line, shell-quoted */
static char **inputs;		/* the inputs' real paths */
static int ninputs;

/* 'x' as a shell would need it; plain words as they are */
static void quote_word(struct strbuf *sb, const char *w)
{
	const char *p;

	for (p = w; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@", *p))
			break;
	if (*w && !*p) {
		sb_puts(sb, w);
		return;
	}
	sb_putc(sb, '\'');
	for (p = w; *p; p++) {
		if (*p == '\'')
			sb_puts(sb, "'\\''");
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			sb_putc(sb, '?');	/* the marker stays one line */
		else
			sb_putc(sb, *p);
	}
	sb_putc(sb, '\'');
}

void outmark_set_command(int argc, char *const *argv)
{
	struct strbuf sb;
	int i;

	sb_init(&sb);
	for (i = 0; i < argc; i++) {
		if (i)
			sb_putc(&sb, ' ');
		/* argv[0] as the user knows it, not the build path */
		quote_word(&sb, i ? argv[i] : "capsim");
	}
	free(command);
	command = sb.buf ? sb.buf : xstrdup("capsim");
}

/* The marker's text into @f, closed (safe_write.h: renamed into place
 * whole); @extra, when not NULL, a line of its own after the command */
static int put_marker(FILE *f, const char *extra)
{
	if (!f)
		return -1;
	fprintf(f, "Written by capsim; capsim may replace this directory.\n"
		"command: %s\n", command ? command : "capsim");
	if (extra)
		fprintf(f, "%s\n", extra);
	return safe_fclose(f) ? -1 : 0;
}

int outmark_write(const char *dir)
{
	char *path = xasprintf("%s/%s", dir, OUTMARK_NAME);
	int ret = put_marker(safe_fopen(path), NULL);

	free(path);
	return ret;
}

int outmark_write_at(int dirfd, const char *extra)
{
	return put_marker(safe_fopen_at(dirfd, OUTMARK_NAME, 0666), extra);
}

bool outmark_at_has_line(int dirfd, const char *line)
{
	char buf[8192], *p;
	size_t n = strlen(line);
	struct stat st;
	ssize_t got;
	int fd;
	bool yes = false;

	fd = openat(dirfd, OUTMARK_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC);
	if (fd < 0)
		return false;
	/* a marker is a few lines: a regular file, read at most this much */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		got = read(fd, buf, sizeof(buf) - 1);
		if (got > 0) {
			buf[got] = '\0';
			for (p = buf; p && !yes; p = p ? p + 1 : NULL) {
				yes = !strncmp(p, line, n) && p[n] == '\n';
				p = strchr(p, '\n');
			}
		}
	}
	close(fd);
	return yes;
}

bool outmark_present(const char *dir)
{
	char *path = xasprintf("%s/%s", dir, OUTMARK_NAME);
	struct stat st;
	bool ok = !lstat(path, &st) && S_ISREG(st.st_mode);

	free(path);
	return ok;
}

static bool dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			empty = false;
			break;
		}
	closedir(d);
	return empty;
}

int outmark_check_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (!*dir) {
		snprintf(err, errlen, "the output directory is an empty path");
		return 2;
	}
	if (outmark_holds_input(dir, err, errlen))
		return 2;
	if (lstat(dir, &st)) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot create %s: %s", dir,
			 strerror(errno));
		return 2;
	}
	if (S_ISLNK(st.st_mode) && stat(dir, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		/* a link to a directory is written through, never replaced */
	} else if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s exists and is not a directory; choose another -o",
			 dir);
		return 2;
	}
	if (outmark_present(dir) || dir_empty(dir))
		return 0;
	snprintf(err, errlen, "%s exists and was not written by capsim; choose another -o or remove it",
		 dir);
	return 2;
}

void outmark_note_input(const char *path)
{
	char *real = realpath(path, NULL);

	if (!real)
		return;
	inputs = xrealloc(inputs, (size_t)(ninputs + 1) * sizeof(*inputs));
	inputs[ninputs++] = real;
}

/* @path with its last existing ancestor resolved: the output may not
 * exist yet, but where it would be does */
static char *resolve_maybe_missing(const char *path)
{
	char *copy = xstrdup(path), *real, *slash, *out;
	size_t n = strlen(copy);

	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	real = realpath(copy, NULL);
	if (real) {
		free(copy);
		return real;
	}
	slash = strrchr(copy, '/');
	if (!slash) {
		real = realpath(".", NULL);
		out = real ? xasprintf("%s/%s", real, copy) : NULL;
	} else if (slash == copy) {
		out = xstrdup(copy);
	} else {
		char *parent;

		*slash = '\0';
		parent = resolve_maybe_missing(copy);
		out = parent ? xasprintf("%s/%s", parent, slash + 1) : NULL;
		free(parent);
		real = NULL;
	}
	free(real);
	free(copy);
	return out;
}

bool outmark_holds_input(const char *path, char *err, size_t errlen)
{
	char *out = ninputs ? resolve_maybe_missing(path) : NULL;
	bool holds = false;
	int i;

	if (!out)
		return false;
	for (i = 0; i < ninputs && !holds; i++) {
		size_t n = strlen(out);

		/* equal, or below it: "/a/b" holds "/a/b/c", not "/a/bc" */
		if (!strncmp(inputs[i], out, n) &&
		    (inputs[i][n] == '\0' || inputs[i][n] == '/' ||
		     !strcmp(out, "/"))) {
			snprintf(err, errlen, "%s is or holds the input %s; choose another -o",
				 path, inputs[i]);
			holds = true;
		}
	}
	free(out);
	return holds;
}

void outmark_reset_inputs(void)
{
	int i;

	for (i = 0; i < ninputs; i++)
		free(inputs[i]);
	free(inputs);
	inputs = NULL;
	ninputs = 0;
}

bool outmark_file_starts_with(const char *path, const void *head, size_t n)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char *buf;
	bool yes;

	if (fd < 0)
		return false;
	buf = xmalloc(n ? n : 1);
	yes = read(fd, buf, n) == (ssize_t)n && !memcmp(buf, head, n);
	close(fd);
	free(buf);
	return yes;
}
