/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Did you mean ...": the known key closest to a mistyped one. A key one
 * or two edits away (an insertion, a deletion, a substitution, or two
 * neighbours swapped, as "platfrom" for "platform") is almost always a
 * typo; farther than that, guessing misleads more than it helps.
 */
#ifndef CAPSIM_SPELLING_H
#define CAPSIM_SPELLING_H

#include <stdbool.h>

/* The closest of the NULL-terminated @known to @word at distance 1 or 2,
 * or NULL (ties: the first listed) */
const char *spelling_suggest(const char *word, const char *const *known);

/* ": did you mean "x"?" for @word, or without a close key ": allowed a,
 * b, c" (@list_all) or "" (caller frees) */
char *spelling_hint(const char *word, const char *const *known,
		    bool list_all);

/* Edit distance with adjacent transpositions (optimal string alignment) */
int spelling_distance(const char *a, const char *b);

#endif
