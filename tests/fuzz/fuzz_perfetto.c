// SPDX-License-Identifier: GPL-2.0
/*
 * The trace reader's Perfetto face (src/trace/perfetto_reader.c and its
 * wire, names and merge files) on arbitrary files that begin as a
 * Perfetto trace (a TracePacket's tag, 0x0a): the packets framed,
 * decoded by protobuf-c (capsim's generated code for its subset of the
 * schema), the bundles' full and compact events turned into normalized
 * events, the CPUs merged back into time order. Every event it hands out
 * must hold what its header promises (CPU, pid, time order, names,
 * fields), a bad file must end as bad input or an I/O error, and memory
 * stays bounded (libFuzzer's -rss_limit_mb).
 */
#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a TracePacket's tag: the text faces are fuzz-trace_reader's */
	if (size < 1 || data[0] != 0x0a)
		return 0;
	fuzz_read_trace(data, size, false, false);
	return 0;
}
