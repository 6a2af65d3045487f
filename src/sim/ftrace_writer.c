// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastfmt.h"
#include "ftrace_writer.h"
#include "tracedat_write.h"
#include "util.h"

/* The least buffer: a line's fixed part and most events' fields; a line
 * longer than the buffer is written through a copy of its own */
#define LINE_ROOM 1024

/* print_event_info() and print_func_help_header() with irq-info off */
static int header(char *dst, size_t room, uint64_t entries, int ncpus)
{
	return snprintf(dst, room,
			"# tracer: nop\n"
			"#\n"
			"# entries-in-buffer/entries-written: %lu/%lu   #P:%d\n"
			"#\n"
			"#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
			"#              | |         |         |         |\n",
			(unsigned long)entries, (unsigned long)entries, ncpus);
}

static int pwrite_all(int fd, const char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
		at += w;
	}
	return 0;
}

static int pread_all(int fd, char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t r = pread(fd, p, n, at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
		at += r;
	}
	return 0;
}

static unsigned int digits(uint64_t v)
{
	unsigned int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/*
 * The header's room, when the events first go to the file: the count's
 * digits extrapolated from the entries so far to the expected end (the
 * events' rate is steady in most runs); a wrong guess costs a shift
 */
static long guess_header(const struct ftrace_writer *t, uint64_t now_ns)
{
	char tmp[512];
	double est = (double)t->entries;
	uint64_t fake = 1;
	unsigned int d;

	if (t->end_ns && t->end_ns != UINT64_MAX && now_ns &&
	    now_ns < t->end_ns)
		est *= (double)t->end_ns / (double)now_ns;
	d = est < 1e19 ? digits((uint64_t)est) : 20;
	while (--d)
		fake *= 10;	/* the smallest count with d digits */
	return header(tmp, sizeof(tmp), fake, t->ncpus);
}

static void flush(struct ftrace_writer *t, uint64_t now_ns)
{
	if (t->failed)
		return;
	if (t->hdr_room < 0)
		t->hdr_room = guess_header(t, now_ns);
	if (pwrite_all(t->fd, t->buf, t->len,
		       t->base + t->hdr_room + (off_t)t->flushed)) {
		t->failed = true;
		return;
	}
	t->flushed += t->len;
	t->len = 0;
}

void ftrace_writer_limit(struct ftrace_writer *t, uint64_t max_bytes, bool *stop)
{
	t->max_bytes = max_bytes;
	t->stop = stop;
}

int ftrace_writer_open(struct ftrace_writer *t, FILE *f, int ncpus, uint64_t end_ns)
{
	t->out = f;
	t->on = false;
	t->fd = -1;
	t->len = t->cap = 0;
	t->hdr_room = -1;
	t->flushed = 0;
	t->end_ns = end_ns;
	t->shifted = 0;
	t->entries = 0;
	t->limit = t->max_bytes ? t->max_bytes : UINT64_MAX;
	t->stamp_us = UINT64_MAX;
	t->ncpus = ncpus;
	t->failed = false;
	t->over_limit = false;
	t->big = NULL;
	t->dat = NULL;
	t->dat_failed = false;
	if (!f)
		return 0;
	t->on = true;
	t->fd = fileno(f);
	/* what the stream holds goes first; the trace starts after it */
	if (fflush(f) || t->fd < 0 ||
	    (t->base = lseek(t->fd, 0, SEEK_CUR)) < 0) {
		t->failed = true;
		return -1;
	}
	t->cap = t->buf_size ? t->buf_size : FTW_BUFFER_DEFAULT;
	if (t->cap < 2 * LINE_ROOM)
		t->cap = 2 * LINE_ROOM;
	t->buf = xmalloc(t->cap);
	if (t->dat_out) {
		t->dat = tdw_new();
		tdw_cpus(t->dat, ncpus);
	}
	return 0;
}

void ftrace_writer_dat(struct ftrace_writer *t, FILE *out)
{
	t->dat_out = out;
}

/* Room for @n more bytes in the buffer, flushing it if need be */
static bool room(struct ftrace_writer *t, size_t n, uint64_t now_ns)
{
	if (t->cap - t->len >= n)
		return true;
	flush(t, now_ns);
	return !t->failed && t->cap - t->len >= n;
}

void ftw_stamp(struct ftrace_writer *t, uint64_t us)
{
	t->stamp_us = us;
	t->stamp_len = (size_t)(fastfmt_trace_stamp(t->stamp, us) - t->stamp);
}

char *ftw_begin_long(struct ftrace_writer *t, uint64_t ns, int cpu,
		     const char *comm, size_t clen, int pid, size_t need)
{
	uint64_t us = (ns + t->clock_ns) / 1000;
	size_t n = FASTFMT_PREFIX_MAX + FASTFMT_STAMP_MAX + clen + need;
	char *p;

	if (t->failed)
		return NULL;
	if (room(t, n, ns)) {
		p = t->buf + t->len;
	} else {
		if (t->failed)
			return NULL;
		/* longer than the whole buffer: made in a copy of its own */
		free(t->big);
		t->big = xmalloc(n);
		p = t->big;
	}
	p = fastfmt_trace_task(p, comm, clen, pid, cpu);
	return fastfmt_trace_stamp(p, us);
}

void ftw_over_limit(struct ftrace_writer *t)
{
	t->failed = true;
	t->over_limit = true;
	if (t->stop)
		*t->stop = true;
}

void ftw_end_long(struct ftrace_writer *t, char *end, uint64_t ns)
{
	size_t n;

	*end++ = '\n';
	n = (size_t)(end - t->big);
	flush(t, ns);
	if (!t->failed && pwrite_all(t->fd, t->big, n, t->base +
				     t->hdr_room + (off_t)t->flushed))
		t->failed = true;
	t->flushed += n;
	free(t->big);
	t->big = NULL;
	t->entries++;
	if (t->flushed + t->len > t->limit)
		ftw_over_limit(t);
}

void ftrace_writer_text(struct ftrace_writer *t, uint64_t ns, int cpu,
			const char *comm, int pid, const char *event,
			const char *text)
{
	size_t n = strlen(text);
	char *p;

	if (!t->on) {
		ftrace_writer_skip(t);
		return;
	}
	p = ftw_begin(t, ns, cpu, comm, strlen(comm), pid,
		      strlen(event) + n + 3);
	if (!p)
		return;
	memcpy(p, event, strlen(event));
	p += strlen(event);
	*p++ = ':';
	*p++ = ' ';
	memcpy(p, text, n);
	ftw_end(t, p + n, ns);
}

/*
 * The events, @n bytes at @from, moved to @to within the file through the
 * buffer: from the front when moving down, from the back when moving up,
 * so that no chunk overwrites bytes not yet moved
 */
static int shift(struct ftrace_writer *t, off_t from, off_t to, uint64_t n)
{
	uint64_t done = 0;

	while (done < n) {
		size_t c = n - done < t->cap ? (size_t)(n - done) : t->cap;
		off_t off = to < from ? (off_t)done : (off_t)(n - done - c);

		if (pread_all(t->fd, t->buf, c, from + off) ||
		    pwrite_all(t->fd, t->buf, c, to + off))
			return -1;
		done += c;
	}
	t->shifted += n;
	return 0;
}

int ftrace_writer_close(struct ftrace_writer *t)
{
	char hdr[512];
	int ret = 0;
	long h;

	if (!t->out)
		return 0;
	t->on = false;
	if (t->failed)
		goto out;
	h = header(hdr, sizeof(hdr), t->entries, t->ncpus);
	if (t->hdr_room < 0) {
		/* it all fit the buffer: header and events, written once */
		t->hdr_room = h;
	} else {
		flush(t, UINT64_MAX);
		if (!t->failed && h != t->hdr_room &&
		    shift(t, t->base + t->hdr_room, t->base + h, t->flushed))
			t->failed = true;
	}
	if (t->failed || pwrite_all(t->fd, hdr, (size_t)h, t->base) ||
	    pwrite_all(t->fd, t->buf, t->len, t->base + h +
		       (off_t)t->flushed)) {
		t->failed = true;
		goto out;
	}
	t->flushed += t->len;
	t->len = 0;
	/* a header shorter than guessed leaves a tail: cut it */
	if (ftruncate(t->fd, t->base + h + (off_t)t->flushed) ||
	    lseek(t->fd, t->base + h + (off_t)t->flushed, SEEK_SET) < 0)
		t->failed = true;
	if (!t->failed && t->dat && !t->dat_failed &&
	    tdw_write(t->dat, t->dat_out))
		t->dat_failed = true;
out:
	if (t->failed || t->dat_failed)
		ret = -1;
	free(t->buf);
	t->buf = NULL;
	tdw_free(t->dat);
	t->dat = NULL;
	t->cap = t->len = 0;
	return ret;
}
