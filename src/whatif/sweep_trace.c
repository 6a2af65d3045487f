// SPDX-License-Identifier: GPL-2.0
/*
 * `capsim sweep --trace DIR N`: point N of sweep DIR run again with its
 * trace kept, for `capsim plot`. A sweep keeps only its points'
 * summaries unless --keep-traces (the trace is the largest output and
 * --collect never reads it); a point worth a look is traced afterwards.
 *
 * The run is the point's own: its edited workload and platform as the
 * sweep wrote them in its directory, its policy and seed from its
 * point.json, the sweep's --duration. It goes into a directory of its
 * own, DIR/points/NNNN/traced, never over the run the sweep collects
 * (its run/), and only into a point directory the sweep made (the
 * marker naming the sweep's id, not a link: sweep_pointdir.c). Its
 * energy is compared with the point's: a capsim that simulates another
 * way (a newer build) is said, not silently plotted as the point.
 */
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outmark.h"
#include "platform.h"
#include "procs.h"
#include "safe_write.h"
#include "sweep.h"
#include "sweep_internal.h"
#include "util.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2

/* The run's directory in a point directory */
#define TRACED "traced"

/* The --platform of point @pj (in directory @pdir, relative to the
 * sweep's): the platform the sweep wrote there, else the one its run
 * took; NULL when an older capsim's point names a file relative to a
 * directory nobody knows (said) */
static char *point_platform(json_t *pj, int pfd, const char *name,
			    const char *pdir, const char *root)
{
	const char *arg = json_string_value(json_object_get(pj, "platform_arg"));
	const char *pn = json_string_value(json_object_get(pj, "platform"));
	char *edited = xasprintf("%s/platform.json", name);
	struct stat st;
	bool own = !fstatat(pfd, edited, &st, AT_SYMLINK_NOFOLLOW) &&
		   S_ISREG(st.st_mode);

	free(edited);
	if (own)
		return xasprintf("%s/platform.json", pdir);
	if (arg)
		return xstrdup(arg);
	if (platform_embedded_find(pn) || pn[0] == '/')
		return xstrdup(pn);
	fprintf(stderr, "capsim: --trace: %s/%s/point.json: platform %s is a file named relative to where the sweep started (an older capsim's point): run its command with --keep-traces instead\n",
		root, pdir, pn);
	return NULL;
}

/* argv of the traced run, relative to the sweep's directory */
static char **trace_argv(const char *self, json_t *plan, json_t *pj,
			 const char *pdir, const char *platform)
{
	const char *wname = json_string_value(json_object_get(plan,
							      "workload_name"));
	json_t *dur = json_object_get(plan, "duration");
	char **av = xcalloc(16, sizeof(char *));
	int n = 0;

	av[n++] = xstrdup(self);
	av[n++] = xstrdup("run");
	av[n++] = xasprintf("%s/%s.json", pdir, wname);
	av[n++] = xstrdup("--policy");
	av[n++] = xstrdup(json_string_value(json_object_get(pj, "policy")));
	av[n++] = xstrdup("--platform");
	av[n++] = xstrdup(platform);
	av[n++] = xstrdup("--seed");
	av[n++] = xasprintf("%lld", (long long)json_integer_value(
		json_object_get(pj, "seed")));
	if (json_is_string(dur)) {
		av[n++] = xstrdup("--duration");
		av[n++] = xstrdup(json_string_value(dur));
	}
	av[n++] = xstrdup("--quiet");
	av[n++] = xstrdup("-o");
	av[n++] = xasprintf("%s/" TRACED, pdir);
	return av;
}

/* @f's energy_mj, or NAN */
static double summary_energy(const char *f)
{
	char err[256];
	json_t *js = sweep_load_json(f, err, sizeof(err));
	json_t *e = json_object_get(js, "energy_mj");
	double v = json_is_number(e) ? json_number_value(e) : NAN;

	json_decref(js);
	return v;
}

/*
 * Point @id of the sweep in @root, checked: its directory the sweep's
 * own (a directory, its marker naming the plan's id @sid; TRACED not a
 * link), its point.json valid; 0 with *@pj, or -1 said
 */
static int load_point(const char *root, json_t *plan, int id, int width,
		      const char *sid, json_t **pj)
{
	char *pts = xasprintf("%s/points", root), *pf = NULL;
	char *name = xasprintf("%0*d", width, id), err[512];
	struct stat st;
	int pfd = safe_dir_open(pts), fd = -1, ret = -1;

	if (pfd < 0 || fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		fprintf(stderr, "capsim: --trace: %s/%s: %s: the point was not made (run it first: --resume, or its job line)\n",
			pts, name, strerror(errno));
		goto out;
	}
	/* the check --resume makes: the sweep's own directory */
	fd = sweep_point_dir(pfd, root, width, id, sid, true);
	if (fd < 0)
		goto out;
	if (!fstatat(fd, TRACED, &st, AT_SYMLINK_NOFOLLOW) &&
	    !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "capsim: --trace: %s/%s/" TRACED " is a symbolic link or not a directory: not capsim's; remove it\n",
			pts, name);
		goto out;
	}
	pf = xasprintf("%s/%s/point.json", pts, name);
	*pj = sweep_load_json(pf, err, sizeof(err));
	if (!*pj || sweep_point_check(*pj, json_object_get(plan, "params"), id,
				      err, sizeof(err))) {
		fprintf(stderr, "capsim: %s: %s\n", pf, err);
		json_decref(*pj);
		*pj = NULL;
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (pfd >= 0)
		close(pfd);
	free(pf);
	free(name);
	free(pts);
	return ret;
}

/* The run of @job (point @pdir of @root), said; the exit status */
static int trace_run(struct job *job, const char *root, const char *pdir,
		     bool quiet)
{
	char *sum = xasprintf("%s/%s/run/summary.json", root, pdir);
	char *mine = xasprintf("%s/%s/" TRACED "/summary.json", root, pdir);
	double was, now;
	int ret = EXIT_RUN;

	if (procs_run(job, 1, 1, NULL) < 0 || job->status) {
		char *tail = procs_log_tail(job->log_path, 5);

		fprintf(stderr, "capsim: --trace: the run of %s failed (%s):\n%s\n",
			pdir, job->log_path, tail);
		free(tail);
		goto out;
	}
	was = summary_energy(sum);
	now = summary_energy(mine);
	/* the same inputs and seed: the same figures, unless another
	 * capsim ran the sweep */
	if (!isnan(was) && was != now)
		fprintf(stderr, "capsim: --trace: %s/%s: its energy is %.6g mJ, the sweep's run had %.6g mJ: another capsim ran the sweep; the trace is this one's\n",
			root, pdir, now, was);
	if (!quiet)
		printf("traced: %s/%s/" TRACED "/trace.txt\nplot it: capsim plot %s/%s/" TRACED "\n",
		       root, pdir, root, pdir);
	ret = 0;
out:
	free(sum);
	free(mine);
	return ret;
}

int sweep_trace(const char *root, const char *n, bool quiet, const char *self)
{
	char *planf = xasprintf("%s/sweep.json", root), *end, err[512];
	char *pdir = NULL, *platform = NULL, *pts = NULL;
	json_t *plan = NULL, *pj = NULL;
	struct job job = { 0 };
	const char *sid;
	long id;
	int np, width, pfd = -1, ret = EXIT_USAGE;

	if (!outmark_present(root)) {
		fprintf(stderr, "capsim: --trace: %s is not a sweep capsim made (no %s in it)\n",
			root, OUTMARK_NAME);
		goto out;
	}
	plan = sweep_load_json(planf, err, sizeof(err));
	if (!plan || sweep_plan_check(plan, err, sizeof(err))) {
		fprintf(stderr, "capsim: --trace: %s: %s\n", planf, err);
		goto out;
	}
	sid = json_string_value(json_object_get(plan, "id"));
	if (!sid || !sweep_id_valid(sid)) {
		fprintf(stderr, "capsim: --trace: %s has no sweep id (an older capsim's): its point directories cannot be told its own\n",
			planf);
		goto out;
	}
	np = (int)json_integer_value(json_object_get(plan, "points"));
	errno = 0;
	id = strtol(n, &end, 10);
	if (!*n || *end || errno || id < 1 || id > np) {
		fprintf(stderr, "capsim: --trace %s %s: a point number in [1, %d] (sweep.csv's point)\n",
			root, n, np);
		goto out;
	}
	/* the width the sweep named its point directories with */
	for (width = 1; np >= 10; np /= 10)
		width++;
	width = width < 4 ? 4 : width;
	if (load_point(root, plan, (int)id, width, sid, &pj))
		goto out;
	pdir = xasprintf("points/%0*ld", width, id);
	pts = xasprintf("%s/points", root);
	pfd = safe_dir_open(pts);
	platform = pfd >= 0 ? point_platform(pj, pfd, pdir + strlen("points/"),
					     pdir, root) : NULL;
	if (!platform)
		goto out;
	job.argv = trace_argv(self, plan, pj, pdir, platform);
	job.log_path = xasprintf("%s/%s/" TRACED ".log", root, pdir);
	job.cwd = root;
	ret = trace_run(&job, root, pdir, quiet);
out:
	if (pfd >= 0)
		close(pfd);
	job_free(&job);
	free(pts);
	free(platform);
	free(pdir);
	json_decref(pj);
	json_decref(plan);
	free(planf);
	return ret;
}
