/*
 * User-space <linux/bug.h>. As in the kernel (and tools/include), WARN*()
 * are expressions that return the condition, so `if (WARN_ON(x)) return;`
 * behaves alike in both hosts. Every warning goes through kcompat_warn(),
 * which counts it so tests can assert that a misuse was (or was not) seen.
 */
#ifndef KCOMPAT_LINUX_BUG_H
#define KCOMPAT_LINUX_BUG_H

#include <stdbool.h>

extern unsigned long kcompat_warn_count;
extern bool kcompat_warn_quiet;
void kcompat_warn(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void kcompat_bug(const char *file, int line) __attribute__((noreturn));

#define WARN(cond, ...) ({ \
	bool __c = !!(cond); \
	if (__builtin_expect(__c, 0)) \
		kcompat_warn(__FILE__, __LINE__, __VA_ARGS__); \
	__c; })
#define WARN_ON(cond) WARN(cond, "WARN_ON(%s)\n", #cond)
#define WARN_ONCE(cond, ...) ({ \
	static bool __warned; \
	bool __c = !!(cond); \
	if (__builtin_expect(__c && !__warned, 0)) { \
		__warned = true; \
		kcompat_warn(__FILE__, __LINE__, __VA_ARGS__); \
	} \
	__c; })
#define WARN_ON_ONCE(cond) WARN_ONCE(cond, "WARN_ON_ONCE(%s)\n", #cond)
#define BUG_ON(cond) do { \
	if (__builtin_expect(!!(cond), 0)) \
		kcompat_bug(__FILE__, __LINE__); \
	} while (0)

#endif
