// SPDX-License-Identifier: GPL-2.0
/*
 * The trace reader (src/trace/trace_reader.c) on arbitrary text: format
 * detection, trace-cmd's header lines and plugin forms, systrace's TGID
 * column and HTML wrapper, markers, the time-order check. Every event it
 * hands out must hold what its header promises. Input that starts as a
 * trace.dat is left out: that face is libtracecmd's parser, not ours.
 */
#include <string.h>

#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 3 && !memcmp(data, "\x17\x08\x44", 3))
		return 0;
	fuzz_read_trace(data, size, size && (data[0] & 1), true);
	return 0;
}
