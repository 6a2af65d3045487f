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
#include "safe_write.h"
#include "util.h"
#include "workload.h"

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

/*
 * Over a boolean (a switch: capsim.util_est), the numbers 0 and 1 of
 * @sv as false and true, as the parser reads them; 0, or -1 with why
 * in @err when a number is another
 */
static int as_switch(struct sweep_values *sv, char *err, size_t errlen)
{
	int k;

	for (k = 0; k < sv->n; k++) {
		json_t *v = sv->v[k];

		if (!json_is_number(v))
			continue;
		if (json_number_value(v) != 0 && json_number_value(v) != 1)
			return err_fail(err, errlen, "the document has a boolean there: allowed false,true or 0,1, not %g",
					json_number_value(v));
		sv->v[k] = json_boolean(json_number_value(v) == 1);
		json_decref(v);
	}
	return 0;
}

int doc_set_values(const struct dpath *path, const char *spec, json_t *cur,
		   const char *cmd, struct sweep_values *out)
{
	char err[512];

	if (sweep_spec_parse(spec, !cur || json_is_integer(cur), out, err,
			     sizeof(err)) ||
	    (json_is_boolean(cur) && as_switch(out, err, sizeof(err)))) {
		sweep_values_free(out);
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
	return doc_write_json(path, v, DOC_SET_JSON_FLAGS);
}

int doc_write_json(const char *path, json_t *v, size_t flags)
{
	FILE *f = safe_fopen(path);

	if (f && json_dumpf(v, f, flags)) {
		safe_fdiscard(f);
		f = NULL;
		errno = EIO;
	} else if (f && !safe_fclose(f)) {
		return 0;
	}
	fprintf(stderr, "capsim: cannot write %s: %s\n", path,
		strerror(errno));
	return -1;
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

/*
 * The first error the parser that `capsim run` uses finds in @root (a
 * platform's when @platform, else a workload's), without its position,
 * or NULL when it has none (caller frees). A value out of its field's
 * range passes the trial edit (the edit only checks the path and the
 * type) and is found here, before any run: a run would name the edited
 * copy in a temporary directory, not the --set that made it.
 */
static char *doc_first_error(json_t *root, bool platform)
{
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	const char *e, *end;
	char *msg = NULL;
	struct diag d;

	if (!text)
		return xstrdup("cannot be written as JSON");
	diag_init(&d, true);
	if (platform)
		platform_free(platform_load_buffer("platform", text,
						   strlen(text), &d));
	else
		workload_free(workload_load_buffer("workload", text, &d));
	if (d.errors && (e = strstr(d.log.buf, "error: "))) {
		e += strlen("error: ");
		end = strchr(e, '\n');
		msg = xasprintf("%.*s", (int)(end ? end - e : (long)strlen(e)), e);
	} else if (d.errors) {
		msg = xstrdup("refused");
	}
	diag_free(&d);
	free(text);
	return msg;
}

/*
 * Whether the parser's message @m (after "PATH: ") is about a value's
 * own type or range, "VALUE is out of range: ..." or "VALUE is not a
 * ...", not a rule that links it to another field ("capacity_min 512
 * is above the group's capacity_max 256", "group /bg: ...")
 */
static bool value_message(const char *m)
{
	const char *e = m;

	if (*e == '"') {
		/* a string, as jdoc_brief() quotes it */
		for (e++; *e && *e != '"'; e++)
			if (*e == '\\' && e[1])
				e++;
		if (*e)
			e++;
	} else {
		e += strcspn(e, " ");
	}
	return !strncmp(e, " is out of range", 16) || !strncmp(e, " is not ", 8);
}

/*
 * Whether the error @err (the parser's "PATH: ...", as doc_first_error()
 * gives it) is at @path itself, an index of it for a [*], and about the
 * value there
 */
static bool error_at(const struct dpath *path, const char *err)
{
	const char *colon = strstr(err, ": ");
	struct dpath e;
	char buf[512], why[256];
	bool same;
	int i;

	if (!colon || colon - err >= (long)sizeof(buf) ||
	    !value_message(colon + 2))
		return false;
	memcpy(buf, err, (size_t)(colon - err));
	buf[colon - err] = '\0';
	if (dpath_parse(buf, &e, why, sizeof(why)))
		return false;
	same = e.n == path->n;
	for (i = 0; same && i < e.n; i++) {
		const struct dpath_seg *a = &path->seg[i], *b = &e.seg[i];

		if (a->key)
			same = b->key && !strcmp(a->key, b->key);
		else
			same = !b->key && (a->all || a->idx == b->idx);
	}
	dpath_free(&e);
	return same;
}

char *doc_set_field_refusal(json_t *root, const struct dpath *path,
			    json_t *v, bool platform)
{
	json_t *copy = json_deep_copy(root);
	char *err = NULL;

	if (!dpath_set(copy, path, json_deep_copy(v), NULL, 0))
		err = doc_first_error(copy, platform);
	json_decref(copy);
	if (err && !error_at(path, err)) {
		free(err);
		err = NULL;
	}
	return err;
}

char *doc_set_refusal(json_t *root, bool platform)
{
	return doc_first_error(root, platform);
}

/*
 * Whether --set @set's path and the path an error names (@err, up to
 * its ": "; either may be the other's prefix, "[*]" matches any index)
 * are one place, so the message can name the --set that caused it
 */
static bool set_path_related(const char *set, const char *err)
{
	const char *a = set, *b = err;

	if (!strncmp(a, "platform.", 9))
		a += 9;
	while (*a && *a != '=' && *b && strncmp(b, ": ", 2)) {
		if (!strncmp(a, "[*]", 3) && *b == '[') {
			a += 3;
			b += strcspn(b, "]");
			if (*b)
				b++;
			continue;
		}
		if (*a++ != *b++)
			return false;
	}
	return true;
}

/*
 * Whether the --sets that edited @root (its workload, or its platform
 * when @platform; @touched[i] says which of @sets did) made it one the
 * runs would refuse: said, naming the ones whose path the error names
 * (all of them when none), when @was_ok (the document before the edits
 * was accepted; else the runs report the file's own error, which no
 * --set caused). Checked once after every edit, since rules that link
 * two fields (OPP order, idle states) may hold only when all are in.
 */
static bool sets_refused(char *const *sets, const bool *touched, int nsets,
			 const char *cmd, json_t *root, bool platform,
			 bool was_ok)
{
	struct strbuf sb;
	char *err;
	int i, pass;

	for (i = 0; i < nsets && !touched[i]; i++)
		;
	if (i == nsets || !root || !was_ok ||
	    !(err = doc_first_error(root, platform)))
		return false;
	sb_init(&sb);
	/* pass 0: the related ones; pass 1, when none is: all */
	for (pass = 0; pass < 2 && !sb.len; pass++)
		for (i = 0; i < nsets; i++)
			if (touched[i] &&
			    (pass || set_path_related(sets[i], err)))
				sb_printf(&sb, "%s--set %.200s",
					  sb.len ? ", " : "", sets[i]);
	fprintf(stderr, "capsim: %s: %s\nsee `capsim %s --help`\n", sb.buf,
		err, cmd);
	sb_free(&sb);
	free(err);
	return true;
}

/* --set @set (one value) applied to *@w or, for a platform. path, to
 * *@p (loaded from @platform on first need, @ok[1] then saying whether
 * it is accepted as it is); *@on_platform says which it edited; 0 or -1
 * said */
static int apply_one(const char *set, const char *platform, const char *cmd,
		     json_t *w, json_t **p, bool ok[2], bool *on_platform)
{
	struct sweep_values sv = { 0 };
	struct dpath path = { 0 };
	const char *spec;
	json_t *root = w;
	int ret = -1;

	if (doc_set_split(set, cmd, &path, &spec))
		goto out;
	if (path.platform && !*p) {
		char *err;

		*p = doc_set_platform(platform_named(platform, w));
		err = *p ? doc_first_error(*p, true) : NULL;
		ok[1] = !err;
		free(err);
	}
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
	*on_platform = path.platform;
out:
	sweep_values_free(&sv);
	dpath_free(&path);
	return ret;
}

int doc_set_apply_each(char *const *sets, int nsets, const char *wfile,
		       const char *platform, const char *cmd, json_t **w,
		       json_t **p)
{
	/* whether the workload, the platform were accepted before the edits */
	bool ok[2] = { false, false };
	bool *on_platform = xcalloc(nsets ? nsets : 1, sizeof(bool));
	bool *on_workload = xcalloc(nsets ? nsets : 1, sizeof(bool));
	struct diag d;
	struct jdoc doc;
	char *err;
	int i;

	*w = *p = NULL;
	diag_init(&d, false);
	if (jdoc_load_file(&doc, wfile, &d)) {
		diag_free(&d);
		goto fail;
	}
	*w = json_incref(doc.root);
	jdoc_free(&doc);
	diag_free(&d);
	err = doc_first_error(*w, false);
	ok[0] = !err;
	free(err);
	for (i = 0; i < nsets; i++) {
		if (apply_one(sets[i], platform, cmd, *w, p, ok,
			      &on_platform[i]))
			goto fail;
		on_workload[i] = !on_platform[i];
	}
	if (sets_refused(sets, on_workload, nsets, cmd, *w, false, ok[0]) ||
	    sets_refused(sets, on_platform, nsets, cmd, *p, true, ok[1]))
		goto fail;
	free(on_platform);
	free(on_workload);
	return 0;
fail:
	free(on_platform);
	free(on_workload);
	json_decref(*w);
	json_decref(*p);
	*w = *p = NULL;
	return -1;
}
