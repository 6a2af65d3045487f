// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's --metric checked before any point runs: every name it uses
 * must be a column sweep.csv will have, judged from the workload (its
 * tasks and chains) and the platforms (their domains); otherwise exit 2
 * with the names it may use.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "metric_expr.h"
#include "sweep.h"
#include "sweep_columns.h"
#include "util.h"
#include "workload.h"
#include "whatif.h"

/* "instance"'s largest value (workload_rtapp.c checks it later) */
#define INSTANCE_MAX 1024

struct metric_scope {
	json_t *wroot;		/* the workload document */
	json_t *chains;		/* its chains by name (workload_chains()) */
	bool edits_platform;	/* --set edits the platforms: any domain */
	int ndoms;		/* the most domains of the platforms */
};

/*
 * The chains of workload @wroot, an object keyed by name: capsim.chains
 * as written, or without it those capsim infers from the tasks' timer,
 * resume and suspend (src/input/workload_chain_infer.c), read by the
 * parser quietly (the run says it). The caller puts it.
 */
static json_t *workload_chains(json_t *wroot)
{
	json_t *declared = json_object_get(json_object_get(wroot, "capsim"),
					   "chains"), *names;
	struct workload *wl;
	struct diag d;
	char *text;
	int i;

	if (declared)
		return json_incref(declared);
	names = json_object();
	text = json_dumps(wroot, JSON_COMPACT);
	if (!text)
		return names;
	diag_init(&d, true);
	wl = workload_load_buffer("workload", text, &d);
	for (i = 0; wl && i < wl->nchains; i++)
		json_object_set_new(names, wl->chains[i].name, json_true());
	workload_free(wl);
	diag_free(&d);
	free(text);
	return names;
}

/* @name (of the length up to @dot) is task NAME of the workload, or its
 * instance NAME-K */
static bool task_name_known(json_t *tasks, const char *name, const char *dot)
{
	const char *key;
	json_t *v;

	json_object_foreach(tasks, key, v) {
		size_t len = strlen(key);
		const char *p;

		if (len > (size_t)(dot - name) || strncmp(name, key, len))
			continue;
		if (name + len == dot)
			return true;
		p = name + len;
		if (*p++ != '-' || p == dot)
			continue;
		while (p < dot && *p >= '0' && *p <= '9')
			p++;
		if (p == dot)
			return true;
	}
	return false;
}

/*
 * @name is a column sweep.csv will have: energy_mj, domN.avg_mhz (N below
 * the platforms' domains, unless --set edits the platforms) or
 * TASK.COLUMN, TASK a task of the workload (NAME, or NAME-K for its
 * instances), or chain.NAME.COLUMN, NAME a chain of it, declared or
 * inferred
 */
static bool column_known(void *ctx, const char *name)
{
	const struct metric_scope *sc = ctx;
	const char *dot = strrchr(name, '.');
	int k, n;

	if (!strcmp(name, "energy_mj"))
		return true;
	if (!strncmp(name, "chain.", 6))
		return sweep_is_chain_metric(sc->chains, name);
	if (sscanf(name, "dom%d.avg_mhz%n", &k, &n) == 1 && !name[n] && k >= 0)
		return sc->edits_platform || k < sc->ndoms;
	if (!dot || !sweep_is_task_column(dot + 1))
		return false;
	return task_name_known(json_object_get(sc->wroot, "tasks"), name, dot);
}

/* @sv with @s appended (a NULL-ended array, grown by one) */
static char **strv_push(char **sv, int *n, char *s)
{
	sv = xrealloc(sv, (size_t)(*n + 2) * sizeof(char *));
	sv[(*n)++] = s;
	sv[*n] = NULL;
	return sv;
}

/* The names a metric of this workload may use, for the message and the
 * did-you-mean (NULL-ended, strv_free()) */
static char **known_names(const struct metric_scope *sc)
{
	json_t *v;
	const char *key, *col;
	char **sv = NULL;
	int k, n = 0;

	sv = strv_push(sv, &n, xstrdup("energy_mj"));
	for (k = 0; k < sc->ndoms; k++)
		sv = strv_push(sv, &n, xasprintf("dom%d.avg_mhz", k));
	json_object_foreach(json_object_get(sc->wroot, "tasks"), key, v)
		for (k = 0; (col = sweep_task_column(k)); k++)
			sv = strv_push(sv, &n, xasprintf("%s.%s", key, col));
	json_object_foreach(sc->chains, key, v)
		for (k = 0; (col = sweep_chain_column(k)); k++)
			sv = strv_push(sv, &n, xasprintf("chain.%s.%s", key,
							 col));
	return sv;
}

int sweep_metric_check(const char *metric, json_t *wroot, bool edits_platform,
		       int ndoms)
{
	struct metric_scope sc = { wroot, workload_chains(wroot),
				   edits_platform, ndoms };
	char err[256];
	const char *unknown;
	struct metric_expr *e = metric_expr_parse(metric, column_known, &sc,
						  err, sizeof(err), &unknown);
	char **names, *hint;
	struct strbuf sb;
	int k;

	if (e) {
		metric_expr_free(e);
		json_decref(sc.chains);
		return 0;
	}
	names = known_names(&sc);
	json_decref(sc.chains);
	hint = unknown ? sweep_metric_hint(err + strlen("unknown name "), names) :
	       xstrdup("");
	sb_init(&sb);
	for (k = 0; names[k]; k++)
		sb_printf(&sb, "%s%s", k ? ", " : "", names[k]);
	fprintf(stderr, "capsim: --metric %.100s will not be a sweep.csv column or an expression over its columns: %s%s\n"
		"  names: %s%s (an instance of a task: TASK-K.COLUMN)\n"
		"  expressions: numbers, + - * / and parentheses over those names, e.g. 'energy_mj/1000'\n"
		"see `capsim sweep --help`\n",
		metric, err, hint, sb.buf, edits_platform ?
		", domN.avg_mhz for any N (--set edits the platforms)" : "");
	sb_free(&sb);
	free(hint);
	strv_free(names);
	return -1;
}

/* @o (a task or one of its phases) has an event that waits: a timer, a
 * sleep or a suspend (rt-app reads events by key prefix: sleep_a, timer1) */
static bool events_wait(json_t *o)
{
	static const char *const waits[] = { "timer", "sleep", "suspend" };
	const char *key;
	json_t *v;
	size_t k;

	json_object_foreach(o, key, v)
		for (k = 0; k < ARRAY_SIZE(waits); k++)
			if (!strncmp(key, waits[k], strlen(waits[k])))
				return true;
	return false;
}

/* Task @t wakes up, so that its response time is a question: a hog that
 * only runs has none worth plotting */
static bool task_wakes(json_t *t)
{
	const char *key;
	json_t *ph;

	if (events_wait(t))
		return true;
	json_object_foreach(json_object_get(t, "phases"), key, ph)
		if (events_wait(ph))
			return true;
	return false;
}

/* The metrics a sweep of @wroot could be about, into @sb ", "-separated:
 * each chain's jank when the workload has chains, declared or inferred
 * (it says so what it measures), else each waking task's (each instance's) response p95.
 * Returns how many. */
static int candidates(json_t *wroot, struct strbuf *sb)
{
	json_t *chains = workload_chains(wroot), *t;
	const char *key;
	int n = 0;

	json_object_foreach(chains, key, t)
		sb_printf(sb, "%schain.%s.jank_pct", n++ ? ", " : "", key);
	json_decref(chains);
	if (n)
		return n;
	json_object_foreach(json_object_get(wroot, "tasks"), key, t) {
		json_t *inst = json_object_get(t, "instance");
		long long k, ni = json_is_integer(inst) ?
				  json_integer_value(inst) : 1;

		if (!json_is_object(t) || !task_wakes(t))
			continue;
		/* the workload's check refuses it later; listing billions of
		 * instances here first would never end */
		if (ni > INSTANCE_MAX)
			ni = 1;
		if (ni <= 1)
			sb_printf(sb, "%s%s.resp_p95_ms", n++ ? ", " : "", key);
		for (k = 0; ni > 1 && k < ni; k++)
			sb_printf(sb, "%s%s-%lld.resp_p95_ms", n++ ? ", " : "",
				  key, k);
	}
	return n;
}

int sweep_default_metric(json_t *wroot, const char *where, char **metric)
{
	struct strbuf sb;
	int n;

	sb_init(&sb);
	n = candidates(wroot, &sb);
	*metric = NULL;
	if (n == 1) {
		*metric = sb.buf;
		return 0;
	}
	if (n > 1)
		fprintf(stderr, "capsim: %s has %d candidates for the Pareto plot's metric and no --metric names one: %s\n"
			"  (--metric takes one of them, any sweep.csv column or an expression over columns; see `capsim sweep --help`)\n",
			where, n, sb.buf);
	sb_free(&sb);
	return n > 1 ? -1 : 0;
}
