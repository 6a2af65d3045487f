/*
 * User-space <linux/compiler.h>: READ_ONCE/WRITE_ONCE as volatile accesses,
 * which is what they are in the kernel for word-sized scalars, and
 * __always_inline (glibc's <sys/cdefs.h> has the same definition) and
 * noinline, as the kernel spells them.
 */
#ifndef KCOMPAT_LINUX_COMPILER_H
#define KCOMPAT_LINUX_COMPILER_H

#ifndef READ_ONCE
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, val) \
	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif

#endif
