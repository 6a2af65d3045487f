// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastfmt.h"
#include "ftrace_writer.h"
#include "util.h"

/* A line's fixed part and most events' fields fit in this; longer ones
 * (long strings, the fallback) find room by flushing first */
#define LINE_ROOM 1024
_Static_assert(LINE_ROOM >= FASTFMT_PREFIX_MAX + FASTFMT_TEXT_MAX,
	       "a line's room holds its fixed part and a format's literals");

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
	t->bytes = 0;
	t->ncpus = ncpus;
	t->failed = false;
	t->over_limit = false;
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
	t->formats = xcalloc(FTW_FORMATS, sizeof(*t->formats));
	return 0;
}

/* Room for @n more bytes in the buffer, flushing it if need be */
static bool room(struct ftrace_writer *t, size_t n, uint64_t now_ns)
{
	if (t->cap - t->len >= n)
		return true;
	flush(t, now_ns);
	return !t->failed && t->cap - t->len >= n;
}

/* A line outside fastfmt's subset, or longer than the buffer's room */
static void slow_fields(struct ftrace_writer *t, uint64_t ns, const char *fmt,
			va_list ap)
{
	va_list aq;
	char *tmp;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0) {
		t->failed = true;
		return;
	}
	if (room(t, (size_t)n + 1, ns)) {
		vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
		t->len += (size_t)n;
		return;
	}
	/* longer than the whole buffer: written through a copy */
	tmp = xmalloc((size_t)n + 1);
	vsnprintf(tmp, (size_t)n + 1, fmt, ap);
	flush(t, ns);
	if (!t->failed && pwrite_all(t->fd, tmp, (size_t)n, t->base +
				     t->hdr_room + (off_t)t->flushed))
		t->failed = true;
	t->flushed += (uint64_t)n;
	free(tmp);
}

/*
 * @fmt's parsed form, parsed at its first line: NULL when the table is
 * full (a format the table does not hold is parsed at each line)
 */
static struct ftw_format *format_of(struct ftrace_writer *t, const char *fmt)
{
	size_t h = (size_t)(((uintptr_t)fmt >> 3) * 0x9e3779b97f4a7c15ULL >> 57);
	unsigned int k;

	for (k = 0; k < FTW_FORMATS; k++) {
		struct ftw_format *f = &t->formats[(h + k) % FTW_FORMATS];

		if (f->prog.fmt == fmt)
			return f;
		if (!f->prog.fmt) {
			fastfmt_compile(&f->prog, fmt);
			return f;
		}
	}
	return NULL;
}

void ftrace_writer_vevent(struct ftrace_writer *t, uint64_t ns, int cpu,
		const char *comm, int pid, const char *event, const char *fmt,
		va_list ap)
{
	uint64_t us = (ns + t->clock_ns) / 1000, before;
	struct ftw_format *f;
	size_t clen, elen;
	long n;

	if (!t->on || t->failed)
		return;
	f = format_of(t, fmt);
	clen = strlen(comm);
	if (f && f->event == event) {	/* a format's event: the same literal */
		elen = f->elen;
	} else {
		elen = strlen(event);
		if (f) {
			f->event = event;
			f->elen = elen;
		}
	}
	if (!room(t, LINE_ROOM + clen + elen, ns))
		return;
	before = t->flushed + t->len;
	t->len = (size_t)(fastfmt_trace_prefix(t->buf + t->len, comm, clen, pid,
						cpu, us, event, elen) - t->buf);
	if (f)
		n = f->prog.ok ? fastfmt_run(&f->prog, t->buf + t->len,
					     t->cap - t->len - 1, ap) : -1;
	else
		n = fastfmt_v(t->buf + t->len, t->cap - t->len - 1, fmt, ap);
	if (n >= 0)
		t->len += (size_t)n;
	else
		slow_fields(t, ns, fmt, ap);
	if (t->failed || !room(t, 1, ns))
		return;
	t->buf[t->len++] = '\n';
	t->bytes += t->flushed + t->len - before;
	t->entries++;
	if (t->max_bytes && t->bytes > t->max_bytes) {
		t->failed = true;
		t->over_limit = true;
		if (t->stop)
			*t->stop = true;
	}
}

void ftrace_writer_event(struct ftrace_writer *t, uint64_t ns, int cpu, const char *comm,
	       int pid, const char *event, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ftrace_writer_vevent(t, ns, cpu, comm, pid, event, fmt, ap);
	va_end(ap);
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
out:
	if (t->failed)
		ret = -1;
	free(t->buf);
	t->buf = NULL;
	free(t->formats);
	t->formats = NULL;
	t->cap = t->len = 0;
	return ret;
}
