// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "freq_series.h"
#include "outdir.h"
#include "plot.h"
#include "run_metrics.h"
#include "util.h"

extern char **environ;

#define MAX_KERNEL_LANES 16
/* Longer than this between two utilization samples (taken at the ticks
 * of a busy CPU): the CPU was idle for long, draw a gap. Shorter gaps
 * (a periodic task's sleep) hold the last level, so the curves stay
 * readable at 1000 px. */
#define UTIL_GAP_S 0.1

struct seg {
	int pid;
	double t0, t1;
	int state;
	int cpu;
};

struct plot_ctx {
	const struct plot_opts *o;
	char *datadir;
	double from, to;	/* seconds; to < 0: open */
	double t0;		/* the trace's first timestamp, time 0 of the plots */
	bool t0_set;
	struct level_series *doms;
	int ndoms;
	double *binw;		/* per domain, 0: steps */
	FILE **utilf;
	double *util_last;	/* per CPU: the last sample, or < 0 */
	unsigned int (*util_prev)[3];
	int nutilf;
	struct seg *segs;
	size_t nsegs, capsegs;
	bool any_band;
};

char *gp_quote(const char *s)
{
	struct strbuf sb;

	/* double quotes, so a newline can be written as \n */
	sb_init(&sb);
	sb_putc(&sb, '"');
	for (; *s; s++) {
		if (*s == '\n') {
			sb_puts(&sb, "\\n");
			continue;
		}
		if (*s == '"' || *s == '\\')
			sb_putc(&sb, '\\');
		sb_putc(&sb, *s);
	}
	sb_putc(&sb, '"');
	return sb.buf;
}

const char *plot_scripts_dir(void)
{
	static char buf[4096];
	const char *env = getenv("CAPSIM_PLOTS");
	const char *cand[] = { env, CAPSIM_PLOTS_SRCDIR, CAPSIM_PLOTS_DATADIR };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cand); i++) {
		if (!cand[i] || !*cand[i])
			continue;
		snprintf(buf, sizeof(buf), "%s/freq.gp", cand[i]);
		if (!access(buf, R_OK)) {
			snprintf(buf, sizeof(buf), "%s", cand[i]);
			return buf;
		}
	}
	fprintf(stderr, "capsim: the gnuplot scripts (plots/*.gp) are not in %s nor %s; set CAPSIM_PLOTS\n",
		CAPSIM_PLOTS_SRCDIR, CAPSIM_PLOTS_DATADIR);
	return NULL;
}

/* gnuplot with these arguments; 0 or -1 (reported, naming @script) */
static int run_gnuplot(char **argv, const char *script)
{
	int status;
	pid_t pid;

	fflush(NULL);
	if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ)) {
		fprintf(stderr, "capsim: cannot run gnuplot (apt-get install gnuplot-nox): %s\n",
			strerror(errno));
		return -1;
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "capsim: gnuplot failed on %s\n", script);
		return -1;
	}
	return 0;
}

int plot_gnuplot(const char *vars, const char *script)
{
	char *argv[] = { (char *)"gnuplot", (char *)"-e", (char *)vars,
			 (char *)script, NULL };

	return run_gnuplot(argv, script);
}

/*
 * gnuplot exits 0 when its output could not be written whole (a full
 * disk leaves a 4 KiB PNG or an empty SVG): a plot counts as written
 * once its file ends as its format ends, PNG with the IEND chunk, SVG
 * with its closing tag.
 */
static bool plot_file_complete(const char *path, const char *fmt)
{
	static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N',
						'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[64];
	bool ok = false;
	FILE *f = fopen(path, "rb");
	long size;
	size_t n;

	if (!f)
		return false;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0)
		goto out;
	n = size < (long)sizeof(tail) ? (size_t)size : sizeof(tail);
	if (fseek(f, -(long)n, SEEK_END) || fread(tail, 1, n, f) != n)
		goto out;
	if (!strcmp(fmt, "png")) {
		ok = n >= sizeof(iend) &&
		     !memcmp(tail + n - sizeof(iend), iend, sizeof(iend));
	} else {
		while (n && (tail[n - 1] == '\n' || tail[n - 1] == ' '))
			n--;
		ok = n >= 6 && !memcmp(tail + n - 6, "</svg>", 6);
	}
out:
	fclose(f);
	return ok;
}

int plot_gnuplot_png_svg(const char *vars, const char *script,
			 const char *png, const char *svg)
{
	char *qp = gp_quote(png), *qs = gp_quote(svg);
	char *v1 = xasprintf("%s; out=%s; fmt='png'", vars, qp);
	char *v2 = xasprintf("out=%s; fmt='svg'", qs);
	/* gnuplot runs its -e lists and scripts in order: the script twice,
	 * each time setting its terminal and output from fmt and out */
	char *argv[] = { (char *)"gnuplot", (char *)"-e", v1, (char *)script,
			 (char *)"-e", v2, (char *)script, NULL };
	int ret = run_gnuplot(argv, script);

	if (!ret && (!plot_file_complete(png, "png") ||
		     !plot_file_complete(svg, "svg"))) {
		fprintf(stderr, "capsim: gnuplot could not write %s or %s whole (disk full?)\n",
			png, svg);
		ret = -1;
	}
	free(qp);
	free(qs);
	free(v1);
	free(v2);
	return ret;
}

static double rel_s(struct plot_ctx *p, uint64_t t)
{
	if (!p->t0_set) {
		p->t0 = (double)t / 1e9;
		p->t0_set = true;
	}
	return (double)t / 1e9 - p->t0;
}

static bool before_window(struct plot_ctx *p, double t)
{
	return t < p->from;
}

static bool after_window(struct plot_ctx *p, double t)
{
	return p->to >= 0 && t > p->to;
}

static FILE *open_data(struct plot_ctx *p, const char *name)
{
	char *path = xasprintf("%s/%s", p->datadir, name);
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
	free(path);
	return f;
}

static void hook_segment(void *arg, const struct scan_task *t, uint64_t t0,
			 uint64_t t1, int state, int cpu)
{
	struct plot_ctx *p = arg;
	double a = rel_s(p, t0), b = rel_s(p, t1);

	if (b < p->from || after_window(p, a))
		return;
	if (p->nsegs == p->capsegs) {
		p->capsegs = p->capsegs ? 2 * p->capsegs : 4096;
		p->segs = xrealloc(p->segs, p->capsegs * sizeof(*p->segs));
	}
	p->segs[p->nsegs++] = (struct seg){ t->pid, a, b, state, cpu };
}

static void hook_domain(void *arg, int dom, uint64_t t, unsigned int khz,
			unsigned int bmin, unsigned int bmax, bool has_band)
{
	struct plot_ctx *p = arg;
	double s = rel_s(p, t);

	if (dom >= p->ndoms) {
		int n = p->ndoms;

		p->ndoms = dom + 1;
		p->doms = xrealloc(p->doms, (size_t)p->ndoms * sizeof(*p->doms));
		memset(p->doms + n, 0, (size_t)(p->ndoms - n) * sizeof(*p->doms));
	}
	p->any_band |= has_band;
	series_add(&p->doms[dom], (struct level){ s, khz, bmin, bmax,
						  has_band });
}

/* freq-dom<N>.dat for each domain, over the window */
static int write_domains(struct plot_ctx *p, double end)
{
	int i;

	p->binw = xcalloc((size_t)(p->ndoms ? p->ndoms : 1), sizeof(double));
	for (i = 0; i < p->ndoms; i++) {
		char name[32];
		FILE *f;

		snprintf(name, sizeof(name), "freq-dom%d.dat", i);
		f = open_data(p, name);
		if (!f)
			return -1;
		fputs("# time_s MHz MHz_low MHz_high band_min_MHz band_max_MHz has_band\n", f);
		p->binw[i] = series_write(f, &p->doms[i], p->from,
					  p->to >= 0 ? p->to : end);
		if (fclose(f))
			return -1;
	}
	return 0;
}

static void hook_util(void *arg, int cpu, uint64_t t, unsigned int util,
		      unsigned int cmin, unsigned int cmax)
{
	struct plot_ctx *p = arg;
	double s = rel_s(p, t);

	if (cpu >= p->nutilf) {
		int n = p->nutilf;

		p->nutilf = cpu + 1;
		p->utilf = xrealloc(p->utilf, (size_t)p->nutilf * sizeof(FILE *));
		p->util_last = xrealloc(p->util_last, (size_t)p->nutilf * sizeof(double));
		p->util_prev = xrealloc(p->util_prev, (size_t)p->nutilf *
					sizeof(*p->util_prev));
		for (; n < p->nutilf; n++) {
			p->util_last[n] = -1;
			char name[32];

			snprintf(name, sizeof(name), "util-cpu%d.dat", n);
			p->utilf[n] = open_data(p, name);
			if (p->utilf[n])
				fputs("# time_s util clamp_min clamp_max\n",
				      p->utilf[n]);
		}
	}
	if (!p->utilf[cpu] || before_window(p, s) || after_window(p, s))
		return;
	/* A long idle stretch is a gap in the curves (a blank line), not a
	 * ramp; otherwise the values hold until the next sample (steps, so
	 * the clamp range fills as levels). */
	if (p->util_last[cpu] >= 0 && s - p->util_last[cpu] > UTIL_GAP_S)
		fputc('\n', p->utilf[cpu]);
	else if (p->util_last[cpu] >= 0)
		fprintf(p->utilf[cpu], "%.9f %u %u %u\n", s,
			p->util_prev[cpu][0], p->util_prev[cpu][1],
			p->util_prev[cpu][2]);
	fprintf(p->utilf[cpu], "%.9f %u %u %u\n", s, util, cmin, cmax);
	p->util_last[cpu] = s;
	p->util_prev[cpu][0] = util;
	p->util_prev[cpu][1] = cmin;
	p->util_prev[cpu][2] = cmax;
}

static bool lane_wanted(const struct plot_opts *o, const char *name)
{
	const char *s = o->tasks;
	size_t n = strlen(name);

	if (!s)
		return true;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len == n && !strncmp(s, name, n))
			return true;
		s += len + (e ? 1 : 0);
	}
	return false;
}

/* Lanes: the summary's tasks in order, or a kernel trace's busiest */
static int pick_lanes(const struct run_metrics *m, const struct plot_opts *o,
		      int *lanes)
{
	int n = 0, i, j;

	for (i = 0; i < m->ntasks; i++)
		if (lane_wanted(o, m->tasks[i].name))
			lanes[n++] = i;
	if (m->has_summary || o->tasks)
		return n;
	/* by running time, descending */
	for (i = 1; i < n; i++) {
		int v = lanes[i];

		for (j = i; j > 0 && m->tasks[lanes[j - 1]].run_s <
				m->tasks[v].run_s; j--)
			lanes[j] = lanes[j - 1];
		lanes[j] = v;
	}
	return n > MAX_KERNEL_LANES ? MAX_KERNEL_LANES : n;
}

/* Render one script in both formats */
static int render(const char *scripts, const char *datadir, const char *outdir,
		  const char *name)
{
	char *script = xasprintf("%s/%s.gp", scripts, name);
	char *png = xasprintf("%s/%s.png", outdir, name);
	char *svg = xasprintf("%s/%s.svg", outdir, name);
	char *qd = gp_quote(datadir), *qs = gp_quote(scripts);
	char *vars = xasprintf("datadir=%s; plotsdir=%s", qd, qs);
	int ret = plot_gnuplot_png_svg(vars, script, png, svg);

	free(vars);
	free(qd);
	free(qs);
	free(png);
	free(svg);
	free(script);
	return ret;
}

static void write_vars(FILE *v, const struct run_metrics *m,
		       const struct plot_ctx *p, const int *lanes, int nlanes)
{
	char *q;
	int i, j;

	q = xasprintf("%s on %s, policy %s", m->workload, m->platform,
		      m->policy);
	{
		char *qq = gp_quote(q);

		fprintf(v, "runtitle = %s\n", qq);
		free(qq);
	}
	free(q);
	fprintf(v, "tfrom = %.9f\n", p->from);
	fprintf(v, "tto = %.9f\n", p->to >= 0 ? p->to : m->sim_s);
	fprintf(v, "ndoms = %d\nncpus = %d\nnlanes = %d\n", m->ndoms, m->ncpus,
		nlanes);
	fprintf(v, "hasband = %d\n", p->any_band && strcmp(m->policy, "none"));
	fprintf(v, "bandnote = '%s'\n", !p->any_band ? "no clamp in the trace" :
		!strcmp(m->policy, "none") ? "policy none: no clamp applied" : "");
	fprintf(v, "array domlabel[%d]\narray domytics[%d]\narray domfmax[%d]\narray dombin[%d]\narray domband[%d]\n",
		m->ndoms ? m->ndoms : 1, m->ndoms ? m->ndoms : 1,
		m->ndoms ? m->ndoms : 1, m->ndoms ? m->ndoms : 1,
		m->ndoms ? m->ndoms : 1);
	for (i = 0; i < m->ndoms; i++) {
		const struct dom_metrics *d = &m->doms[i];
		struct strbuf sb;

		fprintf(v, "domlabel[%d] = 'domain %d (CPUs %s)'\n", i + 1, d->id,
			d->cpus);
		sb_init(&sb);
		for (j = 0; j < d->nopps; j++)
			sb_printf(&sb, "%s\"%u\" %u", j ? ", " : "",
				  d->khz[j] / 1000, d->khz[j] / 1000);
		fprintf(v, "domytics[%d] = '%s'\n", i + 1, sb.buf ? sb.buf : "");
		{
			bool band = false;
			size_t k;

			for (k = 0; i < p->ndoms && k < p->doms[i].n; k++)
				band |= p->doms[i].v[k].band;
			fprintf(v, "domband[%d] = %d\n", i + 1, band);
		}
		fprintf(v, "dombin[%d] = %.6f\n", i + 1,
			i < p->ndoms ? p->binw[i] * 1e3 : 0.0);
		fprintf(v, "domfmax[%d] = %u\n", i + 1,
			d->nopps ? d->khz[d->nopps - 1] / 1000 : 1000);
		sb_free(&sb);
	}
	fprintf(v, "array lanelabel[%d]\n", nlanes ? nlanes : 1);
	for (i = 0; i < nlanes; i++) {
		const struct task_metrics *t = &m->tasks[lanes[i]];
		char *lab = xasprintf("%s%s%s", t->name, t->group ? " " : "",
				      t->group && strcmp(t->group, "/") ?
				      t->group : "");
		char *qq = gp_quote(lab);

		fprintf(v, "lanelabel[%d] = %s\n", i + 1, qq);
		free(qq);
		free(lab);
	}
}

/* activity.dat: lane t0 t1 state cpu, lanes numbered from 1 at the top */
static int write_activity(struct plot_ctx *p, const struct run_metrics *m,
			  const int *lanes, int nlanes)
{
	FILE *f = open_data(p, "activity.dat");
	size_t k;
	int l;

	if (!f)
		return -1;
	fputs("# lane t0_s t1_s state(1 runnable, 2 running) cpu\n", f);
	for (k = 0; k < p->nsegs; k++) {
		const struct seg *s = &p->segs[k];

		for (l = 0; l < nlanes; l++)
			if (m->tasks[lanes[l]].pid == s->pid)
				break;
		if (l == nlanes)
			continue;
		fprintf(f, "%d %.9f %.9f %d %d\n", l + 1,
			s->t0 < p->from ? p->from : s->t0,
			p->to >= 0 && s->t1 > p->to ? p->to : s->t1,
			s->state, s->cpu);
	}
	return fclose(f) ? -1 : 0;
}

int plot_run(const char *path, const struct plot_opts *o)
{
	struct plot_ctx p = { .o = o, .from = o->from_s, .to = o->to_s };
	struct metrics_opts mo = { .platform = o->platform };
	const char *scripts = plot_scripts_dir();
	struct run_metrics m;
	struct outdir od = { 0 };
	char *outdir = NULL;
	int *lanes = NULL, nlanes, i, ret = -1;
	FILE *f;

	if (!scripts)
		return -1;
	if (o->outdir) {
		outdir = xstrdup(o->outdir);
	} else {
		struct stat st;

		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			outdir = xasprintf("%s/plots", path);
		} else {
			const char *slash = strrchr(path, '/');

			outdir = slash ? xasprintf("%.*s/plots", (int)(slash - path),
						   path) : xstrdup("plots");
		}
	}
	if (outdir_begin(&od, outdir))
		goto out_free;
	p.datadir = xasprintf("%s/data", od.tmp);
	if (mkdir(p.datadir, 0777)) {
		fprintf(stderr, "capsim: cannot create %s: %s\n", p.datadir,
			strerror(errno));
		goto out;
	}
	mo.hooks = (struct scan_hooks){ .arg = &p, .segment = hook_segment,
					.domain = hook_domain,
					.util = hook_util };
	i = run_metrics_load(&m, path, &mo);
	if (i) {
		ret = i;	/* SCAN_BAD_INPUT: exit 2 */
		goto out;
	}
	for (i = 0; i < p.nutilf; i++)
		if (p.utilf[i])
			fclose(p.utilf[i]);
	if (p.to >= 0 && p.to <= p.from) {
		fprintf(stderr, "capsim: --to %.3f is not after --from %.3f\n",
			p.to, p.from);
		goto out_m;
	}
	lanes = xcalloc((size_t)(m.ntasks ? m.ntasks : 1), sizeof(int));
	nlanes = pick_lanes(&m, o, lanes);
	ret = write_domains(&p, m.sim_s) || write_activity(&p, &m, lanes, nlanes);
	f = ret ? NULL : open_data(&p, "vars.gp");
	if (!f) {
		ret = -1;
		goto out_m;
	}
	write_vars(f, &m, &p, lanes, nlanes);
	fprintf(f, "hasutil = %d\nhasenergy = %d\n", p.nutilf > 0,
		m.has_summary);
	if (fclose(f)) {
		ret = -1;
		goto out_m;
	}

	/* residency and energy, one file per domain / one for all */
	for (i = 0; i < m.ndoms; i++) {
		char name[32];
		int j;

		snprintf(name, sizeof(name), "residency-dom%d.dat", i);
		f = open_data(&p, name);
		if (!f)
			goto out_m;
		fputs("# MHz percent\n", f);
		for (j = 0; j < m.doms[i].nopps; j++)
			fprintf(f, "%u %.3f\n", m.doms[i].khz[j] / 1000,
				m.doms[i].res_pct[j]);
		if (fclose(f)) {
			ret = -1;
			goto out_m;
		}
	}
	if (m.has_summary) {
		f = open_data(&p, "energy.dat");
		if (!f)
			goto out_m;
		fprintf(f, "domain \"%s\"\n", m.policy);
		for (i = 0; i < m.ndoms; i++)
			fprintf(f, "\"dom %d (CPUs %s)\" %.3f\n", m.doms[i].id,
				m.doms[i].cpus, m.doms[i].energy_mj);
		if (fclose(f)) {
			ret = -1;
			goto out_m;
		}
	}

	ret = render(scripts, p.datadir, od.tmp, "freq");
	if (!ret)
		ret = render(scripts, p.datadir, od.tmp, "activity");
	if (!ret && p.nutilf)
		ret = render(scripts, p.datadir, od.tmp, "util");
	if (!ret)
		ret = render(scripts, p.datadir, od.tmp, "residency");
	if (!ret && m.has_summary)
		ret = render(scripts, p.datadir, od.tmp, "energy");
	if (!ret) {
		ret = outdir_commit(&od);
		if (!ret && !o->quiet)
			printf("plots: %s/ (freq, activity%s, residency%s; .png and .svg)\n",
			       outdir, p.nutilf ? ", util" : "",
			       m.has_summary ? ", energy" : "");
	}
out_m:
	run_metrics_free(&m);
out:
	if (od.tmp)
		outdir_abort(&od);
	free(p.datadir);
	for (i = 0; i < p.ndoms; i++)
		series_free(&p.doms[i]);
	free(p.doms);
	free(p.binw);
	free(p.utilf);
	free(p.util_last);
	free(p.util_prev);
	free(p.segs);
	free(lanes);
out_free:
	free(outdir);
	return ret;
}

static const char usage_plot[] =
"usage: capsim plot RUN_DIR|TRACE [--from SEC] [--to SEC] [--platform NAME|FILE]\n"
"                   [--tasks A,B,...] [-o DIR] [--quiet]\n"
"\n"
"Plots a capsim run (its trace.txt and summary.json) or any ftrace text\n"
"trace (a kernel's: pass its --platform for the domains and OPPs) into\n"
"DIR (default RUN_DIR/plots, or plots/ beside the trace), PNG and SVG:\n"
"freq (per domain: frequency and clamp band as the OPPs it allows),\n"
"activity (a lane per task), util (with --trace-util runs), residency,\n"
"energy. --from/--to: a window in seconds from the trace's start.\n";

static int parse_seconds(const char *v, double *out)
{
	char *end;
	double x = strtod(v, &end);

	if (*end || end == v || !(x >= 0) || x > 1e9)
		return -1;
	*out = x;
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_opts o = { .to_s = -1 };
	const char *path = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_plot, stdout);
			return 0;
		} else if (!strcmp(a, "--quiet")) {
			o.quiet = true;
		} else if (!strcmp(a, "--from") || !strcmp(a, "--to") ||
			   !strcmp(a, "--platform") || !strcmp(a, "-o") ||
			   !strcmp(a, "--tasks")) {
			const char *v;

			if (i + 1 >= argc) {
				fprintf(stderr, "capsim: missing value for: %s\nsee `capsim plot --help`\n", a);
				return 2;
			}
			v = argv[++i];
			if (!strcmp(a, "--from") || !strcmp(a, "--to")) {
				if (parse_seconds(v, !strcmp(a, "--from") ?
						  &o.from_s : &o.to_s)) {
					fprintf(stderr, "capsim: %s needs seconds >= 0: %s\nsee `capsim plot --help`\n",
						a, v);
					return 2;
				}
			} else if (!strcmp(a, "--platform")) {
				o.platform = v;
			} else if (!strcmp(a, "--tasks")) {
				o.tasks = v;
			} else {
				o.outdir = v;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "capsim: unknown option: %s\nsee `capsim plot --help`\n", a);
			return 2;
		} else if (!path) {
			path = a;
		} else {
			fprintf(stderr, "capsim: more than one run: %s\nsee `capsim plot --help`\n", a);
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "capsim: plot needs a RUN_DIR or TRACE\nsee `capsim plot --help`\n");
		return 2;
	}
	if (access(path, R_OK)) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", path,
			strerror(errno));
		return 2;
	}
	i = plot_run(path, &o);
	return i == SCAN_BAD_INPUT ? 2 : i ? 1 : 0;
}
