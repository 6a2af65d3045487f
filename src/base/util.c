// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

void xoom(void)
{
	fputs("capsim: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xoom();
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		xoom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		xoom();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	return sb.buf;
}

int err_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void sb_init(struct strbuf *sb)
{
	sb->cap = 64;
	sb->len = 0;
	sb->buf = xmalloc(sb->cap);
	sb->buf[0] = '\0';
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	while (sb->len + extra + 1 > sb->cap)
		sb->cap *= 2;
	sb->buf = xrealloc(sb->buf, sb->cap);
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void sb_putn(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);

	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	size_t room = sb->cap - sb->len;
	int n;

	/* Format into the spare room first: most messages fit, and a
	 * vsnprintf() to a NULL buffer trips gcc's format-truncation check
	 * in sanitizer builds at -O2. */
	va_copy(ap2, ap);
	n = vsnprintf(sb->buf + sb->len, room, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		sb_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void samples_add(struct samples *s, int64_t x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = x;
}

void samples_free(struct samples *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = s->sorted = 0;
}

/*
 * A summary sorts every task's latencies (hundreds of thousands of
 * samples in a long run): qsort()'s call per comparison was most of
 * summary.json's time. An LSD radix sort of the keys with the sign bit
 * flipped, a byte per pass, passes where every key has the same byte
 * skipped (the high bytes of latencies). Below 64 samples (most tasks of
 * a large run have a handful) an insertion sort, without the 16 KiB of
 * counts.
 */
static void radix_i64(uint64_t *a, size_t n)
{
	size_t count[8][256] = { { 0 } }, i;
	uint64_t *b, *src, *dst;
	int pass;

	for (i = 0; i < n; i++) {
		a[i] ^= 1ULL << 63;	/* signed order as unsigned */
		for (pass = 0; pass < 8; pass++)
			count[pass][(a[i] >> (8 * pass)) & 0xff]++;
	}
	b = xmalloc(n * sizeof(*b));
	src = a;
	dst = b;
	for (pass = 0; pass < 8; pass++) {
		size_t pos = 0, c;
		unsigned int d;

		if (count[pass][(src[0] >> (8 * pass)) & 0xff] == n)
			continue;	/* one byte value: nothing moves */
		for (d = 0; d < 256; d++) {
			c = count[pass][d];
			count[pass][d] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++)
			dst[count[pass][(src[i] >> (8 * pass)) & 0xff]++] = src[i];
		src = dst;
		dst = dst == a ? b : a;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	for (i = 0; i < n; i++)
		a[i] ^= 1ULL << 63;
	free(b);
}

static void sort_i64(int64_t *v, size_t n)
{
	size_t i;

	if (n >= 64) {
		radix_i64((uint64_t *)v, n);
		return;
	}
	for (i = 1; i < n; i++) {	/* insertion sort */
		int64_t x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

int64_t samples_pct(struct samples *s, double p)
{
	size_t rank;

	if (!s->n)
		return 0;
	/* every percentile of a summary reads the same samples: sort once */
	if (s->sorted != s->n) {
		sort_i64(s->v, s->n);
		s->sorted = s->n;
	}
	/* nearest rank: the smallest value with at least p% at or below it */
	rank = (size_t)((p / 100.0) * (double)s->n + 0.999999999);
	if (rank < 1)
		rank = 1;
	if (rank > s->n)
		rank = s->n;
	return s->v[rank - 1];
}

int64_t samples_max(const struct samples *s)
{
	int64_t m = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (i == 0 || s->v[i] > m)
			m = s->v[i];
	return m;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb;
	char buf[8192];
	size_t n;

	if (!f)
		return NULL;
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		sb_grow(&sb, n);
		memcpy(sb.buf + sb.len, buf, n);
		sb.len += n;
		sb.buf[sb.len] = '\0';
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		sb_free(&sb);
		errno = e ? e : EIO;
		return NULL;
	}
	fclose(f);
	if (len)
		*len = sb.len;
	return sb.buf;
}

char *read_input_file(const char *path, size_t max, size_t *len,
		      const char **why)
{
	struct strbuf sb;
	struct stat st;
	char buf[8192];
	ssize_t n;
	int fd;

	*why = NULL;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		close(fd);
		return NULL;
	}
	if ((uintmax_t)st.st_size > max) {
		*why = "larger than an input file may be";
		close(fd);
		return NULL;
	}
	sb_init(&sb);
	/* the size may change while reading: the limit holds regardless */
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = errno;
			sb_free(&sb);
			close(fd);
			errno = (int)n;
			return NULL;
		}
		if (sb.len + (size_t)n > max) {
			*why = "larger than an input file may be";
			sb_free(&sb);
			close(fd);
			return NULL;
		}
		sb_grow(&sb, (size_t)n);
		memcpy(sb.buf + sb.len, buf, (size_t)n);
		sb.len += (size_t)n;
		sb.buf[sb.len] = '\0';
	}
	close(fd);
	*len = sb.len;
	return sb.buf;
}

char *child_path_arg(const char *path)
{
	return path[0] == '-' ? xasprintf("./%s", path) : xstrdup(path);
}

mode_t umask_mode(mode_t mode)
{
	mode_t um = umask(0);

	umask(um);
	return mode & ~um;
}
