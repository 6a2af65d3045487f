// SPDX-License-Identifier: GPL-2.0
/*
 * --tasks REGEX of import and import-check, a POSIX extended regular
 * expression compiled by the C library, refused when it holds a
 * back-reference (\1 .. \9, which glibc takes in an ERE as an
 * extension): matching one backtracks, exponentially in the text
 * ('^(a*)*\1b$' on a 20 kB comm ran past 30 s at 1.3 GB), where
 * without them glibc's matcher is bounded by the text times the pattern.
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "import_ere.h"

/* The end of the bracket expression opened at @s ('['), or NULL when it
 * is not closed: ']' first (after '^') is a member, and "[:", "[." and
 * "[=" open classes that end at ":]", ".]", "=]" */
static const char *bracket_end(const char *s)
{
	s++;
	if (*s == '^')
		s++;
	if (*s == ']')
		s++;
	for (; *s && *s != ']'; s++) {
		if (*s == '[' && (s[1] == ':' || s[1] == '.' || s[1] == '=')) {
			char close = s[1];

			for (s += 2; *s && !(*s == close && s[1] == ']'); s++)
				;
			if (!*s)
				return NULL;
			s++;
		}
	}
	return *s ? s : NULL;
}

int import_ere_compile(regex_t *re, const char *pattern, char *err,
		       size_t errlen)
{
	const char *s;
	int r;

	for (s = pattern; *s; s++) {
		if (*s == '[') {
			const char *e = bracket_end(s);

			if (!e)
				break;	/* regcomp() says what is wrong */
			s = e;
		} else if (*s == '\\' && s[1]) {
			if (s[1] >= '1' && s[1] <= '9') {
				snprintf(err, errlen, "back-reference \\%c at offset %d: not taken (matching one backtracks exponentially); a POSIX extended regular expression has none",
					 s[1], (int)(s - pattern));
				return -1;
			}
			s++;
		}
	}
	r = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
	if (r) {
		regerror(r, re, err, errlen);
		return -1;
	}
	return 0;
}
