/*
 * User-space <linux/bitops.h>: bitmap sizing, the non-atomic bit setters
 * (the core changes its bitmaps under a lock, as the kernel's __set_bit()
 * callers do) and __fls(), undefined for 0 as in the kernel.
 */
#ifndef KCOMPAT_LINUX_BITOPS_H
#define KCOMPAT_LINUX_BITOPS_H

#include <linux/bits.h>

#define BITS_PER_TYPE(type) (8 * sizeof(type))
#define BITS_TO_LONGS(nr) \
	(((nr) + BITS_PER_TYPE(long) - 1) / BITS_PER_TYPE(long))

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* The index of the most significant set bit of @word, which is not 0 */
static inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(word);
}

#endif
