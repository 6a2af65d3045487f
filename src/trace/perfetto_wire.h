/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Perfetto's trace file at the wire level, for its reader
 * (perfetto_reader.c): the file is one serialized `Trace` message, a
 * sequence of field-1 length-delimited TracePacket records, so it is read
 * one packet at a time, never whole (a packet is bounded, PF_PACKET_MAX).
 * protobuf-c decodes a packet but, when it cannot, says only that it
 * could not: pf_check() walks the same bytes with the same descriptors
 * and names the first byte that is wrong and what was expected there.
 *
 * Protobuf's wire format (protobuf.dev, "Encoding"): a record is a varint
 * tag (field number << 3 | wire type) and its value: 0 a varint (at most
 * 10 bytes), 1 eight bytes, 2 a varint length and that many bytes, 5 four
 * bytes; 3 and 4 are the deprecated groups, 6 and 7 are none.
 */
#ifndef CAPSIM_PERFETTO_WIRE_H
#define CAPSIM_PERFETTO_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <protobuf-c/protobuf-c.h>

/* The largest packet read: traced writes ftrace bundles of a few pages
 * (tens of KB) and its own packets smaller; a length above this is no
 * trace's (or a corrupt one) and is refused before anything is allocated */
#define PF_PACKET_MAX (64u << 20)

/* Messages nest at most this deep (a TracePacket's data is 3-5 levels) */
#define PF_DEPTH_MAX 32

/* A trace file read packet by packet */
struct pf_stream {
	FILE *f;
	uint64_t off;		/* bytes consumed */
	uint8_t *buf;		/* the packet last read */
	size_t cap;
	long packets;
};

void pf_stream_init(struct pf_stream *s, FILE *f);
void pf_stream_free(struct pf_stream *s);
/*
 * The next packet: its bytes in *pkt (valid until the next call), *len,
 * the byte offset of its record (its tag) in *at. 1, 0 at the end of the
 * file, TRACE_FILE_BAD with *at the offending byte and @err saying what
 * was expected there (a record that is no packet, a varint over 10
 * bytes, a length over PF_PACKET_MAX, the file ending inside a record),
 * TRACE_FILE_IO for a read error.
 */
int pf_stream_next(struct pf_stream *s, const uint8_t **pkt, size_t *len,
		   uint64_t *at, char *err, size_t errlen);

/*
 * The CPUs the file's ftrace bundles name, read ahead without decoding
 * anything (each packet's bundle's cpu field, the rest skipped): bit c
 * of @seen (PF_CPU_MAX + 1 bits) set for CPU c; the file rewound. A
 * malformed file stops the scan where it is (its reading reports it).
 */
void pf_scan_cpus(FILE *f, uint8_t *seen, unsigned int max_cpu);

/* A varint at [*p, end): true with *v and *p past it */
bool pf_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

/*
 * Walk @len bytes of a message of type @d (NULL: unknown, only the wire
 * format is checked), @base the file offset of its first byte: true if
 * every record is well formed and every known field has a wire type its
 * type allows; else false with *at the byte and @err what was expected.
 */
bool pf_check(const ProtobufCMessageDescriptor *d, const uint8_t *p,
	      size_t len, uint64_t base, uint64_t *at, char *err,
	      size_t errlen);

#endif
