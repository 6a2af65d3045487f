/*
 * User-space <linux/container_of.h>. Like the kernel's, it refuses (at
 * compile time) a pointer whose type is not the member's.
 */
#ifndef KCOMPAT_LINUX_CONTAINER_OF_H
#define KCOMPAT_LINUX_CONTAINER_OF_H

#include <stddef.h>

#ifndef container_of
#define container_of(ptr, type, member) ({ \
	_Static_assert(__builtin_types_compatible_p(__typeof__(*(ptr)), \
				__typeof__(((type *)0)->member)) || \
		       __builtin_types_compatible_p(__typeof__(*(ptr)), void), \
		       "pointer type mismatch in container_of()"); \
	((type *)(void *)((char *)(ptr) - offsetof(type, member))); })
#endif

#endif
