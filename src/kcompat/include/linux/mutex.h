/* User-space <linux/mutex.h>: an owner-recording lock, as spinlock.h. */
#ifndef KCOMPAT_LINUX_MUTEX_H
#define KCOMPAT_LINUX_MUTEX_H

#include <linux/spinlock.h>

struct mutex {
	const void *owner;
};

#define mutex_init(m) ((m)->owner = NULL)
#define mutex_lock(m) raw_spin_lock(m)
#define mutex_unlock(m) raw_spin_unlock(m)

#endif
