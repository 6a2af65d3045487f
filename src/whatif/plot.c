// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clamp_names.h"
#include "cli_opts.h"
#include "freq_series.h"
#include "gnuplot.h"
#include "outdir.h"
#include "outmark.h"
#include "plot.h"
#include "plot_frames.h"
#include "policy_style.h"
#include "run_metrics.h"
#include "safe_write.h"
#include "util.h"

/*
 * What a 1000 px plot can show, and gnuplot draw in bounded time (Cairo
 * refuses a surface over 32767 px: 1024 lanes or CPU panels were more).
 * Beyond these the busiest are drawn and the title says how many of how
 * many. A kernel trace's lanes are every task that ran: fewer of them.
 */
#define MAX_LANES 32
#define MAX_KERNEL_LANES 16
#define MAX_DOM_PANELS 8
#define MAX_CPU_PANELS 16
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

/* A CPU's utilization samples in the window, kept until the CPUs to draw
 * are known (a file open per CPU would run out of descriptors) */
struct util_sample {
	double t;
	unsigned int util, cmin, cmax;
};

struct util_series {
	struct util_sample *v;
	size_t n, cap;
	double sum;		/* of util: the busiest CPUs are drawn */
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
	struct util_series *util;	/* per CPU */
	int nutil;
	struct seg *segs;
	size_t nsegs, capsegs;
	bool any_band;
};

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

/* --from or --to given: the figures drawn are the window's */
static bool windowed(const struct plot_ctx *p)
{
	return p->from > 0 || p->to >= 0;
}

FILE *plot_data_open(const char *datadir, const char *name)
{
	char *path = xasprintf("%s/%s", datadir, name);
	FILE *f = safe_fopen(path);

	if (!f)
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
	free(path);
	return f;
}

/*
 * A domain's OPPs as gnuplot ytics: a tick at every OPP, a label (MHz,
 * with its tenth where the kHz has one: 825.6) only where it stands at
 * least a seventh of the range above the last one labelled, the lowest
 * and the highest always: a real table's 17-20 OPPs would print over
 * each other in a panel's height.
 */
static void put_opp_tics(struct strbuf *sb, const unsigned int *khz, int n)
{
	unsigned int gap = n > 1 ? (khz[n - 1] - khz[0]) / 7 : 0;
	unsigned int last = 0;
	int j;

	for (j = 0; j < n; j++) {
		bool label = j == 0 || j == n - 1 ||
			     (khz[j] - last >= gap &&
			      khz[n - 1] - khz[j] >= gap);
		char text[32] = "";

		if (label && khz[j] % 1000)
			snprintf(text, sizeof(text), "%.1f", khz[j] / 1000.0);
		else if (label)
			snprintf(text, sizeof(text), "%u", khz[j] / 1000);
		if (label)
			last = khz[j];
		sb_printf(sb, "%s\"%s\" %.1f", j ? ", " : "", text,
			  khz[j] / 1000.0);
	}
}

static FILE *open_data(struct plot_ctx *p, const char *name)
{
	return plot_data_open(p->datadir, name);
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
	p->segs[p->nsegs++] = (struct seg){ t->st.pid, a, b, state, cpu };
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

struct scored {
	double score;
	int idx;
};

/* by score descending, ties by index: the choice is the same whatever
 * qsort does with equal elements */
static int cmp_scored(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return x->idx - y->idx;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The @max highest of the @n scores: their indices into @out, in index
 * order (all of them when n <= max). Returns how many.
 */
static int pick_top(const double *score, int n, int max, int *out)
{
	struct scored *v = xcalloc((size_t)(n ? n : 1), sizeof(*v));
	int i, k = n < max ? n : max;

	for (i = 0; i < n; i++)
		v[i] = (struct scored){ score[i], i };
	qsort(v, (size_t)n, sizeof(*v), cmp_scored);
	for (i = 0; i < k; i++)
		out[i] = v[i].idx;
	qsort(out, (size_t)k, sizeof(int), cmp_int);
	free(v);
	return k;
}

/* freq-dom<N>.dat for each domain drawn, over the window */
static int write_domains(struct plot_ctx *p, const int *doms, int ndoms,
			 double end)
{
	int i;

	p->binw = xcalloc((size_t)(p->ndoms ? p->ndoms : 1), sizeof(double));
	for (i = 0; i < ndoms; i++) {
		int d = doms[i];
		char name[32];
		FILE *f;

		if (d >= p->ndoms)
			continue;	/* no level: the panel says so */
		snprintf(name, sizeof(name), "freq-dom%d.dat", d);
		f = open_data(p, name);
		if (!f)
			return -1;
		fputs("# time_s MHz MHz_low MHz_high band_min_MHz band_max_MHz has_band\n", f);
		p->binw[d] = series_write(f, &p->doms[d], p->from,
					  p->to >= 0 ? p->to : end);
		if (safe_fclose(f))
			return -1;
	}
	return 0;
}

static void hook_util(void *arg, int cpu, uint64_t t, unsigned int util,
		      unsigned int cmin, unsigned int cmax)
{
	struct plot_ctx *p = arg;
	double s = rel_s(p, t);
	struct util_series *u;

	if (cpu >= p->nutil) {
		p->util = xrealloc(p->util, (size_t)(cpu + 1) * sizeof(*p->util));
		memset(p->util + p->nutil, 0,
		       (size_t)(cpu + 1 - p->nutil) * sizeof(*p->util));
		p->nutil = cpu + 1;
	}
	if (before_window(p, s) || after_window(p, s))
		return;
	u = &p->util[cpu];
	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 256;
		u->v = xrealloc(u->v, u->cap * sizeof(*u->v));
	}
	u->v[u->n++] = (struct util_sample){ s, util, cmin, cmax };
	u->sum += util;
}

/* util-cpu<N>.dat: time_s util clamp_min clamp_max */
static int write_util(struct plot_ctx *p, int cpu)
{
	const struct util_series *u = &p->util[cpu];
	char name[32];
	FILE *f;
	size_t k;

	snprintf(name, sizeof(name), "util-cpu%d.dat", cpu);
	f = open_data(p, name);
	if (!f)
		return -1;
	fputs("# time_s util clamp_min clamp_max\n", f);
	for (k = 0; k < u->n; k++) {
		const struct util_sample *a = &u->v[k];

		/* A long idle stretch is a gap in the curves (a blank
		 * line), not a ramp; otherwise the values hold until the
		 * next sample (steps, so the clamp range fills as levels). */
		if (k && a->t - u->v[k - 1].t > UTIL_GAP_S)
			fputc('\n', f);
		else if (k)
			fprintf(f, "%.9f %u %u %u\n", a->t, u->v[k - 1].util,
				u->v[k - 1].cmin, u->v[k - 1].cmax);
		fprintf(f, "%.9f %u %u %u\n", a->t, a->util, a->cmin, a->cmax);
	}
	return safe_fclose(f) ? -1 : 0;
}

/* @re (a POSIX extended regular expression) found in @s */
static bool re_finds(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

/*
 * --tasks A,B,...: each item a task's name exactly, or a regular
 * expression found in its name (a kernel trace's COMM-PID) or in any comm
 * its pid had (a thread rt-app renamed)
 */
static bool lane_wanted(const struct plot_opts *o,
			const struct task_metrics *t)
{
	const char *s = o->tasks;
	bool hit = false;

	if (!s)
		return true;
	while (*s && !hit) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		char *item = xasprintf("%.*s", (int)len, s);
		regex_t re;
		int i;

		hit = !strcmp(item, t->name);
		if (!hit && !regcomp(&re, item, REG_EXTENDED | REG_NOSUB)) {
			hit = re_finds(&re, t->name);
			for (i = 0; !hit && i < t->ncomms; i++)
				hit = re_finds(&re, t->comms[i]);
			regfree(&re);
		}
		free(item);
		s += len + (e ? 1 : 0);
	}
	return hit;
}

/*
 * Lanes: the summary's tasks in their order, or a kernel trace's by
 * running time, at most MAX_LANES (MAX_KERNEL_LANES for a kernel trace),
 * the busiest. *@nwanted: how many tasks they were picked from.
 */
static int pick_lanes(const struct run_metrics *m, const struct plot_opts *o,
		      int *lanes, int *nwanted)
{
	int max = m->has_summary ? MAX_LANES : MAX_KERNEL_LANES;
	int *want = xcalloc((size_t)(m->ntasks ? m->ntasks : 1), sizeof(int));
	double *busy;
	int n = 0, k, i, j;

	for (i = 0; i < m->ntasks; i++)
		if (lane_wanted(o, &m->tasks[i]))
			want[n++] = i;
	*nwanted = n;
	busy = xcalloc((size_t)(n ? n : 1), sizeof(double));
	for (i = 0; i < n; i++)
		busy[i] = m->tasks[want[i]].run_s;
	k = pick_top(busy, n, max, lanes);
	for (i = 0; i < k; i++)
		lanes[i] = want[lanes[i]];
	if (!m->has_summary && !o->tasks) {
		/* by running time, descending */
		for (i = 1; i < k; i++) {
			int v = lanes[i];

			for (j = i; j > 0 && m->tasks[lanes[j - 1]].run_s <
					m->tasks[v].run_s; j--)
				lanes[j] = lanes[j - 1];
			lanes[j] = v;
		}
	}
	free(busy);
	free(want);
	return k;
}

/*
 * Where the plots go without -o: a run's RUN_DIR/plots, a trace's
 * ./plots-<its name without .txt>. Never beside the trace: a trace at the
 * top of the source tree would have its plots replace plots/, the
 * scripts' own directory.
 */
static char *default_outdir(const char *path)
{
	struct stat st;
	const char *base = strrchr(path, '/');
	size_t len;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return xasprintf("%s/plots", path);
	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".txt"))
		len -= 4;
	return xasprintf("plots-%.*s", (int)len, base);
}

int plot_render(const char *scripts, const char *outdir, const char *name,
		bool quiet)
{
	char *script = xasprintf("%s/%s.gp", scripts, name);
	char *png = xasprintf("%s.png", name);
	char *svg = xasprintf("%s.svg", name);
	char *qs = gp_quote(scripts);
	char *vars = xasprintf("datadir='data'; plotsdir=%s", qs);
	int ret = plot_gnuplot_png_svg(outdir, vars, script, png, svg, quiet);

	free(vars);
	free(qs);
	free(png);
	free(svg);
	free(script);
	return ret;
}

/* TEXT through gp_quote(), as every string in vars.gp, and a newline */
static void put_quoted(FILE *v, const char *text)
{
	char *q = gp_quote(text);

	fprintf(v, "%s\n", q);
	free(q);
}

static void put_str(FILE *v, const char *name, const char *text)
{
	fprintf(v, "%s = ", name);
	put_quoted(v, text);
}

/* "8 of 1024 domains drawn, the ...", or "" when all are */
static void put_note(FILE *v, const char *name, int shown, int of,
		     const char *what, const char *which)
{
	char *t = shown < of ? xasprintf("%d of %d %s drawn, %s", shown, of,
					 what, which) : xstrdup("");

	put_str(v, name, t);
	free(t);
}

/* What the plots draw: the picks from the trace and the run */
struct plot_picks {
	int *lanes, nlanes, nwanted;
	int *doms, ndoms;	/* domain panels (freq, residency) */
	int *cpus, ncpus;	/* CPU panels (util) */
	int ncpus_all;
};

/* a run of CPUs first..last into @sb */
static void put_cpu_run(struct strbuf *sb, int first, int last)
{
	const char *sep = sb->len ? "," : "";

	if (first == last)
		sb_printf(sb, "%s%d", sep, first);
	else
		sb_printf(sb, last == first + 1 ? "%s%d,%d" : "%s%d-%d", sep,
			  first, last);
}

/* "0,1,2,3,6" as "0-3,6": a CPU list short enough for a panel's title */
char *plot_cpu_ranges(const char *list)
{
	struct strbuf sb;
	const char *s = list;
	int first = -1, last = -1;

	sb_init(&sb);
	while (*s) {
		char *end;
		int c = (int)strtol(s, &end, 10);

		if (end == s)
			break;
		if (first >= 0 && c == last + 1) {
			last = c;
		} else {
			if (first >= 0)
				put_cpu_run(&sb, first, last);
			first = last = c;
		}
		s = *end == ',' ? end + 1 : end;
	}
	if (first >= 0)
		put_cpu_run(&sb, first, last);
	return sb.buf ? sb.buf : xstrdup(list);
}

/* A domain as the plots name it: the platform's name (silver, gold,
 * prime) or "domain N" (caller frees) */
static char *dom_name(const struct dom_metrics *d)
{
	return d->name ? xstrdup(d->name) : xasprintf("domain %d", d->id);
}

/*
 * Whether the run's policy is one of the registry's that clamps nothing
 * (none); a kernel's trace ("?") or a name capsim does not know may clamp
 */
static bool applies_no_clamp(const struct run_metrics *m)
{
	const struct clamp_policy_info *pi = clamp_policy_find(m->policy);

	return pi && !clamp_policy_clamps(pi);
}

static void write_vars(FILE *v, const struct run_metrics *m,
		       const struct plot_ctx *p, const struct plot_picks *pk,
		       const struct plot_frames *pf)
{
	int n = pk->ndoms ? pk->ndoms : 1, i, longest = 0;
	char *t;

	t = xasprintf("%s on %s, policy %s", m->workload, m->platform,
		      m->policy);
	put_str(v, "runtitle", t);
	free(t);
	/* the energy bar in the policy's colour, as compare and sweep
	 * draw it (policy_style.h) */
	fprintf(v, "array seriescolour[1]\nseriescolour[1] = '%s'\n",
		policy_colour(m->policy ? m->policy : ""));
	fprintf(v, "tfrom = %.9f\n", p->from);
	fprintf(v, "tto = %.9f\n", p->to >= 0 ? p->to : m->sim_s);
	/* every panel says what it covers: residency is the window's,
	 * energy (the summary's) the whole run's */
	t = windowed(p) ? xasprintf("from %.6g s to %.6g s", p->from,
				    p->to >= 0 ? p->to : m->sim_s) : xstrdup("");
	put_str(v, "windownote", t);
	free(t);
	put_str(v, "energynote", windowed(p) ?
		"whole run (the window applies to the other plots)" : "");
	fprintf(v, "ndoms = %d\nncpus = %d\nnlanes = %d\n", pk->ndoms,
		m->ncpus, pk->nlanes);
	put_note(v, "lanenote", pk->nlanes, pk->nwanted, "tasks",
		 "the busiest");
	put_note(v, "domnote", pk->ndoms, m->ndoms, "domains",
		 "the most frequency changes");
	put_str(v, "freqnote", p->ndoms ? "" :
		"no cpu_frequency event in the trace: no frequency to draw");
	/* the band drawn is the one the run's policy applied: the RFC's
	 * range (cap_clamp_cpu), which every policy tracks but only rfc
	 * (and a kernel's trace, the RFC's kernel) applies, or under uclamp
	 * its rq clamps (lisa__uclamp_util_cfs); the scan read the one
	 * m->band names */
	fprintf(v, "hasband = %d\n", p->any_band && !applies_no_clamp(m));
	put_str(v, "bandname", m->band == SCAN_BAND_UCLAMP ?
		"uclamp effective range" : "clamp band");
	/* no band: say which event was missing (capsim traces a range at
	 * each change, so a run of its own without one clamped nothing; a
	 * kernel's carries one only if its tracing was enabled) */
	put_str(v, "bandnote", !p->any_band ?
		(m->band == SCAN_BAND_UCLAMP ?
		 "policy uclamp: no lisa__uclamp_util_cfs in the trace (no CPU's uclamp range left 0..1024), no band" :
		 m->band == SCAN_BAND_AUTO ?
		 "no clamp in the trace (neither cap_clamp_cpu nor lisa__uclamp_util_cfs), no band" :
		 "no clamp in the trace") :
		applies_no_clamp(m) ? "policy none: no clamp applied" : "");
	fprintf(v, "array domidx[%d]\narray domlabel[%d]\narray domname[%d]\narray domcpus[%d]\narray domytics[%d]\narray domfmax[%d]\narray dombin[%d]\narray domband[%d]\narray domhas[%d]\narray domnopps[%d]\n",
		n, n, n, n, n, n, n, n, n, n);
	for (i = 0; i < pk->ndoms; i++) {
		int di = pk->doms[i];
		const struct dom_metrics *d = &m->doms[di];
		bool has = di < p->ndoms && p->doms[di].n, band = false;
		char *name, *cpus;
		struct strbuf sb;
		size_t k;

		fprintf(v, "domidx[%d] = %d\n", i + 1, di);
		name = dom_name(d);
		cpus = plot_cpu_ranges(d->cpus);
		t = xasprintf("%s (CPUs %s)", name, cpus);
		fprintf(v, "domlabel[%d] = ", i + 1);
		put_quoted(v, t);
		free(t);
		/* two lines where panels are narrow (residency) */
		fprintf(v, "domname[%d] = ", i + 1);
		put_quoted(v, name);
		t = xasprintf("CPUs %s", cpus);
		fprintf(v, "domcpus[%d] = ", i + 1);
		put_quoted(v, t);
		free(t);
		free(name);
		free(cpus);
		/* numbers only: freq.gp pastes it into a command */
		sb_init(&sb);
		put_opp_tics(&sb, d->khz, d->nopps);
		fprintf(v, "domytics[%d] = '%s'\n", i + 1, sb.buf ? sb.buf : "");
		sb_free(&sb);
		for (k = 0; has && k < p->doms[di].n; k++)
			band |= p->doms[di].v[k].band;
		fprintf(v, "domband[%d] = %d\n", i + 1, band);
		fprintf(v, "domhas[%d] = %d\n", i + 1, has);
		fprintf(v, "domnopps[%d] = %d\n", i + 1, d->nopps);
		fprintf(v, "dombin[%d] = %.6f\n", i + 1,
			has ? p->binw[di] * 1e3 : 0.0);
		fprintf(v, "domfmax[%d] = %u\n", i + 1,
			d->nopps ? d->khz[d->nopps - 1] / 1000 : 1000);
	}
	fprintf(v, "array lanelabel[%d]\n", pk->nlanes ? pk->nlanes : 1);
	for (i = 0; i < pk->nlanes; i++) {
		const struct task_metrics *tm = &m->tasks[pk->lanes[i]];
		bool grp = tm->group && strcmp(tm->group, "/");
		char pid[24] = "";
		size_t len;

		/* the pid, as trace tools name a task (a kernel trace's
		 * names are COMM-PID already), and its group */
		if (m->has_summary)
			snprintf(pid, sizeof(pid), "-%d", tm->pid);
		t = xasprintf("%s%s%s%s", tm->name, pid, grp ? " " : "",
			      grp ? tm->group : "");
		fprintf(v, "lanelabel[%d] = ", i + 1);
		put_quoted(v, t);
		len = strlen(t);
		if ((int)len > longest)
			longest = (int)len;
		free(t);
	}
	/* the left margin fits the longest label (22 clipped bg_dex2oat's),
	 * at most half the plot */
	fprintf(v, "lanemargin = %d\n", longest + 2 < 22 ? 22 :
		longest + 2 > 60 ? 60 : longest + 2);
	fprintf(v, "hasutil = %d\nhasenergy = %d\n", p->nutil > 0,
		m->has_summary);
	/* the CPU panels, and which have samples in the window: util.gp
	 * draws the others as idle, without looking at the files itself */
	fprintf(v, "nutil = %d\n", pk->ncpus);
	put_note(v, "cpunote", pk->ncpus, pk->ncpus_all, "CPUs",
		 "the busiest");
	fprintf(v, "array utilcpu[%d]\narray utilhas[%d]\n",
		pk->ncpus ? pk->ncpus : 1, pk->ncpus ? pk->ncpus : 1);
	for (i = 0; i < pk->ncpus; i++) {
		int c = pk->cpus[i];

		fprintf(v, "utilcpu[%d] = %d\nutilhas[%d] = %d\n", i + 1, c,
			i + 1, c < p->nutil && p->util[c].n > 0);
	}
	plot_frames_vars(pf, v);
}

/* a lane's segment, cut to the window, with the share of it its merged
 * runs fill (@in: their time inside the window) */
static void put_seg(FILE *f, const struct plot_ctx *p, int lane,
		    const struct seg *s, double in)
{
	double t0 = s->t0 < p->from ? p->from : s->t0;
	double t1 = p->to >= 0 && s->t1 > p->to ? p->to : s->t1;

	fprintf(f, "%d %.9f %.9f %d %d %.3f\n", lane, t0, t1, s->state,
		s->cpu, t1 > t0 && in < t1 - t0 ? in / (t1 - t0) : 1.0);
}

/* the time of @s inside the window */
static double seg_in(const struct plot_ctx *p, const struct seg *s)
{
	double t0 = s->t0 < p->from ? p->from : s->t0;
	double t1 = p->to >= 0 && s->t1 > p->to ? p->to : s->t1;

	return t1 > t0 ? t1 - t0 : 0;
}

/*
 * activity.dat: lane t0 t1 state cpu share, lanes numbered from 1 at the
 * top, a lane's rows in time order. Runs of one state on one CPU less
 * than a pixel apart (@end - from over ACTIVITY_PX) are one row: at 10 s
 * a periodic task's thousands of slivers aliased into a random pattern,
 * and each was an element of the SVG. share is the part of the row its
 * runs fill: drawn as the bar's height, so a task running half the time
 * does not look like a hog once its runs merge.
 */
#define ACTIVITY_PX 800
static int write_activity(struct plot_ctx *p, const struct run_metrics *m,
			  const int *lanes, int nlanes, double end,
			  const struct plot_frames *pf)
{
	FILE *f = open_data(p, "activity.dat");
	double px = ((p->to >= 0 ? p->to : end) - p->from) / ACTIVITY_PX;
	size_t k;
	int l;

	if (!f)
		return -1;
	fputs("# lane t0_s t1_s state(1 runnable, 2 running) cpu share\n", f);
	for (l = 0; l < nlanes; l++) {
		int pid = m->tasks[lanes[l]].pid;
		struct seg run = { .pid = -1 };
		double in = 0;

		for (k = 0; k < p->nsegs; k++) {
			const struct seg *s = &p->segs[k];

			if (s->pid != pid)
				continue;
			if (run.pid == pid && s->state == run.state &&
			    s->cpu == run.cpu && s->t0 - run.t1 < px) {
				if (s->t1 > run.t1)
					run.t1 = s->t1;
				in += seg_in(p, s);
				continue;
			}
			if (run.pid == pid)
				put_seg(f, p, l + 1, &run, in);
			run = *s;
			in = seg_in(p, s);
		}
		if (run.pid == pid)
			put_seg(f, p, l + 1, &run, in);
	}
	/* a lane per chain under the tasks' */
	plot_frames_lanes(pf, f, nlanes + 1);
	return safe_fclose(f) ? -1 : 0;
}

/* The domain panels, the CPU panels and the lanes: all of them up to what
 * a plot can show, then the busiest */
static void pick(struct plot_picks *pk, const struct run_metrics *m,
		 const struct plot_ctx *p, const struct plot_opts *o)
{
	double *score;
	int i;

	pk->lanes = xcalloc((size_t)(m->ntasks ? m->ntasks : 1), sizeof(int));
	pk->nlanes = pick_lanes(m, o, pk->lanes, &pk->nwanted);
	score = xcalloc((size_t)(m->ndoms ? m->ndoms : 1), sizeof(double));
	for (i = 0; i < m->ndoms; i++)
		score[i] = i < p->ndoms ? (double)p->doms[i].n : 0;
	pk->doms = xcalloc((size_t)MAX_DOM_PANELS, sizeof(int));
	pk->ndoms = pick_top(score, m->ndoms, MAX_DOM_PANELS, pk->doms);
	free(score);
	pk->ncpus_all = m->ncpus > p->nutil ? m->ncpus : p->nutil;
	score = xcalloc((size_t)(pk->ncpus_all ? pk->ncpus_all : 1),
			sizeof(double));
	for (i = 0; i < p->nutil; i++)
		score[i] = p->util[i].sum;
	pk->cpus = xcalloc((size_t)MAX_CPU_PANELS, sizeof(int));
	pk->ncpus = pick_top(score, pk->ncpus_all, MAX_CPU_PANELS, pk->cpus);
	free(score);
}

/* residency-dom<N>.dat per domain panel, energy.dat for a run */
static int write_residency_energy(struct plot_ctx *p,
				  const struct run_metrics *m,
				  const struct plot_picks *pk)
{
	FILE *f;
	char *lab;
	int i, j;

	for (i = 0; i < pk->ndoms; i++) {
		int di = pk->doms[i];
		const struct dom_metrics *d = &m->doms[di];
		double *res = d->res_pct, unknown = d->unknown_pct;
		char name[32];

		if (windowed(p)) {
			/* the window's, from the levels the freq panel draws
			 * (the run's figures are the whole run's) */
			static const struct level_series none;

			res = xcalloc((size_t)(d->nopps ? d->nopps : 1),
				      sizeof(double));
			series_residency(di < p->ndoms ? &p->doms[di] : &none,
					 p->from, p->to >= 0 ? p->to : m->sim_s,
					 d->khz, d->nopps, res, &unknown);
		}
		snprintf(name, sizeof(name), "residency-dom%d.dat", di);
		f = open_data(p, name);
		if (f) {
			fputs("# MHz percent\n", f);
			/* before the domain's first frequency event: no OPP
			 * assumed */
			if (unknown > 0)
				fprintf(f, "unknown %.3f\n", unknown);
			for (j = 0; j < d->nopps; j++)
				fprintf(f, "%u %.3f\n", d->khz[j] / 1000, res[j]);
		}
		if (res != d->res_pct)
			free(res);
		if (!f || safe_fclose(f))
			return -1;
	}
	if (!m->has_summary)
		return 0;
	f = open_data(p, "energy.dat");
	if (!f)
		return -1;
	lab = gp_data_label(m->policy);
	fprintf(f, "domain %s\n", lab);
	free(lab);
	for (i = 0; i < m->ndoms; i++) {
		char *name = dom_name(&m->doms[i]);
		char *cpus = plot_cpu_ranges(m->doms[i].cpus);
		char *d = xasprintf("%s (CPUs %s)", name, cpus);

		free(name);
		free(cpus);

		lab = gp_data_label(d);
		fprintf(f, "%s %.3f\n", lab, m->doms[i].energy_mj);
		free(lab);
		free(d);
	}
	return safe_fclose(f) ? -1 : 0;
}

/* @reldir/@name, or @name when @reldir is "" (caller frees) */
static char *in_dir(const char *reldir, const char *name)
{
	return *reldir ? xasprintf("%s/%s", reldir, name) : xstrdup(name);
}

void plot_add_figure(const struct plot_job *j, struct gp_figures *g,
		     const char *reldir, int i)
{
	char *data = in_dir(reldir, "data");
	char *qd = gp_quote(data), *qs = gp_quote(j->scripts);
	char *vars = xasprintf("datadir=%s; plotsdir=%s", qd, qs);
	char *script = xasprintf("%s/%s.gp", j->scripts, j->figs[i]);
	char *png = xasprintf("%s.png", j->figs[i]);
	char *svg = xasprintf("%s.svg", j->figs[i]);
	char *rpng = in_dir(reldir, png), *rsvg = in_dir(reldir, svg);

	/* before each figure: the process may draw other runs' between */
	gp_figures_set(g, vars);
	gp_figures_add(g, script, rpng, rsvg);
	free(rsvg);
	free(rpng);
	free(svg);
	free(png);
	free(script);
	free(vars);
	free(qs);
	free(qd);
	free(data);
}

int plot_prepare(struct plot_job *j, const char *path,
		 const struct plot_opts *o)
{
	struct plot_ctx p = { .o = o, .from = o->from_s, .to = o->to_s };
	struct metrics_opts mo = { .platform = o->platform };
	const char *scripts = plot_scripts_dir();
	struct plot_picks pk = { 0 };
	struct plot_frames pf = { 0 };
	struct run_metrics m;
	int i, ret = -1;
	FILE *f;

	*j = (struct plot_job){ .quiet = o->quiet,
				.no_done_line = o->no_done_line,
				.scripts = scripts };
	if (!scripts)
		return -1;
	j->outdir = o->outdir ? xstrdup(o->outdir) : default_outdir(path);
	i = outdir_begin(&j->od, j->outdir);
	if (i) {
		/* nothing begun: nothing for plot_abort() but the name */
		free(j->outdir);
		j->outdir = NULL;
		return i == 2 ? SCAN_BAD_INPUT : -1;
	}
	p.datadir = xasprintf("%s/data", j->od.tmp);
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
	if (p.to >= 0 && p.to <= p.from) {
		fprintf(stderr, "capsim: --to %.3f is not after --from %.3f\n",
			p.to, p.from);
		goto out_m;
	}
	pick(&pk, &m, &p, o);
	if (m.nchains && m.summary_path) {
		/* the frames of a run with chains, from its chains.csv */
		const char *slash = strrchr(m.summary_path, '/');
		char *csv = slash ? xasprintf("%.*s/chains.csv",
					      (int)(slash - m.summary_path),
					      m.summary_path) :
			    xstrdup("chains.csv");

		i = plot_frames_load(&pf, csv, &m, p.from, p.to);
		free(csv);
		if (i) {
			ret = SCAN_BAD_INPUT;
			goto out_m;
		}
	}
	if (write_domains(&p, pk.doms, pk.ndoms, m.sim_s) ||
	    write_activity(&p, &m, pk.lanes, pk.nlanes, m.sim_s, &pf) ||
	    write_residency_energy(&p, &m, &pk) ||
	    (pf.n && plot_frames_data(&pf, p.datadir)))
		goto out_m;
	for (i = 0; i < pk.ncpus; i++)
		if (pk.cpus[i] < p.nutil && write_util(&p, pk.cpus[i]))
			goto out_m;
	f = open_data(&p, "vars.gp");
	if (!f)
		goto out_m;
	write_vars(f, &m, &p, &pk, &pf);
	if (safe_fclose(f))
		goto out_m;
	if (!p.ndoms && !o->quiet)
		fprintf(stderr, "capsim: plot: no cpu_frequency event in %s: the frequency panels are empty%s\n",
			path, o->platform ? "" : " (--platform names the domains and OPPs)");
	j->has_util = p.nutil > 0;
	j->has_energy = m.has_summary;
	j->figs[j->nfigs++] = "freq";
	j->figs[j->nfigs++] = "activity";
	if (j->has_util)
		j->figs[j->nfigs++] = "util";
	j->figs[j->nfigs++] = "residency";
	if (j->has_energy)
		j->figs[j->nfigs++] = "energy";
	j->has_frames = pf.n > 0;
	if (j->has_frames)
		j->figs[j->nfigs++] = "frames";
	ret = 0;
out_m:
	run_metrics_free(&m);
out:
	free(p.datadir);
	for (i = 0; i < p.ndoms; i++)
		series_free(&p.doms[i]);
	free(p.doms);
	free(p.binw);
	for (i = 0; i < p.nutil; i++)
		free(p.util[i].v);
	free(p.util);
	free(p.segs);
	free(pk.lanes);
	free(pk.doms);
	free(pk.cpus);
	plot_frames_free(&pf);
	if (ret)
		plot_abort(j);
	return ret;
}

/* The figures of the run, in one gnuplot process of its own, in its
 * directory: freq, activity, util (when sampled), residency, energy
 * (with a summary) */
int plot_begin(struct plot_job *j, const char *path, const struct plot_opts *o)
{
	int ret = plot_prepare(j, path, o), i;

	if (ret)
		return ret;
	gp_figures_init(&j->g, j->od.tmp, NULL, j->quiet);
	for (i = 0; i < j->nfigs; i++)
		plot_add_figure(j, &j->g, "", i);
	if (gp_figures_start(&j->g)) {
		gp_figures_free(&j->g);
		plot_abort(j);
		return -1;
	}
	j->started = true;
	return 0;
}

int plot_finish(struct plot_job *j, bool drawn)
{
	int ret = drawn ? outdir_commit(&j->od) : -1;

	if (!ret && !j->quiet && !j->no_done_line)
		printf("plots: %s/ (freq, activity%s, residency%s%s; .png and .svg)\n",
		       j->outdir, j->has_util ? ", util" : "",
		       j->has_energy ? ", energy" : "",
		       j->has_frames ? ", frames" : "");
	if (ret)
		plot_abort(j);
	free(j->outdir);
	j->outdir = NULL;
	return ret;
}

int plot_end(struct plot_job *j)
{
	if (!j->started) {
		plot_abort(j);
		return -1;
	}
	j->started = false;
	return plot_finish(j, !gp_figures_wait(&j->g));
}

void plot_abort(struct plot_job *j)
{
	if (j->started) {
		/* its files are removed with the directory: gnuplot's
		 * outcome no longer matters, quietly */
		j->g.quiet = true;
		gp_figures_wait(&j->g);
		j->started = false;
	}
	if (j->od.tmp)
		outdir_abort(&j->od);
	free(j->outdir);
	j->outdir = NULL;
}

int plot_run(const char *path, const struct plot_opts *o)
{
	struct plot_job j;
	int ret = plot_begin(&j, path, o);

	return ret ? ret : plot_end(&j);
}

static const char usage_plot[] =
"usage: capsim plot RUN_DIR|TRACE [--from SEC] [--to SEC] [--platform NAME|FILE]\n"
"                   [--tasks A,B,...] [-o DIR] [--quiet]\n"
"\n"
"Plots a capsim run (its trace.txt and summary.json) or any trace: ftrace\n"
"text, trace-cmd report (default, -N, -R), systrace text or HTML,\n"
"trace.dat, Perfetto protobuf (docs/traces.md; a device's: pass its\n"
"--platform for the domains and OPPs, a trace that does not fit it is\n"
"refused; without it the domains are inferred from the CPUs that change\n"
"frequency together, named \"inferred: {0-3},{4-5}\" in the title) into\n"
"DIR (default RUN_DIR/plots, or ./plots-TRACE for a trace file TRACE.txt),\n"
"PNG and SVG:\n"
"freq (per domain: frequency and clamp band as the OPPs it allows),\n"
"activity (a lane per task, COMM-PID for a trace without summary; a run\n"
"with chains adds a lane per chain: vsync marks, each frame from its vsync\n"
"to its completion, late ones red, lost ones a cross),\n"
"util (with --trace-util runs), residency (\"unknown\" before a domain's\n"
"first frequency event), energy, frames (a run with chains: each frame's\n"
"latency against the deadline, from its chains.csv). --from/--to: a\n"
"window in seconds from\n"
"the trace's start, for every plot but energy (the run's: its title says\n"
"so). --tasks: each item a task's name, or a regular\n"
"expression found in its name or any comm its pid had.\n"
"Beyond 32 tasks (16 of a kernel trace), 8 domains or 16 CPUs the busiest\n"
"are drawn, and the title says how many of how many.\n";

enum { OPT_FROM = 256, OPT_TO, OPT_PLATFORM, OPT_TASKS, OPT_QUIET };

static const struct option plot_options[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "tasks", required_argument, NULL, OPT_TASKS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ 0 },
};

static const struct cli_cmd plot_cli = {
	.prog = "capsim", .name = "plot", .usage = usage_plot,
	.shortopts = "o:", .longopts = plot_options,
};

struct plot_args {
	struct plot_opts o;
	const char *path;	/* RUN_DIR or TRACE */
};

static int plot_opt(void *ctx, int key, const char *arg)
{
	struct plot_args *pa = ctx;

	switch (key) {
	case OPT_QUIET: pa->o.quiet = true; break;
	case OPT_PLATFORM: pa->o.platform = arg; break;
	case OPT_TASKS: pa->o.tasks = arg; break;
	case 'o': pa->o.outdir = arg; break;
	case OPT_FROM:
	case OPT_TO:
		return cli_parse_double(&plot_cli, key == OPT_FROM ? "--from" : "--to",
					arg, 0, 1e9, "seconds in [0, 1e+09]",
					key == OPT_FROM ? &pa->o.from_s : &pa->o.to_s);
	default:
		if (pa->path)
			return cli_usage_error(&plot_cli, "more than one run: %s",
					       arg);
		pa->path = arg;
	}
	return 0;
}

/* @dir/@name exists (a link too) */
static bool has_entry(const char *dir, const char *name)
{
	char *f = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool ok = !lstat(f, &st);

	free(f);
	return ok;
}

/*
 * A run directory @dir that has its summary but no trace.txt: said how
 * to get one (true), instead of failing on the missing file. A sweep's
 * point (SWEEP/points/NNNN/run, beside its point.json, under a
 * sweep.json) ran without --keep-traces; any other run with --no-trace.
 */
static bool explain_no_trace(const char *dir)
{
	char rp[PATH_MAX], *run, *num = NULL, *pts = NULL;
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode) ||
	    has_entry(dir, "trace.txt") || !has_entry(dir, "summary.json"))
		return false;
	/* ROOT/points/NNNN/run: the components from the end */
	if (realpath(dir, rp) && (run = strrchr(rp, '/')) && run > rp) {
		*run = '\0';
		num = strrchr(rp, '/');
		if (num && num > rp) {
			*num = '\0';
			pts = strrchr(rp, '/');
		}
	}
	if (pts && !strcmp(run + 1, "run") && !strcmp(pts + 1, "points") &&
	    num[1] && strspn(num + 1, "0123456789") == strlen(num + 1)) {
		char *pdir = xasprintf("%s/%s", rp, num + 1);

		*pts = '\0';
		if (has_entry(pdir, "point.json") &&
		    has_entry(*rp ? rp : "/", "sweep.json")) {
			fprintf(stderr, "capsim: %s has no trace.txt: the sweep ran its points without --keep-traces. `capsim sweep --trace %s %d` runs this point again with its trace, into %s/traced (or sweep with --keep-traces)\n",
				dir, *rp ? rp : "/", atoi(num + 1), pdir);
			free(pdir);
			return true;
		}
		free(pdir);
	}
	fprintf(stderr, "capsim: %s has no trace.txt: the run was made with --no-trace; run it again without it\n",
		dir);
	return true;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args pa = { .o = { .to_s = -1 } };
	int ret = cli_parse(&plot_cli, argc, argv, plot_opt, &pa, NULL);

	if (ret != CLI_CONTINUE)
		return ret;
	if (!pa.path)
		return cli_usage_error(&plot_cli, "plot needs a RUN_DIR or TRACE");
	if (pa.o.to_s >= 0 && pa.o.to_s <= pa.o.from_s)
		return cli_usage_error(&plot_cli, "--to %.3f is not after --from %.3f",
				       pa.o.to_s, pa.o.from_s);
	if (access(pa.path, R_OK)) {
		fprintf(stderr, "capsim: cannot read %s: %s\n", pa.path,
			strerror(errno));
		return 2;
	}
	if (explain_no_trace(pa.path))
		return 2;
	outmark_note_input(pa.path);
	ret = plot_run(pa.path, &pa.o);
	return ret == SCAN_BAD_INPUT ? 2 : ret ? 1 : 0;
}
