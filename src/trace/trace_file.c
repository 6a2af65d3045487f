// SPDX-License-Identifier: GPL-2.0
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_file.h"

FILE *trace_file_open(const char *path, enum trace_file_err *err)
{
	struct stat st;
	FILE *f;
	int fd;

	*err = TRACE_FILE_BAD;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "capsim: %s: not a regular file (a trace must be a file: not a device, a FIFO or a directory)\n",
			path);
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", path,
			strerror(errno));
		close(fd);
		*err = TRACE_FILE_IO;
		return NULL;
	}
	*err = TRACE_FILE_OK;
	return f;
}

_Static_assert(TRACE_LINE_MAX == 65536, "trace_lines_next's message says 65536");

void trace_lines_init(struct trace_lines *r, FILE *f)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
}

int trace_lines_next(struct trace_lines *r, char **line)
{
	if (!r->buf) {
		r->buf = malloc(TRACE_LINE_MAX + 1);
		if (!r->buf) {
			fprintf(stderr, "capsim: out of memory\n");
			abort();
		}
	}
	for (;;) {
		char *nl = r->pos < r->len ?
			   memchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
		size_t n;

		if (nl) {
			*nl = '\0';
			*line = r->buf + r->pos;
			r->pos = (size_t)(nl - r->buf) + 1;
			r->lineno++;
			return 1;
		}
		if (r->eof) {
			if (r->pos == r->len)
				return 0;
			/* the last line, without a newline: len < the
			 * buffer's size, which keeps a byte for the NUL */
			r->buf[r->len] = '\0';
			*line = r->buf + r->pos;
			r->pos = r->len;
			r->lineno++;
			return 1;
		}
		/* keep the partial line, then fill the rest of the buffer */
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
		if (r->len == TRACE_LINE_MAX) {
			r->lineno++;
			r->err = "line longer than 65536 bytes: not a trace";
			return TRACE_FILE_BAD;
		}
		n = fread(r->buf + r->len, 1, TRACE_LINE_MAX - r->len, r->f);
		r->len += n;
		if (n == 0) {
			if (ferror(r->f)) {
				r->err = strerror(errno);
				return TRACE_FILE_IO;
			}
			r->eof = true;
		}
	}
}

void trace_lines_free(struct trace_lines *r)
{
	free(r->buf);
	r->buf = NULL;
}
