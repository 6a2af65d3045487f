/* User-space <linux/container_of.h>. */
#ifndef KCOMPAT_LINUX_CONTAINER_OF_H
#define KCOMPAT_LINUX_CONTAINER_OF_H

#include <stddef.h>

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

#endif
