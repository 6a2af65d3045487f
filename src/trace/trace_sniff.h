/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a file capsim cannot read as a trace is, named from its first
 * bytes, so that a user handed "no [CPU] column" on line 32 of a binary
 * learns it is a JSON trace, a compressed file, perf's own format, `perf
 * script` text or some other binary, with the forms capsim does read.
 * The trace reader (trace_reader.c) asks before it reads a file as text.
 */
#ifndef CAPSIM_TRACE_SNIFF_H
#define CAPSIM_TRACE_SNIFF_H

#include <stdbool.h>
#include <stddef.h>

/* How many first bytes are looked at */
#define TRACE_SNIFF_BYTES 4096

/* The forms capsim reads, for the messages */
#define TRACE_FORMS_READ \
	"ftrace text (the kernel's trace, capsim's trace.txt), trace-cmd report (default, -N, -R), systrace text or HTML, trace.dat, Perfetto protobuf (.perfetto-trace, .pftrace)"

/* Whether @head (@n bytes) is binary: a NUL, or more than one byte in 16
 * a control character no text has */
bool trace_sniff_binary(const unsigned char *head, size_t n);

/*
 * Whether the file is a Perfetto protobuf trace: it begins as a
 * TracePacket (field 1, length-delimited: 0x0a) and is binary, or its
 * first packet's records are well formed (text's first bytes never are:
 * a trace's "\n# tracer" reads as a group), as far as @head holds them.
 * A binary file that begins so is read as Perfetto, to be told where it
 * is wrong.
 */
bool trace_sniff_perfetto(const unsigned char *head, size_t n);

/*
 * What the file whose first @n bytes are @head is when it is none of the
 * forms capsim reads (a phrase: "a JSON trace (...)"), or NULL when it
 * may be a text trace (then the text reader judges it line by line)
 */
const char *trace_sniff_other(const unsigned char *head, size_t n);

#endif
