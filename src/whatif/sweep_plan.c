// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's plan, DIR/sweep.json: everything the sweep was made with
 * (the workload, its parameters and values, the drops, the policies and
 * platforms, the seed and how the points draw from it, the duration,
 * the repeats, whether traces are kept, the metric of its plot), so
 * that `--collect DIR` and `--resume -o DIR` need no argument repeated:
 * a collect plots the sweep's metric, a resume of DIR alone runs the
 * sweep it finds. A resume given arguments is checked against the plan
 * (exit 2 naming what differs); the metric alone may differ, said.
 */
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outmark.h"
#include "sweep.h"
#include "sweep_internal.h"
#include "util.h"
#include "workload.h"

json_t *sweep_plan_json(const struct sweep *sw, const char *metric)
{
	json_t *o = json_object(), *a = json_array();
	char sha[65];
	int i;

	/* the marker of each point directory names it: what --resume
	 * knows its own by (sweep_pointdir.c) */
	if (sw->id[0])
		json_object_set_new(o, "id", json_string(sw->id));
	json_object_set_new(o, "workload", json_string(sw->wfile));
	/* where it is from anywhere, and what it held: a resume runs the
	 * points it has not run on the same workload, or refuses */
	if (sw->wpath)
		json_object_set_new(o, "workload_path", json_string(sw->wpath));
	if (sw->wdoc.text) {
		jdoc_sha256(&sw->wdoc, sha);
		json_object_set_new(o, "workload_sha256", json_string(sha));
	}
	json_object_set_new(o, "workload_name", json_string(sw->wname));
	for (i = 0; i < sw->nparams; i++) {
		json_t *p = json_object(), *v = json_array();
		int k;

		json_object_set_new(p, "path", json_string(sw->params[i].path.text));
		for (k = 0; k < sw->params[i].nvals; k++)
			json_array_append(v, sw->params[i].vals[k]);
		json_object_set_new(p, "values", v);
		json_array_append_new(a, p);
	}
	json_object_set_new(o, "params", a);
	/* only when set: a plan without it is a product, as before */
	if (sw->link)
		json_object_set_new(o, "link", json_true());
	if (sw->repeat > 1)
		json_object_set_new(o, "repeat", json_integer(sw->repeat));
	a = json_array();
	for (i = 0; i < sw->ndrops; i++)
		json_array_append_new(a, json_string(sw->drops[i].text));
	json_object_set_new(o, "drops", a);
	a = json_array();
	for (i = 0; sw->policies[i]; i++)
		json_array_append_new(a, json_string(sw->policies[i]));
	json_object_set_new(o, "policies", a);
	a = json_array();
	for (i = 0; sw->platforms[i]; i++)
		json_array_append_new(a, json_string(sw->platforms[i]));
	json_object_set_new(o, "platforms", a);
	json_object_set_new(o, "seed", json_integer((json_int_t)sw->seed));
	json_object_set_new(o, "points", json_integer(sw->npoints));
	/* the points' runs: a --resume must run the same */
	json_object_set_new(o, "duration", sw->duration ?
			    json_string(sw->duration) : json_null());
	if (sw->keep_traces)
		json_object_set_new(o, "keep_traces", json_true());
	/* how the points' seeds derive from "seed" (sweep_points.c) */
	json_object_set_new(o, "seeds", json_string(sw->unpaired ?
						    "unpaired" : "paired"));
	/* the plot's: --metric, else the workload's one candidate, else
	 * none (the task with the most activations, judged at collect) */
	json_object_set_new(o, "metric", metric ? json_string(metric) :
			    json_null());
	return o;
}

int sweep_plan_write(const struct sweep *sw, const char *metric,
		     const char *root)
{
	json_t *o = sweep_plan_json(sw, metric);
	char *f = xasprintf("%s/sweep.json", root);
	int ret = sweep_write_json(f, o);

	json_decref(o);
	free(f);
	return ret;
}

int sweep_plan_load(struct sweep_args *sa)
{
	char err[512];

	sa->planf = xasprintf("%s/sweep.json", sa->outdir);
	if (!outmark_present(sa->outdir)) {
		fprintf(stderr, "capsim: --resume: %s is not a sweep capsim started (no %s in it)\n",
			sa->outdir, OUTMARK_NAME);
		return -1;
	}
	sa->plan = sweep_load_json(sa->planf, err, sizeof(err));
	if (!sa->plan || sweep_plan_check(sa->plan, err, sizeof(err))) {
		fprintf(stderr, "capsim: --resume: %s: %s\n", sa->planf, err);
		return -1;
	}
	return 0;
}

/* @plan's member @key, an array of strings, as "a,b,c" (caller frees),
 * or NULL with the reason in @err */
static char *plan_list(json_t *plan, const char *key, char *err, size_t n)
{
	json_t *a = json_object_get(plan, key), *v;
	struct strbuf sb;
	size_t i;

	if (!json_is_array(a) || !json_array_size(a)) {
		err_fail(err, n, "%s: a list of names, not that", key);
		return NULL;
	}
	sb_init(&sb);
	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);

		if (!s || !*s || strchr(s, ',')) {
			err_fail(err, n, "%s[%zu]: a name (no comma)", key, i);
			sb_free(&sb);
			return NULL;
		}
		sb_printf(&sb, "%s%s", i ? "," : "", s);
	}
	return sb.buf;
}

/* The settings of the plan beyond its parameters into @sa and its
 * sweep; 0, or -1 with "FIELD: what is wrong" in @err */
static int plan_settings(struct sweep_args *sa, char *err, size_t n)
{
	struct sweep *sw = sa->sw;
	json_t *p = sa->plan, *v;
	const char *wp = json_string_value(json_object_get(p, "workload_path"));
	const char *seeds = json_string_value(json_object_get(p, "seeds"));
	size_t i;

	/* absolute when the plan has it: DIR alone resumes from anywhere */
	sw->wfile = wp ? wp : json_string_value(json_object_get(p, "workload"));
	if (!sw->wfile)
		return err_fail(err, n, "workload: a file name");
	sa->policies = sa->lists[0] = plan_list(p, "policies", err, n);
	sa->platforms = sa->lists[1] = plan_list(p, "platforms", err, n);
	if (!sa->policies || !sa->platforms)
		return -1;
	v = json_object_get(p, "seed");
	if (!json_is_integer(v))
		return err_fail(err, n, "seed: an integer");
	sw->seed = (unsigned long long)json_integer_value(v);
	v = json_object_get(p, "duration");
	if (json_is_string(v)) {
		char *end;
		double s = strtod(json_string_value(v), &end);

		if (end == json_string_value(v) || *end ||
		    !(s >= WL_DURATION_MIN_S && s <= WL_DURATION_MAX_S))
			return err_fail(err, n, "duration: seconds in [1e-06, 1e+06]");
		sw->duration = json_string_value(v);
	} else if (v && !json_is_null(v)) {
		return err_fail(err, n, "duration: a number of seconds as text, or null");
	}
	sw->repeat = sweep_plan_repeat(p);
	sw->link = json_is_true(json_object_get(p, "link"));
	sw->keep_traces = json_is_true(json_object_get(p, "keep_traces"));
	/* a plan without it is an older capsim's: its seeds were the
	 * parameters' hash */
	sw->unpaired = !seeds || !strcmp(seeds, "unpaired");
	if (seeds && !sw->unpaired && strcmp(seeds, "paired"))
		return err_fail(err, n, "seeds: \"paired\" or \"unpaired\"");
	json_array_foreach(json_object_get(p, "drops"), i, v) {
		struct dpath d;

		if (!json_is_string(v) ||
		    dpath_parse(json_string_value(v), &d, err, n))
			return err_fail(err, n, "drops[%zu]: a path", i);
		sw->drops = xrealloc(sw->drops, (size_t)(sw->ndrops + 1) *
				     sizeof(*sw->drops));
		sw->drops[sw->ndrops++] = d;
	}
	return 0;
}

int sweep_plan_args(struct sweep_args *sa)
{
	json_t *m = json_object_get(sa->plan, "metric");
	char err[512];

	if (plan_settings(sa, err, sizeof(err))) {
		fprintf(stderr, "capsim: --resume: %s: %s\n", sa->planf, err);
		return -1;
	}
	/* its parameters, their values as the plan has them */
	sa->plan_params = json_object_get(sa->plan, "params");
	if (!sa->metric && json_is_string(m))
		sa->metric = json_string_value(m);
	return 0;
}

/*
 * The first member of sweep.json that @want (this command's plan) has
 * otherwise, or NULL when they are the same: the sweep's id and metric
 * apart, and what an older capsim's plan lacks taken as it did
 * (seeds hashed from the values; no workload path or hash)
 */
static const char *plan_difference(json_t *want, json_t *have)
{
	static const char *const skip[] = { "id", "metric", NULL };
	static const char *const newer[] = { "workload_path",
					     "workload_sha256", NULL };
	const char *key;
	json_t *v;
	int i;

	json_object_foreach(want, key, v) {
		json_t *h = json_object_get(have, key);

		for (i = 0; skip[i] && strcmp(skip[i], key); i++)
			;
		if (skip[i])
			continue;
		for (i = 0; newer[i] && strcmp(newer[i], key); i++)
			;
		if (newer[i] && !h)
			continue;
		/* the same file, named from another directory */
		if (!strcmp(key, "workload") &&
		    json_object_get(have, "workload_path") &&
		    json_equal(json_object_get(want, "workload_path"),
			       json_object_get(have, "workload_path")))
			continue;
		if (!strcmp(key, "seeds") && !h &&
		    !strcmp(json_string_value(v), "unpaired"))
			continue;
		if (!json_equal(v, h))
			return key;
	}
	json_object_foreach(have, key, v)
		if (strcmp(key, "id") && strcmp(key, "metric") &&
		    !json_object_get(want, key))
			return key;
	return NULL;
}

int sweep_plan_compare(const struct sweep_args *sa, const char *metric)
{
	json_t *want = sweep_plan_json(sa->sw, metric);
	json_t *hm = json_object_get(sa->plan, "metric");
	const char *diff = plan_difference(want, sa->plan);

	if (diff) {
		char *a = json_dumps(json_object_get(want, diff), JSON_ENCODE_ANY | JSON_COMPACT);
		char *b = json_dumps(json_object_get(sa->plan, diff), JSON_ENCODE_ANY | JSON_COMPACT);

		fprintf(stderr, "capsim: --resume: this command's %s (%.200s) is not the sweep's in %s (%.200s): resume with the arguments that started it, or with -o DIR alone\n",
			diff, a ? a : "none", sa->planf, b ? b : "none");
		free(a);
		free(b);
		json_decref(want);
		return -1;
	}
	json_decref(want);
	if (metric && json_is_string(hm) && strcmp(json_string_value(hm), metric))
		fprintf(stderr, "capsim: --resume: --metric %s: the plot shows it, not the sweep's %s (%s)\n",
			metric, json_string_value(hm), sa->planf);
	return 0;
}
