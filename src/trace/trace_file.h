/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace file as untrusted input. A trace is read line by line to its
 * end, so what is not a regular file never ends (/dev/zero), blocks (a
 * FIFO without a writer) or is no trace (a directory): refused when
 * opened, as `capsim run` refuses such workloads. A line is bounded too:
 * one line of a gigabyte (no newline anywhere) would otherwise be read
 * whole into memory before the parser could say it is not a trace line.
 */
#ifndef CAPSIM_TRACE_FILE_H
#define CAPSIM_TRACE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest line read, newline excluded: a kernel trace line is a few
 * hundred bytes; a trace_printk or bprint string stays far below this. */
#define TRACE_LINE_MAX (64 * 1024)

/* What went wrong, for the caller's exit status */
enum trace_file_err {
	TRACE_FILE_OK = 0,
	TRACE_FILE_IO = -1,		/* a read error: exit 1 */
	TRACE_FILE_BAD = -2,		/* not a trace file: exit 2 */
};

/*
 * Open @path for reading if it is a regular file. NULL with the message
 * printed ("capsim: PATH: not a regular file ...", or the open's error)
 * and *err set: TRACE_FILE_BAD for either (a path the user gave that
 * cannot be a trace).
 */
FILE *trace_file_open(const char *path, enum trace_file_err *err);

/* Lines of a stream, each at most TRACE_LINE_MAX bytes */
struct trace_lines {
	FILE *f;
	const char *err;	/* why the last call failed */
	char *buf;		/* TRACE_LINE_MAX + 1 bytes */
	size_t len, pos;	/* bytes held, start of the next line */
	long lineno;		/* of the line last handed out */
	bool eof;
};

void trace_lines_init(struct trace_lines *r, FILE *f);
/*
 * The next line in *line, NUL-terminated without its newline (valid until
 * the next call; the caller may write into it). Returns 1, 0 at the end,
 * TRACE_FILE_BAD for a line over TRACE_LINE_MAX (lineno its number) or
 * TRACE_FILE_IO for a read error; r->err then says why, for the caller's
 * message.
 */
int trace_lines_next(struct trace_lines *r, char **line);
void trace_lines_free(struct trace_lines *r);

#endif
