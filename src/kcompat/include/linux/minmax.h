/*
 * User-space <linux/minmax.h>: the same names, evaluating each argument
 * once. The kernel's compile-time type checks are left to the kernel build,
 * which compiles the same core files.
 */
#ifndef KCOMPAT_LINUX_MINMAX_H
#define KCOMPAT_LINUX_MINMAX_H

#ifndef min
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a > _b ? _a : _b; })
#endif
#ifndef min_t
#define min_t(type, a, b) ({ type _a = (a); type _b = (b); \
			     _a < _b ? _a : _b; })
#define max_t(type, a, b) ({ type _a = (a); type _b = (b); \
			     _a > _b ? _a : _b; })
#endif
#ifndef clamp
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(type, v, lo, hi) min_t(type, max_t(type, v, lo), hi)
#endif

#endif
