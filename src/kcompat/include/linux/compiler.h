/*
 * User-space <linux/compiler.h>: READ_ONCE/WRITE_ONCE as volatile accesses,
 * which is what they are in the kernel for word-sized scalars.
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

#endif
