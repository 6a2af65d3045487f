/* User-space <linux/array_size.h>. */
#ifndef KCOMPAT_LINUX_ARRAY_SIZE_H
#define KCOMPAT_LINUX_ARRAY_SIZE_H

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif

#endif
