/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSIM_IMPORT_ERE_H
#define CAPSIM_IMPORT_ERE_H

#include <regex.h>
#include <stddef.h>

/*
 * @pattern (--tasks) compiled into @re as a POSIX ERE without
 * back-references (import_ere.c): 0, or -1 with why in @err (nothing to
 * free then)
 */
int import_ere_compile(regex_t *re, const char *pattern, char *err,
		       size_t errlen);

#endif
