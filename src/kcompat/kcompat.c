/*
 * Run-time side of the kcompat shims: the warning hook that WARN*() report
 * to, and the identity lockdep compares lock owners with.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/bug.h>
#include <linux/spinlock.h>

unsigned long kcompat_warn_count;
bool kcompat_warn_quiet;

void kcompat_warn(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	kcompat_warn_count++;
	if (kcompat_warn_quiet)
		return;
	fprintf(stderr, "WARNING: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void kcompat_bug(const char *file, int line)
{
	fprintf(stderr, "BUG: %s:%d\n", file, line);
	abort();
}

/* Each thread's identity is the address of its own thread-local byte. */
const void *kcompat_current(void)
{
	static _Thread_local char self;

	return &self;
}
