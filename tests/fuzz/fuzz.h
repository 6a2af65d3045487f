/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the fuzz harnesses (tests/fuzz/fuzz_*.c): each defines
 * LLVMFuzzerTestOneInput() over the real parser and library code; linked
 * with libFuzzer (clang, -Dfuzzing=true) it is a fuzzer, linked with
 * replay.c (gcc, every build) it replays the saved inputs.
 */
#ifndef CAPSIM_FUZZ_H
#define CAPSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/bug.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A kcompat WARN is a broken invariant of the core or its host: a crash
 * for the fuzzer, not a message to go unnoticed among the executions. */
static inline void fuzz_fail_on_warn(void)
{
	if (kcompat_warn_count) {
		fprintf(stderr, "fuzz: %lu kcompat WARN(s): counted as a crash\n",
			kcompat_warn_count);
		abort();
	}
}

/* @data as a NUL-terminated string (caller frees) */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);

	if (!t)
		abort();
	for (size_t i = 0; i < size; i++)
		t[i] = (char)data[i];
	t[size] = '\0';
	return t;
}

#endif
