// SPDX-License-Identifier: GPL-2.0
/*
 * The workload API: read a file or a buffer (jsondoc.c), parse its parts
 * in order (global, capsim, the top-level keys, the tasks, the checks
 * across tasks), and free it. What each part reads is in
 * workload_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "workload_internal.h"
#include "util.h"

static char *basename_noext(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s = xstrdup(b ? b + 1 : path);
	size_t n = strlen(s);

	if (n > 5 && !strcmp(s + n - 5, ".json"))
		s[n - 5] = '\0';
	return s;
}

static struct workload *workload_parse(struct workload *wl)
{
	struct wl_parser p = { .wl = wl, .doc = &wl->doc };
	json_t *root = wl->doc.root, *v;
	const char *key;

	v = json_object_get(root, "global");
	if (v)
		wl_parse_global(&p, v);
	v = json_object_get(root, "capsim");
	if (v)
		wl_parse_capsim(&p, v);
	json_object_foreach(root, key, v) {
		if (!streq(key, "global") && !streq(key, "tasks") &&
		    !streq(key, "capsim")) {
			char *kp = jptr_key("", key);

			if (streq(key, "resources"))
				jdoc_warn(&wl->doc, kp, "legacy \"resources\" object: resources are created from their use, ignored");
			else
				wl_rtapp_unknown(&p, kp, key, wl_top_keys);
			free(kp);
		}
	}
	if (wl_parse_tasks(&p, root)) {
		wl_check_workload(&p);
		v = json_object_get(json_object_get(root, "capsim"), "chains");
		/* a declared capsim.chains, even {}, is the whole list */
		if (v)
			wl_parse_chains(&p, v);
		else if (!p.err)
			wl_infer_chains(&p);
	}
	return wl;
}

static struct workload *workload_new(void)
{
	struct workload *wl = xcalloc(1, sizeof(*wl));

	wl->duration_s = -1;
	wl->calib_cpu = -1;
	wl->ftrace = WL_FTRACE_DEFAULT;
	wl->mem_buffer_size = 4194304;
	wl->io_bw = 100 * 1000000ULL;
	wl->mem_bw = 4000 * 1000000ULL;
	wl->uclamp_util_min = wl->uclamp_util_max = -1;
	wl->uclamp_util_min_rt_default = wl->uclamp_buckets = -1;
	return wl;
}

static struct workload *workload_finish(struct workload *wl, struct diag *d,
					int errors_before, bool keep)
{
	workload_parse(wl);
	jdoc_drop_tree(&wl->doc);
	if (d->errors > errors_before && !keep) {
		workload_free(wl);
		return NULL;
	}
	return wl;
}

static struct workload *load(const char *path, struct diag *d, bool keep)
{
	struct workload *wl = workload_new();
	int before = d->errors;

	wl->name = basename_noext(path);
	if (jdoc_load_rtapp_file(&wl->doc, path, d)) {
		workload_free(wl);
		return NULL;
	}
	return workload_finish(wl, d, before, keep);
}

static struct workload *load_buffer(const char *name, const char *text,
				    struct diag *d, bool keep)
{
	struct workload *wl = workload_new();
	int before = d->errors;

	wl->name = basename_noext(name);
	if (jdoc_load_rtapp_buffer(&wl->doc, name, text, strlen(text), d)) {
		workload_free(wl);
		return NULL;
	}
	return workload_finish(wl, d, before, keep);
}

struct workload *workload_load(const char *path, struct diag *d)
{
	return load(path, d, false);
}

struct workload *workload_load_buffer(const char *name, const char *text,
				      struct diag *d)
{
	return load_buffer(name, text, d, false);
}

struct workload *workload_load_all(const char *path, struct diag *d)
{
	return load(path, d, true);
}

struct workload *workload_load_buffer_all(const char *name, const char *text,
					  struct diag *d)
{
	return load_buffer(name, text, d, true);
}

struct workload *workload_from_doc_all(struct jdoc *doc, const char *path,
				       struct diag *d)
{
	struct workload *wl = workload_new();

	wl->name = basename_noext(path);
	wl->doc = *doc;
	wl->doc.diag = d;
	memset(doc, 0, sizeof(*doc));
	return workload_finish(wl, d, d->errors, true);
}

static void attrs_free(struct wl_attrs *a)
{
	free(a->cpus);
	free(a->cpus_ptr);
	free(a->group);
}

void workload_free(struct workload *wl)
{
	int i, j, k;

	if (!wl)
		return;
	for (i = 0; i < wl->ntasks; i++) {
		struct wl_task *t = &wl->tasks[i];

		for (j = 0; j < t->nphases; j++) {
			for (k = 0; k < t->phases[j].nev; k++)
				free(t->phases[j].ev[k].key);
			free(t->phases[j].ev);
			free(t->phases[j].name);
			attrs_free(&t->phases[j].attrs);
		}
		free(t->phases);
		attrs_free(&t->attrs);
		free(t->name);
		free(t->ptr);
	}
	free(wl->tasks);
	for (i = 0; i < wl->nres; i++)
		free(wl->res[i].name);
	free(wl->res);
	strmap_free(&wl->res_by_name);
	for (i = 0; i < wl->ngroups; i++) {
		free(wl->groups[i].path);
		free(wl->groups[i].ptr);
	}
	free(wl->groups);
	for (i = 0; i < wl->ngevents; i++) {
		free(wl->gevents[i].group);
		free(wl->gevents[i].ptr);
	}
	free(wl->gevents);
	wl_chains_free(wl);
	free(wl->platform);
	free(wl->name);
	jdoc_free(&wl->doc);
	free(wl);
}

bool workload_tasks_end(const struct workload *wl)
{
	int i, j;

	for (i = 0; i < wl->ntasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (!t->instances)
			continue;
		if (t->loop == -1)
			return false;
		for (j = 0; j < t->nphases; j++)
			if (t->phases[j].loop == -1)
				return false;
	}
	return true;
}
