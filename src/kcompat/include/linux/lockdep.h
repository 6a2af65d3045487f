/*
 * User-space <linux/lockdep.h>. With CONFIG_LOCKDEP (the default build) an
 * assertion checks that the calling thread owns the lock and WARNs if not.
 */
#ifndef KCOMPAT_LINUX_LOCKDEP_H
#define KCOMPAT_LINUX_LOCKDEP_H

#include <linux/bug.h>
#include <linux/spinlock.h>

#ifdef CONFIG_LOCKDEP
#define lockdep_assert_held(l) \
	WARN((l)->owner != kcompat_current(), "lock %s not held\n", #l)
#else
#define lockdep_assert_held(l) ((void)(l))
#endif

#endif
