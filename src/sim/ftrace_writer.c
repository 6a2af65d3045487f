// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>

#include "ftrace_writer.h"

#define COUNT_WIDTH 72

int ftw_open(struct ftrace_writer *t, FILE *f, int ncpus)
{
	t->f = f;
	t->entries = 0;
	t->ncpus = ncpus;
	if (!f)
		return 0;
	fputs("# tracer: nop\n#\n", f);
	t->count_pos = ftell(f);
	fprintf(f, "%-*s\n", COUNT_WIDTH, "# entries-in-buffer/entries-written: 0/0");
	fputs("#\n"
	      "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
	      "#              | |         |         |         |\n", f);
	return ferror(f) ? -1 : 0;
}

void ftw_vevent(struct ftrace_writer *t, uint64_t ns, int cpu,
		const char *comm, int pid, const char *event, const char *fmt,
		va_list ap)
{
	uint64_t us = ns / 1000;

	if (!t->f)
		return;
	fprintf(t->f, "%16s-%-7d [%03d] %5lu.%06lu: %s: ", comm, pid, cpu,
		(unsigned long)(us / 1000000), (unsigned long)(us % 1000000),
		event);
	vfprintf(t->f, fmt, ap);
	fputc('\n', t->f);
	t->entries++;
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
	char line[COUNT_WIDTH + 8];
	int n;

	if (!t->f)
		return 0;
	if (fflush(t->f) || fseek(t->f, t->count_pos, SEEK_SET))
		return -1;
	n = snprintf(line, sizeof(line),
		     "# entries-in-buffer/entries-written: %lu/%lu   #P:%d",
		     (unsigned long)t->entries, (unsigned long)t->entries,
		     t->ncpus);
	if (n > COUNT_WIDTH)
		n = COUNT_WIDTH;
	fprintf(t->f, "%-*.*s", COUNT_WIDTH, n, line);
	if (fseek(t->f, 0, SEEK_END) || fflush(t->f) || ferror(t->f))
		return -1;
	return 0;
}
