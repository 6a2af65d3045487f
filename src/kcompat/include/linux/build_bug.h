/* User-space <linux/build_bug.h>: static_assert() with an optional message. */
#ifndef KCOMPAT_LINUX_BUILD_BUG_H
#define KCOMPAT_LINUX_BUILD_BUG_H

#ifndef static_assert
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)
#endif

#endif
