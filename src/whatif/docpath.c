// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docpath.h"
#include "util.h"

static void add_seg(struct dpath *p, char *key, size_t idx, bool all)
{
	p->seg = xrealloc(p->seg, (size_t)(p->n + 1) * sizeof(*p->seg));
	p->seg[p->n].key = key;
	p->seg[p->n].idx = idx;
	p->seg[p->n].all = all;
	p->n++;
}

int dpath_parse(const char *s, struct dpath *p, char *err, size_t errlen)
{
	const char *c = s;

	memset(p, 0, sizeof(*p));
	p->text = xstrdup(s);
	if (!strncmp(c, "platform.", 9)) {
		p->platform = true;
		c += 9;
	}
	while (*c) {
		if (*c == '[' && c[1] == '"') {
			struct strbuf sb;

			sb_init(&sb);
			for (c += 2; *c && *c != '"'; c++) {
				if (*c == '\\' && c[1])
					c++;
				sb_putc(&sb, *c);
			}
			if (c[0] != '"' || c[1] != ']') {
				sb_free(&sb);
				snprintf(err, errlen, "unterminated [\"key\"] in %s", s);
				goto bad;
			}
			add_seg(p, sb.buf ? sb.buf : xstrdup(""), 0, false);
			c += 2;
		} else if (c[0] == '[' && c[1] == '*' && c[2] == ']') {
			add_seg(p, NULL, 0, true);
			c += 3;
		} else if (*c == '[') {
			char *end;
			unsigned long long v = strtoull(c + 1, &end, 10);

			if (end == c + 1 || *end != ']') {
				snprintf(err, errlen, "expected [INDEX], [*] or [\"key\"] at \"%s\" in %s",
					 c, s);
				goto bad;
			}
			add_seg(p, NULL, (size_t)v, false);
			c = end + 1;
		} else {
			size_t len = strcspn(c, ".[");

			if (!len) {
				snprintf(err, errlen, "empty key at \"%s\" in %s", c, s);
				goto bad;
			}
			add_seg(p, strndup(c, len), 0, false);
			c += len;
		}
		if (*c == '.') {
			c++;
			if (!*c) {
				snprintf(err, errlen, "%s ends with a dot", s);
				goto bad;
			}
		} else if (*c && *c != '[') {
			snprintf(err, errlen, "unexpected \"%s\" in %s", c, s);
			goto bad;
		}
	}
	if (!p->n) {
		snprintf(err, errlen, "empty path");
		goto bad;
	}
	return 0;
bad:
	dpath_free(p);
	return -1;
}

void dpath_free(struct dpath *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		free(p->seg[i].key);
	free(p->seg);
	free(p->text);
	memset(p, 0, sizeof(*p));
}

static json_t *step(json_t *cur, const struct dpath_seg *s)
{
	if (s->key)
		return json_is_object(cur) ? json_object_get(cur, s->key) : NULL;
	if (s->all)
		return json_is_array(cur) ? json_array_get(cur, 0) : NULL;
	return json_is_array(cur) ? json_array_get(cur, s->idx) : NULL;
}

/* What a set or a drop does at the last segment, under parent @par */
typedef int (*leaf_fn)(json_t *par, const struct dpath *p, json_t *v,
		       char *err, size_t errlen);

/* A [*] at @cur that matches nothing is an error, not a silent no-op */
static int no_elements(json_t *cur, const struct dpath *p, char *err,
		       size_t errlen)
{
	if (json_is_array(cur) && json_array_size(cur))
		return 0;
	snprintf(err, errlen, "%s: [*] matches no element (%s)", p->text,
		 json_is_array(cur) ? "the array is empty" : "no array there");
	return -1;
}

/* @fn at the parent of @p's last segment, from segment @i down from
 * @cur, once under each element a [*] reaches; 0 or -1 (@err) */
static int walk(json_t *cur, const struct dpath *p, int i, leaf_fn fn,
		json_t *v, char *err, size_t errlen)
{
	for (; i < p->n - 1; i++) {
		const struct dpath_seg *s = &p->seg[i];
		json_t *next;
		size_t k;

		if (s->all) {
			if (no_elements(cur, p, err, errlen))
				return -1;
			for (k = 0; k < json_array_size(cur); k++)
				if (walk(json_array_get(cur, k), p, i + 1, fn, v,
					 err, errlen))
					return -1;
			return 0;
		}
		next = step(cur, s);
		if (!next) {
			snprintf(err, errlen, "%s: no %s%s%s in the document",
				 p->text, s->key ? "member \"" : "element ",
				 s->key ? s->key : "",
				 s->key ? "\"" : "at that index");
			return -1;
		}
		cur = next;
	}
	return fn(cur, p, v, err, errlen);
}

json_t *dpath_get(json_t *root, const struct dpath *p)
{
	json_t *cur = root;
	int i;

	for (i = 0; i < p->n && cur; i++)
		cur = step(cur, &p->seg[i]);
	return cur;
}

static int set_leaf(json_t *par, const struct dpath *p, json_t *v,
		    char *err, size_t errlen)
{
	const struct dpath_seg *last = &p->seg[p->n - 1];
	size_t k;

	if (last->key) {
		if (!json_is_object(par)) {
			snprintf(err, errlen, "%s: the parent is not an object",
				 p->text);
			return -1;
		}
		return json_object_set_new(par, last->key, json_deep_copy(v)) ?
		       -1 : 0;
	}
	if (last->all) {
		if (no_elements(par, p, err, errlen))
			return -1;
		for (k = 0; k < json_array_size(par); k++)
			if (json_array_set_new(par, k, json_deep_copy(v)))
				return -1;
		return 0;
	}
	if (!json_is_array(par) || last->idx >= json_array_size(par)) {
		snprintf(err, errlen, "%s: no element %zu", p->text, last->idx);
		return -1;
	}
	return json_array_set_new(par, last->idx, json_deep_copy(v)) ? -1 : 0;
}

int dpath_set(json_t *root, const struct dpath *p, json_t *v, char *err,
	      size_t errlen)
{
	int ret = walk(root, p, 0, set_leaf, v, err, errlen);

	json_decref(v);
	return ret;
}

static int drop_leaf(json_t *par, const struct dpath *p, json_t *v,
		     char *err, size_t errlen)
{
	const struct dpath_seg *last = &p->seg[p->n - 1];

	(void)v;
	if (last->key ? json_object_del(par, last->key) :
	    json_array_remove(par, last->idx)) {
		snprintf(err, errlen, "%s: nothing there to drop", p->text);
		return -1;
	}
	return 0;
}

int dpath_drop(json_t *root, const struct dpath *p, char *err, size_t errlen)
{
	if (p->seg[p->n - 1].all) {
		snprintf(err, errlen, "%s: a drop ends with a member or an index, not [*] (--set PATH=[] empties an array)",
			 p->text);
		return -1;
	}
	return walk(root, p, 0, drop_leaf, NULL, err, errlen);
}
