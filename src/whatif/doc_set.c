// SPDX-License-Identifier: GPL-2.0
/*
 * --set PATH=SPEC for sweep and compare (doc_set.h): one parser, one
 * check, the same messages.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "doc_set.h"
#include "jsondoc.h"
#include "platform.h"
#include "util.h"

int doc_set_split(const char *set, const char *cmd, struct dpath *path,
		  const char **spec)
{
	const char *eq = strchr(set, '=');
	char err[512], *text;
	int r;

	if (!eq) {
		fprintf(stderr, "capsim: --set needs PATH=SPEC: %.200s\nsee `capsim %s --help`\n",
			set, cmd);
		return -1;
	}
	text = xasprintf("%.*s", (int)(eq - set), set);
	r = dpath_parse(text, path, err, sizeof(err));
	free(text);
	if (r) {
		fprintf(stderr, "capsim: %s\nsee `capsim %s --help`\n", err, cmd);
		return -1;
	}
	*spec = eq + 1;
	return 0;
}

int doc_set_values(const struct dpath *path, const char *spec, json_t *cur,
		   const char *cmd, struct sweep_values *out)
{
	char err[512];

	if (sweep_spec_parse(spec, !cur || json_is_integer(cur), out, err,
			     sizeof(err))) {
		fprintf(stderr, "capsim: --set %s=%.200s: %s\nsee `capsim %s --help`\n",
			path->text, spec, err, cmd);
		return -1;
	}
	return 0;
}

int doc_set_check(json_t *root, const struct dpath *path, json_t *v,
		  const char *docname)
{
	json_t *cur = dpath_get(root, path), *copy;
	char err[512];
	int ret;

	if (cur && json_is_number(v) && !json_is_number(cur)) {
		char *b = jdoc_brief(cur);

		fprintf(stderr, "capsim: --set %s: the %s has %s there, not a number\n",
			path->text, docname, b);
		free(b);
		return -1;
	}
	copy = json_deep_copy(root);
	ret = dpath_set(copy, path, json_deep_copy(v), err, sizeof(err));
	json_decref(copy);
	if (ret)
		fprintf(stderr, "capsim: --set %s (in the %s)\n", err, docname);
	return ret;
}

json_t *doc_set_platform(const char *name)
{
	const char *text = platform_embedded_find(name);
	struct diag d;
	struct jdoc doc;
	json_t *root = NULL;
	int r;

	diag_init(&d, false);
	r = text ? jdoc_load_buffer(&doc, name, text, strlen(text), &d) :
	    jdoc_load_file(&doc, name, &d);
	if (!r) {
		root = json_incref(doc.root);
	} else if (!text && access(name, R_OK)) {
		fprintf(stderr, "capsim: unknown platform \"%s\" (see `capsim platforms`)\n",
			name);
	}
	jdoc_free(&doc);
	diag_free(&d);
	return root;
}

int doc_set_write(const char *path, json_t *v)
{
	if (json_dump_file(v, path, JSON_INDENT(2) | JSON_REAL_PRECISION(12))) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The platform every run will load: --platform (@flag), else the
 * workload's capsim.platform as the edits so far left it, else the
 * default, as `capsim run` and sweep choose it. Editing another one and
 * passing it as --platform would move the runs to it without a word.
 */
static const char *platform_named(const char *flag, json_t *w)
{
	json_t *p = json_object_get(json_object_get(w, "capsim"), "platform");

	if (flag)
		return flag;
	return json_is_string(p) ? json_string_value(p) : PLATFORM_DEFAULT;
}

/* --set @set (one value) applied to *@w or, for a platform. path, to
 * *@p (loaded from @platform on first need); 0 or -1 said */
static int apply_one(const char *set, const char *platform, const char *cmd,
		     json_t *w, json_t **p)
{
	struct sweep_values sv = { 0 };
	struct dpath path = { 0 };
	const char *spec;
	json_t *root = w;
	int ret = -1;

	if (doc_set_split(set, cmd, &path, &spec))
		goto out;
	if (path.platform && !*p)
		*p = doc_set_platform(platform_named(platform, w));
	if (path.platform)
		root = *p;
	if (!root || doc_set_values(&path, spec, dpath_get(root, &path), cmd,
				    &sv))
		goto out;
	if (sv.n != 1) {
		fprintf(stderr, "capsim: --set %s=%.200s: %s takes one value (%d given; several are a sweep: `capsim sweep`)\nsee `capsim %s --help`\n",
			path.text, spec, cmd, sv.n, cmd);
		goto out;
	}
	if (doc_set_check(root, &path, sv.v[0],
			  path.platform ? "platform" : "workload"))
		goto out;
	ret = dpath_set(root, &path, json_incref(sv.v[0]), NULL, 0);
out:
	sweep_values_free(&sv);
	dpath_free(&path);
	return ret;
}

int doc_set_apply_each(char *const *sets, int nsets, const char *wfile,
		       const char *platform, const char *cmd, json_t **w,
		       json_t **p)
{
	struct diag d;
	struct jdoc doc;
	int i;

	*w = *p = NULL;
	diag_init(&d, false);
	if (jdoc_load_file(&doc, wfile, &d)) {
		diag_free(&d);
		return -1;
	}
	*w = json_incref(doc.root);
	jdoc_free(&doc);
	diag_free(&d);
	for (i = 0; i < nsets; i++) {
		if (apply_one(sets[i], platform, cmd, *w, p)) {
			json_decref(*w);
			json_decref(*p);
			*w = *p = NULL;
			return -1;
		}
	}
	return 0;
}
