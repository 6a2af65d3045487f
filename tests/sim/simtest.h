/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers for the sim tests: run a workload given as text, in process. */
#ifndef CAPSIM_SIMTEST_H
#define CAPSIM_SIMTEST_H

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/errno.h>

#include "check_main.h"
#include "platform.h"
#include "sim.h"
#include "workload.h"

struct run {
	struct diag d;
	struct workload *wl;
	struct platform *pl;
	struct sim *s;
	int ret;
};

/*
 * Parse and run @text on @platform with @o, its unset choices completed
 * as capsim run completes them (sim_opts_resolve()); teardown with
 * run_free()
 */
static inline struct run *run_with(const char *text, const char *platform,
				   const struct sim_opts *o, FILE *trace)
{
	struct run *r = calloc(1, sizeof(*r));
	struct sim_opts ro = *o;

	diag_init(&r->d, true);
	/* as capsim run loads it: all the errors in one pass, under the
	 * policy the run uses */
	r->wl = sim_workload_check(workload_load_buffer_all("test.json", text,
							    &r->d), &r->d, 0,
				   o->clamp_policy);
	if (r->wl)
		r->pl = platform_load(platform, &r->d);
	if (r->pl) {
		sim_opts_resolve(&ro, r->wl);
		r->s = sim_create(r->pl, r->wl, &ro, &r->d);
	}
	if (r->s)
		r->ret = sim_run(r->s, trace);
	return r;
}

/* Parse and run @text on @platform; NULL-safe teardown with run_free() */
static inline struct run *run_text(const char *text, const char *platform,
				   enum clamp_policy pol, enum clamp_order ord,
				   double duration_s, FILE *trace)
{
	/* the rest as capsim run's defaults (run_with()) */
	struct sim_opts o = { .clamp_policy = pol, .order = ord };

	o.duration_ns = (uint64_t)(duration_s * 1e9);
	return run_with(text, platform, &o, trace);
}

/* The whole file at @rel in the source tree ($CAPSIM_SRCDIR) as a string */
static inline char *source_text(const char *rel)
{
	char path[4096];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s",
		 getenv("CAPSIM_SRCDIR") ? getenv("CAPSIM_SRCDIR") : ".", rel);
	return read_file(path, &len);
}

static inline void run_free(struct run *r)
{
	sim_destroy(r->s);
	platform_free(r->pl);
	workload_free(r->wl);
	diag_free(&r->d);
	free(r);
}

static inline struct sim_task *task_named(struct sim *s, const char *name)
{
	int i;

	for (i = 0; i < s->ntasks; i++)
		if (!strcmp(s->tasks[i]->name, name))
			return s->tasks[i];
	return NULL;
}

/* Seconds the domain spent above @khz */
static inline double time_above(struct sim *s, int dom, unsigned int khz)
{
	const struct pdomain *pd = s->doms[dom].pd;
	uint64_t ns = 0;
	int i;

	for (i = 0; i < pd->nopps; i++)
		if (pd->opps[i].khz > khz)
			ns += s->doms[dom].residency_ns[i];
	return (double)ns / 1e9;
}

static inline double time_at(struct sim *s, int dom, unsigned int khz)
{
	const struct pdomain *pd = s->doms[dom].pd;
	int i;

	for (i = 0; i < pd->nopps; i++)
		if (pd->opps[i].khz == khz)
			return (double)s->doms[dom].residency_ns[i] / 1e9;
	return -1;
}

static inline double cpu_busy(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t ns = 0;
	int i;

	for (i = 0; i < c->dom->pd->nopps; i++)
		ns += c->busy_ns[i];
	return (double)ns / 1e9;
}

/*
 * @text parsed as the workload file "w.json", warnings on, stopping at
 * the first error: NULL then, the messages in @d either way (diag_free()).
 */
static inline struct workload *parse(const char *text, struct diag *d)
{
	diag_init(d, true);
	return workload_load_buffer("w.json", text, d);
}

/* parse() must reject @text with @needle among its messages */
static inline void expect_error(const char *text, const char *needle)
{
	struct diag d;
	struct workload *wl = parse(text, &d);

	ck_assert_msg(wl == NULL, "accepted: %.200s", text);
	ck_assert_msg(strstr(d.log.buf, needle), "expected \"%.300s\" in:\n%.1000s",
		      needle, d.log.buf);
	diag_free(&d);
}

/*
 * All of stream @f (a tmpfile() a test wrote), NUL-terminated, its length
 * in @len; free() it
 */
static inline char *slurp(FILE *f, size_t *len)
{
	char *buf;
	long n;

	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

#define RUN_OK(r) do { \
		ck_assert_msg((r)->s != NULL, "setup failed: %s", (r)->d.log.buf); \
		ck_assert_int_eq((r)->ret, 0); \
		ck_assert(!(r)->s->failed); \
	} while (0)

#endif
