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

/* A repeated key of an object, as the indexing scan finds it */
struct repeat {
	char *ptr;		/* the member's pointer (renamed, if it was) */
	char *given;		/* the key as written */
	size_t quote;		/* offset of the key's closing quote */
	bool object;		/* its value is an object: last one wins */
};

/* The indexing scan: the text is valid JSON at this point. */
struct scan {
	struct jdoc *doc;
	const char *t;
	size_t len;
	size_t i;
	int line;
	int col;
	struct repeat *rep;
	size_t nrep;
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

static size_t node_name(const struct jnode *n, char *digits, const char **key)
{
	if (n->key) {
		*key = n->key;
		return strlen(n->key);
	}
	*key = digits;
	return (size_t)sprintf(digits, "%zu", n->idx);
}

/* Whether node @i is the member @key (an index as its digits) of node
 * @parent */
static bool is_child(const void *ctx, int i, uint64_t parent,
		     const char *key, size_t len)
{
	const struct jnode *n = &((const struct jdoc *)ctx)->node[i];
	char digits[24];
	const char *nk;

	return (uint64_t)n->parent == parent &&
	       node_name(n, digits, &nk) == len && !memcmp(nk, key, len);
}

/* The child @key of node @parent, the last recorded if repeated (as
 * json-c and jansson keep the last); -1 */
static int find_child(const struct jdoc *doc, int parent, const char *key,
		      size_t len)
{
	return strmap_get(&doc->children, (uint64_t)parent, key, len,
			  is_child, doc);
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
	n->array = false;
	d->nnode++;
	if (parent >= 0) {
		char digits[24];
		const char *name;
		size_t len = node_name(n, digits, &name);

		strmap_put(&d->children, (uint64_t)parent, name, len,
			   d->nnode - 1, is_child, d);
	}
	return d->nnode - 1;
}

/* The JSON pointer of node @i (caller frees): only for the rare messages
 * about repeated keys, so the index keeps no pointer strings */
static char *node_ptr(const struct jdoc *doc, int i)
{
	char *p, *parent;

	if (i <= 0)
		return xstrdup("");
	parent = node_ptr(doc, doc->node[i].parent);
	p = doc->node[i].key ? jptr_key(parent, doc->node[i].key) :
	    jptr_idx(parent, doc->node[i].idx);
	free(parent);
	return p;
}

/*
 * doc/workgen's new name for a repeated @key of the object @obj: the key
 * and the object's counter, which starts at 1, is shared by all its keys
 * and only grows while the name is taken.
 */
static char *workgen_name(const struct jdoc *doc, int obj, const char *key,
			  int *curid)
{
	char *name = xasprintf("%s%d", key, *curid);

	while (find_child(doc, obj, name, strlen(name)) >= 0) {
		free(name);
		name = xasprintf("%s%d", key, ++*curid);
	}
	return name;
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
	size_t end = s->i + 1;

	/* without an escape the string is its bytes: copied at its size (a
	 * document's keys are most of its index's allocations) */
	while (end < s->len && s->t[end] != '"' && s->t[end] != '\\')
		end++;
	if (end < s->len && s->t[end] == '"') {
		char *str = xmalloc(end - s->i);

		memcpy(str, s->t + s->i + 1, end - s->i - 1);
		str[end - s->i - 1] = '\0';
		/* sc_adv() over both quotes and the bytes: no newline in a
		 * valid string, a column per character */
		for (; s->i <= end; s->i++)
			s->col += ((unsigned char)s->t[s->i] & 0xc0) != 0x80;
		return str;
	}
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

static bool in_capsim(const char *ptr)
{
	return !strncmp(ptr, "/capsim", 7) && (!ptr[7] || ptr[7] == '/');
}

/*
 * Record the repeated @key of the object @obj (its value is next in the
 * text) and return the name it goes by: workgen's new name, or the same
 * key when the value is an object (json-c's last-wins). Takes @key.
 */
static char *sc_repeat(struct scan *s, int obj, char *key, size_t quote,
		       int *curid)
{
	char *ptr = node_ptr(s->doc, obj);
	struct repeat *r;

	s->rep = xrealloc(s->rep, (s->nrep + 1) * sizeof(*s->rep));
	r = &s->rep[s->nrep++];
	r->given = key;
	r->quote = quote;
	r->object = s->i < s->len && s->t[s->i] == '{';
	r->ptr = jptr_key(ptr, key);
	if (r->object || in_capsim(r->ptr)) {
		free(ptr);
		return xstrdup(key);
	}
	key = workgen_name(s->doc, obj, key, curid);
	free(r->ptr);
	r->ptr = jptr_key(ptr, key);
	free(ptr);
	return key;
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
	case '{': {
		int curid = 1;

		sc_adv(s);
		for (;;) {
			size_t quote;
			char *k;

			sc_ws(s);
			if (s->i >= s->len || s->t[s->i] == '}')
				break;
			k = sc_string(s);
			quote = s->i - 1;
			sc_ws(s);
			if (s->i < s->len && s->t[s->i] == ':')
				sc_adv(s);
			sc_ws(s);
			if (find_child(s->doc, self, k, strlen(k)) >= 0)
				k = sc_repeat(s, self, k, quote, &curid);
			sc_value(s, self, k, 0);
			sc_ws(s);
			if (s->i < s->len && s->t[s->i] == ',')
				sc_adv(s);
		}
		if (s->i < s->len)
			sc_adv(s);
		break;
	}
	case '[': {
		size_t n = 0;

		s->doc->node[self].array = true;
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

/*
 * The key before @pos when jansson stops at a ':' it expected: rt-app's
 * video examples write a key without a value ("suspend",). NULL if there
 * is no string just before.
 */
static char *valueless_key(const char *t, size_t pos)
{
	size_t close, open;

	while (pos > 0 && t[pos - 1] != '"')
		if (strchr(" \t\r\n,:}]", t[--pos]) == NULL)
			return NULL;
	if (!pos)
		return NULL;
	close = pos - 1;
	for (open = close; open > 0 && t[open - 1] != '"'; open--)
		;
	if (!open)
		return NULL;
	return xasprintf("%.*s", (int)(close - open), t + open);
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

static void report_syntax(struct jdoc *doc, const json_error_t *err)
{
	char text[JSON_ERROR_TEXT_LENGTH];
	char *key = NULL;

	memcpy(text, err->text, sizeof(text));
	printable(text);
	if (strstr(text, "':' expected"))
		key = valueless_key(doc->text, (size_t)err->position);
	/* jansson says column 0 before the first character (an empty
	 * file); editors count from 1 */
	diag_report(doc->diag, true, doc->file, err->line > 0 ? err->line : 1,
		    err->column > 0 ? err->column : 1, "%s%s%s%s", text,
		    key ? ": \"" : "", key ? key : "",
		    key ? "\" has no value (every key needs one; rt-app's own parser, json-c, rejects this file too)" : "");
	free(key);
}

/*
 * Report the repeated keys the scan found and, if workgen would rename
 * some, parse the renamed text; positions stay those of the file, as the
 * index was built on it with the new names.
 */
static int take_repeats(struct jdoc *doc, struct repeat *rep, size_t nrep)
{
	const struct repeat *first = NULL;
	json_error_t err;
	struct strbuf sb;
	size_t i, from = 0;

	for (i = 0; i < nrep; i++) {
		if (in_capsim(rep[i].ptr))
			jdoc_error(doc, rep[i].ptr, "\"%s\" is repeated: capsim's own keys must be unique",
				   rep[i].given);
		else if (rep[i].object)
			jdoc_warn(doc, rep[i].ptr, "\"%s\" is repeated: the last one is kept, at the first one's place, as rt-app's JSON parser (json-c) does",
				  rep[i].given);
		else if (!first)
			first = &rep[i];
		if (!rep[i].object && !in_capsim(rep[i].ptr))
			doc->renamed++;
	}
	if (!first)
		return 0;
	jdoc_note(doc, first->ptr, "repeated \"%s\" taken as \"%s\": %d repeated key%s of this file renamed in document order, as rt-app's doc/workgen does",
		  first->given, strrchr(first->ptr, '/') + 1, doc->renamed,
		  doc->renamed > 1 ? "s" : "");

	sb_init(&sb);
	for (i = 0; i < nrep; i++) {
		const char *name = strrchr(rep[i].ptr, '/') + 1;

		if (rep[i].object || in_capsim(rep[i].ptr))
			continue;
		/* the new name is the old one and a number: insert it */
		sb_printf(&sb, "%.*s%s", (int)(rep[i].quote - from),
			  doc->text + from, name + strlen(rep[i].given));
		from = rep[i].quote;
	}
	sb_printf(&sb, "%s", doc->text + from);
	json_decref(doc->root);
	doc->root = json_loadb(sb.buf, sb.len, 0, &err);
	sb_free(&sb);
	if (!doc->root) {	/* cannot be: only keys grew */
		report_syntax(doc, &err);
		return -1;
	}
	return 0;
}

static int jdoc_load(struct jdoc *doc, const char *name, const char *buf,
		     size_t len, struct diag *d, bool rtapp)
{
	json_error_t err;
	struct scan s;
	int line, col, ret = 0;
	size_t i;

	memset(doc, 0, sizeof(*doc));
	doc->file = xstrdup(name);
	doc->diag = d;
	doc->rtapp = rtapp;
	doc->len = len;
	doc->text = xmalloc(len + 1);
	memcpy(doc->text, buf, len);
	doc->text[len] = '\0';

	if (memchr(buf, '\0', len)) {
		diag_report(d, true, name, 0, 0, "not a text file (NUL byte)");
		return -1;
	}
	if (json_lenient_prepass(doc->text, len, &line, &col)) {
		diag_report(d, true, name, line, col,
			    "unterminated /* comment");
		return -1;
	}
	/* blanked comments: the bytes as read are hashed now, before
	 * @buf goes; otherwise the text is those bytes, hashed if asked */
	if (memcmp(buf, doc->text, len))
		sha256_hex(buf, len, doc->sha256);
	/* not even the start of an object: say so without quoting the file,
	 * which may be anything a path can name (capsim.platform) */
	memset(&s, 0, sizeof(s));
	s.doc = doc;
	s.t = doc->text;
	s.len = len;
	s.line = 1;
	s.col = 1;
	sc_ws(&s);
	if (s.i < len && doc->text[s.i] != '{') {
		diag_report(d, true, name, s.line, s.col,
			    "not a JSON object (the first character is not '{')");
		return -1;
	}
	doc->root = json_loadb(doc->text, len,
			       rtapp ? 0 : JSON_REJECT_DUPLICATES, &err);
	if (!doc->root) {
		report_syntax(doc, &err);
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
	if (s.nrep)
		ret = take_repeats(doc, s.rep, s.nrep);
	for (i = 0; i < s.nrep; i++) {
		free(s.rep[i].ptr);
		free(s.rep[i].given);
	}
	free(s.rep);
	return ret;
}

int jdoc_load_buffer(struct jdoc *doc, const char *name, const char *buf,
		     size_t len, struct diag *d)
{
	return jdoc_load(doc, name, buf, len, d, false);
}

int jdoc_load_rtapp_buffer(struct jdoc *doc, const char *name,
			   const char *buf, size_t len, struct diag *d)
{
	return jdoc_load(doc, name, buf, len, d, true);
}

static int load_file(struct jdoc *doc, const char *path, struct diag *d,
		     bool rtapp)
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
	ret = jdoc_load(doc, path, buf, len, d, rtapp);
	free(buf);
	return ret;
}

int jdoc_load_file(struct jdoc *doc, const char *path, struct diag *d)
{
	return load_file(doc, path, d, false);
}

int jdoc_load_rtapp_file(struct jdoc *doc, const char *path, struct diag *d)
{
	return load_file(doc, path, d, true);
}

void jdoc_free(struct jdoc *doc)
{
	int i;

	for (i = 0; i < doc->nnode; i++)
		free(doc->node[i].key);
	free(doc->node);
	strmap_free(&doc->children);
	if (doc->root)
		json_decref(doc->root);
	free(doc->text);
	free(doc->file);
	memset(doc, 0, sizeof(*doc));
}

void jdoc_sha256(const struct jdoc *doc, char out[65])
{
	if (doc->sha256[0])
		memcpy(out, doc->sha256, 65);
	else
		sha256_hex(doc->text ? doc->text : "", doc->len, out);
}

void jdoc_drop_tree(struct jdoc *doc)
{
	if (doc->root)
		json_decref(doc->root);
	doc->root = NULL;
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

/* the longest member name messages show whole */
#define JDOC_PATH_NAME_MAX 64

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
	int cur = doc->nnode ? 0 : -1;	/* the node reached, -1: none */
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
		if (cur >= 0 && doc->node[cur].array && all_digits(seg)) {
			char idx[24];	/* the element's name in the index */
			int len = snprintf(idx, sizeof(idx), "%lu",
					   strtoul(seg, NULL, 10));

			sb_printf(&sb, "[%s]", seg);
			cur = find_child(doc, cur, idx, (size_t)len);
		} else {
			/* an object's member (a scalar has no children) */
			int next = cur >= 0 && !doc->node[cur].array ?
				   find_child(doc, cur, seg, strlen(seg)) : -1;

			/* a name of megabytes is shown by its start */
			if (o - seg > JDOC_PATH_NAME_MAX) {
				o = seg + JDOC_PATH_NAME_MAX - 3;
				while (o > seg && ((unsigned char)*o & 0xc0) == 0x80)
					o--;
				strcpy(o, "...");
			}
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
			cur = next;
		}
		free(seg);
		s += 1 + n;
	}
	return sb.buf ? sb.buf : xstrdup("");
}

enum jlevel { JNOTE, JWARN, JERROR };

static void jdoc_vreport(struct jdoc *doc, enum jlevel level, const char *ptr,
			 const char *fmt, va_list ap)
{
	struct strbuf sb;
	int line, col;
	char *path;

	if (!diag_shows_more(doc->diag)) {
		diag_count_hidden(doc->diag, level == JERROR);
		return;
	}
	jdoc_where(doc, ptr, &line, &col);
	sb_init(&sb);
	path = jdoc_path(doc, ptr);
	if (*path)
		sb_printf(&sb, "%s: ", path);
	free(path);
	sb_vprintf(&sb, fmt, ap);
	if (level == JNOTE)
		diag_note(doc->diag, doc->file, line, col, "%s", sb.buf);
	else
		diag_report(doc->diag, level == JERROR, doc->file, line, col,
			    "%s", sb.buf);
	sb_free(&sb);
}

void jdoc_verror(struct jdoc *doc, const char *ptr, const char *fmt,
		 va_list ap)
{
	jdoc_vreport(doc, JERROR, ptr, fmt, ap);
}

void jdoc_error(struct jdoc *doc, const char *ptr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	jdoc_verror(doc, ptr, fmt, ap);
	va_end(ap);
}

void jdoc_warn(struct jdoc *doc, const char *ptr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	jdoc_vreport(doc, JWARN, ptr, fmt, ap);
	va_end(ap);
}

void jdoc_note(struct jdoc *doc, const char *ptr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	jdoc_vreport(doc, JNOTE, ptr, fmt, ap);
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
