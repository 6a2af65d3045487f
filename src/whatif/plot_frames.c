// SPDX-License-Identifier: GPL-2.0
/*
 * The frame view (plot_frames.h), from a run's own outputs as a notebook
 * reads them: chains.csv's first columns (chain, period, trigger_ms,
 * done_ms, latency_ms, late, lost; docs/outputs.md) and each chain's
 * deadline from summary.json. Chain names come from the input: they reach
 * gnuplot only as quoted strings in vars.gp, never as code.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "plot.h"
#include "plot_frames.h"
#include "safe_write.h"
#include "util.h"

/* More vsync marks than this in a lane's window would be a solid band at
 * 1000 px: the lane then shows the frames only (and the title says so) */
#define MAX_VSYNC_MARKS 250
/* the columns read, in chains.csv's order; "lost" is newer than the rest
 * (an older capsim's chains.csv has none: no frame lost) */
static const char *const cols[] = { "chain", "period", "trigger_ms",
	"done_ms", "latency_ms", "late", "lost" };
#define NCOLS 7

/* Up to NCOLS comma-separated fields of @line, cut in place (a chain's
 * name has no comma or quote: docs/simulator.md); their count */
static int split(char *line, char **f)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < NCOLS) {
		char *c = strchr(line, ',');

		f[n++] = line;
		if (!c)
			break;
		*c = '\0';
		line = c + 1;
	}
	return n;
}

/* @s as a finite number (empty: @empty_ok and *v NAN) */
static bool num(const char *s, bool empty_ok, double *v)
{
	char *end;

	if (!*s) {
		*v = NAN;
		return empty_ok;
	}
	errno = 0;
	*v = strtod(s, &end);
	return !*end && !errno && isfinite(*v);
}

static int chain_index(const struct plot_frames *pf, const char *name)
{
	int i;

	for (i = 0; i < pf->nchains; i++)
		if (!strcmp(pf->name[i], name))
			return i;
	return -1;
}

static void add(struct plot_frames *pf, const struct plot_frame *fr)
{
	if (pf->n == pf->cap) {
		pf->cap = pf->cap ? 2 * pf->cap : 256;
		pf->v = xrealloc(pf->v, pf->cap * sizeof(*pf->v));
	}
	pf->v[pf->n++] = *fr;
}

/* One row of chains.csv into @pf; false if it is none */
static bool row(struct plot_frames *pf, char *line, bool has_lost,
		double from, double to)
{
	char *f[NCOLS];
	struct plot_frame fr = { 0 };
	double period, trig, done, lat, late, lost = 0;
	int n = split(line, f);

	if (n < (has_lost ? 7 : 6) || !num(f[1], false, &period) ||
	    !num(f[2], false, &trig) || !num(f[3], true, &done) ||
	    !num(f[4], true, &lat) || !num(f[5], false, &late) ||
	    (has_lost && !num(f[6], false, &lost)) ||
	    isnan(done) != isnan(lat))
		return false;
	fr.chain = chain_index(pf, f[0]);
	if (fr.chain < 0)
		return false;
	fr.t_s = trig / 1e3;
	if (fr.t_s < from || (to >= 0 && fr.t_s > to))
		return true;
	fr.done_s = done / 1e3;
	fr.lat_ms = lat;
	fr.state = isnan(done) ? (lost != 0 ? PF_LOST : PF_UNFINISHED) :
		   late != 0 ? PF_LATE : PF_ON_TIME;
	pf->judged[fr.chain]++;
	pf->late[fr.chain] += fr.state != PF_ON_TIME;
	pf->lost[fr.chain] += fr.state == PF_LOST;
	add(pf, &fr);
	return true;
}

/* Whether @hdr is chains.csv's header, and whether it has "lost" */
static bool header(char *hdr, bool *has_lost)
{
	char *f[NCOLS];
	int n = split(hdr, f), i;

	if (n < 6)
		return false;
	for (i = 0; i < 6; i++)
		if (strcmp(f[i], cols[i]))
			return false;
	*has_lost = n == 7;
	return n == 6 || !strcmp(f[6], cols[6]);
}

/* frames.png's axis: the deadline and half again, up to the latest frame
 * (at most 3 deadlines: an outlier would flatten the rest) */
static void set_ymax(struct plot_frames *pf)
{
	size_t k;
	int i;

	for (i = 0; i < pf->nchains; i++) {
		double dl = pf->deadline_ms[i], top = 0;

		for (k = 0; k < pf->n; k++)
			if (pf->v[k].chain == i && !isnan(pf->v[k].lat_ms) &&
			    pf->v[k].lat_ms > top)
				top = pf->v[k].lat_ms;
		if (top > 3 * dl)
			top = 3 * dl;
		pf->ymax_ms[i] = (top > 1.5 * dl ? top : 1.5 * dl) * 1.08;
	}
}

int plot_frames_load(struct plot_frames *pf, const char *csv,
		     const struct run_metrics *m, double from, double to)
{
	char *line = NULL;
	size_t cap = 0;
	bool has_lost = true;
	long lineno = 1;
	FILE *f;
	int i, ret = -1;

	memset(pf, 0, sizeof(*pf));
	f = fopen(csv, "r");
	if (!f)
		return errno == ENOENT ? 0 : (fprintf(stderr,
			"capsim: cannot read %s: %s\n", csv, strerror(errno)),
			-1);
	pf->nchains = m->nchains;
	pf->name = xcalloc((size_t)m->nchains + 1, sizeof(*pf->name));
	pf->deadline_ms = xcalloc((size_t)m->nchains + 1, sizeof(double));
	pf->period_ms = xcalloc((size_t)m->nchains + 1, sizeof(double));
	pf->ymax_ms = xcalloc((size_t)m->nchains + 1, sizeof(double));
	pf->judged = xcalloc((size_t)m->nchains + 1, sizeof(long));
	pf->late = xcalloc((size_t)m->nchains + 1, sizeof(long));
	pf->lost = xcalloc((size_t)m->nchains + 1, sizeof(long));
	for (i = 0; i < m->nchains; i++) {
		pf->name[i] = xstrdup(m->chains[i].name);
		pf->deadline_ms[i] = m->chains[i].deadline_us / 1e3;
		pf->period_ms[i] = m->chains[i].period_us / 1e3;
	}
	if (getline(&line, &cap, f) < 0 || !header(line, &has_lost)) {
		fprintf(stderr, "capsim: %s:1: not a chains.csv header (chain,period,trigger_ms,done_ms,latency_ms,late,lost,...)\n",
			csv);
		goto out;
	}
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		if (!row(pf, line, has_lost, from, to)) {
			fprintf(stderr, "capsim: %s:%ld: not a chains.csv row of a chain of the run's summary.json\n",
				csv, lineno);
			goto out;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "capsim: error reading %s\n", csv);
		goto out;
	}
	set_ymax(pf);
	ret = 0;
out:
	free(line);
	fclose(f);
	if (ret)
		plot_frames_free(pf);
	return ret;
}

/*
 * activity.dat's rows of the frame lanes, in the file's columns (lane t0
 * t1 state cpu share), the state telling them from the task rows: 3 a
 * frame on time, 4 late (each from its vsync to its completion), 5 a
 * vsync mark, 6 lost (a cross at its vsync), 7 not finished otherwise
 * (never begun, or in work at the end: a circle); the last
 * column is the bar's offset in the lane, frames alternating above and
 * below its middle so that one that overlaps the next stays visible
 */
void plot_frames_lanes(const struct plot_frames *pf, FILE *f, int first)
{
	size_t k;

	for (k = 0; k < pf->n; k++) {
		const struct plot_frame *fr = &pf->v[k];
		int lane = first + fr->chain;
		double off = k % 2 ? 0.14 : -0.14;

		if (pf->judged[fr->chain] <= MAX_VSYNC_MARKS)
			fprintf(f, "%d %.9f %.9f 5 0 0\n", lane, fr->t_s,
				fr->t_s);
		if (fr->state == PF_ON_TIME || fr->state == PF_LATE)
			fprintf(f, "%d %.9f %.9f %d 0 %.2f\n", lane, fr->t_s,
				fr->done_s, fr->state == PF_LATE ? 4 : 3, off);
		else
			fprintf(f, "%d %.9f %.9f %d 0 0\n", lane, fr->t_s,
				fr->t_s, fr->state == PF_LOST ? 6 : 7);
	}
}

/* frames.dat: chain t_s y_ms state clipped (state as enum
 * plot_frame_state; a frame not finished sits on the deadline, one over
 * the axis at its top, clipped 1) */
int plot_frames_data(const struct plot_frames *pf, const char *datadir)
{
	FILE *f = plot_data_open(datadir, "frames.dat");
	size_t k;

	if (!f)
		return -1;
	fputs("# chain t_s latency_ms state(0 on time, 1 late, 2 lost, 3 not finished) clipped\n",
	      f);
	for (k = 0; k < pf->n; k++) {
		const struct plot_frame *fr = &pf->v[k];
		double top = pf->ymax_ms[fr->chain], y = fr->lat_ms;
		bool clip = false;

		if (isnan(y))
			y = pf->deadline_ms[fr->chain];
		else if (y > top)
			y = top, clip = true;
		fprintf(f, "%d %.9f %.6f %d %d\n", fr->chain, fr->t_s, y,
			(int)fr->state, clip);
	}
	return safe_fclose(f) ? -1 : 0;
}

static void put(FILE *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* a quoted string built from @fmt, as the line's value */
static void put(FILE *v, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;
	char *q;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	q = gp_quote(sb.buf ? sb.buf : "");
	fprintf(v, "%s\n", q);
	free(q);
	sb_free(&sb);
}

void plot_frames_vars(const struct plot_frames *pf, FILE *v)
{
	int n = pf->nchains, i, marks = 1;

	fprintf(v, "nframelanes = %d\n", n);
	fprintf(v, "array framelabel[%d]\narray fdeadline[%d]\n"
		"array fymax[%d]\narray ftitle[%d]\narray fsub[%d]\n",
		n ? n : 1, n ? n : 1, n ? n : 1, n ? n : 1, n ? n : 1);
	for (i = 0; i < n; i++) {
		long j = pf->judged[i];

		fprintf(v, "framelabel[%d] = ", i + 1);
		put(v, "chain %s", pf->name[i]);
		fprintf(v, "fdeadline[%d] = %.6f\nfymax[%d] = %.6f\n", i + 1,
			pf->deadline_ms[i], i + 1, pf->ymax_ms[i]);
		/* two lines, joined in frames.gp: gp_quote() keeps no
		 * control character */
		fprintf(v, "ftitle[%d] = ", i + 1);
		put(v, "chain %s: each frame's latency, its vsync to its last task's completion",
		    pf->name[i]);
		fprintf(v, "fsub[%d] = ", i + 1);
		put(v, "late %ld of %ld (%.1f %%), lost %ld (a resume found the next task busy)",
		    pf->late[i], j, j ? 100.0 * (double)pf->late[i] /
		    (double)j : 0.0, pf->lost[i]);
		marks &= j <= MAX_VSYNC_MARKS;
	}
	fprintf(v, "framemarks = %d\nframenote = ", n && marks);
	put(v, "%s", n && !marks ?
	    "vsync marks drawn in windows of at most 250 periods (--from, --to)" :
	    "");
}

void plot_frames_free(struct plot_frames *pf)
{
	int i;

	for (i = 0; i < pf->nchains && pf->name; i++)
		free(pf->name[i]);
	free(pf->name);
	free(pf->deadline_ms);
	free(pf->period_ms);
	free(pf->ymax_ms);
	free(pf->judged);
	free(pf->late);
	free(pf->lost);
	free(pf->v);
	memset(pf, 0, sizeof(*pf));
}
