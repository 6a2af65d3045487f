/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One --set PATH=SPEC, as `capsim sweep` (several values: its points) and
 * `capsim compare` (one value) take it: the path parsed (docpath.h), the
 * values read (sweep_spec_parse()) for what the document holds there,
 * and a trial edit on a copy, so that a path that leads nowhere editable
 * or a number over a non-number is refused (exit 2) before anything runs.
 */
#ifndef CAPSIM_DOC_SET_H
#define CAPSIM_DOC_SET_H

#include <jansson.h>

#include "docpath.h"
#include "sweep.h"

/*
 * PATH=SPEC (@set) into @path and *@spec (inside @set); 0, or -1 said
 * (a usage error of `capsim @cmd`)
 */
int doc_set_split(const char *set, const char *cmd, struct dpath *path,
		  const char **spec);
/*
 * The values of @spec for @path, whose document holds @cur there (NULL:
 * nothing yet; a number replaces an integer as an integer, 0 and 1
 * replace a boolean as false and true); 0, or -1 said
 */
int doc_set_values(const struct dpath *path, const char *spec, json_t *cur,
		   const char *cmd, struct sweep_values *out);
/*
 * @v set at @path in a copy of @root (the @docname: "workload" or
 * "platform"): 0, or -1 said
 */
int doc_set_check(json_t *root, const struct dpath *path, json_t *v,
		  const char *docname);
/*
 * The first error the parser `capsim run` uses finds in @root (a
 * platform's when @platform, else a workload's), without its position,
 * or NULL when it has none (caller frees)
 */
char *doc_set_refusal(json_t *root, bool platform);
/*
 * The parser's error when @v at @path of a copy of @root makes it one
 * `capsim run` refuses for @path's own sake (its type or range: the
 * error names @path, an index of it for a [*]), else NULL; caller frees
 */
char *doc_set_field_refusal(json_t *root, const struct dpath *path,
			    json_t *v, bool platform);
/* Platform @name (embedded, or a file) as a JSON document, or NULL
 * (said when unknown) */
json_t *doc_set_platform(const char *name);

/* How doc_set_write() dumps a document */
#define DOC_SET_JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(12))

/* @v as indented JSON into @path, written aside and renamed
 * (src/outputs/safe_write.h); 0 or -1 (said) */
int doc_set_write(const char *path, json_t *v);
/* The same with jansson's dump @flags */
int doc_write_json(const char *path, json_t *v, size_t flags);

/*
 * `capsim compare`'s edits: each of the @nsets --set PATH=VALUE of @sets
 * (one value each: several are a sweep) checked and applied, in order,
 * to workload @wfile or, for a platform. path, to @platform (NULL: the
 * default platform). *@w gets the edited workload, *@p the edited
 * platform or NULL when no edit is the platform's. 0, or -1 said (a
 * usage error of `capsim @cmd`; nothing to free then).
 */
int doc_set_apply_each(char *const *sets, int nsets, const char *wfile,
		       const char *platform, const char *cmd, json_t **w,
		       json_t **p);

#endif
