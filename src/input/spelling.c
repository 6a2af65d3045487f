// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "spelling.h"
#include "util.h"

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

int spelling_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), i, j;
	/* three rows of the dynamic programme: a transposition looks two
	 * rows back */
	int *prev2 = xcalloc(m + 1, sizeof(int));
	int *prev = xcalloc(m + 1, sizeof(int));
	int *cur = xcalloc(m + 1, sizeof(int));
	int d;

	for (j = 0; j <= m; j++)
		prev[j] = (int)j;
	for (i = 1; i <= n; i++) {
		int *t;

		cur[0] = (int)i;
		for (j = 1; j <= m; j++) {
			int cost = a[i - 1] != b[j - 1];

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[m];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

const char *spelling_suggest(const char *word, const char *const *known)
{
	const char *best = NULL;
	int best_d = 3;

	for (; *known; known++) {
		int d = spelling_distance(word, *known);

		if (d >= 1 && d < best_d) {
			best = *known;
			best_d = d;
		}
	}
	return best;
}

char *spelling_hint(const char *word, const char *const *known,
		    bool list_all)
{
	const char *near = spelling_suggest(word, known);
	struct strbuf sb;

	sb_init(&sb);
	if (near) {
		sb_printf(&sb, ": did you mean \"%s\"?", near);
	} else if (list_all) {
		sb_puts(&sb, ": allowed ");
		for (; *known; known++)
			sb_printf(&sb, "%s%s", *known, known[1] ? ", " : "");
	}
	return sb.buf ? sb.buf : xstrdup("");
}
