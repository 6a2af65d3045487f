// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "perfetto_inflate.h"

/* One attempt with @window_bits (15 + 32: zlib or gzip; -15: raw) */
static int try_inflate(struct pf_zbuf *z, const uint8_t *in, size_t n,
		       int window_bits, const char **why)
{
	z_stream s = { 0 };
	int r;

	if (inflateInit2(&s, window_bits) != Z_OK)
		abort();
	s.next_in = (Bytef *)in;
	s.avail_in = (uInt)n;
	z->len = 0;
	do {
		if (z->len == z->cap) {
			if (z->cap >= PF_INFLATED_MAX) {
				*why = "inflates past 64 MiB";
				inflateEnd(&s);
				return -1;
			}
			z->cap = z->cap ? z->cap * 2 : 1u << 20;
			z->buf = realloc(z->buf, z->cap);
			if (!z->buf)
				abort();
		}
		s.next_out = z->buf + z->len;
		s.avail_out = (uInt)(z->cap - z->len);
		r = inflate(&s, Z_NO_FLUSH);
		z->len = z->cap - s.avail_out;
	} while (r == Z_OK && (s.avail_in || !s.avail_out));
	inflateEnd(&s);
	if (r == Z_STREAM_END)
		return 0;
	*why = r == Z_OK || r == Z_BUF_ERROR ? "cut short" : "not deflate data";
	return -1;
}

int pf_inflate(struct pf_zbuf *z, const uint8_t *in, size_t n, char *err,
	       size_t errlen)
{
	const char *why = NULL;

	if (n > PF_INFLATED_MAX) {
		snprintf(err, errlen, "compressed_packets of %zu bytes: more than 64 MiB", n);
		return -1;
	}
	if (!try_inflate(z, in, n, 15 + 32, &why))
		return 0;
	if (strcmp(why, "inflates past 64 MiB") && !try_inflate(z, in, n, -15, &why))
		return 0;
	snprintf(err, errlen, "compressed_packets (%zu bytes): %s", n, why);
	return -1;
}

void pf_zbuf_free(struct pf_zbuf *z)
{
	free(z->buf);
	*z = (struct pf_zbuf){ 0 };
}
