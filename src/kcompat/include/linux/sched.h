/* User-space <linux/sched.h>: only the capacity scale the core uses. */
#ifndef KCOMPAT_LINUX_SCHED_H
#define KCOMPAT_LINUX_SCHED_H

#ifndef SCHED_CAPACITY_SHIFT
#define SCHED_FIXEDPOINT_SHIFT 10
#define SCHED_CAPACITY_SHIFT SCHED_FIXEDPOINT_SHIFT
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)
#endif

#endif
