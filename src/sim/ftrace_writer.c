// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "ftrace_writer.h"
#include "util.h"

/*
 * The header holds the entries count, known only at the end, and the
 * kernel prints it without padding: the events go to a scratch file
 * (unlinked at once, in $TMPDIR or /tmp) and ftw_close() writes the exact header to the
 * output, then appends them.
 */
static FILE *scratch(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	FILE *f = NULL;
	int fd;

	path = xasprintf("%s/capsim-trace.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd >= 0) {
		unlink(path);
		f = fdopen(fd, "w+");
		if (!f)
			close(fd);
	}
	free(path);
	return f;
}

void ftw_limit(struct ftrace_writer *t, uint64_t max_bytes, bool *stop)
{
	t->max_bytes = max_bytes;
	t->stop = stop;
}

int ftw_open(struct ftrace_writer *t, FILE *f, int ncpus)
{
	t->out = f;
	t->f = NULL;
	t->entries = 0;
	t->bytes = 0;
	t->ncpus = ncpus;
	t->failed = false;
	t->over_limit = false;
	if (!f)
		return 0;
	t->f = scratch();
	if (!t->f) {
		t->failed = true;
		return -1;
	}
	return 0;
}

void ftw_vevent(struct ftrace_writer *t, uint64_t ns, int cpu,
		const char *comm, int pid, const char *event, const char *fmt,
		va_list ap)
{
	uint64_t us = ns / 1000;
	int n, m;

	if (!t->f || t->failed)
		return;
	n = fprintf(t->f, "%16s-%-7d [%03d] %5lu.%06lu: %s: ", comm, pid, cpu,
		    (unsigned long)(us / 1000000),
		    (unsigned long)(us % 1000000), event);
	m = vfprintf(t->f, fmt, ap);
	if (n < 0 || m < 0 || fputc('\n', t->f) == EOF) {
		t->failed = true;
		return;
	}
	t->bytes += (uint64_t)n + (uint64_t)m + 1;
	t->entries++;
	if (t->max_bytes && t->bytes > t->max_bytes) {
		t->failed = true;
		t->over_limit = true;
		if (t->stop)
			*t->stop = true;
	}
}

void ftw_event(struct ftrace_writer *t, uint64_t ns, int cpu, const char *comm,
	       int pid, const char *event, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ftw_vevent(t, ns, cpu, comm, pid, event, fmt, ap);
	va_end(ap);
}

int ftw_close(struct ftrace_writer *t)
{
	static char buf[1 << 16];
	FILE *body = t->f;
	int ret = 0;
	size_t n;

	t->f = NULL;
	if (!t->out)
		return 0;
	if (t->failed || !body)
		return -1;
	/* print_event_info() and print_func_help_header() with irq-info off */
	fprintf(t->out,
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: %lu/%lu   #P:%d\n"
		"#\n"
		"#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
		"#              | |         |         |         |\n",
		(unsigned long)t->entries, (unsigned long)t->entries, t->ncpus);
	if (fflush(body) || ferror(body) || fseek(body, 0, SEEK_SET))
		ret = -1;
	while (!ret && (n = fread(buf, 1, sizeof(buf), body)) > 0)
		if (fwrite(buf, 1, n, t->out) != n)
			ret = -1;
	if (ferror(body) || fflush(t->out) || ferror(t->out))
		ret = -1;
	fclose(body);
	return ret;
}
