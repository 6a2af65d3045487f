// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_inflate.h"
#include "perfetto_wire.h"
#include "trace_file.h"

void pf_stream_init(struct pf_stream *s, FILE *f)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
}

void pf_stream_free(struct pf_stream *s)
{
	free(s->buf);
	s->buf = NULL;
	s->cap = 0;
}

bool pf_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t r = 0;
	int i;

	for (i = 0; i < 10 && q < end; i++, q++) {
		r |= (uint64_t)(*q & 0x7f) << (7 * i);
		if (!(*q & 0x80)) {
			*v = r;
			*p = q + 1;
			return true;
		}
	}
	return false;
}

/* A varint from the file: 1, 0 at a clean end (none of it read), -1 cut
 * short or over 10 bytes (errno 0), -2 a read error */
static int file_varint(struct pf_stream *s, uint64_t *v, int *nbytes)
{
	uint64_t r = 0;
	int i, c;

	for (i = 0; i < 10; i++) {
		c = getc(s->f);
		if (c == EOF) {
			*nbytes = i;
			if (ferror(s->f))
				return -2;
			return i ? -1 : 0;
		}
		s->off++;
		r |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*v = r;
			*nbytes = i + 1;
			return 1;
		}
	}
	*nbytes = 10;
	return -1;
}

/* A varint from the file during the scan: true, or false at its end or
 * at one over 10 bytes */
static bool scan_varint(FILE *f, uint64_t *v, uint64_t *off)
{
	struct pf_stream s = { .f = f, .off = *off };
	int nb;
	bool ok = file_varint(&s, v, &nb) == 1;

	*off = s.off;
	return ok;
}

/* Skip @n bytes: read through (glibc's fseek() is a system call each
 * time, a bundle's skip is mostly within its buffer), a long way seeked */
static bool scan_seek(FILE *f, uint64_t n)
{
	char buf[4096];

	if (n > (1u << 20))
		return !fseeko(f, (off_t)n, SEEK_CUR);
	while (n) {
		size_t k = n < sizeof(buf) ? (size_t)n : sizeof(buf);

		if (fread(buf, 1, k, f) != k)
			return false;
		n -= k;
	}
	return true;
}

/* Skip the value of a record of wire type @wt ending no later than @end */
static bool scan_skip(FILE *f, unsigned int wt, uint64_t *off, uint64_t end)
{
	uint64_t v;

	switch (wt) {
	case 0:
		return scan_varint(f, &v, off);
	case 1:
	case 5:
		v = wt == 1 ? 8 : 4;
		break;
	case 2:
		if (!scan_varint(f, &v, off))
			return false;
		break;
	default:
		return false;
	}
	if (v > end - *off || !scan_seek(f, v))
		return false;
	*off += v;
	return true;
}

static void mark(uint8_t *seen, uint64_t cpu, unsigned int max_cpu)
{
	if (cpu <= max_cpu)
		seen[cpu / 8] |= (uint8_t)(1u << (cpu % 8));
}

/* The same in memory, over compressed packets once inflated */
static void scan_mem(const uint8_t *q, size_t n, uint8_t *seen,
		     unsigned int max_cpu)
{
	const uint8_t *end = q + n, *pe, *be;
	uint64_t tag, len, v;

	while (q < end && pf_varint(&q, end, &tag) && tag == 0x0a &&
	       pf_varint(&q, end, &len) && len <= (uint64_t)(end - q)) {
		pe = q + len;
		while (q < pe && pf_varint(&q, pe, &tag)) {
			if ((tag & 7) == 0) {
				if (!pf_varint(&q, pe, &v))
					break;
				continue;
			}
			if ((tag & 7) == 1 || (tag & 7) == 5) {
				if ((size_t)(pe - q) < ((tag & 7) == 1 ? 8u : 4u))
					break;
				q += (tag & 7) == 1 ? 8 : 4;
				continue;
			}
			if ((tag & 7) != 2 || !pf_varint(&q, pe, &len) ||
			    len > (uint64_t)(pe - q))
				break;
			be = q + len;
			if (tag == 0x0a)	/* a bundle: its cpu */
				while (q < be && pf_varint(&q, be, &tag)) {
					if (tag == 0x08) {
						if (pf_varint(&q, be, &v))
							mark(seen, v, max_cpu);
						break;
					}
					if ((tag & 7) != 2 || !pf_varint(&q, be, &len) ||
					    len > (uint64_t)(be - q))
						break;
					q += len;
				}
			q = be;
		}
		q = pe;
	}
}

/* A packet's compressed packets (field 50) of @len bytes, read and
 * scanned inflated */
static bool scan_compressed(FILE *f, uint64_t len, uint8_t *seen,
			    unsigned int max_cpu)
{
	struct pf_zbuf z = { 0 };
	uint8_t *buf;
	char err[160];
	bool ok;

	if (len > PF_INFLATED_MAX)
		return false;
	buf = malloc(len ? len : 1);
	if (!buf)
		abort();
	ok = fread(buf, 1, len, f) == len;
	if (ok && !pf_inflate(&z, buf, len, err, sizeof(err)))
		scan_mem(z.buf, z.len, seen, max_cpu);
	free(buf);
	pf_zbuf_free(&z);
	return ok;
}

void pf_scan_cpus(FILE *f, uint8_t *seen, unsigned int max_cpu)
{
	uint64_t off = 0, tag, len, v, end, bend;

	while (scan_varint(f, &tag, &off) && tag == 0x0a &&
	       scan_varint(f, &len, &off) && len <= PF_PACKET_MAX) {
		end = off + len;
		while (off < end && scan_varint(f, &tag, &off)) {
			if (tag == (50 << 3 | 2)) {	/* compressed_packets */
				if (!scan_varint(f, &len, &off) || len > end - off ||
				    !scan_compressed(f, len, seen, max_cpu))
					goto out;
				off += len;
				continue;
			}
			if (tag != 0x0a) {	/* not ftrace_events */
				if (!scan_skip(f, tag & 7, &off, end))
					goto out;
				continue;
			}
			if (!scan_varint(f, &len, &off) || len > end - off)
				goto out;
			bend = off + len;
			while (off < bend && scan_varint(f, &tag, &off)) {
				if (tag == 0x08) {
					if (!scan_varint(f, &v, &off))
						goto out;
					mark(seen, v, max_cpu);
					break;
				}
				if (!scan_skip(f, tag & 7, &off, bend))
					goto out;
			}
			if (off > end || !scan_seek(f, end - off))
				goto out;
			off = end;
		}
		if (off != end)
			break;
	}
out:
	rewind(f);
}

/* What a record of each wire type holds, for the messages */
static const char *const wire_names[8] = {
	"a varint", "a 64-bit value", "a length-delimited value",
	"a group's start", "a group's end", "a 32-bit value",
	"wire type 6 (none)", "wire type 7 (none)",
};

int pf_stream_next(struct pf_stream *s, const uint8_t **pkt, size_t *len,
		   uint64_t *at, char *err, size_t errlen)
{
	uint64_t tag, n;
	size_t got;
	int k, nb;

	*at = s->off;
	k = file_varint(s, &tag, &nb);
	if (k == 0)
		return 0;
	if (k == -2)
		goto io;
	if (k < 0) {
		snprintf(err, errlen, nb == 10 ?
			 "a packet's tag is a varint longer than 10 bytes" :
			 "the file ends inside a packet's tag (cut short?)");
		return TRACE_FILE_BAD;
	}
	if (tag != ((1u << 3) | 2)) {
		snprintf(err, errlen,
			 "expected a TracePacket (field 1, length-delimited: byte 0x0a), found field %llu, %s",
			 (unsigned long long)(tag >> 3), wire_names[tag & 7]);
		return TRACE_FILE_BAD;
	}
	*at = s->off;
	k = file_varint(s, &n, &nb);
	if (k == -2)
		goto io;
	if (k <= 0) {
		snprintf(err, errlen, nb == 10 ?
			 "a packet's length is a varint longer than 10 bytes" :
			 "the file ends inside a packet's length (cut short?)");
		return TRACE_FILE_BAD;
	}
	*at = s->off - (uint64_t)nb - 1;	/* the packet's tag */
	if (n > PF_PACKET_MAX) {
		snprintf(err, errlen,
			 "a packet of %llu bytes: capsim reads packets of at most %u MiB (traced writes them far smaller)",
			 (unsigned long long)n, PF_PACKET_MAX >> 20);
		return TRACE_FILE_BAD;
	}
	if (n > s->cap) {
		size_t cap = s->cap ? s->cap : 65536;

		while (cap < n)
			cap *= 2;
		free(s->buf);
		s->cap = 0;
		s->buf = malloc(cap);
		if (!s->buf) {
			snprintf(err, errlen, "a packet of %llu bytes: more memory than there is",
				 (unsigned long long)n);
			return TRACE_FILE_BAD;
		}
		s->cap = cap;
	}
	got = n ? fread(s->buf, 1, (size_t)n, s->f) : 0;
	s->off += got;
	if (got != n) {
		if (ferror(s->f))
			goto io;
		snprintf(err, errlen,
			 "a packet of %llu bytes, the file ends after %zu of them (cut short?)",
			 (unsigned long long)n, got);
		return TRACE_FILE_BAD;
	}
	s->packets++;
	*pkt = s->buf;
	*len = (size_t)n;
	return 1;
io:
	snprintf(err, errlen, "%s", strerror(errno ? errno : EIO));
	return TRACE_FILE_IO;
}

/* Whether wire type @wt may carry a field of @f's type */
static bool wire_fits(const ProtobufCFieldDescriptor *f, unsigned int wt)
{
	switch (f->type) {
	case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_BOOL: case PROTOBUF_C_TYPE_ENUM:
		/* a repeated scalar may come packed */
		return wt == 0 || (wt == 2 && f->label == PROTOBUF_C_LABEL_REPEATED);
	case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_DOUBLE:
		return wt == 1 || (wt == 2 && f->label == PROTOBUF_C_LABEL_REPEATED);
	case PROTOBUF_C_TYPE_FIXED32: case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_FLOAT:
		return wt == 5 || (wt == 2 && f->label == PROTOBUF_C_LABEL_REPEATED);
	default:	/* string, bytes, message */
		return wt == 2;
	}
}

static const char *type_wire(const ProtobufCFieldDescriptor *f)
{
	switch (f->type) {
	case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_DOUBLE:
		return wire_names[1];
	case PROTOBUF_C_TYPE_FIXED32: case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_FLOAT:
		return wire_names[5];
	case PROTOBUF_C_TYPE_STRING: case PROTOBUF_C_TYPE_BYTES:
		return "a length-delimited string";
	case PROTOBUF_C_TYPE_MESSAGE:
		return "a length-delimited message";
	default:
		return wire_names[0];
	}
}

struct walk {
	const uint8_t *start;
	uint64_t base;
	uint64_t *at;
	char *err;
	size_t errlen;
};

static bool fail4(struct walk *w, const uint8_t *p, const char *fmt,
		  const char *a, const char *b, const char *c, const char *d)
{
	*w->at = w->base + (uint64_t)(p - w->start);
	snprintf(w->err, w->errlen, fmt, a, b, c, d);
	return false;
}

static bool fail(struct walk *w, const uint8_t *p, const char *fmt,
		 const char *a, const char *b, const char *c)
{
	return fail4(w, p, fmt, a, b, c, "");
}

static bool walk(struct walk *w, const ProtobufCMessageDescriptor *d,
		 const uint8_t *p, const uint8_t *end, int depth)
{
	const char *mname = d ? d->short_name : "message";

	if (depth > PF_DEPTH_MAX)
		return fail(w, p, "messages nested over %s levels deep%s%s",
			    "32", "", "");
	while (p < end) {
		const ProtobufCFieldDescriptor *f = NULL;
		const uint8_t *rec = p, *q;
		uint64_t tag, v, field;
		unsigned int wt;
		char num[24];

		if (!pf_varint(&p, end, &tag))
			return fail(w, rec, end - rec >= 10 ?
				    "%s: a tag longer than 10 bytes%s%s" :
				    "%s: a tag cut off by its message's end%s%s",
				    mname, "", "");
		field = tag >> 3;
		wt = (unsigned int)(tag & 7);
		snprintf(num, sizeof(num), "%llu", (unsigned long long)field);
		if (field == 0 || field > 536870911u)
			return fail(w, rec, "%s: field number %s is none protobuf allows%s",
				    mname, num, "");
		if (d && field <= 0xffffffffu)
			f = protobuf_c_message_descriptor_get_field(d, (unsigned int)field);
		if (f && !wire_fits(f, wt))
			return fail4(w, rec, "%s.%s: expected %s, found %s",
				     mname, f->name, type_wire(f), wire_names[wt]);
		switch (wt) {
		case 0:
			q = p;
			if (!pf_varint(&p, end, &v))
				return fail(w, q, end - q >= 10 ?
					    "%s.%s: a varint longer than 10 bytes%s" :
					    "%s.%s: a varint cut off by its message's end%s",
					    mname, f ? f->name : num, "");
			break;
		case 1:
		case 5:
			if ((size_t)(end - p) < (wt == 1 ? 8u : 4u))
				return fail(w, rec, "%s.%s: %s cut off by its message's end",
					    mname, f ? f->name : num, wire_names[wt]);
			p += wt == 1 ? 8 : 4;
			break;
		case 2:
			q = p;
			if (!pf_varint(&p, end, &v))
				return fail(w, q, "%s.%s: a length %s",
					    mname, f ? f->name : num,
					    end - q >= 10 ? "longer than 10 bytes" :
					    "cut off by its message's end");
			if (v > (uint64_t)(end - p))
				return fail(w, q, "%s.%s: a length past the end of its message%s",
					    mname, f ? f->name : num, "");
			if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
			    !walk(w, f->descriptor, p, p + v, depth + 1))
				return false;
			if (f && f->label == PROTOBUF_C_LABEL_REPEATED &&
			    f->type != PROTOBUF_C_TYPE_MESSAGE &&
			    f->type != PROTOBUF_C_TYPE_STRING &&
			    f->type != PROTOBUF_C_TYPE_BYTES) {
				/* packed scalars: the whole length in values */
				const uint8_t *e = p + v, *r = p;
				const char *t = type_wire(f);

				if (t == wire_names[0]) {
					while (r < e)
						if (!pf_varint(&r, e, &tag))
							return fail(w, r, "%s.%s: a packed varint %s",
								    mname, f->name,
								    e - r >= 10 ? "longer than 10 bytes" :
								    "cut off by its length");
				} else if (v % (t == wire_names[1] ? 8 : 4)) {
					return fail(w, q, "%s.%s: a packed array of %s whose length is no multiple of their size",
						    mname, f->name, t == wire_names[1] ? "64-bit values" : "32-bit values");
				}
			}
			p += v;
			break;
		default:
			return fail(w, rec, wt == 3 || wt == 4 ?
				    "%s.%s: %s (protobuf's deprecated groups are not read)" :
				    "%s.%s: %s, which protobuf does not have",
				    mname, f ? f->name : num, wire_names[wt]);
		}
	}
	return true;
}

bool pf_check(const ProtobufCMessageDescriptor *d, const uint8_t *p,
	      size_t len, uint64_t base, uint64_t *at, char *err,
	      size_t errlen)
{
	struct walk w = { p, base, at, err, errlen };

	return walk(&w, d, p, p + len, 0);
}
