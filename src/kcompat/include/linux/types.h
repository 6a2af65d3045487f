/* User-space <linux/types.h>: the fixed-width kernel types. */
#ifndef KCOMPAT_LINUX_TYPES_H
#define KCOMPAT_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/*
 * This file shadows the uapi <linux/types.h> that libc headers include
 * (<sys/stat.h> -> <linux/stat.h>), so it also carries the __uN/__sN names
 * they expect, as the kernel's tools/include does.
 */
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int8_t __s8;
typedef int16_t __s16;
typedef int32_t __s32;
typedef int64_t __s64;

#endif
