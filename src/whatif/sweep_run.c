// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep run here (sweep_internal.h: sweep_run_points()): the points
 * made as workers free up, run, and collected in point order as they
 * end; a --resume's finished points kept.
 */
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "outdir.h"
#include "procs.h"
#include "progress.h"
#include "sweep.h"
#include "sweep_internal.h"
#include "util.h"

#define EXIT_RUN 1

/*
 * A sweep running here, in DIR itself: the points made as workers free
 * up, each collected once it and every point before it have ended, so
 * sweep.csv's rows go out in point order while the sweep runs.
 */
struct sweep_run {
	const struct sweep_args *sa;
	const char *root;
	struct point_iter it;
	struct sweep_collector *col;
	bool *ended;		/* per point: ended, or kept by --resume */
	int next_collect;	/* the first point not collected yet */
	int kept;		/* points a --resume found finished */
	int ran_ok;		/* points run now whose capsim run exited 0 */
	double runs;		/* the runs' summed wall time */
};

/* Point @id's run left a summary --collect accepts */
static bool point_finished(const char *root, int width, int id)
{
	char *f = xasprintf("%s/points/%0*d/run/summary.json", root, width, id);
	char err[512];
	json_t *js = sweep_load_json(f, err, sizeof(err));
	bool ok = js && !sweep_summary_check(js, err, sizeof(err));

	json_decref(js);
	free(f);
	return ok;
}

static int run_start(void *ctx, int i, struct job **jp)
{
	struct sweep_run *r = ctx;
	struct job *j;
	char *cmd = NULL;

	if (r->sa->resume && point_finished(r->root, r->sa->sw->width, i + 1)) {
		r->kept++;
		return point_iter_next(&r->it, NULL, NULL) ? PROCS_STOP : PROCS_SKIP;
	}
	j = xcalloc(1, sizeof(*j));
	if (point_iter_next(&r->it, j, &cmd)) {
		free(cmd);
		job_free(j);
		free(j);
		return PROCS_STOP;
	}
	free(cmd);
	j->cwd = r->root;
	*jp = j;
	return PROCS_RUN;
}

static void run_done(void *ctx, int i, struct job *j)
{
	struct sweep_run *r = ctx;

	if (j) {
		r->runs += j->wall_s;
		if (!j->status)
			r->ran_ok++;
		job_free(j);
		free(j);
	}
	r->ended[i] = true;
	while (r->next_collect < r->sa->sw->npoints &&
	       r->ended[r->next_collect]) {
		sweep_collector_add(r->col);
		r->next_collect++;
	}
}

/* This process's own CPU time (s) and peak resident size (MB), workers
 * apart: the sweep's overhead */
static void own_usage(double *cpu_s, double *rss_mb)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	*rss_mb = (double)ru.ru_maxrss / 1024;
}

int sweep_run_points(const struct sweep_args *sa, const char *root,
		     const char *final_abs, const char *self)
{
	int npoints = sa->sw->npoints, failed;
	struct sweep_run r = { .sa = sa, .root = root };
	struct job_feed feed = { &r, run_start, run_done };
	double t0 = progress_now(), wall, tc, cpu, rss;
	struct progress pg;
	int pfd = sweep_points_dir_open(root, sa->resume);

	if (pfd < 0)
		return EXIT_RUN;
	point_iter_init(&r.it, sa->sw, root, pfd, final_abs, self);
	r.col = sweep_collector_open(root, sa->metric ? sa->metric :
				     sa->sw->metric);
	r.ended = xcalloc((size_t)npoints, sizeof(bool));
	progress_init(&pg, sa->quiet, "sweep", "points", npoints);
	failed = procs_run_feed(npoints, sa->parallel, &pg, &feed);
	progress_end(&pg);
	tc = progress_now();
	failed = failed < 0 ? SWEEP_COLLECT_RUN_ERROR :
		 sweep_collector_finish(r.col, true);
	point_iter_free(&r.it);
	close(pfd);
	sweep_collector_free(r.col);
	free(r.ended);
	/*
	 * a sweep of failures only is no result (a full disk, a workload
	 * every point rejects), nor one stopped before any point finished
	 * (a point that could not be made): nothing is left of it. One
	 * finished point keeps DIR, for --resume.
	 */
	if ((failed == npoints || (failed < 0 && !r.ran_ok)) && !r.kept &&
	    !sa->resume) {
		remove_tree(root);
		fprintf(stderr, "capsim: sweep: %s; nothing written\n",
			failed < 0 ? "stopped before any point finished" :
				     "every point failed");
		return EXIT_RUN;
	}
	if (failed < 0)
		return EXIT_RUN;
	wall = progress_now() - t0;
	own_usage(&cpu, &rss);
	if (!sa->quiet) {
		printf("sweep: %d points (%d failed) in %.2f s wall at -j %d; the runs took %.2f s (sum), collecting %.2f s\n",
		       npoints, failed, wall, sa->parallel, r.runs,
		       progress_now() - tc);
		printf("sweep: %.1f points/s; capsim sweep itself: %.2f s CPU, %.1f MB at most\n",
		       wall > 0 ? (npoints - r.kept) / wall : 0, cpu, rss);
		if (r.kept)
			printf("sweep: resumed: %d points were finished already, %d run now\n",
			       r.kept, npoints - r.kept);
		if (sa->sw->repeat > 1)
			printf("sweep: the %d points above are %d points x %d runs (--repeat): %s/sweep-summary.csv has each point's mean, sd and 95 %% CI\n",
			       npoints, npoints / sa->sw->repeat,
			       sa->sw->repeat, sa->outdir);
		printf("outputs: %s/sweep.csv, %s/pareto.png (.svg), %s/points/\n",
		       sa->outdir, sa->outdir, sa->outdir);
	}
	return failed ? EXIT_RUN : 0;
}

