// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's points made: each combination's workload (and platform)
 * with the values set, its seed per run, its `capsim run` job and shell
 * line, its point.json; one at a time, in point order.
 */
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc_set.h"
#include "docpath.h"
#include "platform.h"
#include "procs.h"
#include "safe_write.h"
#include "sweep_internal.h"
#include "sweep_jobs.h"
#include "util.h"

/*
 * Repeat @rep (from 0) of a point takes splitmix64's output @rep + 1
 * from --seed: the same for every point (common random numbers: two
 * knob values compare on the same draws, so their difference is the
 * knob's, not the draws'), and the same across policies and platforms.
 * With --unpaired, --seed xor an FNV-1a hash of the point's parameter
 * values (an earlier capsim's only way): the draws follow the values,
 * never the point's number.
 */
static unsigned long long point_seed(const struct sweep *sw, const int *vi,
				     int rep)
{
	unsigned long long h = sw->unpaired ? 1469598103934665603ULL : 0;
	uint64_t st;
	int i;

	for (i = 0; i < sw->nparams && sw->unpaired; i++) {
		char *v = json_dumps(sw->params[i].vals[vi[i]], JSON_ENCODE_ANY |
				     JSON_COMPACT);
		const char *s;

		for (s = sw->params[i].path.text; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ULL;
		for (s = v; s && *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ULL;
		h = (h ^ ';') * 1099511628211ULL;
		free(v);
	}
	st = sw->seed ^ h;
	while (rep-- > 0)
		rng_next(&st);
	/* a non-negative integer for capsim run --seed, 53 bits so JSON
	 * readers keep it exact */
	return rng_next(&st) >> 11;
}

int sweep_write_json(const char *path, json_t *v)
{
	return doc_set_write(path, v);
}

/* @v as sweep_write_json() writes it, into @name in the directory open
 * as @dirfd (@shown: its path, for the message); 0 or -1 (said) */
static int write_json_at(int dirfd, const char *name, const char *shown,
			 json_t *v)
{
	FILE *f = safe_fopen_at(dirfd, name, 0666);

	if (f && json_dumpf(v, f, DOC_SET_JSON_FLAGS)) {
		safe_fdiscard(f);
		f = NULL;
		errno = EIO;
	} else if (f && !safe_fclose(f)) {
		return 0;
	}
	fprintf(stderr, "capsim: cannot write %s/%s: %s\n", shown, name,
		strerror(errno));
	return -1;
}

/* argv of the point's run, relative to the sweep directory */
static char **point_argv(const struct sweep *sw, const char *self,
			 const char *pdir, const char *policy,
			 const char *platform_arg, unsigned long long seed)
{
	char **av = xcalloc(20, sizeof(char *));
	int n = 0;

	av[n++] = xstrdup(self);
	av[n++] = xstrdup("run");
	av[n++] = xasprintf("%s/%s.json", pdir, sw->wname);
	av[n++] = xstrdup("--policy");
	av[n++] = xstrdup(policy);
	av[n++] = xstrdup("--platform");
	av[n++] = xstrdup(platform_arg);
	av[n++] = xstrdup("--seed");
	av[n++] = xasprintf("%llu", seed);
	if (sw->duration) {
		av[n++] = xstrdup("--duration");
		av[n++] = xstrdup(sw->duration);
	}
	/* the trace is the largest output and --collect never reads it */
	if (!sw->keep_traces)
		av[n++] = xstrdup("--no-trace");
	av[n++] = xstrdup("--quiet");
	av[n++] = xstrdup("-o");
	av[n++] = xasprintf("%s/run", pdir);
	return av;
}

/* The values of @vi of the parameters on the platform (@platform) or the
 * workload set into @doc; 0, or -1 (said) */
static int set_params(const struct sweep *sw, const int *vi, json_t *doc,
		      bool platform)
{
	char err[512];
	int i;

	for (i = 0; i < sw->nparams; i++) {
		if (sw->params[i].path.platform != platform)
			continue;
		if (dpath_set(doc, &sw->params[i].path,
			      json_deep_copy(sw->params[i].vals[vi[i]]),
			      err, sizeof(err))) {
			fprintf(stderr, "capsim: --set %s\n", err);
			return -1;
		}
	}
	return 0;
}

/* The --platform a point runs with, from its directory @pdir (caller
 * frees) */
static char *point_platform_arg(const struct point_ctx *pc, const char *pdir)
{
	const char *pn = pc->sw->platforms[pc->pl];
	char rp[PATH_MAX];

	if (pc->pdoc)
		return xasprintf("%s/platform.json", pdir);
	/* a file given as ./x keeps working from DIR */
	if (platform_embedded_find(pn) || pn[0] == '/')
		return xstrdup(pn);
	return xstrdup(realpath(pn, rp) ? rp : pn);
}

/* Point @id's job and shell command (@pdir relative, @abs absolute);
 * 0, or -1 (said) when --emit-jobs cannot have its line */
static int point_job(struct point_ctx *pc, int id, int po,
		     const char *pdir, const char *abs)
{
	const struct sweep *sw = pc->sw;
	char *plat_arg = point_platform_arg(pc, pdir);
	char *f = xasprintf("%s/run.log", pdir);
	struct job *job = pc->job;
	int ret = 0;

	job->argv = point_argv(sw, pc->self, pdir, sw->policies[po], plat_arg,
			       pc->seed);
	job->log_path = xasprintf("%s/run.log", abs);
	pc->cmd = job_line(job->argv, pc->final_abs, f);
	free(f);
	free(plat_arg);
	/* --emit-jobs checked every value up front; a direct run execs
	 * the argv, no shell line */
	if (!pc->cmd) {
		if (sw->emit) {
			fprintf(stderr, "capsim: point %d: a value of its job line holds a control character\n",
				id);
			ret = -1;
		}
		pc->cmd = xstrdup("(no shell line: a value holds a control character)");
	}
	return ret;
}

/* Point @id (policy @po) in its directory: its inputs, job and
 * point.json; 0, or -1 (said) */
static int write_point(struct point_ctx *pc, int id, int po)
{
	const struct sweep *sw = pc->sw;
	char *pdir = xasprintf("points/%0*d", sw->width, id);
	char *abs = xasprintf("%s/%s", pc->root, pdir);
	json_t *pj, *params = json_object();
	char *f;
	int bad, i, fd;

	/* a --resume re-makes an unfinished point in its directory, once
	 * it is known the sweep's own (sweep_pointdir.c) */
	fd = sweep_point_dir(pc->pfd, pc->root, sw->width, id, sw->id,
			     sw->resume);
	bad = fd < 0;
	f = xasprintf("%s.json", sw->wname);
	bad = bad || write_json_at(fd, f, abs, pc->w);
	free(f);
	if (pc->pdoc)
		bad = bad || write_json_at(fd, "platform.json", abs, pc->pdoc);
	if (point_job(pc, id, po, pdir, abs))
		bad = 1;
	for (i = 0; i < sw->nparams; i++)
		json_object_set_new(params, sw->params[i].path.text,
				    json_deep_copy(sw->params[i].vals[pc->vi[i]]));
	pj = json_pack("{s:i, s:o, s:s, s:s, s:I, s:s}", "id", id,
		       "params", params, "policy", sw->policies[po],
		       "platform", sw->platforms[pc->pl], "seed",
		       (json_int_t)pc->seed, "command", pc->cmd);
	if (sw->repeat > 1)
		json_object_set_new(pj, "repeat", json_integer(pc->rep + 1));
	/* the --platform its run took, from the sweep directory: what
	 * `sweep --trace` runs it again with (a relative file resolved) */
	f = point_platform_arg(pc, pdir);
	json_object_set_new(pj, "platform_arg", json_string(f));
	free(f);
	bad = bad || write_json_at(fd, "point.json", abs, pj);
	if (fd >= 0)
		close(fd);
	json_decref(pj);
	free(abs);
	free(pdir);
	if (bad)
		fprintf(stderr, "capsim: cannot prepare point %d in %s\n", id,
			pc->root);
	return bad ? -1 : 0;
}

void point_iter_init(struct point_iter *it, const struct sweep *sw,
		     const char *root, int pfd, const char *final_abs,
		     const char *self)
{
	memset(it, 0, sizeof(*it));
	it->vi = xcalloc((size_t)(sw->nparams ? sw->nparams : 1), sizeof(int));
	it->pc = (struct point_ctx){ .sw = sw, .root = root, .pfd = pfd,
				     .final_abs = final_abs, .self = self,
				     .vi = it->vi };
}

void point_iter_free(struct point_iter *it)
{
	json_decref(it->pc.w);
	json_decref(it->pc.pdoc);
	free(it->vi);
}

/* The workload of the combination it->vi, and its first platform's */
static int iter_combination(struct point_iter *it)
{
	struct point_ctx *pc = &it->pc;
	const struct sweep *sw = pc->sw;
	char err[512];
	int i;

	pc->w = json_deep_copy(sw->wdoc.root);
	pc->pl = 0;
	pc->rep = 0;
	it->po = 0;
	for (i = 0; i < sw->ndrops; i++) {
		if (dpath_drop(pc->w, &sw->drops[i], err, sizeof(err))) {
			fprintf(stderr, "capsim: --drop %s\n", err);
			return -1;
		}
	}
	return set_params(sw, it->vi, pc->w, false);
}

/* The platform document of pc->pl, when the parameters edit it */
static int iter_platform(struct point_iter *it)
{
	struct point_ctx *pc = &it->pc;

	json_decref(pc->pdoc);
	pc->pdoc = NULL;
	if (!pc->sw->edits_platform)
		return 0;
	pc->pdoc = json_deep_copy(pc->sw->pdocs[pc->pl]);
	return set_params(pc->sw, it->vi, pc->pdoc, true);
}

/* Past the point just made: the next repeat, policy, platform or
 * combination */
static void iter_advance(struct point_iter *it)
{
	struct point_ctx *pc = &it->pc;
	const struct sweep *sw = pc->sw;
	int i;

	if (++pc->rep < sw->repeat)
		return;
	pc->rep = 0;
	if (sw->policies[++it->po])
		return;
	it->po = 0;
	if (sw->platforms[++pc->pl]) {
		json_decref(pc->pdoc);
		pc->pdoc = NULL;
		return;
	}
	json_decref(pc->w);
	json_decref(pc->pdoc);
	pc->w = pc->pdoc = NULL;
	if (sw->link) {
		/* zipped: every parameter's next value together */
		for (i = 0; i < sw->nparams; i++)
			it->vi[i]++;
		return;
	}
	for (i = sw->nparams - 1; i >= 0; i--) {
		if (++it->vi[i] < sw->params[i].nvals)
			break;
		it->vi[i] = 0;
	}
}

/*
 * The next point: with @job, written in its directory (its inputs, job
 * and point.json; *@cmd its shell line, caller frees); without, only
 * passed over (a finished point a --resume keeps). 0, or -1 (said).
 */
int point_iter_next(struct point_iter *it, struct job *job, char **cmd)
{
	struct point_ctx *pc = &it->pc;
	int ret = 0;

	if (!pc->w && iter_combination(it))
		return -1;
	pc->seed = point_seed(pc->sw, it->vi, pc->rep);
	it->id++;
	if (job) {
		if (!pc->pdoc && iter_platform(it))
			return -1;
		pc->job = job;
		pc->cmd = NULL;
		ret = write_point(pc, it->id, it->po);
		*cmd = pc->cmd;
		pc->job = NULL;
	}
	iter_advance(it);
	return ret;
}

/*
 * Every point's inputs under @root, for --emit-jobs; @cmds gets each
 * point's shell command for @final_abs. 0 or -1 (said).
 */
int sweep_prepare_points(struct sweep *sw, const char *root,
			  const char *final_abs, const char *self, char **cmds)
{
	struct point_iter it;
	int ret = 0, i, pfd = sweep_points_dir_open(root, false);

	if (pfd < 0)
		return -1;
	point_iter_init(&it, sw, root, pfd, final_abs, self);
	for (i = 0; i < sw->npoints && !ret; i++) {
		struct job job = { 0 };

		ret = point_iter_next(&it, &job, &cmds[i]);
		job_free(&job);
	}
	point_iter_free(&it);
	close(pfd);
	return ret;
}

