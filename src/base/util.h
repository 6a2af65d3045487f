/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The base every layer above the clamp core builds on (inputs, trace
 * analysis, model, what-if, xcheck, CLI, the in-guest runner): allocation
 * that aborts on failure, a growable string, a growable array of u64
 * samples, and the time units (the engine clock is in nanoseconds).
 */
#ifndef CAPSIM_UTIL_H
#define CAPSIM_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Out of memory: a message and abort() (what the x* allocators do) */
void xoom(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A message into @err (of @errlen bytes); returns -1, for `return err_fail(...)` */
int err_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

void sb_init(struct strbuf *sb);
void sb_free(struct strbuf *sb);
void sb_putc(struct strbuf *sb, char c);
void sb_puts(struct strbuf *sb, const char *s);
/* @n bytes at @s (no NUL among them needed) */
void sb_putn(struct strbuf *sb, const char *s, size_t n);
void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);

/* A growable array of signed 64-bit samples (latencies, slack) */
struct samples {
	int64_t *v;
	size_t n;
	size_t cap;
	size_t sorted;		/* v[0..sorted) is in order: sort once */
};

void samples_add(struct samples *s, int64_t x);
void samples_free(struct samples *s);
/* Nearest-rank percentile (p in 0..100) of the samples; sorts in place */
int64_t samples_pct(struct samples *s, double p);
int64_t samples_max(const struct samples *s);

/* Read a whole file; NULL and errno set on failure */
char *read_file(const char *path, size_t *len);
/*
 * Read an input: a regular file of at most @max bytes, so that a device
 * (/dev/zero), a FIFO or a huge file is refused up front. NULL on failure,
 * with *why a message for the refusals, or NULL and errno set.
 */
char *read_input_file(const char *path, size_t max, size_t *len,
		      const char **why);

/* splitmix64: the deterministic PRNG behind --seed */
static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The mode open(2) would give a new file of @mode under the process's
 * umask: what a file made by mkstemp() (0600) is given before it is
 * renamed into place, so an output reads as any file the user makes
 */
mode_t umask_mode(mode_t mode);

/*
 * @path as a positional argument of a child capsim (caller frees): a
 * relative path that starts with '-' gets "./" before it, so the child's
 * option parser does not take it for an option
 */
char *child_path_arg(const char *path);

#endif
