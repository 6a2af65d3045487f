/*
 * User-space <linux/bitmap.h>: find_last_bit(), which the kernel declares
 * in <linux/find.h> and lets only <linux/bitmap.h> include.
 */
#ifndef KCOMPAT_LINUX_BITMAP_H
#define KCOMPAT_LINUX_BITMAP_H

#include <linux/bitops.h>

/* The index of the last set bit among the first @size, or @size if none */
static inline unsigned long find_last_bit(const unsigned long *addr,
					  unsigned long size)
{
	unsigned long w = BITS_TO_LONGS(size);

	while (w--) {
		unsigned long word = addr[w];

		/* the bits past @size in the last word do not count */
		if (w == BIT_WORD(size - 1) && size % BITS_PER_LONG)
			word &= BIT_MASK(size) - 1;
		if (word)
			return w * BITS_PER_LONG + __fls(word);
	}
	return size;
}

#endif
