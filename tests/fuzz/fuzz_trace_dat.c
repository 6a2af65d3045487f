// SPDX-License-Identifier: GPL-2.0
/*
 * The trace reader's trace.dat face (src/trace/trace_reader_dat.c) on
 * arbitrary files that begin as a trace.dat: libtracecmd parses the file
 * in the reader's child process, capsim's part is what it does with what
 * libtracecmd gives (the events' formats looked up, their fields turned
 * into the events every consumer reads, the frames down the pipe, the
 * CPU and pid bounds, the time order) and, when a library dies of the
 * file, the section named from capsim's own walk of it
 * (tracedat_layout.c). Every event it hands out must hold what its
 * header promises, and a bad file must end as bad input: a crash in the
 * child is one (contained, exit 2), an I/O error is not (a memfd does not
 * fail to read: the child ended some other way, an ASan report in its
 * code among them) and aborts. Without libtracecmd in the build the
 * reader refuses every trace.dat, which is checked the same way.
 *
 * The child's coverage counters are its own copy: it hands them to the
 * parent through shared memory as it ends (trace_dat_set_hooks()), and
 * the parent keeps the larger of each count, so that libFuzzer sees what
 * the child ran (not its comparisons: those go to the child's tables).
 */
#include <string.h>
#include <sys/mman.h>

#include "fuzz_trace.h"

/*
 * libtracecmd sizes some allocations from the file: a bad size asks
 * malloc() for exabytes, which a normal build's malloc() refuses with NULL
 * and libtracecmd then reports (capsim: "not a trace.dat libtracecmd can
 * read", exit 2). Under ASan that refusal is a report of its own, and
 * libFuzzer's malloc limit another: both are set to let it return NULL as
 * in production, so only what capsim or libtracecmd do after is judged;
 * and any request over 1 GB is refused at once (max_allocation_size_mb):
 * ASan otherwise maps and poisons the 13 GB an event format's size asks
 * for, 6 s an input, where a normal build's malloc() overcommits and the
 * read that follows fails in microseconds.
 * Leaks are not judged here: libtraceevent leaks bytes of an event format
 * it fails to parse (tep_parse_event(), found in the first minutes), which
 * is no capsim code; capsim's own trace.dat path is checked for leaks by
 * the ASan suites that read tests/fixtures/traces/capture.dat.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1:max_allocation_size_mb=1024";
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

/*
 * The inline 8-bit counters of -fsanitize-coverage: the bounds of their
 * section, which the linker defines (absent in a build without it, the
 * replay of every build: NULL). Read through the GOT by assembly, not
 * declared in C: a C declaration of those names makes the coverage pass
 * rename its own pair in this file, left undefined, and libFuzzer then
 * loads no counters at all (ft: 1). x86-64 only; elsewhere no sharing.
 */
#if defined(__x86_64__)
__asm__(".weak __start___sancov_cntrs\n.weak __stop___sancov_cntrs");

static void counter_bounds(uint8_t **start, uint8_t **stop)
{
	__asm__("movq __start___sancov_cntrs@GOTPCREL(%%rip), %0" : "=r"(*start));
	__asm__("movq __stop___sancov_cntrs@GOTPCREL(%%rip), %0" : "=r"(*stop));
}
#else
static void counter_bounds(uint8_t **start, uint8_t **stop)
{
	*start = *stop = NULL;
}
#endif

static uint8_t *cntrs_start;
static uint8_t *child_counts;
static size_t ncounts;

/* In the child as it ends, its crash handler too: a plain copy */
static void child_end(void)
{
	size_t i;

	for (i = 0; i < ncounts; i++)
		child_counts[i] = cntrs_start[i];
}

static void reaped(void)
{
	size_t i;

	for (i = 0; i < ncounts; i++) {
		if (child_counts[i] > cntrs_start[i])
			cntrs_start[i] = child_counts[i];
		child_counts[i] = 0;
	}
}

static void share_coverage(void)
{
	static const struct trace_dat_hooks hooks = {
		.child_end = child_end, .reaped = reaped,
	};
	static bool done;
	uint8_t *start, *stop;
	void *p;

	if (done)
		return;
	done = true;
	counter_bounds(&start, &stop);
	if (!start || stop <= start)
		return;
	cntrs_start = start;
	ncounts = (size_t)(stop - start);
	p = mmap(NULL, ncounts, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		abort();
	child_counts = p;
	trace_dat_set_hooks(&hooks);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* trace.dat's magic (\x17\x08\x44 "tracing"): the text faces are
	 * fuzz-trace_reader's */
	if (size < 3 || memcmp(data, "\x17\x08\x44", 3))
		return 0;
	share_coverage();
	if (fuzz_read_trace(data, size, false, false) == TRACE_FILE_IO)
		abort();
	return 0;
}
