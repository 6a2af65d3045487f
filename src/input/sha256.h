/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 (FIPS 180-4) of a buffer, as 64 lowercase hex digits + NUL. */
#ifndef CAPSIM_SHA256_H
#define CAPSIM_SHA256_H

#include <stddef.h>

void sha256_hex(const void *data, size_t len, char out[65]);

#endif
