// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docpath.h"
#include "util.h"

static void add_seg(struct dpath *p, char *key, size_t idx)
{
	p->seg = xrealloc(p->seg, (size_t)(p->n + 1) * sizeof(*p->seg));
	p->seg[p->n].key = key;
	p->seg[p->n].idx = idx;
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
			add_seg(p, sb.buf ? sb.buf : xstrdup(""), 0);
			c += 2;
		} else if (*c == '[') {
			char *end;
			unsigned long long v = strtoull(c + 1, &end, 10);

			if (end == c + 1 || *end != ']') {
				snprintf(err, errlen, "expected [INDEX] or [\"key\"] at \"%s\" in %s",
					 c, s);
				goto bad;
			}
			add_seg(p, NULL, (size_t)v);
			c = end + 1;
		} else {
			size_t len = strcspn(c, ".[");

			if (!len) {
				snprintf(err, errlen, "empty key at \"%s\" in %s", c, s);
				goto bad;
			}
			add_seg(p, strndup(c, len), 0);
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
	return json_is_array(cur) ? json_array_get(cur, s->idx) : NULL;
}

static json_t *parent_of(json_t *root, const struct dpath *p, char *err,
			 size_t errlen)
{
	json_t *cur = root;
	int i;

	for (i = 0; i < p->n - 1; i++) {
		json_t *next = step(cur, &p->seg[i]);

		if (!next) {
			snprintf(err, errlen, "%s: no %s%s%s in the document",
				 p->text, p->seg[i].key ? "member \"" : "element ",
				 p->seg[i].key ? p->seg[i].key : "",
				 p->seg[i].key ? "\"" : "at that index");
			return NULL;
		}
		cur = next;
	}
	return cur;
}

json_t *dpath_get(json_t *root, const struct dpath *p)
{
	json_t *cur = root;
	int i;

	for (i = 0; i < p->n && cur; i++)
		cur = step(cur, &p->seg[i]);
	return cur;
}

int dpath_set(json_t *root, const struct dpath *p, json_t *v, char *err,
	      size_t errlen)
{
	const struct dpath_seg *last = &p->seg[p->n - 1];
	json_t *par = parent_of(root, p, err, errlen);

	if (!par) {
		json_decref(v);
		return -1;
	}
	if (last->key) {
		if (!json_is_object(par)) {
			snprintf(err, errlen, "%s: the parent is not an object",
				 p->text);
			json_decref(v);
			return -1;
		}
		return json_object_set_new(par, last->key, v) ? -1 : 0;
	}
	if (!json_is_array(par) || last->idx >= json_array_size(par)) {
		snprintf(err, errlen, "%s: no element %zu", p->text, last->idx);
		json_decref(v);
		return -1;
	}
	return json_array_set_new(par, last->idx, v) ? -1 : 0;
}

int dpath_drop(json_t *root, const struct dpath *p, char *err, size_t errlen)
{
	const struct dpath_seg *last = &p->seg[p->n - 1];
	json_t *par = parent_of(root, p, err, errlen);

	if (!par)
		return -1;
	if (last->key ? json_object_del(par, last->key) :
	    json_array_remove(par, last->idx)) {
		snprintf(err, errlen, "%s: nothing there to drop", p->text);
		return -1;
	}
	return 0;
}
