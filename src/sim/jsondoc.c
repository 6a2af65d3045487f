// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "sha256.h"

/* Index just past the whitespace and comments starting at @i */
static size_t skip_blank(const char *t, size_t len, size_t i)
{
	for (;;) {
		while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' ||
				   t[i] == '\r'))
			i++;
		if (i + 1 < len && t[i] == '/' && t[i + 1] == '/') {
			while (i < len && t[i] != '\n')
				i++;
			continue;
		}
		if (i + 1 < len && t[i] == '/' && t[i + 1] == '*') {
			i += 2;
			while (i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'))
				i++;
			i = i + 2 <= len ? i + 2 : len;
			continue;
		}
		return i;
	}
}

int json_lenient_prepass(char *t, size_t len, int *line, int *col)
{
	int ln = 1, cl = 1, cln = 0, ccl = 0;
	bool in_str = false;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = t[i];

		if (in_str) {
			if (c == '\\' && i + 1 < len) {
				i++;
				cl += 2;
				continue;
			}
			if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == '/' && i + 1 < len &&
			   (t[i + 1] == '/' || t[i + 1] == '*')) {
			bool block = t[i + 1] == '*';

			cln = ln;
			ccl = cl;
			t[i] = t[i + 1] = ' ';
			i += 2;
			cl += 2;
			for (; i < len; i++, cl++) {
				if (!block && t[i] == '\n')
					break;
				if (block && t[i] == '*' && i + 1 < len &&
				    t[i + 1] == '/') {
					t[i] = t[i + 1] = ' ';
					i++;
					cl++;
					break;
				}
				if (t[i] == '\n') {
					ln++;
					cl = 0;
				} else {
					t[i] = ' ';
				}
			}
			if (block && i >= len) {
				*line = cln;
				*col = ccl;
				return -1;
			}
			if (i < len && t[i] == '\n') {
				ln++;
				cl = 1;
			} else {
				cl++;
			}
			continue;
		} else if (c == ',') {
			size_t j = skip_blank(t, len, i + 1);

			if (j < len && (t[j] == '}' || t[j] == ']'))
				t[i] = ' ';
		}
		if (c == '\n') {
			ln++;
			cl = 1;
		} else {
			cl++;
		}
	}
	return 0;
}

char *jptr_key(const char *parent, const char *key)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_puts(&sb, parent);
	sb_putc(&sb, '/');
	for (; *key; key++) {
		if (*key == '~')
			sb_puts(&sb, "~0");
		else if (*key == '/')
			sb_puts(&sb, "~1");
		else
			sb_putc(&sb, *key);
	}
	return sb.buf;
}

char *jptr_idx(const char *parent, size_t idx)
{
	return xasprintf("%s/%zu", parent, idx);
}

/* The indexing scan: the text is valid JSON at this point. */
struct scan {
	struct jdoc *doc;
	const char *t;
	size_t len;
	size_t i;
	int line;
	int col;
};

static void sc_adv(struct scan *s)
{
	if (s->t[s->i] == '\n') {
		s->line++;
		s->col = 1;
	} else if (((unsigned char)s->t[s->i] & 0xc0) != 0x80) {
		s->col++;
	}
	s->i++;
}

static void sc_ws(struct scan *s)
{
	while (s->i < s->len && (s->t[s->i] == ' ' || s->t[s->i] == '\t' ||
				 s->t[s->i] == '\n' || s->t[s->i] == '\r'))
		sc_adv(s);
}

static int sc_record(struct scan *s, int parent, char *key, size_t idx)
{
	struct jdoc *d = s->doc;
	struct jnode *n;

	if (d->nnode == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 64;
		d->node = xrealloc(d->node, (size_t)d->cap * sizeof(*d->node));
	}
	n = &d->node[d->nnode];
	n->parent = parent;
	n->line = s->line;
	n->col = s->col;
	n->key = key;
	n->idx = idx;
	n->next = -1;
	return d->nnode++;
}

static unsigned int hex4(const char *h)
{
	unsigned int v = 0;
	int k;

	for (k = 0; k < 4; k++) {
		char c = h[k];

		v = v * 16 + (unsigned int)(c <= '9' ? c - '0' :
					    (c | 0x20) - 'a' + 10);
	}
	return v;
}

static void put_utf8(struct strbuf *sb, unsigned int cp)
{
	if (cp < 0x80) {
		sb_putc(sb, (char)cp);
	} else if (cp < 0x800) {
		sb_putc(sb, (char)(0xc0 | cp >> 6));
		sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sb_putc(sb, (char)(0xe0 | cp >> 12));
		sb_putc(sb, (char)(0x80 | (cp >> 6 & 0x3f)));
		sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		sb_putc(sb, (char)(0xf0 | cp >> 18));
		sb_putc(sb, (char)(0x80 | (cp >> 12 & 0x3f)));
		sb_putc(sb, (char)(0x80 | (cp >> 6 & 0x3f)));
		sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

/* Decode a string token as jansson does, so that a member's name here is
 * the key the parser sees (jansson has validated the escapes). */
static char *sc_string(struct scan *s)
{
	struct strbuf sb;

	sb_init(&sb);
	sc_adv(s);	/* opening quote */
	while (s->i < s->len && s->t[s->i] != '"') {
		if (s->t[s->i] == '\\' && s->i + 1 < s->len) {
			char e = s->t[s->i + 1];

			sc_adv(s);
			sc_adv(s);
			if (e == 'u' && s->i + 4 <= s->len) {
				unsigned int cp = hex4(s->t + s->i);
				int k;

				for (k = 0; k < 4; k++)
					sc_adv(s);
				if (cp >= 0xd800 && cp < 0xdc00 &&
				    s->i + 6 <= s->len && s->t[s->i] == '\\' &&
				    s->t[s->i + 1] == 'u') {
					unsigned int lo = hex4(s->t + s->i + 2);

					cp = 0x10000 + ((cp - 0xd800) << 10) +
					     (lo - 0xdc00);
					for (k = 0; k < 6; k++)
						sc_adv(s);
				}
				put_utf8(&sb, cp);
				continue;
			}
			sb_putc(&sb, e == 'n' ? '\n' : e == 't' ? '\t' :
				e == 'r' ? '\r' : e == 'b' ? '\b' :
				e == 'f' ? '\f' : e);
			continue;
		}
		sb_putc(&sb, s->t[s->i]);
		sc_adv(s);
	}
	if (s->i < s->len)
		sc_adv(s);
	return sb.buf;
}

/* jansson limits the nesting (JSON_PARSER_MAX_DEPTH), so the recursion
 * here is bounded by the time it runs. */
static void sc_value(struct scan *s, int parent, char *key, size_t idx)
{
	int self;

	sc_ws(s);
	if (s->i >= s->len) {
		free(key);
		return;
	}
	self = sc_record(s, parent, key, idx);
	switch (s->t[s->i]) {
	case '{':
		sc_adv(s);
		for (;;) {
			char *k;

			sc_ws(s);
			if (s->i >= s->len || s->t[s->i] == '}')
				break;
			k = sc_string(s);
			sc_ws(s);
			if (s->i < s->len && s->t[s->i] == ':')
				sc_adv(s);
			sc_value(s, self, k, 0);
			sc_ws(s);
			if (s->i < s->len && s->t[s->i] == ',')
				sc_adv(s);
		}
		if (s->i < s->len)
			sc_adv(s);
		break;
	case '[': {
		size_t n = 0;

		sc_adv(s);
		for (;;) {
			sc_ws(s);
			if (s->i >= s->len || s->t[s->i] == ']')
				break;
			sc_value(s, self, NULL, n++);
			sc_ws(s);
			if (s->i < s->len && s->t[s->i] == ',')
				sc_adv(s);
		}
		if (s->i < s->len)
			sc_adv(s);
		break;
	}
	case '"':
		free(sc_string(s));
		break;
	default:
		while (s->i < s->len && !strchr(" \t\r\n,]}", s->t[s->i]))
			sc_adv(s);
		break;
	}
}

/* FNV-1a of the parent and the member name (an index as its digits) */
static size_t node_hash(int parent, const char *key, size_t keylen)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)(unsigned int)parent;
	size_t i;

	h *= 1099511628211ULL;
	for (i = 0; i < keylen; i++) {
		h ^= (unsigned char)key[i];
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

static size_t node_name(const struct jnode *n, char *digits, const char **key)
{
	if (n->key) {
		*key = n->key;
		return strlen(n->key);
	}
	*key = digits;
	return (size_t)sprintf(digits, "%zu", n->idx);
}

static void build_hash(struct jdoc *doc)
{
	size_t size = 16;
	int i;

	while (size < 2 * (size_t)doc->nnode)
		size *= 2;
	doc->hash_mask = size - 1;
	doc->hash = xmalloc(size * sizeof(*doc->hash));
	memset(doc->hash, 0xff, size * sizeof(*doc->hash));	/* all -1 */
	for (i = 1; i < doc->nnode; i++) {
		struct jnode *n = &doc->node[i];
		char digits[24];
		const char *key;
		size_t len = node_name(n, digits, &key);
		size_t b = node_hash(n->parent, key, len) & doc->hash_mask;

		n->next = doc->hash[b];
		doc->hash[b] = i;
	}
}

static int find_child(const struct jdoc *doc, int parent, const char *key,
		      size_t len)
{
	int i;

	if (!doc->hash)
		return -1;
	i = doc->hash[node_hash(parent, key, len) & doc->hash_mask];
	for (; i >= 0; i = doc->node[i].next) {
		const struct jnode *n = &doc->node[i];
		char digits[24];
		const char *nk;
		size_t nlen;

		if (n->parent != parent)
			continue;
		nlen = node_name(n, digits, &nk);
		if (nlen == len && !memcmp(nk, key, len))
			return i;
	}
	return -1;
}

/*
 * jansson quotes the token near an error: from a binary or foreign file
 * that is arbitrary bytes. Keep printable ASCII, show the rest as '?', and
 * cut the token short, so the message is one readable line.
 */
static void printable(char *text)
{
	char *near = strstr(text, "near '");
	char *c;

	for (c = text; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			*c = '?';
	if (near && strlen(near) > 40)
		strcpy(near + 36, "...'");
}

int jdoc_load_buffer(struct jdoc *doc, const char *name, const char *buf,
		     size_t len, struct diag *d)
{
	json_error_t err;
	struct scan s;
	int line, col;

	memset(doc, 0, sizeof(*doc));
	doc->file = xstrdup(name);
	doc->diag = d;
	doc->len = len;
	doc->text = xmalloc(len + 1);
	memcpy(doc->text, buf, len);
	doc->text[len] = '\0';
	sha256_hex(buf, len, doc->sha256);

	if (memchr(buf, '\0', len)) {
		diag_report(d, true, name, 0, 0, "not a text file (NUL byte)");
		return -1;
	}
	if (json_lenient_prepass(doc->text, len, &line, &col)) {
		diag_report(d, true, name, line, col,
			    "unterminated /* comment");
		return -1;
	}
	/* not even the start of an object: say so without quoting the file,
	 * which may be anything a path can name (capsim.platform) */
	s.doc = doc;
	s.t = doc->text;
	s.len = len;
	s.i = 0;
	s.line = 1;
	s.col = 1;
	sc_ws(&s);
	if (s.i == len) {
		diag_report(d, true, name, s.line, s.col,
			    "no JSON object (the file is empty or blank)");
		return -1;
	}
	if (doc->text[s.i] != '{') {
		diag_report(d, true, name, s.line, s.col,
			    "not a JSON object (the first character is not '{')");
		return -1;
	}
	doc->root = json_loadb(doc->text, len, JSON_REJECT_DUPLICATES, &err);
	if (!doc->root) {
		printable(err.text);
		diag_report(d, true, name, err.line, err.column, "%s%s",
			    err.text,
			    strstr(err.text, "duplicate") ?
			    " (number repeated event keys: run0, run1, ...)" :
			    "");
		return -1;
	}
	if (!json_is_object(doc->root)) {
		diag_report(d, true, name, 1, 1, "the top level must be an object");
		return -1;
	}
	s.i = 0;
	s.line = 1;
	s.col = 1;
	sc_value(&s, -1, NULL, 0);
	build_hash(doc);
	return 0;
}

int jdoc_load_file(struct jdoc *doc, const char *path, struct diag *d)
{
	const char *why;
	size_t len;
	char *buf = read_input_file(path, JDOC_MAX_BYTES, &len, &why);
	int ret;

	if (!buf) {
		memset(doc, 0, sizeof(*doc));
		if (why)
			diag_report(d, true, path, 0, 0, "cannot read: %s (allowed: a regular file of at most %u MiB)",
				    why, JDOC_MAX_BYTES >> 20);
		else
			diag_report(d, true, path, 0, 0, "cannot read: %s",
				    strerror(errno));
		return -1;
	}
	ret = jdoc_load_buffer(doc, path, buf, len, d);
	free(buf);
	return ret;
}

void jdoc_free(struct jdoc *doc)
{
	int i;

	for (i = 0; i < doc->nnode; i++)
		free(doc->node[i].key);
	free(doc->node);
	free(doc->hash);
	if (doc->root)
		json_decref(doc->root);
	free(doc->text);
	free(doc->file);
	memset(doc, 0, sizeof(*doc));
}

void jdoc_where(const struct jdoc *doc, const char *ptr, int *line, int *col)
{
	struct strbuf seg;
	int cur = 0;

	*line = 0;
	*col = 0;
	if (!doc->nnode)
		return;
	sb_init(&seg);
	/* follow the pointer down the tree as far as it is indexed */
	while (*ptr == '/') {
		int child;

		seg.len = 0;
		for (ptr++; *ptr && *ptr != '/'; ptr++) {
			/* RFC 6901 unescaping: ~1 is '/', ~0 is '~' */
			if (ptr[0] == '~' && (ptr[1] == '0' || ptr[1] == '1')) {
				sb_putc(&seg, ptr[1] == '1' ? '/' : '~');
				ptr++;
			} else {
				sb_putc(&seg, *ptr);
			}
		}
		child = find_child(doc, cur, seg.buf, seg.len);
		if (child < 0)
			break;
		cur = child;
	}
	sb_free(&seg);
	*line = doc->node[cur].line;
	*col = doc->node[cur].col;
}

static bool plain_key(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		      (*k >= '0' && *k <= '9') || *k == '_' || *k == '-'))
			return false;
	return true;
}

static bool all_digits(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (*k < '0' || *k > '9')
			return false;
	return true;
}

char *jdoc_path(const struct jdoc *doc, const char *ptr)
{
	json_t *cur = doc->root;
	struct strbuf sb;
	const char *s = ptr;

	sb_init(&sb);
	while (*s == '/') {
		const char *end = strchr(s + 1, '/');
		size_t n = end ? (size_t)(end - s - 1) : strlen(s + 1);
		char *seg = xcalloc(n + 1, 1), *o = seg;
		size_t i;

		/* RFC 6901 unescaping: ~1 is '/', ~0 is '~' */
		for (i = 0; i < n; i++) {
			if (s[1 + i] == '~' && i + 1 < n &&
			    (s[2 + i] == '0' || s[2 + i] == '1')) {
				*o++ = s[2 + i] == '1' ? '/' : '~';
				i++;
			} else {
				*o++ = s[1 + i];
			}
		}
		if (json_is_array(cur) && all_digits(seg)) {
			sb_printf(&sb, "[%s]", seg);
			cur = json_array_get(cur, strtoul(seg, NULL, 10));
		} else {
			if (plain_key(seg)) {
				sb_printf(&sb, "%s%s", sb.len ? "." : "", seg);
			} else {
				sb_printf(&sb, "[\"");
				for (o = seg; *o; o++)
					sb_printf(&sb, "%s%c",
						  *o == '"' || *o == '\\' ?
						  "\\" : "", *o);
				sb_printf(&sb, "\"]");
			}
			cur = json_is_object(cur) ? json_object_get(cur, seg) :
			      NULL;
		}
		free(seg);
		s += 1 + n;
	}
	return sb.buf ? sb.buf : xstrdup("");
}

static void jdoc_vreport(struct jdoc *doc, bool error, const char *ptr,
			 const char *fmt, va_list ap)
{
	struct strbuf sb;
	int line, col;
	char *path;

	if (!diag_shows_more(doc->diag)) {
		diag_count_hidden(doc->diag, error);
		return;
	}
	jdoc_where(doc, ptr, &line, &col);
	sb_init(&sb);
	path = jdoc_path(doc, ptr);
	if (*path)
		sb_printf(&sb, "%s: ", path);
	free(path);
	sb_vprintf(&sb, fmt, ap);
	diag_report(doc->diag, error, doc->file, line, col, "%s", sb.buf);
	sb_free(&sb);
}

void jdoc_error(struct jdoc *doc, const char *ptr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	jdoc_vreport(doc, true, ptr, fmt, ap);
	va_end(ap);
}

void jdoc_warn(struct jdoc *doc, const char *ptr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	jdoc_vreport(doc, false, ptr, fmt, ap);
	va_end(ap);
}

char *jdoc_brief(const json_t *v)
{
	char *d = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	char *out;

	if (!d)
		return xstrdup("null");
	if (strlen(d) > 40)
		out = xasprintf("%.37s...", d);
	else
		out = xstrdup(d);
	free(d);
	return out;
}
