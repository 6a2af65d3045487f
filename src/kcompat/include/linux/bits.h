/* User-space <linux/bits.h>: which word of a bitmap holds a bit, and where. */
#ifndef KCOMPAT_LINUX_BITS_H
#define KCOMPAT_LINUX_BITS_H

#define BITS_PER_LONG (8 * (int)sizeof(long))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)

#endif
