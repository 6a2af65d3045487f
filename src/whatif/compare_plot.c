// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare_plot.h"
#include "plot.h"
#include "policy_style.h"
#include "safe_write.h"
#include "util.h"

/* @dir/compare-data/@name for writing, or NULL (said) */
static FILE *open_data(const char *dir, const char *name)
{
	char *data = xasprintf("%s/compare-data", dir);
	FILE *f = plot_data_open(data, name);

	free(data);
	return f;
}

/* the header row: "what" then a column title per policy */
static void put_header(FILE *f, const char *what,
		       const struct compare_series *s, int n)
{
	int i;

	fprintf(f, "%s", what);
	for (i = 0; i < n; i++) {
		char *lab = gp_data_label(s[i].policy);

		fprintf(f, " %s", lab);
		free(lab);
	}
	fputc('\n', f);
}

/* as the per-policy plots name a domain (caller frees) */
static char *dom_cpus_label(const struct dom_metrics *d)
{
	char *cpus = plot_cpu_ranges(d->cpus);
	char *t = d->name ? xasprintf("%s (CPUs %s)", d->name, cpus) :
		  xasprintf("domain %d (CPUs %s)", d->id, cpus);

	free(cpus);
	return t;
}

/* energy.dat: a row per domain, mJ per policy; residency-domN.dat: a row
 * per OPP, percent per policy (the OPPs of the first run: one platform) */
static int write_data(const char *dir, const struct compare_series *s,
		      int n, int ndoms)
{
	char buf[160];
	FILE *f = open_data(dir, "energy.dat");
	int d, i, j;

	if (!f)
		return -1;
	put_header(f, "domain", s, n);
	for (d = 0; d < ndoms; d++) {
		char *t = dom_cpus_label(&s[0].m->doms[d]);
		char *lab = gp_data_label(t);

		fprintf(f, "%s", lab);
		free(lab);
		free(t);
		for (i = 0; i < n; i++)
			fprintf(f, " %.3f", d < s[i].m->ndoms ?
				s[i].m->doms[d].energy_mj : 0.0);
		fputc('\n', f);
	}
	if (safe_fclose(f))
		return -1;
	for (d = 0; d < ndoms; d++) {
		const struct dom_metrics *dm = &s[0].m->doms[d];

		snprintf(buf, sizeof(buf), "residency-dom%d.dat", d);
		f = open_data(dir, buf);
		if (!f)
			return -1;
		put_header(f, "MHz", s, n);
		for (j = 0; j < dm->nopps; j++) {
			fprintf(f, "%u", dm->khz[j] / 1000);
			for (i = 0; i < n; i++) {
				const struct dom_metrics *o = d < s[i].m->ndoms ?
					&s[i].m->doms[d] : NULL;

				fprintf(f, " %.3f", o && j < o->nopps ?
					o->res_pct[j] : 0.0);
			}
			fputc('\n', f);
		}
		if (safe_fclose(f))
			return -1;
	}
	return 0;
}

static int write_vars(const char *dir, const struct compare_series *s,
		      int n, int ndoms)
{
	FILE *f = open_data(dir, "vars.gp");
	char *t, *q;
	int d;

	if (!f)
		return -1;
	t = xasprintf("%s on %s: every policy", s[0].m->workload,
		      s[0].m->platform);
	q = gp_quote(t);
	fprintf(f, "runtitle = %s\nnseries = %d\nndoms = %d\n", q, n, ndoms);
	free(q);
	free(t);
	/* each policy's colour by its name, as the sweep's Pareto plot has
	 * it (policy_style.h), whatever the order of --policies */
	fprintf(f, "array seriescolour[%d]\n", n);
	for (d = 0; d < n; d++)
		fprintf(f, "seriescolour[%d] = '%s'\n", d + 1,
			policy_colour(s[d].policy));
	fprintf(f, "array domlabel[%d]\n", ndoms ? ndoms : 1);
	for (d = 0; d < ndoms; d++) {
		char *t = dom_cpus_label(&s[0].m->doms[d]);

		q = gp_quote(t);
		fprintf(f, "domlabel[%d] = %s\n", d + 1, q);
		free(q);
		free(t);
	}
	return safe_fclose(f) ? -1 : 0;
}

int compare_plot_write(const char *dir, const struct compare_series *s, int n)
{
	char *data = xasprintf("%s/compare-data", dir);
	/* at most 8 domains, as the per-policy residency draws */
	int ndoms = s[0].m->ndoms < 8 ? s[0].m->ndoms : 8, ret = -1;

	if (mkdir(data, 0777))
		fprintf(stderr, "capsim: cannot create %s: %s\n", data,
			strerror(errno));
	else if (!write_data(dir, s, n, ndoms) &&
		 !write_vars(dir, s, n, ndoms))
		ret = 0;
	free(data);
	return ret;
}

int compare_plot_add(struct gp_figures *g, bool png)
{
	const char *scripts = plot_scripts_dir();
	char *qs, *vars, *script;

	if (!scripts)
		return -1;
	qs = gp_quote(scripts);
	vars = xasprintf("datadir='compare-data'; plotsdir=%s", qs);
	script = xasprintf("%s/compare.gp", scripts);
	gp_figures_set(g, vars);
	gp_figures_add(g, script, png ? "compare.png" : NULL, "compare.svg");
	free(script);
	free(vars);
	free(qs);
	return 0;
}
