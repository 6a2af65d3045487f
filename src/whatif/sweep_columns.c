// SPDX-License-Identifier: GPL-2.0
/*
 * sweep.csv's column names and their meanings. One time unit for every
 * column, ms, named in the column (resp_p95_ms); a parameter's column an
 * identifier a notebook can type (bg_capacity_max), its full --set path
 * in the sidecar sweep.columns.json. docs/outputs.md has the rules.
 */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "docpath.h"
#include "safe_write.h"
#include "spelling.h"
#include "sweep_columns.h"
#include "util.h"
#include "whatif.h"

/* A column suffix: its unit and what it measures, in words an axis can
 * carry */
struct col_kind {
	const char *suffix;
	const char *unit;	/* NULL: a count */
	const char *what;
};

static const struct col_kind task_kinds[SWEEP_TASK_COLS] = {
	{ "wlat_p95_ms", "ms", "wake-up latency p95" },
	{ "wlat_p99_ms", "ms", "wake-up latency p99" },
	{ "resp_p95_ms", "ms", "response p95" },
	{ "resp_p99_ms", "ms", "response p99" },
	{ "misses", NULL, "deadline misses" },
};

static const struct col_kind chain_kinds[SWEEP_CHAIN_COLS] = {
	{ "jank_pct", "%", "jank" },
	{ "lat_p50_ms", "ms", "latency p50" },
	{ "lat_p95_ms", "ms", "latency p95" },
	{ "lat_p99_ms", "ms", "latency p99" },
};

const char *sweep_task_column(int c)
{
	return c >= 0 && c < SWEEP_TASK_COLS ? task_kinds[c].suffix : NULL;
}

const char *sweep_chain_column(int c)
{
	return c >= 0 && c < SWEEP_CHAIN_COLS ? chain_kinds[c].suffix : NULL;
}

static const struct col_kind *kind_of(const struct col_kind *k, int n,
				      const char *suffix)
{
	int c;

	for (c = 0; c < n; c++)
		if (!strcmp(suffix, k[c].suffix))
			return &k[c];
	return NULL;
}

bool sweep_is_task_column(const char *suffix)
{
	return kind_of(task_kinds, SWEEP_TASK_COLS, suffix) != NULL;
}

/* What @col measures (its kind), and the task or chain it belongs to
 * (@owner, the caller frees; NULL for a whole-run column); NULL when
 * @col is no number column's shape. energy_mj and domN.avg_mhz are
 * given kinds of their own. */
static const struct col_kind *column_kind(const char *col, char **owner)
{
	static const struct col_kind energy = { "energy_mj", "mJ", "energy" },
		avg = { "avg_mhz", "MHz", "average frequency" };
	const char *dot = strrchr(col, '.');
	const struct col_kind *k;
	int d, n;

	*owner = NULL;
	if (!strcmp(col, "energy_mj"))
		return &energy;
	if (sscanf(col, "dom%d.avg_mhz%n", &d, &n) == 1 && !col[n]) {
		*owner = xasprintf("dom%d", d);
		return &avg;
	}
	if (!dot || dot == col)
		return NULL;
	if (!strncmp(col, "chain.", 6) && dot > col + 6 &&
	    (k = kind_of(chain_kinds, SWEEP_CHAIN_COLS, dot + 1))) {
		*owner = xasprintf("chain %.*s", (int)(dot - col - 6), col + 6);
		return k;
	}
	k = kind_of(task_kinds, SWEEP_TASK_COLS, dot + 1);
	if (k)
		*owner = xasprintf("%.*s", (int)(dot - col), col);
	return k;
}

char *sweep_retired_column(const char *name)
{
	size_t n = strlen(name);
	char *now, *owner;
	const struct col_kind *k;

	if (n < 4 || strcmp(name + n - 3, "_us"))
		return NULL;
	now = xasprintf("%.*s_ms", (int)n - 3, name);
	k = column_kind(now, &owner);
	free(owner);
	if (!k) {
		free(now);
		return NULL;
	}
	return now;
}

char *sweep_metric_hint(const char *name, char **known)
{
	char *now = sweep_retired_column(name), *h;

	if (!now)
		return spelling_hint(name, (const char *const *)known, false);
	/* an old notebook's name: reading it as another column, or as the
	 * same figure 1000 times smaller, would be a silent wrong answer */
	h = xasprintf(": sweep columns are in ms (no column is in us any more): did you mean \"%s\"?",
		      now);
	free(now);
	return h;
}

void sweep_column_range(const char *col, double *lo, double *hi)
{
	char *owner;
	const struct col_kind *k = column_kind(col, &owner);

	free(owner);
	*lo = -INFINITY;
	*hi = INFINITY;
	if (!k)
		return;
	/* every figure of a run is a share, a time, an energy, a frequency
	 * or a count: never below 0 */
	*lo = 0;
	if (k->unit && !strcmp(k->unit, "%"))
		*hi = 100;
}

bool sweep_column_bounded(const char *col)
{
	double lo, hi;

	sweep_column_range(col, &lo, &hi);
	return isfinite(lo) && isfinite(hi);
}

char *sweep_axis_label(const char *col)
{
	char *owner, *s;
	const struct col_kind *k = column_kind(col, &owner);

	if (!k)
		return xstrdup(col);
	s = xasprintf("%s%s%s%s%s%s", owner ? owner : "", owner ? " " : "",
		      k->what, k->unit ? " (" : "", k->unit ? k->unit : "",
		      k->unit ? ")" : "");
	free(owner);
	return s;
}

/* @s's characters outside [a-z0-9] (after lowering) as single '_'s, no
 * '_' at either end, appended to @sb after a '_' when @sb has some */
static void put_ident_part(struct strbuf *sb, const char *s)
{
	bool sep = sb->len > 0, gap = false;

	for (; *s; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');

		if (!ok) {
			gap = true;
			continue;
		}
		if (sep || (gap && sb->len > 0))
			sb_putc(sb, '_');
		sep = gap = false;
		sb_putc(sb, c);
	}
}

/*
 * The identifier of --set path @path: its keys and indices joined by
 * '_', each lowered with every run of other characters than [a-z0-9] one
 * '_'; left out: the containers every such path goes through (a leading
 * capsim or tasks, a taskgroups before a group's path, the platform.
 * prefix) and [*]. capsim.taskgroups["/bg/batch"].capacity_max is
 * bg_batch_capacity_max, platform.domains[1].rate_limit_us
 * domains_1_rate_limit_us. Never empty, never starting with a digit.
 */
static char *param_ident(const char *path)
{
	struct dpath dp;
	struct strbuf sb;
	char err[256], idx[32];
	int i;

	sb_init(&sb);
	if (dpath_parse(path, &dp, err, sizeof(err))) {
		put_ident_part(&sb, path);
	} else {
		for (i = 0; i < dp.n; i++) {
			const struct dpath_seg *sg = &dp.seg[i];

			if (sg->all)
				continue;
			if (!sg->key) {
				snprintf(idx, sizeof(idx), "%zu", sg->idx);
				put_ident_part(&sb, idx);
				continue;
			}
			if (i == 0 && !dp.platform &&
			    (!strcmp(sg->key, "capsim") ||
			     !strcmp(sg->key, "tasks")))
				continue;
			if (!strcmp(sg->key, "taskgroups") && i + 1 < dp.n &&
			    dp.seg[i + 1].key)
				continue;
			put_ident_part(&sb, sg->key);
		}
		dpath_free(&dp);
	}
	if (!sb.len) {
		sb_free(&sb);
		return xstrdup("param");
	}
	if (sb.buf[0] >= '0' && sb.buf[0] <= '9') {
		char *s = xasprintf("p_%s", sb.buf);

		sb_free(&sb);
		return s;
	}
	return sb.buf;
}

/* The fixed columns of both CSV files a parameter must not be named as */
static const char *const fixed_cols[] = {
	"point", "policy", "platform", "seed", "repeat", "status", "runs",
	"ok", NULL,
};

static bool name_taken(char **names, int n, const char *s)
{
	int i;

	for (i = 0; fixed_cols[i]; i++)
		if (!strcmp(fixed_cols[i], s))
			return true;
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return true;
	return false;
}

char **sweep_param_columns(json_t *params)
{
	size_t np = json_array_size(params), k;
	char **ids = xcalloc(np + 1, sizeof(char *));

	for (k = 0; k < np; k++) {
		const char *path = json_string_value(json_object_get(
			json_array_get(params, k), "path"));
		char *id = param_ident(path ? path : "");
		int dup = 1;

		/* two paths, or a path and a fixed column, alike: the later
		 * one numbered, in --set order */
		while (name_taken(ids, (int)k, id)) {
			char *base = param_ident(path ? path : "");

			free(id);
			id = xasprintf("%s_%d", base, ++dup);
			free(base);
		}
		ids[k] = id;
	}
	return ids;
}

/* A key longer than this is shortened to its last word */
#define KEY_SHORT_MAX 8

/* The words a member name ends with that only give a unit */
static bool unit_word(const char *w, size_t n)
{
	static const char *const units[] = { "us", "ms", "s", "mw", "khz",
					     "mhz", "pct", NULL };
	int i;

	for (i = 0; units[i]; i++)
		if (strlen(units[i]) == n && !strncmp(units[i], w, n))
			return true;
	return false;
}

/*
 * @path's key on a plot's labels (caller frees): its last member's name
 * (capsim.util_est: util_est), one longer than KEY_SHORT_MAX its last
 * word that is not a unit (capacity_max: max, rate_limit_us: limit),
 * with [A-Za-z0-9_-] only; NULL when it has no such member (an index
 * last: opps[4]) or nothing is left
 */
static char *short_key(const char *path)
{
	struct dpath dp;
	char err[256], *key = NULL, *w;
	const char *last = NULL, *s, *e;
	int i;

	if (dpath_parse(path, &dp, err, sizeof(err)))
		return NULL;
	for (i = dp.n - 1; i >= 0 && !last; i--)
		if (dp.seg[i].key)
			last = dp.seg[i].key;
		else if (!dp.seg[i].all)
			break;
	if (last && strlen(last) > KEY_SHORT_MAX) {
		/* the last word of last that is not a unit */
		for (e = last + strlen(last); e > last; e = s - 1) {
			for (s = e; s > last && s[-1] != '_'; s--)
				;
			if (e > s && !unit_word(s, (size_t)(e - s))) {
				key = xasprintf("%.*s", (int)(e - s), s);
				break;
			}
			if (s == last)
				break;
		}
	}
	if (!key && last)
		key = xstrdup(last);
	dpath_free(&dp);
	for (w = key; w && *w; w++)
		if (!((*w >= 'a' && *w <= 'z') || (*w >= 'A' && *w <= 'Z') ||
		      (*w >= '0' && *w <= '9') || *w == '_' || *w == '-'))
			*w = '_';
	/* a name of separators only says nothing */
	if (key && strspn(key, "_") == strlen(key)) {
		free(key);
		key = NULL;
	}
	return key;
}

char **sweep_param_keys(json_t *params)
{
	char **cols = sweep_param_columns(params);
	size_t np = json_array_size(params), k, j;
	char **keys = xcalloc(np + 1, sizeof(char *));
	bool *clash = xcalloc(np + 1, sizeof(bool));

	for (k = 0; k < np; k++) {
		const char *path = json_string_value(json_object_get(
			json_array_get(params, k), "path"));

		keys[k] = short_key(path ? path : "");
	}
	/* two alike (bg's and fg's capacity_max): those take their column
	 * names, unique by construction */
	for (k = 0; k < np; k++)
		for (j = 0; j < np; j++)
			if (j != k && keys[k] && keys[j] &&
			    !strcmp(keys[k], keys[j]))
				clash[k] = true;
	for (k = 0; k < np; k++) {
		if (keys[k] && !clash[k])
			continue;
		free(keys[k]);
		keys[k] = xstrdup(cols[k]);
	}
	free(clash);
	strv_free(cols);
	return keys;
}

/* The unit a --set path's value is in, from its last key's suffix (the
 * input files' own convention); NULL when the name does not say */
static const char *param_unit(const char *path)
{
	static const char *const sfx[][2] = {
		{ "_us", "us" }, { "_ms", "ms" }, { "_mw", "mW" },
		{ "_khz", "kHz" }, { "_mhz", "MHz" }, { "_pct", "%" },
	};
	size_t n = strlen(path), k;

	for (k = 0; k < ARRAY_SIZE(sfx); k++) {
		size_t l = strlen(sfx[k][0]);

		if (n > l && !strcmp(path + n - l, sfx[k][0]))
			return sfx[k][1];
	}
	return NULL;
}

static json_t *col_entry(const char *name, const char *unit,
			 const char *meaning)
{
	return json_pack("{s:s, s:o, s:s}", "name", name, "unit",
			 unit ? json_string(unit) : json_null(), "meaning",
			 meaning);
}

/* The point, parameter, policy and platform columns, both files' */
static void put_point_cols(json_t *a, json_t *params, char **ids)
{
	size_t k;

	json_array_append_new(a, col_entry("point", NULL,
		"the point's number (with repeats in sweep.csv: the run's), from 1"));
	for (k = 0; ids[k]; k++) {
		const char *path = json_string_value(json_object_get(
			json_array_get(params, k), "path"));
		json_t *e = col_entry(ids[k], param_unit(path),
				      "the value --set gave this path at the point, as JSON");

		json_object_set_new(e, "set", json_string(path));
		json_array_append_new(a, e);
	}
	json_array_append_new(a, col_entry("policy", NULL,
		"the clamp policy the point ran under (capsim run --policy)"));
	json_array_append_new(a, col_entry("platform", NULL,
		"the platform the point ran on (capsim run --platform)"));
}

/* Number column @col's meaning, "energy of the whole run (all domains)"
 * and the like */
static json_t *number_entry(const char *col, const char *suffix,
			    const char *stat)
{
	char *owner, *name = xasprintf("%s%s", col, suffix), *m;
	const struct col_kind *k = column_kind(col, &owner);
	json_t *e;

	if (!k)
		m = xasprintf("%s%s", stat, col);
	else if (!owner)
		m = xasprintf("%s%s of the run (every domain)", stat, k->what);
	else if (!strncmp(owner, "chain ", 6))
		m = xasprintf("%s%s of %s (trigger to the last task's completion; jank: %% of periods late or not finished)",
			      stat, k->what, owner);
	else if (!strncmp(col, "dom", 3) && strchr(col, '.') &&
		 !strcmp(strchr(col, '.'), ".avg_mhz"))
		m = xasprintf("%s%s of domain %s (time-weighted)", stat,
			      k->what, owner + 3);
	else
		m = xasprintf("%s%s of task %s (its name in the workload)",
			      stat, k->what, owner);
	e = col_entry(name, k ? k->unit : NULL, m);
	free(owner);
	free(name);
	free(m);
	return e;
}

static json_t *csv_columns(json_t *params, char **ids, char **numbers,
			   bool repeats)
{
	json_t *a = json_array();
	int i;

	put_point_cols(a, params, ids);
	json_array_append_new(a, col_entry("seed", NULL,
		"the run's --seed: from --seed and the run's repeat, the same for every point (with --unpaired from the parameter values too)"));
	if (repeats)
		json_array_append_new(a, col_entry("repeat", NULL,
			"the run's number among its point's --repeat runs, from 1"));
	json_array_append_new(a, col_entry("status", NULL,
		"ok, failed (its run.log says why) or missing"));
	for (i = 0; numbers[i]; i++)
		json_array_append_new(a, number_entry(numbers[i], "", ""));
	return a;
}

static json_t *summary_columns(json_t *params, char **ids, char **numbers)
{
	static const char *const sfx[][2] = {
		{ "_mean", "mean over the point's runs of: " },
		{ "_sd", "sample standard deviation over the point's runs of: " },
		{ "_ci95", "half-width of the 95 % confidence interval (Student's t) of the mean of: " },
		{ "_median", "median over the point's runs of: " },
		{ "_ci_lo", "lower end of the mean's 95 % t-interval, clipped to the column's range, of: " },
		{ "_ci_hi", "upper end of the mean's 95 % t-interval, clipped to the column's range, of: " },
		{ "_boot_lo", "lower end of the percentile bootstrap 95 % interval of the mean (2000 resamples, a fixed seed) of: " },
		{ "_boot_hi", "upper end of the percentile bootstrap 95 % interval of the mean (2000 resamples, a fixed seed) of: " },
	};
	json_t *a = json_array();
	int i, q;

	put_point_cols(a, params, ids);
	json_array_append_new(a, col_entry("runs", NULL, "--repeat: runs per point"));
	json_array_append_new(a, col_entry("ok", NULL, "the point's runs that succeeded"));
	for (i = 0; numbers[i]; i++)
		for (q = 0; q < (sweep_column_bounded(numbers[i]) ?
				 SWEEP_SUMMARY_STATS : 3); q++)
			json_array_append_new(a, number_entry(numbers[i],
							      sfx[q][0],
							      sfx[q][1]));
	for (q = 0; q < SWEEP_SUMMARY_STATS; q++) {
		char *n = xasprintf("metric%s", sfx[q][0]);
		char *m = xasprintf("%sthe --metric (\"metric\" above), in its columns' units",
				    sfx[q][1]);

		json_array_append_new(a, col_entry(n, NULL, m));
		free(n);
		free(m);
	}
	return a;
}

int sweep_columns_write(const char *dir, json_t *params, char **numbers,
			bool repeats, const char *metric)
{
	char *fin = xasprintf("%s/sweep.columns.json", dir);
	char **ids = sweep_param_columns(params);
	json_t *o = json_object();
	FILE *f;
	int ret = -1;

	json_object_set_new(o, "time_unit", json_string("ms"));
	json_object_set_new(o, "note", json_string(
		"Every time is in ms and every column names its unit. A parameter's column is an identifier made from its --set path (\"set\"). The metric columns keep their namespace: TASK.COLUMN, TASK a task's name in the workload (an instance: NAME-K), chain.NAME.COLUMN, NAME a key of the workload's capsim.chains or, for a chain inferred from resume/suspend, its trigger task's name (docs/simulator.md), domN.avg_mhz per platform domain: another workload gives other columns. docs/outputs.md."));
	json_object_set_new(o, "metric", json_string(metric));
	json_object_set_new(o, "sweep.csv", csv_columns(params, ids, numbers,
							   repeats));
	if (repeats)
		json_object_set_new(o, "sweep-summary.csv",
				    summary_columns(params, ids, numbers));
	f = safe_fopen(fin);
	if (f && json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER)) {
		safe_fdiscard(f);
		errno = EIO;
	} else if (f && !safe_fclose(f)) {
		ret = 0;
	}
	if (ret)
		fprintf(stderr, "capsim: cannot write %s: %s\n", fin,
			strerror(errno));
	json_decref(o);
	strv_free(ids);
	free(fin);
	return ret;
}
