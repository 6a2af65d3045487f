/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sweep.c (the command: options, checks, running, resuming),
 * sweep_points.c (each point's directory made: its inputs, seed, job and
 * point.json) and sweep_pointdir.c (the point directories made or, on
 * --resume, checked the sweep's own) share: the sweep as defined, and
 * the iterator that makes the points one at a time in point order.
 */
#ifndef CAPSIM_SWEEP_INTERNAL_H
#define CAPSIM_SWEEP_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>

#include "docpath.h"
#include "jsondoc.h"
#include "procs.h"

struct sweep_param {
	struct dpath path;
	json_t **vals;
	int nvals;
};

/* A sweep's id: hex digits of a random number, in sweep.json and in the
 * marker of each of its point directories */
#define SWEEP_ID_LEN 32

struct sweep {
	char id[SWEEP_ID_LEN + 1];
	const char *wfile;
	char *wpath;		/* its absolute path, or NULL */
	char *wname;		/* workload basename, kept by the point files */
	struct jdoc wdoc;
	struct sweep_param *params;
	int nparams;
	struct dpath *drops;
	int ndrops;
	char **policies;
	char **platforms;
	json_t **pdocs;		/* per platform, when a param edits it */
	bool edits_platform;
	unsigned long long seed;
	/* --unpaired: each point's seeds from a hash of its values, not
	 * the same for every point (sweep_points.c) */
	bool unpaired;
	const char *duration;
	bool keep_traces;
	bool link;		/* --link: the --set values zipped */
	int repeat;		/* --repeat N: runs of each point */
	const char *emit;	/* --emit-jobs FILE, or NULL */
	bool resume;		/* --resume: point directories may exist */
	/* without --metric, the workload's one candidate metric, or NULL
	 * (sweep_default_metric()) */
	char *metric;
	int npoints;
	int width;		/* of the point numbers */
};

/* What `capsim sweep` was asked, beyond what struct sweep keeps */
struct sweep_args {
	struct sweep *sw;
	const char *outdir, *policies, *platforms, *metric, *emit, *collect;
	const char *trace;	/* --trace DIR (N the positional) */
	char **sets;		/* the --set values, nsets of them, in order */
	int nsets;
	int parallel;
	bool quiet;
	bool resume;		/* --resume: DIR is an unfinished sweep */
	/* an option that defines the sweep (a --set, --policies, --seed,
	 * ...): without one, --resume takes them all from the plan */
	bool defines;
	/* --resume: DIR/sweep.json, its name, and with -o DIR alone the
	 * plan's parameters ({path, values}) and lists (sa owns them) */
	char *planf;
	json_t *plan;
	json_t *plan_params;
	char *lists[2];
};

/* sweep.json of @sw, the plot's metric @metric (or none) */
json_t *sweep_plan_json(const struct sweep *sw, const char *metric);
/* ... written into @root/sweep.json; 0 or -1 (said) */
int sweep_plan_write(const struct sweep *sw, const char *metric,
		     const char *root);
/* --resume: sa->outdir/sweep.json (capsim's sweep, a valid plan) into
 * sa->plan; 0, or -1 said (exit 2) */
int sweep_plan_load(struct sweep_args *sa);
/* --resume -o DIR alone: the sweep's arguments from sa->plan into @sa
 * and its sweep; 0, or -1 said (exit 2) */
int sweep_plan_args(struct sweep_args *sa);
/* --resume: this command's sweep (its plot's metric @metric) is the one
 * in sa->plan; 0, or -1 said naming the first difference (exit 2). A
 * metric other than the plan's is said and kept. */
int sweep_plan_compare(const struct sweep_args *sa, const char *metric);

/*
 * Every value of every parameter of @sw checked against its field's
 * type and range by the parser `capsim run` uses (sweep_values.c), the
 * --set of parameter i @sets[i] (NULL: the plan's): 0, or -1 said
 * naming the --set, the value and the range (exit 2)
 */
int sweep_check_values(const struct sweep *sw, char *const *sets);

/*
 * Run the points of sa->sw in DIR (@root; @final_abs its absolute path,
 * @self capsim's executable) and collect them, a --resume's finished
 * points kept: the exit status
 */
int sweep_run_points(const struct sweep_args *sa, const char *root,
		     const char *final_abs, const char *self);

/*
 * capsim sweep --trace @root @n: point @n (sweep.csv's point) of the
 * sweep in @root run again with its trace, into its directory's traced/
 * (@self: capsim's executable); the exit status
 */
int sweep_trace(const char *root, const char *n, bool quiet, const char *self);

/* One combination of parameter values (@vi) of a sweep, being written */
struct point_ctx {
	const struct sweep *sw;
	const char *root, *final_abs, *self;
	int pfd;		/* root/points, open */
	struct job *job;	/* the point being made's */
	char *cmd;		/* its shell line (the caller frees) */
	const int *vi;		/* each parameter's value index */
	unsigned long long seed;
	int rep;		/* which run of the point, from 0 */
	json_t *w;		/* the workload with the values set */
	json_t *pdoc;		/* the platform with them, or NULL */
	int pl;			/* which platform */
};

/*
 * The points of a sweep, made one after another in point order (the last
 * parameter fastest, then per platform, per policy), each only when it is
 * about to run: a sweep of 10 000 points holds one combination's
 * documents, not 10 000 directories' worth of jobs.
 */
struct point_iter {
	struct point_ctx pc;
	int *vi;		/* each parameter's value index */
	int id;			/* the last point made */
	int po;			/* the next point's policy */
};

/* @pfd: @root/points open (sweep_points_dir_open()), kept by the caller */
void point_iter_init(struct point_iter *it, const struct sweep *sw,
		     const char *root, int pfd, const char *final_abs,
		     const char *self);
void point_iter_free(struct point_iter *it);
/*
 * The next point: with @job, written in its directory (its inputs, job
 * and point.json; *@cmd its shell line, caller frees); without, only
 * passed over (a finished point a --resume keeps). 0, or -1 (said).
 */
int point_iter_next(struct point_iter *it, struct job *job, char **cmd);

/* A new sweep id into @id (SWEEP_ID_LEN + 1 bytes) */
void sweep_new_id(char *id);
/* @id is one sweep_new_id() makes */
bool sweep_id_valid(const char *id);
/*
 * points/ under @root made (or, on --resume, the one there: a directory,
 * not a link) and opened: its descriptor, or -1 (said)
 */
int sweep_points_dir_open(const char *root, bool resume);
/*
 * Point @id's directory in @pfd (@root/points) made with the marker
 * naming @sweep_id, or on --resume the one there when it is the sweep's
 * own: its descriptor, or -1 (said)
 */
int sweep_point_dir(int pfd, const char *root, int width, int id,
		    const char *sweep_id, bool resume);
/*
 * --resume of the sweep in @root, before anything is written: its id
 * from @have (its sweep.json, @planf) into @sw, then every point
 * directory under @root/points that exists checked: a directory (not a
 * link) with the marker naming that id, its run/ a directory. 0, or -1
 * (said: exit 2)
 */
int sweep_resume_check(struct sweep *sw, const char *root, json_t *have,
		       const char *planf);
/* Every point's inputs under @root, for --emit-jobs; @cmds gets each
 * point's shell command for @final_abs. 0 or -1 (said). */
int sweep_prepare_points(struct sweep *sw, const char *root,
			 const char *final_abs, const char *self, char **cmds);
/* @v as indented JSON into @path; 0 or -1 (said) */
int sweep_write_json(const char *path, json_t *v);

#endif
