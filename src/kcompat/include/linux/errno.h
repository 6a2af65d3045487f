/*
 * User-space <linux/errno.h>. libc's <errno.h> itself includes
 * <linux/errno.h>, which this file shadows, so take the numbers from the
 * uapi header both of them end up in.
 */
#ifndef KCOMPAT_LINUX_ERRNO_H
#define KCOMPAT_LINUX_ERRNO_H

#include <asm/errno.h>

#endif
