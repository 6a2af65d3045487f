// SPDX-License-Identifier: GPL-2.0
/*
 * The op log replayed through the core, as capsim-replay does: the first
 * byte picks the CPU count, the rest is the log. Parse errors and
 * inconsistent operations end the replay (as they do in the tool); a
 * kcompat WARN anywhere is a crash.
 */
#include <string.h>

#include "fuzz.h"
#include "oplog_apply.h"

/* enough to reach deep group trees, little enough to stay fast */
#define MAX_OPS 20000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	const uint8_t *p, *end = data + size;
	struct clamp_host h;
	int nops = 0;

	if (!size)
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (clamp_host_init(&h, 1 + data[0] % 8))
		abort();
	for (p = data + 1; p < end && nops < MAX_OPS; nops++) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		char *line;
		const char *err;
		struct op op;
		int col, bad;

		/* capsim-replay stops at a line with a NUL byte */
		if (memchr(p, '\0', len))
			break;
		line = fuzz_text(p, len);
		bad = oplog_parse(line, &op, &err, &col) ||
		      oplog_apply(&h, &op, sink, &err);
		free(line);
		if (bad)
			break;
		fuzz_fail_on_warn();
		p += len + 1;
	}
	clamp_host_destroy(&h);
	fuzz_fail_on_warn();
	return 0;
}
