// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clamp_names.h"
#include "cli_opts.h"
#include "diag.h"
#include "doc_set.h"
#include "freq_series.h"
#include "gnuplot.h"
#include "import_check.h"
#include "import_ere.h"
#include "escape.h"
#include "outdir.h"
#include "outmark.h"
#include "platform.h"
#include "plot.h"
#include "procs.h"
#include "safe_write.h"
#include "strmap.h"
#include "trace_profile.h"
#include "util.h"
#include "whatif.h"

#define EXIT_FAIL 1
#define EXIT_USAGE 2

/* The kernel's comm holds 15 characters: a workload's longer task name
 * is matched by its first 15, as a device's trace shows it */
#define NAME_LEN 15
/* Lanes one plot shows (the busiest), as `capsim plot` of a kernel trace */
#define MAX_LANES 16

enum { SRC, SIM, NSIDES };
static const char *const side_name[NSIDES] = { "source", "sim" };

/* One side of a row: the tasks of that name in one trace */
struct side {
	int npids;
	uint64_t busy_ns;
	long acts;
	struct samples resp;	/* ns */
};

/* A row: the tasks of one name, in the source and in the simulation */
struct row {
	char name[NAME_LEN + 1];
	struct side s[NSIDES];
	int lane;		/* 1.. at the top, 0 not drawn */
	int made;		/* its index when made, before the sort */
};

/* A running or runnable stretch of a task, for the lanes */
struct lane_seg {
	int task;		/* index in its side's schedule */
	double t0, t1;
	int state, cpu;
};

/* What one side's plot draws: its lanes' stretches, its domains'
 * frequency over the window */
struct segs {
	struct lane_seg *v;
	size_t n, cap;
	struct level_series *freq;	/* per platform domain */
};

struct check {
	const struct import_check_opts *o;
	struct platform *pl;
	regex_t re;
	bool has_re;
	struct trace_profile p[NSIDES];
	struct segs segs[NSIDES];
	int *task_row[NSIDES];	/* per task of each side: its row, -1 none */
	struct row *rows;
	int nrows, rows_cap;
	struct strmap row_names;	/* rows by name, while they are made */
	struct strmap aliases;	/* o->sim_names[i] by its first 15 bytes */
	struct strmap wanted;	/* with o->tasks_by_alias: the names and
				 * comms compared (i < naliases: sim_names[i],
				 * else src_comms[i - naliases]) */
	double len_s;		/* the window's length, both sides */
	struct outdir od;
	char *simdir;
};

static void on_segment(void *arg, const struct profile_task *t, double t0,
		       double t1, enum sched_task_state state, int cpu)
{
	struct segs *s = arg;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = (struct lane_seg){ t->st.idx, t0, t1, (int)state, cpu };
}

static void on_domain_freq(void *arg, int dom, double t, unsigned int khz)
{
	struct segs *s = arg;

	series_add(&s->freq[dom], (struct level){ .t = t, .khz = khz });
}

/* ---- the rows ---- */

/* A name as rows and the kernel's comm keep it: its first 15 bytes */
static size_t cut_len(const char *s)
{
	size_t n = strlen(s);

	return n < NAME_LEN ? n : NAME_LEN;
}

static bool same_row(const void *ctx, int idx, uint64_t ns, const char *key,
		     size_t len)
{
	const struct check *c = ctx;

	(void)ns;
	return cut_len(c->rows[idx].name) == len &&
	       !memcmp(c->rows[idx].name, key, len);
}

/* The row of @name (its first 15 bytes), made if new; by hash, so 50 000
 * tasks are matched in linear time */
static int row_of(struct check *c, const char *name)
{
	size_t len = cut_len(name);
	int i = strmap_get(&c->row_names, 0, name, len, same_row, c);

	if (i >= 0)
		return i;
	if (c->nrows == c->rows_cap) {
		c->rows_cap = c->rows_cap ? 2 * c->rows_cap : 64;
		c->rows = xrealloc(c->rows, (size_t)c->rows_cap * sizeof(*c->rows));
	}
	memset(&c->rows[c->nrows], 0, sizeof(*c->rows));
	memcpy(c->rows[c->nrows].name, name, len);
	c->rows[c->nrows].made = c->nrows;
	strmap_put(&c->row_names, 0, name, len, c->nrows, same_row, c);
	return c->nrows++;
}

/* Entry @idx of the aliases' names (sim_names, then src_comms) */
static const char *alias_text(const struct import_check_opts *o, int idx)
{
	return idx < o->naliases ? o->sim_names[idx] :
	       o->src_comms[idx - o->naliases];
}

static bool same_alias(const void *ctx, int idx, uint64_t ns, const char *key,
		       size_t len)
{
	const char *s = alias_text(ctx, idx);

	(void)ns;
	return cut_len(s) == len && !memcmp(s, key, len);
}

/* The aliases by the names the simulation's trace shows (their first 15
 * bytes, a comm), and the set of names and comms compared */
static void index_aliases(struct check *c)
{
	const struct import_check_opts *o = c->o;
	int i;

	for (i = 0; i < o->naliases; i++) {
		const char *s = o->sim_names[i];

		/* the first of a cut name stands for it */
		if (strmap_get(&c->aliases, 0, s, cut_len(s), same_alias, o) < 0)
			strmap_put(&c->aliases, 0, s, cut_len(s), i, same_alias,
				   o);
	}
	for (i = 0; o->tasks_by_alias && i < 2 * o->naliases; i++) {
		const char *s = alias_text(o, i);

		strmap_put(&c->wanted, 0, s, cut_len(s), i, same_alias, o);
	}
}

/* The row a simulated task is in: the source comm it stands for, if the
 * caller said so (import --check), else its own name */
static const char *sim_row_name(const struct check *c, const char *name)
{
	int i = strmap_get(&c->aliases, 0, name, cut_len(name), same_alias,
			   c->o);

	return i >= 0 ? c->o->src_comms[i] : name;
}

static bool alias_wanted(const struct check *c, const char *comm)
{
	return strmap_get(&c->wanted, 0, comm, cut_len(comm), same_alias,
			  c->o) >= 0;
}

/* Is the task compared: it ran or woke in the window, and --tasks (if
 * given) finds its name or any comm its pid had, or (import --check) one
 * of them is a task imported as its own */
static bool task_wanted(const struct check *c, const struct profile_task *t,
			long acts)
{
	int k;

	if (!t->busy_ns && !acts)
		return false;
	if (c->o->tasks_by_alias) {
		for (k = 0; k < t->st.ncomms; k++)
			if (alias_wanted(c, t->st.comms[k]))
				return true;
		return alias_wanted(c, t->st.comm);
	}
	if (!c->has_re)
		return true;
	for (k = 0; k < t->st.ncomms; k++)
		if (!regexec(&c->re, t->st.comms[k], 0, NULL, 0))
			return true;
	return !regexec(&c->re, t->st.comm, 0, NULL, 0);
}

/* Every task of each side into the row of its name (a name several pids
 * had is one row: their figures added, its pid count compared) */
static void build_rows(struct check *c)
{
	int side, i, k;

	index_aliases(c);
	for (side = 0; side < NSIDES; side++) {
		const struct trace_profile *p = &c->p[side];

		c->task_row[side] = xcalloc((size_t)(p->ss.ntasks + 1),
					    sizeof(int));
		for (i = 0; i < p->ss.ntasks; i++) {
			struct profile_task *t = trace_profile_task(p, i);
			long acts = profile_task_activations(p, t);
			struct side *s;

			c->task_row[side][i] = -1;
			if (!task_wanted(c, t, acts))
				continue;
			c->task_row[side][i] = row_of(c, side == SIM ?
					sim_row_name(c, profile_task_name(t)) :
					profile_task_name(t));
			s = &c->rows[c->task_row[side][i]].s[side];
			s->npids++;
			s->busy_ns += t->busy_ns;
			s->acts += acts;
			for (k = 0; k < (int)t->resp.n; k++)
				samples_add(&s->resp, t->resp.v[k]);
		}
	}
}

static uint64_t row_busy(const struct row *r)
{
	return r->s[SRC].npids ? r->s[SRC].busy_ns : r->s[SIM].busy_ns;
}

/* The source's busiest first, then the tasks only the simulation has;
 * ties by name, so the order is the same on every run */
static int cmp_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	uint64_t bx = row_busy(x), by = row_busy(y);

	if (!x->s[SRC].npids != !y->s[SRC].npids)
		return x->s[SRC].npids ? -1 : 1;
	if (bx != by)
		return bx > by ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The rows in cmp_rows' order, the tasks' row indices following them */
static void sort_rows(struct check *c)
{
	int *moved = xcalloc((size_t)c->nrows + 1, sizeof(int)), s, k;

	if (c->nrows > 1)	/* no rows, no array: qsort(NULL, 0) is UB */
		qsort(c->rows, (size_t)c->nrows, sizeof(*c->rows), cmp_rows);
	for (k = 0; k < c->nrows; k++)
		moved[c->rows[k].made] = k;
	for (s = 0; s < NSIDES; s++)
		for (k = 0; k < c->p[s].ss.ntasks; k++)
			if (c->task_row[s][k] >= 0)
				c->task_row[s][k] = moved[c->task_row[s][k]];
	free(moved);
}

/* ---- the figures ---- */

/* (b - a) / a in %; 0 when both are 0, NAN when only a is */
static double delta_pct(double a, double b)
{
	if (a == 0)
		return b == 0 ? 0 : NAN;
	return (b - a) / a * 100.0;
}

static double pct_us(struct samples *s, double p)
{
	return s->n ? (double)samples_pct(s, p) / 1e3 : NAN;
}

struct task_figs {
	double busy_s[NSIDES], acts[NSIDES], rate[NSIDES];
	double p50[NSIDES], p95[NSIDES];
	double d_busy, d_acts, d_p50, d_p95;
	bool over_busy, over_acts;
	const char *status;	/* ok, over, missing, extra */
};

static void task_figures(const struct check *c, struct row *r,
			 struct task_figs *f)
{
	int s;

	for (s = 0; s < NSIDES; s++) {
		f->busy_s[s] = (double)r->s[s].busy_ns / 1e9;
		f->acts[s] = (double)r->s[s].acts;
		f->rate[s] = f->acts[s] / c->len_s;
		f->p50[s] = pct_us(&r->s[s].resp, 50);
		f->p95[s] = pct_us(&r->s[s].resp, 95);
	}
	f->d_busy = delta_pct(f->busy_s[SRC], f->busy_s[SIM]);
	f->d_acts = delta_pct(f->acts[SRC], f->acts[SIM]);
	f->d_p50 = delta_pct(f->p50[SRC], f->p50[SIM]);
	f->d_p95 = delta_pct(f->p95[SRC], f->p95[SIM]);
	/* NAN (only the simulation has it) is beyond any tolerance */
	f->over_busy = !(fabs(f->d_busy) <= IMPORT_CHECK_BUSY_TOL_PCT);
	f->over_acts = !(fabs(f->d_acts) <= IMPORT_CHECK_ACT_TOL_PCT);
	if (!r->s[SIM].npids)
		f->status = "missing";
	else if (!r->s[SRC].npids)
		f->status = "extra";
	else if (f->over_busy || f->over_acts)
		f->status = "over";
	else
		f->status = "ok";
}

static double cpu_pct(const struct check *c, int side, int cpu)
{
	return (double)c->p[side].cpu_busy_ns[cpu] / 1e9 / c->len_s * 100.0;
}

/* OPP @k's share of the window (@k < 0: unknown's), in percent */
static double dom_pct(const struct check *c, int side, int d, int k)
{
	return freq_residency_pct(&c->p[side].doms[d].res, k);
}

/* Total variation distance of the two residencies over the time both
 * know (the source's unknown stretch left out of both); NAN if none */
static double dom_tvd(const struct check *c, int d, double *known_s)
{
	return freq_residency_tvd(&c->p[SRC].doms[d].res,
				  &c->p[SIM].doms[d].res, known_s);
}

static const char *cpus_text(const struct pdomain *pd, char *buf, size_t n)
{
	size_t len = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < pd->ncpus && len + 12 < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%d", i ? "," : "",
					pd->cpus[i]);
	return buf;
}

/* ---- the files ---- */

/* @path opened for writing, or NULL (said) */
static FILE *open_out(const char *path)
{
	FILE *f = safe_fopen(path);

	if (!f)
		fprintf(stderr, "capsim: cannot write %s: %s\n", path,
			strerror(errno));
	return f;
}

/* @f closed: 0, or -1 (said: a write failed) */
static int close_out(FILE *f, const char *path)
{
	if (!safe_fclose(f))
		return 0;
	fprintf(stderr, "capsim: cannot write %s: %s\n", path, strerror(errno));
	return -1;
}

/* ---- import-check.json ---- */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}


/* A string from a trace or the command line as JSON: a comm cut at the
 * kernel's 15 bytes may end inside a UTF-8 sequence, and a path is any
 * bytes, which json_string() refuses (NULL, and the key would be left
 * out): each byte outside ASCII is then '?' */
static json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	char *t, *p;

	if (j)
		return j;
	t = xstrdup(s);
	for (p = t; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(t);
	free(t);
	return j;
}
static json_t *task_json(const struct row *r, const struct task_figs *f)
{
	json_t *t = json_object(), *over = json_array(), *d = json_object();
	int s;

	json_object_set_new(t, "name", json_text(r->name));
	json_object_set_new(t, "status", json_string(f->status));
	for (s = 0; s < NSIDES; s++) {
		json_t *j = json_object();

		json_object_set_new(j, "pids", json_integer(r->s[s].npids));
		json_object_set_new(j, "busy_s", json_real(f->busy_s[s]));
		json_object_set_new(j, "activations", json_integer(r->s[s].acts));
		json_object_set_new(j, "wakeup_rate_hz", json_real(f->rate[s]));
		json_object_set_new(j, "response_p50_us", jnum(f->p50[s]));
		json_object_set_new(j, "response_p95_us", jnum(f->p95[s]));
		json_object_set_new(t, side_name[s], j);
	}
	json_object_set_new(d, "busy", jnum(f->d_busy));
	json_object_set_new(d, "activations", jnum(f->d_acts));
	json_object_set_new(d, "wakeup_rate", jnum(f->d_acts));
	json_object_set_new(d, "response_p50", jnum(f->d_p50));
	json_object_set_new(d, "response_p95", jnum(f->d_p95));
	json_object_set_new(t, "delta_pct", d);
	if (r->s[SRC].npids && r->s[SIM].npids) {
		if (f->over_busy)
			json_array_append_new(over, json_string("busy"));
		if (f->over_acts)
			json_array_append_new(over, json_string("activations"));
	}
	json_object_set_new(t, "over_tolerance", over);
	return t;
}

static json_t *domain_json(const struct check *c, int d)
{
	const struct pdomain *pd = &c->pl->domains[d];
	json_t *j = json_object(), *rows = json_array();
	char cpus[128];
	double known, tvd = dom_tvd(c, d, &known);
	int k, s;

	json_object_set_new(j, "id", json_integer(pd->id));
	json_object_set_new(j, "cpus", json_string(cpus_text(pd, cpus,
							      sizeof(cpus))));
	for (s = 0; s < NSIDES; s++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_unknown_pct", side_name[s]);
		json_object_set_new(j, key, json_real(dom_pct(c, s, d, -1)));
	}
	for (k = 0; k < pd->nopps; k++) {
		json_t *o = json_object();

		json_object_set_new(o, "mhz", json_integer(pd->opps[k].khz / 1000));
		json_object_set_new(o, "source_pct", json_real(dom_pct(c, SRC, d, k)));
		json_object_set_new(o, "sim_pct", json_real(dom_pct(c, SIM, d, k)));
		json_array_append_new(rows, o);
	}
	json_object_set_new(j, "residency", rows);
	json_object_set_new(j, "tvd", jnum(tvd));
	json_object_set_new(j, "tvd_known_s", json_real(known));
	return j;
}

static int write_json(struct check *c, const char *path, int *nover)
{
	const struct import_check_opts *o = c->o;
	json_t *root = json_object(), *tasks = json_array(), *cpus = json_array();
	json_t *doms = json_array(), *tol = json_object();
	int i, bad = 0, ret;

	json_object_set_new(root, "source_trace", json_text(o->source_trace));
	json_object_set_new(root, "workload", json_text(o->workload));
	json_object_set_new(root, "platform", json_text(c->pl->name));
	json_object_set_new(root, "policy", json_string(o->policy));
	json_object_set_new(root, "window_from_s",
			    json_real((double)(c->p[SRC].win_start -
					       c->p[SRC].ss.t_first) / 1e9));
	json_object_set_new(root, "length_s", json_real(c->len_s));
	json_object_set_new(tol, "busy_pct", json_real(IMPORT_CHECK_BUSY_TOL_PCT));
	json_object_set_new(tol, "activations_pct",
			    json_real(IMPORT_CHECK_ACT_TOL_PCT));
	json_object_set_new(root, "tolerances", tol);
	for (i = 0; i < c->nrows; i++) {
		struct task_figs f;

		task_figures(c, &c->rows[i], &f);
		bad += strcmp(f.status, "ok") != 0;
		json_array_append_new(tasks, task_json(&c->rows[i], &f));
	}
	json_object_set_new(root, "within_tolerance", json_boolean(!bad));
	json_object_set_new(root, "tasks", tasks);
	for (i = 0; i < c->pl->ncpus; i++) {
		json_t *j = json_object();

		json_object_set_new(j, "cpu", json_integer(i));
		json_object_set_new(j, "source_busy_pct", json_real(cpu_pct(c, SRC, i)));
		json_object_set_new(j, "sim_busy_pct", json_real(cpu_pct(c, SIM, i)));
		json_array_append_new(cpus, j);
	}
	json_object_set_new(root, "cpus", cpus);
	for (i = 0; i < c->pl->ndomains; i++)
		json_array_append_new(doms, domain_json(c, i));
	json_object_set_new(root, "domains", doms);
	ret = doc_write_json(path, root, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	json_decref(root);
	*nover = bad;
	return ret ? -1 : 0;
}

/* ---- import-check.md ---- */

static void md_num(FILE *f, double v, const char *fmt)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("–", f);
}

static void md_delta(FILE *f, double d, bool flagged)
{
	fputs(" | ", f);
	if (isfinite(d))
		fprintf(f, "%+.1f %%", d);
	else
		fputs("–", f);
	if (flagged)
		fputs(" **over**", f);
}

static void md_task(FILE *f, const struct check *c, struct row *r)
{
	struct task_figs g;
	bool both = r->s[SRC].npids && r->s[SIM].npids;

	task_figures(c, r, &g);
	fputs("| ", f);
	md_put_cell(f, r->name);	/* a comm: any 15 bytes */
	fprintf(f, " | %s | %d / %d | %.4f / %.4f", g.status,
		r->s[SRC].npids, r->s[SIM].npids, g.busy_s[SRC], g.busy_s[SIM]);
	md_delta(f, g.d_busy, both && g.over_busy);
	fprintf(f, " | %ld / %ld", r->s[SRC].acts, r->s[SIM].acts);
	md_delta(f, g.d_acts, both && g.over_acts);
	fprintf(f, " | %.2f / %.2f | ", g.rate[SRC], g.rate[SIM]);
	md_num(f, g.p50[SRC], "%.0f");
	fputs(" / ", f);
	md_num(f, g.p50[SIM], "%.0f");
	md_delta(f, g.d_p50, false);
	fputs(" | ", f);
	md_num(f, g.p95[SRC], "%.0f");
	fputs(" / ", f);
	md_num(f, g.p95[SIM], "%.0f");
	md_delta(f, g.d_p95, false);
	fputs(" |\n", f);
}

static void md_domain(FILE *f, const struct check *c, int d)
{
	const struct pdomain *pd = &c->pl->domains[d];
	char cpus[128];
	double known, tvd = dom_tvd(c, d, &known);
	int k;

	fprintf(f, "\n### Domain %d (CPUs %s)\n\nTVD ", pd->id,
		cpus_text(pd, cpus, sizeof(cpus)));
	md_num(f, tvd, "%.4f");
	fprintf(f, " over the %.3f s both traces know.\n\n", known);
	fputs("| MHz | source % | sim % | delta (points) |\n|---:|---:|---:|---:|\n", f);
	fprintf(f, "| unknown | %.2f | %.2f | %+.2f |\n", dom_pct(c, SRC, d, -1),
		dom_pct(c, SIM, d, -1),
		dom_pct(c, SIM, d, -1) - dom_pct(c, SRC, d, -1));
	for (k = 0; k < pd->nopps; k++)
		fprintf(f, "| %u | %.2f | %.2f | %+.2f |\n", pd->opps[k].khz / 1000,
			dom_pct(c, SRC, d, k), dom_pct(c, SIM, d, k),
			dom_pct(c, SIM, d, k) - dom_pct(c, SRC, d, k));
}

static int write_md(struct check *c, const char *path, int nover)
{
	const struct import_check_opts *o = c->o;
	FILE *f = open_out(path);
	int i;

	if (!f)
		return -1;
	fputs("# Import check\n\nSource trace ", f);
	md_put_cell(f, o->source_trace);
	fputs(", workload ", f);
	md_put_cell(f, o->workload);
	fputs(" run on ", f);
	md_put_cell(f, c->pl->name);
	fprintf(f, " under policy %s; window %.6f s from %.6f s of the source.\n\n",
		o->policy, c->len_s,
		(double)(c->p[SRC].win_start - c->p[SRC].ss.t_first) / 1e9);
	fprintf(f, "Tolerances: busy time %.0f %%, activations %.0f %%. %s\n\n",
		IMPORT_CHECK_BUSY_TOL_PCT, IMPORT_CHECK_ACT_TOL_PCT,
		nover ? "**Not every task is within them** (status over, missing or extra)." :
			"Every task is within them.");
	fputs("## Tasks\n\nEach cell is source / simulation; a delta is (sim - source) / source. Tasks of one name are one row (pids: how many).\n\n", f);
	fputs("| task | status | pids | busy s | delta | activations | delta | wake-ups/s | resp p50 us | delta | resp p95 us | delta |\n", f);
	fputs("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", f);
	for (i = 0; i < c->nrows; i++)
		md_task(f, c, &c->rows[i]);
	fputs("\n## CPU residency\n\nBusy share of the window.\n\n| CPU | source % | sim % | delta (points) |\n|---:|---:|---:|---:|\n", f);
	for (i = 0; i < c->pl->ncpus; i++)
		fprintf(f, "| %d | %.2f | %.2f | %+.2f |\n", i, cpu_pct(c, SRC, i),
			cpu_pct(c, SIM, i), cpu_pct(c, SIM, i) - cpu_pct(c, SRC, i));
	fputs("\n## Frequency residency\n\nShares of the window; the TVD compares the two residencies over the time both traces know the frequency.\n", f);
	for (i = 0; i < c->pl->ndomains; i++)
		md_domain(f, c, i);
	return close_out(f, path);
}

/* ---- the plot ---- */

/* The busiest rows get lanes 1.. in row order; how many */
static int assign_lanes(struct check *c)
{
	int i, n = 0;

	for (i = 0; i < c->nrows; i++)
		c->rows[i].lane = n < MAX_LANES ? ++n : 0;
	return n;
}

static int write_lane_data(struct check *c, int side, const char *path)
{
	FILE *f = open_out(path);
	size_t k;

	if (!f)
		return -1;
	fputs("# lane t0_s t1_s state(1 runnable, 2 running) cpu\n", f);
	for (k = 0; k < c->segs[side].n; k++) {
		const struct lane_seg *s = &c->segs[side].v[k];
		int r = c->task_row[side][s->task];

		if (r >= 0 && c->rows[r].lane)
			fprintf(f, "%d %.9f %.9f %d %d\n", c->rows[r].lane,
				s->t0, s->t1, s->state, s->cpu);
	}
	return close_out(f, path);
}

/* freq-<side>-dom<N>.dat per domain: steps (or bins, freq_series.h) */
static int write_freq_data(struct check *c, int side, const char *data)
{
	int d;

	for (d = 0; d < c->pl->ndomains; d++) {
		char *path = xasprintf("%s/freq-%s-dom%d.dat", data,
				       side_name[side], d);
		FILE *f = open_out(path);
		int ret;

		if (!f) {
			free(path);
			return -1;
		}
		fputs("# time_s MHz MHz_low MHz_high band_min_MHz band_max_MHz has_band\n", f);
		series_write(f, &c->segs[side].freq[d], 0, c->len_s);
		ret = close_out(f, path);
		free(path);
		if (ret)
			return -1;
	}
	return 0;
}

static void put_str(FILE *v, const char *name, const char *text)
{
	char *q = gp_quote(text);

	fprintf(v, "%s = %s\n", name, q);
	free(q);
}

static int write_plot_vars(struct check *c, const char *path, int nlanes)
{
	FILE *v = open_out(path);
	char *t;
	int i;

	if (!v)
		return -1;
	t = xasprintf("source: %s", c->o->source_trace);
	put_str(v, "srctitle", t);
	free(t);
	t = xasprintf("simulated: %s on %s, policy %s", c->o->workload,
		      c->pl->name, c->o->policy);
	put_str(v, "simtitle", t);
	free(t);
	t = nlanes < c->nrows ? xasprintf("%d of %d tasks drawn, the busiest",
					  nlanes, c->nrows) : xstrdup("");
	put_str(v, "lanenote", t);
	free(t);
	fprintf(v, "tfrom = 0\ntto = %.9f\nncpus = %d\nnlanes = %d\n", c->len_s,
		c->pl->ncpus, nlanes);
	fprintf(v, "ndoms = %d\narray domlabel[%d]\narray domfmax[%d]\n",
		c->pl->ndomains, c->pl->ndomains, c->pl->ndomains);
	for (i = 0; i < c->pl->ndomains; i++) {
		const struct pdomain *pd = &c->pl->domains[i];
		char cpus[128], key[32];

		t = xasprintf("domain %d (CPUs %s): frequency", pd->id,
			      cpus_text(pd, cpus, sizeof(cpus)));
		snprintf(key, sizeof(key), "domlabel[%d]", i + 1);
		put_str(v, key, t);
		free(t);
		fprintf(v, "domfmax[%d] = %u\n", i + 1,
			pd->opps[pd->nopps - 1].khz / 1000);
	}
	fprintf(v, "array lanelabel[%d]\n", nlanes ? nlanes : 1);
	for (i = 0; i < c->nrows; i++) {
		char key[32];

		if (!c->rows[i].lane)
			continue;
		snprintf(key, sizeof(key), "lanelabel[%d]", c->rows[i].lane);
		put_str(v, key, c->rows[i].name);
	}
	return close_out(v, path);
}

static int write_plot(struct check *c)
{
	const char *scripts = plot_scripts_dir();
	char *data = xasprintf("%s/data", c->od.tmp), *path;
	int nlanes = assign_lanes(c), ret = -1;

	if (!scripts)
		goto out;
	if (mkdir(data, 0777)) {
		fprintf(stderr, "capsim: cannot create %s: %s\n", data,
			strerror(errno));
		goto out;
	}
	path = xasprintf("%s/activity-source.dat", data);
	ret = write_lane_data(c, SRC, path);
	free(path);
	path = xasprintf("%s/activity-sim.dat", data);
	ret = ret ? ret : write_lane_data(c, SIM, path);
	free(path);
	ret = ret ? ret : write_freq_data(c, SRC, data);
	ret = ret ? ret : write_freq_data(c, SIM, data);
	path = xasprintf("%s/vars.gp", data);
	ret = ret ? ret : write_plot_vars(c, path, nlanes);
	free(path);
	if (!ret)
		ret = plot_render(scripts, c->od.tmp, "import-check", c->o->quiet);
out:
	free(data);
	return ret;
}

/* ---- the run ---- */

/* The simulated run of the workload over the source's window, in sim/;
 * 0, or the exit status (said) */
static int run_workload(struct check *c)
{
	const struct import_check_opts *o = c->o;
	char *self = procs_self_exe(), dur[64];
	struct job j = { 0 };
	char **av = xcalloc(16, sizeof(char *));
	int n = 0, ret = 0;

	c->simdir = xasprintf("%s/sim", c->od.tmp);
	if (mkdir(c->simdir, 0777) || outmark_write(c->simdir)) {
		fprintf(stderr, "capsim: cannot create %s: %s\n", c->simdir,
			strerror(errno));
		free(self);
		free(av);
		return EXIT_FAIL;
	}
	snprintf(dur, sizeof(dur), "%.9f", c->len_s);
	av[n++] = self;
	av[n++] = xstrdup("run");
	av[n++] = child_path_arg(o->workload);
	av[n++] = xstrdup("--platform");
	av[n++] = xstrdup(o->platform);
	av[n++] = xstrdup("--policy");
	av[n++] = xstrdup(o->policy);
	av[n++] = xstrdup("--duration");
	av[n++] = xstrdup(dur);
	av[n++] = xstrdup("--quiet");
	av[n++] = xstrdup("-o");
	av[n++] = xstrdup(c->simdir);
	j.argv = av;
	j.log_path = xasprintf("%s/run.log", c->simdir);
	if (procs_run(&j, 1, 1, NULL)) {
		char *tail = procs_log_tail(j.log_path, 6);
		size_t len = tail ? strlen(tail) : 0;

		fprintf(stderr, "capsim: import-check: `capsim run %s` failed (exit %d):\n%s%s",
			o->workload, j.status, len ? tail : "",
			len && tail[len - 1] != '\n' ? "\n" : "");
		free(tail);
		/* the workload refused (exit 2) is bad input of this check */
		ret = j.status == EXIT_USAGE ? EXIT_USAGE : EXIT_FAIL;
	}
	job_free(&j);
	return ret;
}

static int profile(struct check *c, int side, const char *path,
		   const uint64_t *tvd_from)
{
	struct trace_profile *p = &c->p[side];
	int r;

	p->pl = c->pl;
	/* both from their first event: capsim's run starts at its trace's
	 * first event (its clock does not start at 0), and lasts the window */
	p->origin_ns = -1;
	p->keep_to = side != SRC;
	p->from_s = side == SRC && c->o->from_s > 0 ? c->o->from_s : 0;
	p->to_s = side == SRC ? (c->o->to_s >= 0 ? c->o->to_s : -1) : c->len_s;
	p->tvd_from_ns = tvd_from;
	p->segment = c->o->plots ? on_segment : NULL;
	p->domain_freq = c->o->plots ? on_domain_freq : NULL;
	c->segs[side].freq = xcalloc((size_t)c->pl->ndomains,
				     sizeof(*c->segs[side].freq));
	p->arg = &c->segs[side];
	r = trace_profile_read(p, path);
	return r == PROFILE_BAD_INPUT ? EXIT_USAGE : r ? EXIT_FAIL : 0;
}

/* What can be refused before anything runs or is written; 0 or 2 (said) */
static int check_inputs(struct check *c)
{
	const struct import_check_opts *o = c->o;
	const char *files[2] = { o->source_trace, o->workload };
	char *pol[2] = { (char *)o->policy, NULL };
	struct stat st;
	struct diag d;
	int i;

	if (!o->outdir || !*o->outdir) {
		fprintf(stderr, "capsim: import-check: -o DIR is required\n");
		return EXIT_USAGE;
	}
	for (i = 0; i < 2; i++) {
		if (!files[i] || stat(files[i], &st) || access(files[i], R_OK)) {
			fprintf(stderr, "capsim: import-check: cannot read %s %s: %s\n",
				i ? "workload" : "source trace",
				files[i] ? files[i] : "(none)",
				files[i] ? strerror(errno) : "not given");
			return EXIT_USAGE;
		}
		outmark_note_input(files[i]);
	}
	if (whatif_check_list(pol, "--policy", "import-check", true))
		return EXIT_USAGE;
	if (o->to_s >= 0 && o->to_s <= (o->from_s > 0 ? o->from_s : 0)) {
		fprintf(stderr, "capsim: import-check: --to %.6f is not after --from %.6f\n",
			o->to_s, o->from_s > 0 ? o->from_s : 0);
		return EXIT_USAGE;
	}
	if (o->tasks_regex) {
		char err[256];

		if (import_ere_compile(&c->re, o->tasks_regex, err, sizeof(err))) {
			fprintf(stderr, "capsim: import-check: --tasks \"%s\" is no POSIX extended regular expression capsim takes: %s\n",
				o->tasks_regex, err);
			return EXIT_USAGE;
		}
		c->has_re = true;
	}
	diag_init(&d, false);
	c->pl = platform_load(o->platform, &d);
	diag_free(&d);
	return c->pl ? 0 : EXIT_USAGE;
}

static void check_free(struct check *c)
{
	int s, i;

	for (s = 0; s < NSIDES; s++) {
		if (c->pl)
			trace_profile_free(&c->p[s]);
		for (i = 0; c->segs[s].freq && i < c->pl->ndomains; i++)
			series_free(&c->segs[s].freq[i]);
		free(c->segs[s].freq);
		free(c->segs[s].v);
		free(c->task_row[s]);
	}
	for (i = 0; i < c->nrows; i++)
		for (s = 0; s < NSIDES; s++)
			samples_free(&c->rows[i].s[s].resp);
	free(c->rows);
	strmap_free(&c->row_names);
	strmap_free(&c->aliases);
	strmap_free(&c->wanted);
	if (c->has_re)
		regfree(&c->re);
	if (c->od.tmp)
		outdir_abort(&c->od);
	free(c->simdir);
	platform_free(c->pl);
}

/* The outputs, into the directory being built; 0 or the exit status */
static int write_outputs(struct check *c, int *nover)
{
	char *json = xasprintf("%s/import-check.json", c->od.tmp);
	char *md = xasprintf("%s/import-check.md", c->od.tmp);
	int ret = write_json(c, json, nover) || write_md(c, md, *nover) ||
		  (c->o->plots && write_plot(c)) ? EXIT_FAIL : 0;

	free(json);
	free(md);
	return ret;
}

int import_check_run(const struct import_check_opts *opts)
{
	struct import_check_opts o = *opts;
	struct check c = { .o = &o };
	uint64_t *tvd_from = NULL;
	int ret, nover = 0, i;

	if (!o.platform)
		o.platform = PLATFORM_DEFAULT;
	if (!o.policy)
		o.policy = clamp_policy_name(CLAMP_POLICY_DEFAULT);
	ret = check_inputs(&c);
	if (!ret)
		ret = profile(&c, SRC, o.source_trace, NULL);
	if (ret)
		goto out;
	c.len_s = trace_profile_window_s(&c.p[SRC]);
	ret = outdir_begin(&c.od, o.outdir);
	if (ret)
		goto out;
	ret = run_workload(&c);
	if (ret)
		goto out;
	/* the simulation's residency for the TVD from where the source
	 * knows each domain's frequency */
	tvd_from = xcalloc((size_t)c.pl->ndomains, sizeof(uint64_t));
	for (i = 0; i < c.pl->ndomains; i++)
		tvd_from[i] = c.p[SRC].doms[i].res.unknown_ns;
	{
		char *trace = xasprintf("%s/trace.txt", c.simdir);

		ret = profile(&c, SIM, trace, tvd_from);
		free(trace);
	}
	if (ret) {
		ret = EXIT_FAIL;	/* capsim's own trace: not the user's input */
		goto out;
	}
	build_rows(&c);
	sort_rows(&c);
	ret = write_outputs(&c, &nover);
	if (!ret)
		ret = outdir_commit(&c.od) ? EXIT_FAIL : 0;
	if (!ret && !o.quiet)
		printf("import-check: %s/ (import-check.md, .json%s): %d task%s, %d beyond the tolerances, missing or extra\n",
		       o.outdir, o.plots ? ", .png, .svg" : "", c.nrows,
		       c.nrows == 1 ? "" : "s", nover);
out:
	free(tvd_from);
	check_free(&c);
	return ret;
}
