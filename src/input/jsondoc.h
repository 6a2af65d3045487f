/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON document as capsim reads it: rt-app's leniency (comments and
 * trailing commas) is handled by a pre-pass that blanks them out with
 * spaces, keeping every other byte, and so every line and column, where it
 * was; jansson then parses the result, and a second scan indexes the
 * position of every value by its JSON pointer (RFC 6901), so that semantic
 * errors can name file:line:column as well as the field.
 */
#ifndef CAPSIM_JSONDOC_H
#define CAPSIM_JSONDOC_H

#include <stdarg.h>
#include <jansson.h>

#include "diag.h"
#include "strmap.h"

/*
 * Where each value starts, as a tree: a node names its parent and its
 * member name (objects) or index (arrays). A hash of (parent, name) finds
 * a child in O(1), so a position costs O(depth) per message, whatever the
 * size of the document, and no node repeats its ancestors' path.
 */
struct jnode {
	int parent;		/* -1 for the root */
	int line;
	int col;
	char *key;		/* member name, or NULL for an array element */
	size_t idx;		/* array index */
	bool array;		/* the value is an array (jdoc_path's [N]) */
};

struct jdoc {
	char *file;		/* name used in messages */
	char *text;		/* the cleaned text */
	size_t len;
	json_t *root;		/* NULL after jdoc_drop_tree() */
	struct jnode *node;	/* node 0 is the root */
	int nnode;
	int cap;
	struct strmap children;	/* node by (parent, name) */
	/* of the original bytes when the pre-pass changed them, else ""
	 * (jdoc_sha256() hashes the text, the same bytes, when asked:
	 * `validate` never asks) */
	char sha256[65];
	struct diag *diag;
	bool rtapp;		/* repeated keys as rt-app takes them */
	int renamed;		/* repeated keys renamed the workgen way */
};

/* Blank comments and trailing commas in place; returns 0 or -1 if a
 * comment is unterminated (then *line and *col say where it starts). */
int json_lenient_prepass(char *text, size_t len, int *line, int *col);

/* The largest JSON input read: far above any workload or platform (the
 * traces/ files are a few KB), far below what the index of its values
 * could take in memory (~50 bytes a value) */
#define JDOC_MAX_BYTES (64u << 20)

/* capsim's own files (platforms): a repeated key is an error */
int jdoc_load_file(struct jdoc *doc, const char *path, struct diag *d);
int jdoc_load_buffer(struct jdoc *doc, const char *name, const char *buf,
		     size_t len, struct diag *d);
/*
 * rt-app workloads: a repeated key is taken as rt-app users expect. rt-app
 * runs such files through doc/workgen, which renames a repeated key in
 * document order ("run", "run" -> "run", "run1"; the number is shared by the
 * keys of one object and only grows), so that json-c keeps them all; a
 * repeated key whose value is an object (a phase written twice) is left to
 * json-c, which keeps the last value at the first one's place. Inside the
 * top-level "capsim" object, capsim's own, a repeated key is an error.
 */
int jdoc_load_rtapp_file(struct jdoc *doc, const char *path, struct diag *d);
int jdoc_load_rtapp_buffer(struct jdoc *doc, const char *name,
			   const char *buf, size_t len, struct diag *d);
void jdoc_free(struct jdoc *doc);
/* The SHA-256 of the document's bytes as read, in hex, into @out */
void jdoc_sha256(const struct jdoc *doc, char out[65]);
/*
 * Free the jansson tree of a document its reader is done with: positions,
 * paths and messages keep working from the index. A workload's tree is
 * most of its memory (100 000 tasks: ~85 MB) and nothing reads it after
 * the parse.
 */
void jdoc_drop_tree(struct jdoc *doc);

/* Position of the value at @ptr, or of its nearest indexed ancestor */
void jdoc_where(const struct jdoc *doc, const char *ptr, int *line, int *col);
void jdoc_error(struct jdoc *doc, const char *ptr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, for a caller's own printf-like wrapper */
void jdoc_verror(struct jdoc *doc, const char *ptr, const char *fmt,
		 va_list ap) __attribute__((format(printf, 3, 0)));
void jdoc_warn(struct jdoc *doc, const char *ptr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void jdoc_note(struct jdoc *doc, const char *ptr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * @ptr (a JSON pointer into @doc) as messages print it, the way one
 * writes it in JavaScript or jq: tasks.t.priority, cpus[1].capacity,
 * capsim.taskgroups["/bg/batch"].capacity_max; "" for the document
 * (caller frees)
 */
char *jdoc_path(const struct jdoc *doc, const char *ptr);

/* @v as compact JSON, at most 40 characters, for messages (caller frees) */
char *jdoc_brief(const json_t *v);

/* JSON pointer of a member or element of @parent (caller frees) */
char *jptr_key(const char *parent, const char *key);
char *jptr_idx(const char *parent, size_t idx);

#endif
