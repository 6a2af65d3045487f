// SPDX-License-Identifier: GPL-2.0
/*
 * The trace reader's trace.dat face (src/trace/trace_reader_dat.c) on
 * arbitrary files that begin as a trace.dat: libtracecmd parses the file,
 * capsim's part is what it does with what libtracecmd gives (the events'
 * formats looked up, their fields turned into the events every consumer
 * reads, the CPU and pid bounds, the time order). Every event it hands
 * out must hold what its header promises, and a bad file must end as bad
 * input, not a crash. A crash inside libtracecmd itself is a finding too:
 * capsim hands it the user's file (docs/fuzzing.md says what was found).
 * Without libtracecmd in the build the reader refuses every trace.dat,
 * which is checked the same way.
 */
#include <string.h>

#include "fuzz_trace.h"

/*
 * libtracecmd sizes some allocations from the file: a bad size asks
 * malloc() for exabytes, which a normal build's malloc() refuses with NULL
 * and libtracecmd then reports (capsim: "not a trace.dat libtracecmd can
 * read", exit 2). Under ASan that refusal is a report of its own, and
 * libFuzzer's malloc limit another: both are set to let it return NULL as
 * in production, so only what capsim or libtracecmd do after is judged.
 * Leaks are not judged here: libtraceevent leaks bytes of an event format
 * it fails to parse (tep_parse_event(), found in the first minutes), which
 * is no capsim code; capsim's own trace.dat path is checked for leaks by
 * the ASan suites that read tests/fixtures/traces/capture.dat.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char *args[64];
	int i, n = *argc < 61 ? *argc : 61;

	for (i = 0; i < n; i++)
		args[i] = (*argv)[i];
	args[n++] = (char *)"-malloc_limit_mb=1000000000";
	args[n++] = (char *)"-detect_leaks=0";
	args[n] = NULL;
	*argc = n;
	*argv = args;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* trace.dat's magic (\x17\x08\x44 "tracing"): the text faces are
	 * fuzz-trace_reader's */
	if (size < 3 || memcmp(data, "\x17\x08\x44", 3))
		return 0;
	fuzz_read_trace(data, size, false, false);
	return 0;
}
