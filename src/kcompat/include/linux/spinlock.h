/*
 * User-space <linux/spinlock.h>: capsim is single-threaded, so a lock only
 * records its owner; that is what lockdep_assert_held() checks.
 */
#ifndef KCOMPAT_LINUX_SPINLOCK_H
#define KCOMPAT_LINUX_SPINLOCK_H

#include <linux/bug.h>

typedef struct {
	const void *owner;
} raw_spinlock_t;

const void *kcompat_current(void);

#define raw_spin_lock_init(l) ((l)->owner = NULL)
#define raw_spin_lock(l) do { \
	WARN((l)->owner, "recursive raw_spin_lock\n"); \
	(l)->owner = kcompat_current(); \
	} while (0)
#define raw_spin_unlock(l) do { \
	WARN((l)->owner != kcompat_current(), "unlock of a lock not held\n"); \
	(l)->owner = NULL; \
	} while (0)

#endif
