// SPDX-License-Identifier: GPL-2.0
/*
 * The schema of the files `sweep --collect` reads back from a sweep
 * directory: sweep.json, each point.json and each point's summary.json.
 * A sweep directory may sit on a shared filesystem and be edited by hand,
 * so every field the collection uses is checked for its type and range
 * before it is used, and a bad file is named with the field.
 */
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"
#include "util.h"

#define MAX_JSON_BYTES (64 << 20)	/* as capsim's other inputs */
#define MAX_CPUS 4096
#define MAX_TASKS 262144		/* the simulator's limit */
#define MAX_PID 4194304			/* the kernel's PID_MAX_LIMIT */
/* the per-task per-CPU residency the reader allocates */
#define MAX_TASK_CPUS (1 << 24)
/* integers a double keeps exact: the readers go through doubles */
#define MAX_EXACT 9007199254740992.0

enum {
	T_ABSENT = 1, T_NULL = 2, T_STR = 4, T_INT = 8, T_REAL = 16,
	T_OBJ = 32, T_ARR = 64, T_NUM = T_INT | T_REAL,
};

static int type_of(const json_t *v)
{
	if (!v)
		return T_ABSENT;
	switch (json_typeof(v)) {
	case JSON_NULL: return T_NULL;
	case JSON_STRING: return T_STR;
	case JSON_INTEGER: return T_INT;
	case JSON_REAL: return T_REAL;
	case JSON_OBJECT: return T_OBJ;
	case JSON_ARRAY: return T_ARR;
	default: return 0;	/* true, false */
	}
}

static const char *type_name(const json_t *v)
{
	static const char *const names[] = {
		[JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array",
		[JSON_STRING] = "a string", [JSON_INTEGER] = "an integer",
		[JSON_REAL] = "a real", [JSON_TRUE] = "true",
		[JSON_FALSE] = "false", [JSON_NULL] = "null",
	};

	return v ? names[json_typeof(v)] : "missing";
}

static const char *want_name(int want)
{
	switch (want & ~(T_ABSENT | T_NULL)) {
	case T_STR: return "a string";
	case T_INT: return "an integer";
	case T_NUM: return "a number";
	case T_OBJ: return "an object";
	case T_ARR: return "an array";
	default: return "a JSON value";
	}
}

/* @o's member @key is of a type in @want; @where prefixes the field */
static int need(json_t *o, const char *where, const char *key, int want,
		char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);

	if (type_of(v) & want)
		return 0;
	return err_fail(err, errlen, "%s%s: %s%s, not %s", where, key,
		    want_name(want), want & T_NULL ? " or null" : "",
		    type_name(v));
}

/* ... and, when an integer or a number, within [lo, hi] */
static int need_num(json_t *o, const char *where, const char *key, int want,
		    double lo, double hi, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);
	double x;

	if (need(o, where, key, want, err, errlen))
		return -1;
	if (!json_is_number(v))
		return 0;
	x = json_number_value(v);
	if (x >= lo && x <= hi)
		return 0;
	return err_fail(err, errlen, "%s%s: %g is out of range: allowed [%g, %g]",
		    where, key, x, lo, hi);
}

json_t *sweep_load_json(const char *path, char *err, size_t errlen)
{
	struct stat st;
	json_error_t e;
	json_t *v;
	FILE *f;
	/* O_NONBLOCK: a FIFO put in the file's place must not hang us */
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		err_fail(err, errlen, "cannot read: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > MAX_JSON_BYTES) {
		int why = errno;

		err_fail(err, errlen, "cannot read: %s",
		     fstat(fd, &st) ? strerror(why) :
		     !S_ISREG(st.st_mode) ? "not a regular file" :
		     "larger than 64 MiB");
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		err_fail(err, errlen, "cannot read: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	v = json_loadf(f, JSON_REJECT_DUPLICATES, &e);
	fclose(f);
	if (!v)
		err_fail(err, errlen, "%d:%d: %s", e.line, e.column, e.text);
	return v;
}

int sweep_plan_repeat(json_t *plan)
{
	json_t *r = json_object_get(plan, "repeat");

	return json_is_integer(r) ? (int)json_integer_value(r) : 1;
}

int sweep_plan_check(json_t *plan, char *err, size_t errlen)
{
	json_t *params = json_object_get(plan, "params"), *p;
	size_t i;

	if (!json_is_object(plan))
		return err_fail(err, errlen, "the plan is %s, not an object",
			    type_name(plan));
	if (need(plan, "", "params", T_ARR, err, errlen) ||
	    need_num(plan, "", "points", T_INT, 1, SWEEP_MAX_POINTS, err,
		     errlen) ||
	    need_num(plan, "", "repeat", T_INT | T_ABSENT, 1, SWEEP_MAX_REPEAT,
		     err, errlen) ||
	    need(plan, "", "metric", T_STR | T_NULL | T_ABSENT, err, errlen))
		return -1;
	/* the runs of a point are consecutive: whole points only */
	if (json_integer_value(json_object_get(plan, "points")) %
	    sweep_plan_repeat(plan))
		return err_fail(err, errlen, "points: %lld is not a multiple of repeat %d",
				(long long)json_integer_value(json_object_get(plan, "points")),
				sweep_plan_repeat(plan));
	json_array_foreach(params, i, p) {
		char where[48];

		snprintf(where, sizeof(where), "params[%zu].", i);
		if (!json_is_object(p))
			return err_fail(err, errlen, "params[%zu]: an object, not %s",
				    i, type_name(p));
		if (need(p, where, "path", T_STR, err, errlen) ||
		    need(p, where, "values", T_ARR, err, errlen))
			return -1;
	}
	return 0;
}

int sweep_point_check(json_t *pj, json_t *plan_params, int id, char *err,
		      size_t errlen)
{
	json_t *params = json_object_get(pj, "params"), *p;
	size_t i;

	if (!json_is_object(pj))
		return err_fail(err, errlen, "the point is %s, not an object",
			    type_name(pj));
	if (need_num(pj, "", "id", T_INT, id, id, err, errlen) ||
	    need(pj, "", "params", T_OBJ, err, errlen) ||
	    need(pj, "", "policy", T_STR, err, errlen) ||
	    need(pj, "", "platform", T_STR, err, errlen) ||
	    need_num(pj, "", "seed", T_INT, 0, MAX_EXACT, err, errlen) ||
	    need_num(pj, "", "repeat", T_INT | T_ABSENT, 1, SWEEP_MAX_REPEAT,
		     err, errlen) ||
	    need(pj, "", "command", T_STR, err, errlen) ||
	    need(pj, "", "platform_arg", T_STR | T_ABSENT, err, errlen))
		return -1;
	json_array_foreach(plan_params, i, p) {
		const char *path = json_string_value(json_object_get(p, "path"));

		if (path && !json_object_get(params, path))
			return err_fail(err, errlen, "params: no value for %s (a parameter of sweep.json)",
				    path);
	}
	return 0;
}

static int check_pcts(json_t *o, const char *where, char *err, size_t errlen)
{
	static const char *const keys[] = { "p50", "p95", "p99" };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(keys); k++)
		if (need(o, where, keys[k], T_NUM | T_NULL | T_ABSENT, err,
			 errlen))
			return -1;
	return 0;
}

/* An object of numbers keyed by integers in [0, @max] */
static int check_keyed(json_t *o, const char *where, double max, char *err,
		       size_t errlen)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v) {
		char *end;
		double k;

		errno = 0;
		k = strtod(key, &end);
		if (!*key || *end || errno || key[0] < '0' || key[0] > '9' ||
		    k > max)
			return err_fail(err, errlen, "%s: key \"%.40s\": an integer in [0, %g]",
				    where, key, max);
		if (!json_is_number(v))
			return err_fail(err, errlen, "%s.%s: a number, not %s",
				    where, key, type_name(v));
	}
	return 0;
}

static int check_task(json_t *t, size_t i, int ncpus, char *err,
		      size_t errlen)
{
	char where[64], sub[96];
	json_t *r;

	snprintf(where, sizeof(where), "tasks[%zu].", i);
	if (!json_is_object(t))
		return err_fail(err, errlen, "tasks[%zu]: an object, not %s", i,
			    type_name(t));
	if (need(t, where, "name", T_STR, err, errlen) ||
	    need(t, where, "group", T_STR | T_NULL | T_ABSENT, err, errlen) ||
	    need(t, where, "comm", T_STR | T_ABSENT, err, errlen) ||
	    need_num(t, where, "pid", T_INT, 0, MAX_PID, err, errlen) ||
	    need_num(t, where, "activations", T_INT, 0, MAX_EXACT, err,
		     errlen) ||
	    need_num(t, where, "deadline_misses", T_INT | T_NULL | T_ABSENT,
		     0, MAX_EXACT, err, errlen) ||
	    need(t, where, "wakeup_latency_us", T_OBJ | T_ABSENT, err,
		 errlen) ||
	    need(t, where, "response_us", T_OBJ | T_ABSENT, err, errlen) ||
	    need(t, where, "runtime_s", T_NUM | T_ABSENT, err, errlen) ||
	    need(t, where, "cpu_residency_s", T_OBJ | T_ABSENT, err, errlen))
		return -1;
	snprintf(sub, sizeof(sub), "%swakeup_latency_us.", where);
	if (check_pcts(json_object_get(t, "wakeup_latency_us"), sub, err,
		       errlen))
		return -1;
	snprintf(sub, sizeof(sub), "%sresponse_us.", where);
	r = json_object_get(t, "response_us");
	if (r && (check_pcts(r, sub, err, errlen) ||
		  need_num(r, sub, "count", T_INT, 0, MAX_EXACT, err, errlen)))
		return -1;
	snprintf(sub, sizeof(sub), "%scpu_residency_s", where);
	return check_keyed(json_object_get(t, "cpu_residency_s"), sub,
			   ncpus - 1, err, errlen);
}

static int check_domain(json_t *d, size_t i, char *err, size_t errlen)
{
	char where[64], sub[96];
	json_t *c;
	size_t k;

	snprintf(where, sizeof(where), "domains[%zu].", i);
	if (!json_is_object(d))
		return err_fail(err, errlen, "domains[%zu]: an object, not %s", i,
			    type_name(d));
	if (need(d, where, "cpus", T_ARR, err, errlen) ||
	    need(d, where, "residency_s", T_OBJ, err, errlen) ||
	    need(d, where, "avg_khz", T_NUM | T_NULL | T_ABSENT, err,
		 errlen) ||
	    need(d, where, "energy_mj", T_NUM | T_NULL | T_ABSENT, err,
		 errlen))
		return -1;
	if (json_array_size(json_object_get(d, "cpus")) > MAX_CPUS)
		return err_fail(err, errlen, "%scpus: more than %d CPUs", where,
			    MAX_CPUS);
	json_array_foreach(json_object_get(d, "cpus"), k, c) {
		if (!json_is_integer(c) || json_integer_value(c) < 0 ||
		    json_integer_value(c) >= MAX_CPUS)
			return err_fail(err, errlen, "%scpus[%zu]: a CPU id in [0, %d]",
				    where, k, MAX_CPUS - 1);
	}
	snprintf(sub, sizeof(sub), "%sresidency_s", where);
	return check_keyed(json_object_get(d, "residency_s"), sub, 4294967295.0,
			   err, errlen);
}

/* The group writes a summary of an older capsim is joined with its trace
 * by (run_metrics_load()) */
static int check_write(json_t *w, size_t i, char *err, size_t errlen)
{
	char where[64];

	snprintf(where, sizeof(where), "group_writes[%zu].", i);
	if (!json_is_object(w))
		return err_fail(err, errlen, "group_writes[%zu]: an object, not %s",
			    i, type_name(w));
	return need(w, where, "group", T_STR | T_ABSENT, err, errlen) ||
	       need(w, where, "attr", T_STR | T_ABSENT, err, errlen) ||
	       need(w, where, "result", T_STR | T_ABSENT, err, errlen) ||
	       need_num(w, where, "at_ms", T_NUM | T_ABSENT, 0, 1e12, err,
			errlen) ||
	       need_num(w, where, "value", T_NUM | T_ABSENT, 0, 1024, err,
			errlen) ? -1 : 0;
}

bool sweep_summary_has_response(json_t *sum)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(sum, "tasks"), i, t)
		if (!json_object_get(t, "response_us"))
			return false;
	return true;
}

/*
 * "chains" (capsim.chains, absent without): per chain the counts and
 * jank % sweep.csv reports, and the latency percentiles (absent without
 * a finished period)
 */
static int check_chains(json_t *sum, char *err, size_t errlen)
{
	static const char *const counts[] = { "periods", "late", "dropped" };
	static const char *const pcts[] = { "p50", "p95", "p99" };
	json_t *jc = json_object_get(sum, "chains"), *c;
	const char *name;
	size_t k;

	if (need(sum, "", "chains", T_OBJ | T_ABSENT, err, errlen))
		return -1;
	json_object_foreach(jc, name, c) {
		char *where = xasprintf("chains.%.64s.", name);
		int bad = !json_is_object(c);

		if (bad)
			err_fail(err, errlen, "chains.%.64s: an object, not %s",
				 name, type_name(c));
		if (!*name || strpbrk(name, ",.\"\n\r "))
			bad = err_fail(err, errlen, "chains: \"%.64s\" is not a chain name (no spaces, dots, commas or quotes)",
				       name);
		for (k = 0; !bad && k < ARRAY_SIZE(counts); k++)
			bad = need_num(c, where, counts[k], T_INT, 0, MAX_EXACT,
				       err, errlen);
		if (!bad)
			bad = need_num(c, where, "jank_pct", T_NUM, 0, 100,
				       err, errlen) ||
			      need(c, where, "latency_us", T_OBJ, err, errlen);
		free(where);
		if (!bad) {
			where = xasprintf("chains.%.64s.latency_us.", name);
			for (k = 0; !bad && k < ARRAY_SIZE(pcts); k++)
				bad = need_num(json_object_get(c, "latency_us"),
					       where, pcts[k], T_NUM | T_ABSENT,
					       0, 1e300, err, errlen);
			free(where);
		}
		if (bad)
			return -1;
	}
	return 0;
}

int sweep_summary_check(json_t *sum, char *err, size_t errlen)
{
	json_t *v;
	size_t i, ntasks, ncpus;

	if (!json_is_object(sum))
		return err_fail(err, errlen, "the summary is %s, not an object",
			    type_name(sum));
	if (need(sum, "", "workload", T_OBJ, err, errlen) ||
	    need(json_object_get(sum, "workload"), "workload.", "name", T_STR,
		 err, errlen) ||
	    need(sum, "", "platform", T_OBJ, err, errlen) ||
	    need(json_object_get(sum, "platform"), "platform.", "name", T_STR,
		 err, errlen) ||
	    need(sum, "", "policy", T_STR, err, errlen) ||
	    need(sum, "", "simulated_s", T_NUM, err, errlen) ||
	    need(sum, "", "energy_mj", T_NUM | T_NULL, err, errlen) ||
	    need(sum, "", "cpus", T_ARR, err, errlen) ||
	    need(sum, "", "tasks", T_ARR, err, errlen) ||
	    need(sum, "", "domains", T_ARR, err, errlen))
		return -1;
	ncpus = json_array_size(json_object_get(sum, "cpus"));
	ntasks = json_array_size(json_object_get(sum, "tasks"));
	if (ncpus < 1 || ncpus > MAX_CPUS)
		return err_fail(err, errlen, "cpus: %zu CPUs: allowed [1, %d]",
			    ncpus, MAX_CPUS);
	if (ntasks > MAX_TASKS || ntasks * ncpus > MAX_TASK_CPUS)
		return err_fail(err, errlen, "tasks: %zu tasks on %zu CPUs: allowed at most %d tasks and %d task-CPU pairs",
			    ntasks, ncpus, MAX_TASKS, MAX_TASK_CPUS);
	json_array_foreach(json_object_get(sum, "tasks"), i, v)
		if (check_task(v, i, (int)ncpus, err, errlen))
			return -1;
	json_array_foreach(json_object_get(sum, "domains"), i, v)
		if (check_domain(v, i, err, errlen))
			return -1;
	if (need(sum, "", "group_writes", T_ARR | T_ABSENT, err, errlen) ||
	    need(sum, "", "clamp_order", T_STR | T_ABSENT, err, errlen))
		return -1;
	json_array_foreach(json_object_get(sum, "group_writes"), i, v)
		if (check_write(v, i, err, errlen))
			return -1;
	return check_chains(sum, err, errlen);
}
