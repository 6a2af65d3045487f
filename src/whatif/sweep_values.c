// SPDX-License-Identifier: GPL-2.0
/*
 * Every --set value of a sweep checked against its field's type and
 * range before any point runs or any job is emitted: by the parser
 * `capsim run` uses (the same limits, the same words), on a trial copy
 * of the document with the value set. A value out of range would
 * otherwise fail at every point it is in, each run naming the edited
 * copy in its point directory; with --emit-jobs the sweep exited 0 and
 * the cluster found out (tasks.fg.run=1e300:1e300:1).
 *
 * Each value is tried with the other parameters at their first values,
 * and only an error at the parameter's own field refuses it: a rule
 * that links two fields (util_min <= util_max) may hold at other points
 * of the sweep, and a point where it does not fails on its own, named.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc_set.h"
#include "sweep_internal.h"
#include "util.h"

/* A parameter with at most so many values has each tried; one with
 * more its ends, its least and largest and its first non-integer */
#define TRY_ALL_MAX 256

/* The indices of @sp's values to try into @idx (room for TRY_ALL_MAX or
 * 5); their count */
static int values_to_try(const struct sweep_param *sp, int *idx)
{
	int k, n = 0, lo = 0, hi = 0, frac = -1;

	if (sp->nvals <= TRY_ALL_MAX) {
		for (k = 0; k < sp->nvals; k++)
			idx[n++] = k;
		return n;
	}
	for (k = 0; k < sp->nvals; k++) {
		double x = json_number_value(sp->vals[k]);

		if (!json_is_number(sp->vals[k]))
			continue;
		if (x < json_number_value(sp->vals[lo]))
			lo = k;
		if (x > json_number_value(sp->vals[hi]))
			hi = k;
		if (frac < 0 && x != floor(x))
			frac = k;
	}
	idx[n++] = 0;
	idx[n++] = sp->nvals - 1;
	idx[n++] = lo;
	idx[n++] = hi;
	if (frac >= 0)
		idx[n++] = frac;
	return n;
}

/* @doc (the workload, or platform @pl's) with the drops applied when it
 * is the workload, and every parameter that edits it but @skip at its
 * first value; NULL when an edit does not apply (said by the sweep's
 * own checks, or at its points) */
static json_t *base_doc(const struct sweep *sw, int pl, int skip)
{
	bool platform = pl >= 0;
	json_t *d = json_deep_copy(platform ? sw->pdocs[pl] : sw->wdoc.root);
	char err[512];
	int i;

	for (i = 0; !platform && i < sw->ndrops; i++)
		if (dpath_drop(d, &sw->drops[i], err, sizeof(err)))
			goto bad;
	for (i = 0; i < sw->nparams; i++)
		if (i != skip && sw->params[i].path.platform == platform &&
		    dpath_set(d, &sw->params[i].path,
			      json_deep_copy(sw->params[i].vals[0]), err,
			      sizeof(err)))
			goto bad;
	return d;
bad:
	json_decref(d);
	return NULL;
}

/* Parameter @i's values in @doc (platform @pl's, or the workload when
 * -1); 0, or -1 said with the --set that gave them (@set, or NULL when
 * they are a plan's) */
static int check_param(const struct sweep *sw, int i, int pl, const char *set)
{
	const struct sweep_param *sp = &sw->params[i];
	json_t *base = base_doc(sw, pl, i);
	int idx[TRY_ALL_MAX], n, k, ret = 0;

	if (!base)
		return 0;
	n = values_to_try(sp, idx);
	for (k = 0; k < n && !ret; k++) {
		char *err = doc_set_field_refusal(base, &sp->path,
						  sp->vals[idx[k]], pl >= 0);
		char *v;

		if (!err)
			continue;
		v = json_dumps(sp->vals[idx[k]], JSON_ENCODE_ANY | JSON_COMPACT |
			       JSON_REAL_PRECISION(12));
		fprintf(stderr, "capsim: --set %.200s: the value %.100s%s%s: %s\nsee `capsim sweep --help`\n",
			set ? set : sp->path.text, v ? v : "?",
			pl >= 0 ? " on platform " : "",
			pl >= 0 ? sw->platforms[pl] : "", err);
		free(v);
		free(err);
		ret = -1;
	}
	json_decref(base);
	return ret;
}

int sweep_check_values(const struct sweep *sw, char *const *sets)
{
	char *err;
	int i, pl;

	/* a document refused as it is: its own error, which the points
	 * report (no --set caused it) */
	err = doc_set_refusal(sw->wdoc.root, false);
	for (i = 0; !err && i < sw->nparams; i++)
		if (!sw->params[i].path.platform &&
		    check_param(sw, i, -1, sets ? sets[i] : NULL))
			return -1;
	free(err);
	for (pl = 0; sw->edits_platform && sw->platforms[pl]; pl++) {
		err = doc_set_refusal(sw->pdocs[pl], true);
		for (i = 0; !err && i < sw->nparams; i++)
			if (sw->params[i].path.platform &&
			    check_param(sw, i, pl, sets ? sets[i] : NULL))
				return -1;
		free(err);
	}
	return 0;
}
