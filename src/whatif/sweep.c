// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "docpath.h"
#include "jsondoc.h"
#include "outdir.h"
#include "outmark.h"
#include "platform.h"
#include "procs.h"
#include "sweep.h"
#include "sweep_jobs.h"
#include "util.h"
#include "whatif.h"
#include "workload.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2

static const char usage_sweep[] =
"usage: capsim sweep WORKLOAD.json --set 'PATH=SPEC' [--set ...] [--drop PATH]...\n"
"                    [--policies P,P...] [--platforms NAME|FILE,...] [--seed N]\n"
"                    [--duration SEC] [--metric COLUMN] [-j N] [--keep-traces]\n"
"                    [--quiet] -o DIR [--emit-jobs FILE]\n"
"       capsim sweep --collect DIR [--metric COLUMN] [--quiet]\n"
"\n"
"Runs the cartesian product of the --set values x platforms x policies,\n"
"each point a `capsim run` in a worker process (-j N at once, default 2),\n"
"and writes DIR/sweep.csv (a row per point: its parameters, policy,\n"
"platform, seed, status, energy, per task wake-up latency p95/p99,\n"
"response time p95/p99 and misses, per domain average MHz) and\n"
"DIR/pareto.png/.svg (energy against --metric, a sweep.csv column;\n"
"default: the response p95 of the task with the most activations).\n"
"\n"
"PATH is written as capsim's error messages print it, e.g.\n"
"  capsim.taskgroups[\"/bg\"].capacity_max   (or capsim.taskgroups./bg.capacity_max)\n"
"  tasks.fg.run   global.duration   platform.domains[0].opps[4].power_mw\n"
"(platform. addresses the platform). SPEC: LO:HI:STEP (finite numbers),\n"
"a list V1,V2,..., or one JSON value (--set 'capsim.events=[]' removes the\n"
"timed events; --drop capsim.events too). No two values of a SPEC may be\n"
"equal, and a sweep has at most 100000 points in all (--set values x\n"
"platforms x policies). Comments and trailing commas in the inputs are\n"
"fine: the parsed documents are edited.\n"
"Each point's seed derives from --seed and the point's parameter values\n"
"(not its policy or platform, so those compare on the same draws).\n"
"The options, policies, platforms and --metric are checked before any\n"
"point runs (exit status 2). A failed point is reported and the others\n"
"go on (exit status 1).\n"
"Each point keeps its summary.json, activations.csv and run.log;\n"
"--keep-traces also keeps its trace.txt (`capsim plot DIR/points/N/run`),\n"
"which --collect does not need.\n"
"\n"
"--emit-jobs FILE: prepare DIR, run nothing; FILE gets one self-contained\n"
"shell command per point (`parallel < FILE`, or across hosts with\n"
"--sshlogin when DIR is on a shared filesystem) and FILE.slurm a Slurm\n"
"array script; then `capsim sweep --collect DIR`. No path or value of a\n"
"job line may hold a control character (a newline would split it).\n"
"\n"
"--collect DIR checks every file it reads (sweep.json, each point.json\n"
"and summary.json: exit status 2 naming the file and field); a point\n"
"whose run failed, or whose directory is missing, is named and gets a\n"
"row with status failed or missing (exit status 1).\n";

struct sweep_param {
	struct dpath path;
	json_t **vals;
	int nvals;
};

struct sweep {
	const char *wfile;
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
	const char *duration;
	bool keep_traces;
	const char *emit;	/* --emit-jobs FILE, or NULL */
	int npoints;
	int width;		/* of the point numbers */
};

/* SPEC -> values; a number replaces an integer as an integer */
static int parse_spec(struct sweep_param *sp, const char *spec, json_t *cur)
{
	struct sweep_values sv;
	char err[512];

	if (sweep_spec_parse(spec, !cur || json_is_integer(cur), &sv, err,
			     sizeof(err))) {
		fprintf(stderr, "capsim: --set %s=%.200s: %s\nsee `capsim sweep --help`\n",
			sp->path.text, spec, err);
		return -1;
	}
	sp->vals = sv.v;
	sp->nvals = sv.n;
	return 0;
}

/* A trial edit on a copy: the path must lead somewhere editable and a
 * number may only replace a number */
static int check_target(json_t *root, const struct sweep_param *sp,
			const char *docname)
{
	json_t *cur = dpath_get(root, &sp->path), *copy;
	char err[512];
	int ret;

	if (cur && json_is_number(sp->vals[0]) && !json_is_number(cur)) {
		char *b = jdoc_brief(cur);

		fprintf(stderr, "capsim: --set %s: the %s has %s there, not a number\n",
			sp->path.text, docname, b);
		free(b);
		return -1;
	}
	copy = json_deep_copy(root);
	ret = dpath_set(copy, &sp->path, json_deep_copy(sp->vals[0]), err,
			sizeof(err));
	json_decref(copy);
	if (ret)
		fprintf(stderr, "capsim: --set %s (in the %s)\n", err, docname);
	return ret;
}

static json_t *load_platform_doc(const char *name)
{
	const char *text = platform_embedded_find(name);
	struct diag d;
	struct jdoc doc;
	json_t *root = NULL;
	int r;

	diag_init(&d, false);
	r = text ? jdoc_load_buffer(&doc, name, text, strlen(text), &d) :
	    jdoc_load_file(&doc, name, &d);
	if (!r) {
		root = json_incref(doc.root);
	} else if (!text && access(name, R_OK)) {
		fprintf(stderr, "capsim: unknown platform \"%s\" (see `capsim platforms`)\n",
			name);
	}
	jdoc_free(&doc);
	diag_free(&d);
	return root;
}

/* FNV-1a over the point's parameter values: the seed follows the values,
 * not the point's number, so adding a policy or a platform keeps the draws */
static unsigned long long point_seed(const struct sweep *sw, const int *vi)
{
	unsigned long long h = 1469598103934665603ULL;
	uint64_t st;
	int i;

	for (i = 0; i < sw->nparams; i++) {
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
	/* a non-negative integer for capsim run --seed, 53 bits so JSON
	 * readers keep it exact */
	return rng_next(&st) >> 11;
}

static int write_json(const char *path, json_t *v)
{
	if (json_dump_file(v, path, JSON_INDENT(2) | JSON_REAL_PRECISION(12))) {
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
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

/*
 * Write every point's inputs under @root and fill @jobs (relative to
 * @root); @cmds gets each point's shell command for @final_abs. 0 or -1.
 */
static int prepare_points(struct sweep *sw, const char *root,
			  const char *final_abs, const char *self,
			  struct job *jobs, char **cmds)
{
	int nplat = strv_len(sw->platforms), npol = strv_len(sw->policies);
	int *vi = xcalloc((size_t)(sw->nparams ? sw->nparams : 1), sizeof(int));
	int id = 0, ret = -1, i;
	char *pts = xasprintf("%s/points", root);

	if (mkdir(pts, 0777)) {
		fprintf(stderr, "capsim: cannot create %s: %s\n", pts, strerror(errno));
		goto out;
	}
	for (;;) {
		unsigned long long seed = point_seed(sw, vi);
		json_t *w = json_deep_copy(sw->wdoc.root);
		char err[512];
		int pl, po;

		for (i = 0; i < sw->ndrops; i++) {
			if (dpath_drop(w, &sw->drops[i], err, sizeof(err))) {
				fprintf(stderr, "capsim: --drop %s\n", err);
				json_decref(w);
				goto out;
			}
		}
		for (i = 0; i < sw->nparams; i++) {
			if (sw->params[i].path.platform)
				continue;
			if (dpath_set(w, &sw->params[i].path,
				      json_deep_copy(sw->params[i].vals[vi[i]]),
				      err, sizeof(err))) {
				fprintf(stderr, "capsim: --set %s\n", err);
				json_decref(w);
				goto out;
			}
		}
		for (pl = 0; pl < nplat; pl++) {
			json_t *pdoc = NULL;

			if (sw->edits_platform) {
				pdoc = json_deep_copy(sw->pdocs[pl]);
				for (i = 0; i < sw->nparams; i++) {
					if (!sw->params[i].path.platform)
						continue;
					if (dpath_set(pdoc, &sw->params[i].path,
						      json_deep_copy(sw->params[i].vals[vi[i]]),
						      err, sizeof(err))) {
						fprintf(stderr, "capsim: --set %s\n", err);
						json_decref(pdoc);
						json_decref(w);
						goto out;
					}
				}
			}
			for (po = 0; po < npol; po++) {
				char *pdir = xasprintf("points/%0*d", sw->width, ++id);
				char *abs = xasprintf("%s/%s", root, pdir);
				char *f, *plat_arg;
				json_t *pj, *params = json_object();
				int bad;

				bad = mkdir(abs, 0777);
				f = xasprintf("%s/%s.json", abs, sw->wname);
				bad = bad || write_json(f, w);
				free(f);
				if (pdoc) {
					f = xasprintf("%s/platform.json", abs);
					bad = bad || write_json(f, pdoc);
					free(f);
					plat_arg = xasprintf("%s/platform.json", pdir);
				} else {
					/* a file given as ./x keeps working from DIR */
					const char *pn = sw->platforms[pl];

					plat_arg = platform_embedded_find(pn) || pn[0] == '/' ?
						   xstrdup(pn) : NULL;
					if (!plat_arg) {
						char rp[PATH_MAX];

						plat_arg = xstrdup(realpath(pn, rp) ? rp : pn);
					}
				}
				jobs[id - 1].argv = point_argv(sw, self, pdir,
							       sw->policies[po],
							       plat_arg, seed);
				jobs[id - 1].log_path = xasprintf("%s/run.log", abs);
				f = xasprintf("%s/run.log", pdir);
				cmds[id - 1] = job_line(jobs[id - 1].argv,
							final_abs, f);
				free(f);
				/* --emit-jobs checked every value up front; a
				 * direct run execs the argv, no shell line */
				if (!cmds[id - 1]) {
					if (sw->emit) {
						fprintf(stderr, "capsim: point %d: a value of its job line holds a control character\n",
							id);
						bad = 1;
					}
					cmds[id - 1] = xstrdup("(no shell line: a value holds a control character)");
				}
				for (i = 0; i < sw->nparams; i++)
					json_object_set_new(params, sw->params[i].path.text,
							    json_deep_copy(sw->params[i].vals[vi[i]]));
				pj = json_pack("{s:i, s:o, s:s, s:s, s:I, s:s}", "id", id,
					       "params", params, "policy",
					       sw->policies[po], "platform",
					       sw->platforms[pl], "seed",
					       (json_int_t)seed, "command",
					       cmds[id - 1]);
				f = xasprintf("%s/point.json", abs);
				bad = bad || write_json(f, pj);
				free(f);
				json_decref(pj);
				free(plat_arg);
				free(abs);
				free(pdir);
				if (bad) {
					fprintf(stderr, "capsim: cannot prepare point %d in %s\n",
						id, root);
					json_decref(pdoc);
					json_decref(w);
					goto out;
				}
			}
			json_decref(pdoc);
		}
		json_decref(w);
		/* next combination, the last parameter fastest */
		for (i = sw->nparams - 1; i >= 0; i--) {
			if (++vi[i] < sw->params[i].nvals)
				break;
			vi[i] = 0;
		}
		if (i < 0)
			break;
	}
	ret = 0;
out:
	free(pts);
	free(vi);
	return ret;
}

static int write_plan(const struct sweep *sw, const char *root)
{
	json_t *o = json_object(), *a = json_array();
	char *f = xasprintf("%s/sweep.json", root);
	int i, ret;

	json_object_set_new(o, "workload", json_string(sw->wfile));
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
	ret = write_json(f, o);
	json_decref(o);
	free(f);
	return ret;
}

static void sweep_free(struct sweep *sw)
{
	int i, k;

	for (i = 0; i < sw->nparams; i++) {
		for (k = 0; k < sw->params[i].nvals; k++)
			json_decref(sw->params[i].vals[k]);
		free(sw->params[i].vals);
		dpath_free(&sw->params[i].path);
	}
	free(sw->params);
	for (i = 0; i < sw->ndrops; i++)
		dpath_free(&sw->drops[i]);
	free(sw->drops);
	for (i = 0; sw->pdocs && sw->platforms && sw->platforms[i]; i++)
		json_decref(sw->pdocs[i]);
	free(sw->pdocs);
	strv_free(sw->policies);
	strv_free(sw->platforms);
	free(sw->wname);
	if (sw->wdoc.root || sw->wdoc.text)
		jdoc_free(&sw->wdoc);
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "capsim: %s%s%s\nsee `capsim sweep --help`\n", msg,
		arg ? ": " : "", arg ? arg : "");
	return EXIT_USAGE;
}

/* Resolve the abs path DIR will have once committed (it does not exist
 * yet; its temporary sibling does) */
static char *final_abs_path(const struct outdir *od)
{
	char rp[PATH_MAX], *slash;
	const char *base = strrchr(od->final, '/');

	if (!realpath(od->tmp, rp))
		return xstrdup(od->final);
	slash = strrchr(rp, '/');
	*slash = '\0';
	return xasprintf("%s/%s", rp, base ? base + 1 : od->final);
}

/* Options that take a value */
static bool takes_value(const char *a)
{
	static const char *const opts[] = {
		"--set", "--drop", "--policies", "--platforms", "-j", "-o",
		"--seed", "--duration", "--metric", "--emit-jobs", "--collect",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opts); i++)
		if (!strcmp(a, opts[i]))
			return true;
	return false;
}

/*
 * With --emit-jobs every argument may end up in a job line (the workload's
 * name, -o, the platforms, ...), and so may the current directory (the
 * absolute -o) and capsim's own path: none may hold a control character.
 */
static int check_job_values(int argc, char **argv, const char *self)
{
	char cwd[PATH_MAX];
	int i;

	for (i = 1; i < argc; i++) {
		char *what;
		bool bad;

		if (!control_char_in(argv[i]))
			continue;
		what = i > 1 && takes_value(argv[i - 1]) ?
		       xasprintf("the %s value", argv[i - 1]) :
		       xasprintf("the argument %d", i);
		bad = job_value_refused(what, argv[i]);
		free(what);
		if (bad)
			return -1;
	}
	if (getcwd(cwd, sizeof(cwd)) &&
	    job_value_refused("the current directory", cwd))
		return -1;
	return job_value_refused("capsim's executable path", self) ? -1 : 0;
}

/* Every platform loads (an unknown name or a bad file is said, as `capsim
 * run` would say it); the most domains any has, in *ndoms */
static int check_platforms(char **names, int *ndoms)
{
	struct diag d;
	int i, ret = 0;

	*ndoms = 0;
	diag_init(&d, false);
	for (i = 0; names[i] && !ret; i++) {
		struct platform *pl = platform_load(names[i], &d);

		if (!pl) {
			ret = -1;
			break;
		}
		if (pl->ndomains > *ndoms)
			*ndoms = pl->ndomains;
		platform_free(pl);
	}
	diag_free(&d);
	return ret;
}

/*
 * --metric names a column sweep.csv will have: energy_mj, domN.avg_mhz
 * (N below the platforms' domains, unless --set edits the platforms) or
 * TASK.COLUMN, TASK a task of the workload (NAME, or NAME-K for its
 * instances)
 */
static bool metric_known(const struct sweep *sw, const char *metric,
			 int ndoms)
{
	json_t *tasks = json_object_get(sw->wdoc.root, "tasks"), *v;
	const char *dot = strrchr(metric, '.'), *key;
	int k, n;

	if (!strcmp(metric, "energy_mj"))
		return true;
	if (sscanf(metric, "dom%d.avg_mhz%n", &k, &n) == 1 && !metric[n] &&
	    k >= 0)
		return sw->edits_platform || k < ndoms;
	if (!dot || !sweep_is_task_column(dot + 1))
		return false;
	json_object_foreach(tasks, key, v) {
		size_t len = strlen(key);
		const char *p;

		if (len > (size_t)(dot - metric) || strncmp(metric, key, len))
			continue;
		if (metric + len == dot)
			return true;
		/* NAME-K, an instance */
		p = metric + len;
		if (*p++ != '-' || p == dot)
			continue;
		while (p < dot && *p >= '0' && *p <= '9')
			p++;
		if (p == dot)
			return true;
	}
	return false;
}

/* -o DIR can become the sweep's directory: not empty, not a file */
static int check_outdir(const char *dir)
{
	struct stat st;

	if (!*dir)
		return usage_error("-o needs a directory, not an empty path", NULL);
	if (!stat(dir, &st) && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "capsim: -o %s: it exists and is not a directory\nsee `capsim sweep --help`\n",
			dir);
		return EXIT_USAGE;
	}
	/* a parent that is a file: DIR can never be created */
	{
		char *p = xstrdup(dir), *slash;
		int ret = 0;

		while ((slash = strrchr(p, '/')) && slash != p) {
			*slash = '\0';
			if (!stat(p, &st)) {
				if (!S_ISDIR(st.st_mode)) {
					fprintf(stderr, "capsim: -o %s: %s is not a directory\nsee `capsim sweep --help`\n",
						dir, p);
					ret = EXIT_USAGE;
				}
				break;
			}
		}
		free(p);
		return ret;
	}
}

int cmd_sweep(int argc, char **argv)
{
	const char *outdir = NULL, *policies = NULL, *platforms = NULL,
		   *metric = NULL, *emit = NULL, *collect = NULL;
	struct sweep sw = { 0 };
	struct outdir od = { 0 };
	struct job *jobs = NULL;
	char **cmds = NULL, *self = NULL, *fabs_dir = NULL;
	char **sets = NULL;
	int nsets = 0, i, ret = EXIT_USAGE, parallel = 2, failed = 0, ndoms;
	bool quiet = false;
	struct diag d;

	diag_init(&d, false);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_sweep, stdout);
			ret = 0;
			goto out;
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--keep-traces")) {
			sw.keep_traces = true;
		} else if (takes_value(a)) {
			const char *v;

			if (i + 1 >= argc) {
				ret = usage_error("missing value for", a);
				goto out;
			}
			v = argv[++i];
			if (!strcmp(a, "--set")) {
				sets = xrealloc(sets, (size_t)(nsets + 1) * sizeof(char *));
				sets[nsets++] = (char *)v;
			} else if (!strcmp(a, "--drop")) {
				struct dpath p;
				char err[512];

				if (dpath_parse(v, &p, err, sizeof(err))) {
					ret = usage_error(err, NULL);
					goto out;
				}
				sw.drops = xrealloc(sw.drops, (size_t)(sw.ndrops + 1) *
						    sizeof(*sw.drops));
				sw.drops[sw.ndrops++] = p;
			} else if (!strcmp(a, "--policies")) {
				policies = v;
			} else if (!strcmp(a, "--platforms")) {
				platforms = v;
			} else if (!strcmp(a, "-o")) {
				outdir = v;
			} else if (!strcmp(a, "--metric")) {
				metric = v;
			} else if (!strcmp(a, "--emit-jobs")) {
				emit = v;
			} else if (!strcmp(a, "--collect")) {
				collect = v;
			} else if (!strcmp(a, "--duration")) {
				char *end;
				double sec = strtod(v, &end);

				/* capsim run's bounds, said before any point */
				if (*end || end == v || !(sec >= WL_DURATION_MIN_S) ||
				    !(sec <= WL_DURATION_MAX_S)) {
					ret = usage_error("--duration needs seconds in [1e-06, 1e+06]",
							  v);
					goto out;
				}
				sw.duration = v;
			} else {
				char *end;
				unsigned long long x;

				errno = 0;
				x = strtoull(v, &end, 10);
				if (*end || end == v || errno || v[0] == '-' ||
				    (!strcmp(a, "-j") && (x < 1 || x > 256))) {
					ret = usage_error(!strcmp(a, "-j") ?
						"-j needs an integer in [1, 256]" :
						"--seed needs a non-negative integer", v);
					goto out;
				}
				if (!strcmp(a, "-j"))
					parallel = (int)x;
				else
					sw.seed = x;
			}
		} else if (a[0] == '-' && a[1]) {
			ret = usage_error("unknown option", a);
			goto out;
		} else if (!sw.wfile) {
			sw.wfile = a;
		} else {
			ret = usage_error("more than one workload", a);
			goto out;
		}
	}
	if (collect) {
		if (sw.wfile || nsets || outdir || emit || sw.ndrops ||
		    policies || platforms || sw.keep_traces) {
			ret = usage_error("--collect DIR takes only --metric and --quiet", NULL);
			goto out;
		}
		/* it writes sweep.csv and the plots into DIR: capsim's only */
		if (!outmark_present(collect)) {
			fprintf(stderr, "capsim: %s was not written by capsim sweep (no %s in it)\n",
				collect, OUTMARK_NAME);
			ret = EXIT_USAGE;
			goto out;
		}
		i = sweep_collect(collect, metric, quiet);
		ret = i == SWEEP_COLLECT_BAD_INPUT ? EXIT_USAGE : i ? EXIT_RUN : 0;
		goto out;
	}
	if (!sw.wfile) {
		ret = usage_error("sweep needs a WORKLOAD.json", NULL);
		goto out;
	}
	if (!outdir) {
		ret = usage_error("sweep needs -o DIR", NULL);
		goto out;
	}
	ret = check_outdir(outdir);
	if (ret)
		goto out;
	ret = EXIT_USAGE;
	self = procs_self_exe();
	sw.emit = emit;
	if (emit && (check_job_values(argc, argv, self) || jobs_path_check(emit)))
		goto out;
	if (jdoc_load_file(&sw.wdoc, sw.wfile, &d))
		goto out;
	sw.wname = whatif_workload_name(sw.wfile);
	if (policies) {
		sw.policies = strv_split(policies, "--policies");
	} else {
		sw.policies = xcalloc((size_t)strv_len((char *const *)
				      whatif_default_policies) + 1, sizeof(char *));
		for (i = 0; whatif_default_policies[i]; i++)
			sw.policies[i] = xstrdup(whatif_default_policies[i]);
	}
	if (platforms) {
		sw.platforms = strv_split(platforms, "--platforms");
	} else {
		json_t *p = json_object_get(json_object_get(sw.wdoc.root, "capsim"),
					    "platform");

		sw.platforms = strv_split(json_is_string(p) ? json_string_value(p) :
					  PLATFORM_DEFAULT, "platform");
	}
	if (!sw.policies || !sw.platforms ||
	    whatif_check_list(sw.policies, "--policies", "sweep", true) ||
	    whatif_check_list(sw.platforms, "--platforms", "sweep", false) ||
	    check_platforms(sw.platforms, &ndoms))
		goto out;
	sw.pdocs = xcalloc((size_t)strv_len(sw.platforms) + 1, sizeof(json_t *));
	for (i = 0; i < nsets; i++) {
		struct sweep_param *sp;
		const char *eq = strchr(sets[i], '=');
		char err[512], *path;
		int k;

		if (!eq) {
			ret = usage_error("--set needs PATH=SPEC", sets[i]);
			goto out;
		}
		sw.params = xrealloc(sw.params, (size_t)(sw.nparams + 1) *
				     sizeof(*sw.params));
		sp = &sw.params[sw.nparams];
		memset(sp, 0, sizeof(*sp));
		path = strndup(sets[i], (size_t)(eq - sets[i]));
		k = dpath_parse(path, &sp->path, err, sizeof(err));
		free(path);
		if (k) {
			ret = usage_error(err, NULL);
			goto out;
		}
		sw.nparams++;
		if (sp->path.platform) {
			int pl;

			sw.edits_platform = true;
			for (pl = 0; sw.platforms[pl]; pl++) {
				if (!sw.pdocs[pl])
					sw.pdocs[pl] = load_platform_doc(sw.platforms[pl]);
				if (!sw.pdocs[pl])
					goto out;
			}
			if (parse_spec(sp, eq + 1, dpath_get(sw.pdocs[0], &sp->path)))
				goto out;
			for (pl = 0; sw.platforms[pl]; pl++)
				if (check_target(sw.pdocs[pl], sp, "platform"))
					goto out;
		} else {
			if (parse_spec(sp, eq + 1, dpath_get(sw.wdoc.root, &sp->path)) ||
			    check_target(sw.wdoc.root, sp, "workload"))
				goto out;
		}
	}
	for (i = 0; i < sw.ndrops; i++) {
		json_t *copy = json_deep_copy(sw.wdoc.root);
		char err[512];
		int r = dpath_drop(copy, &sw.drops[i], err, sizeof(err));

		json_decref(copy);
		if (r) {
			fprintf(stderr, "capsim: --drop %s\n", err);
			goto out;
		}
	}
	if (metric && !metric_known(&sw, metric, ndoms)) {
		fprintf(stderr, "capsim: --metric %.100s will not be a sweep.csv column: allowed energy_mj, domN.avg_mhz (N < %d) or TASK.COLUMN, TASK a task of %s, COLUMN one of wlat_p95_us, wlat_p99_us, resp_p95_us, resp_p99_us, misses\nsee `capsim sweep --help`\n",
			metric, ndoms, sw.wfile);
		goto out;
	}
	{
		double n = (double)strv_len(sw.policies) * strv_len(sw.platforms);

		for (i = 0; i < sw.nparams; i++)
			n *= sw.params[i].nvals;
		if (n > SWEEP_MAX_POINTS) {
			fprintf(stderr, "capsim: the sweep has %.0f points (--set values x platforms x policies): at most %d\nsee `capsim sweep --help`\n",
				n, SWEEP_MAX_POINTS);
			goto out;
		}
		sw.npoints = (int)n;
		for (sw.width = 1, i = sw.npoints; i >= 10; i /= 10)
			sw.width++;
		if (sw.width < 4)
			sw.width = 4;
	}

	outmark_note_input(sw.wfile);
	for (i = 0; sw.platforms[i]; i++)
		outmark_note_input(sw.platforms[i]);
	ret = outdir_begin(&od, outdir);
	if (ret)
		goto out;
	ret = EXIT_RUN;
	fabs_dir = final_abs_path(&od);
	if (emit && job_value_refused("the absolute -o path", fabs_dir)) {
		ret = EXIT_USAGE;
		goto out;
	}
	jobs = xcalloc((size_t)sw.npoints, sizeof(*jobs));
	cmds = xcalloc((size_t)sw.npoints, sizeof(char *));
	if (write_plan(&sw, od.tmp) ||
	    prepare_points(&sw, od.tmp, fabs_dir, self, jobs, cmds))
		goto out;
	if (emit) {
		/*
		 * DIR first: the jobs may live inside it (-o sw --emit-jobs
		 * sw/jobs), where the swap would take them away with the
		 * older DIR. Jobs that cannot be written then leave a DIR
		 * that nothing runs: exit 1, said.
		 */
		if (outdir_commit(&od))
			goto out;
		if (jobs_write(emit, cmds, sw.npoints)) {
			fprintf(stderr, "capsim: %s/ is prepared, but no jobs were written to run it\n",
				outdir);
			goto out;
		}
		if (!quiet)
			printf("sweep: %d points prepared in %s/\n"
			       "run them: parallel < %s   (or sbatch %s.slurm)\n"
			       "then:     capsim sweep --collect %s\n",
			       sw.npoints, outdir, emit, emit, outdir);
		ret = 0;
		goto out;
	}
	{
		struct progress pg;
		double t0 = progress_now(), runs = 0, wall, tc;
		int k;

		for (k = 0; k < sw.npoints; k++)
			jobs[k].cwd = od.tmp;
		progress_init(&pg, quiet, "sweep", "points", sw.npoints);
		procs_run(jobs, sw.npoints, parallel, &pg);
		progress_end(&pg);
		for (k = 0; k < sw.npoints; k++)
			runs += jobs[k].wall_s;
		tc = progress_now();
		failed = sweep_collect(od.tmp, metric, true);
		if (failed < 0)
			goto out;
		/* some failed points are worth keeping beside the others;
		 * a sweep of failures only is no result (a full disk, a
		 * workload every point rejects): nothing is written */
		if (failed == sw.npoints) {
			fprintf(stderr, "capsim: sweep: every point failed; nothing written\n");
			goto out;
		}
		wall = progress_now() - t0;
		if (outdir_commit(&od))
			goto out;
		if (!quiet) {
			printf("sweep: %d points (%d failed) in %.2f s wall at -j %d; the runs took %.2f s (sum), collecting %.2f s\n",
			       sw.npoints, failed, wall, parallel, runs,
			       progress_now() - tc);
			printf("outputs: %s/sweep.csv, %s/pareto.png (.svg), %s/points/\n",
			       outdir, outdir, outdir);
		}
		ret = failed ? EXIT_RUN : 0;
	}
out:
	if (od.tmp)
		outdir_abort(&od);
	for (i = 0; jobs && i < sw.npoints; i++) {
		job_free(&jobs[i]);
		free(cmds[i]);
	}
	free(jobs);
	free(cmds);
	free(self);
	free(fabs_dir);
	free(sets);
	sweep_free(&sw);
	diag_free(&d);
	return ret;
}
