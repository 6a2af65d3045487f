/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Perfetto trace's compressed packets (TracePacket.compressed_packets,
 * a trace config's compression_type DEFLATE): deflate-compressed bytes
 * holding more TracePackets, each field-1 length-delimited as in the
 * file. Inflated through zlib, bounded: traced compresses at most 512 KB
 * of packets into one; PF_INFLATED_MAX is far above that and refuses a
 * decompression bomb.
 */
#ifndef CAPSIM_PERFETTO_INFLATE_H
#define CAPSIM_PERFETTO_INFLATE_H

#include <stddef.h>
#include <stdint.h>

#define PF_INFLATED_MAX (64u << 20)

/* A buffer the inflated bytes go into (grown as needed, reused) */
struct pf_zbuf {
	uint8_t *buf;
	size_t len, cap;
};

/*
 * Inflate @n bytes at @in (zlib's or gzip's wrapper, or raw deflate) into
 * @z: 0, or -1 with @err saying why (not deflate data, cut short, more
 * than PF_INFLATED_MAX)
 */
int pf_inflate(struct pf_zbuf *z, const uint8_t *in, size_t n, char *err,
	       size_t errlen);
void pf_zbuf_free(struct pf_zbuf *z);

#endif
