// SPDX-License-Identifier: GPL-2.0
/*
 * A run's chains, written out: summary.json's "chains" object, chains.csv
 * (one row per period) and the table `capsim run` prints. Only a workload
 * with chains (capsim.chains, or inferred from its events) has any.
 */
#include <jansson.h>

#include "chains_out.h"
#include "escape.h"
#include "summary.h"

/* A chain inferred from the workload's events (workload_chain_infer.c)
 * says so, and which: "inferred": true, "inferred_from": [{"task",
 * "event", "ref"}]; a declared chain has neither key */
static void set_inferred(const struct workload *wl, const struct wl_chain *wc,
			 json_t *o)
{
	json_t *from = json_array();
	int j;

	for (j = 0; j < wc->nfrom; j++) {
		const struct wl_chain_link *l = &wc->from[j];

		json_array_append_new(from, json_pack("{s:s, s:s, s:s}",
			"task", wl->tasks[l->task].name,
			"event", wl_ev_name(l->ev),
			"ref", wl->res[l->res].name));
	}
	json_object_set_new(o, "inferred", json_true());
	json_object_set_new(o, "inferred_from", from);
}

json_t *chains_json(struct sim *s)
{
	json_t *all = json_object();
	int i, j;

	chains_close(s);
	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];
		const struct wl_chain *wc = cr->wc;
		json_t *o = json_object(), *tasks = json_array();

		for (j = 0; j < wc->ntasks; j++)
			json_array_append_new(tasks, json_string(
				s->wl->tasks[wc->tasks[j]].name));
		json_object_set_new(o, "tasks", tasks);
		json_object_set_new(o, "start", json_string(wc->start));
		json_object_set_new(o, "period_us",
				    json_integer((json_int_t)wc->period_us));
		json_object_set_new(o, "deadline_us",
				    json_integer((json_int_t)wc->deadline_us));
		json_object_set_new(o, "periods",
				    json_integer((json_int_t)cr->judged));
		json_object_set_new(o, "late",
				    json_integer((json_int_t)cr->late));
		json_object_set_new(o, "dropped",
				    json_integer((json_int_t)cr->dropped));
		json_object_set_new(o, "lost_resumes",
				    json_integer((json_int_t)cr->lost));
		json_object_set_new(o, "jank_pct",
				    json_real(chain_jank_pct(cr)));
		json_object_set_new(o, "latency_us", summary_pct_obj(&cr->lat));
		if (wc->inferred)
			set_inferred(s->wl, wc, o);
		json_object_set_new(all, wc->name, o);
	}
	return all;
}

/* The stage columns' names, stage @n */
static void stage_header(FILE *f, int n)
{
	static const char *const cols[] = { "task", "cpu", "wakeup_ms",
		"wlat_ms", "run_ms", "end_ms", "khz" };
	size_t c;

	for (c = 0; c < ARRAY_SIZE(cols); c++)
		fprintf(f, ",stage%d_%s", n, cols[c]);
}

/* A stage's columns: empty where it never began (or for a chain with
 * fewer stages); a begun stage has its task and wake-up, a done one the
 * rest */
static void stage_cols(struct sim *s, FILE *f, const struct chain_stage *st)
{
	if (!st || !st->begun) {
		fputs(",,,,,,,", f);
		return;
	}
	fputc(',', f);
	csv_put_field(f, s->tasks[st->task]->name);
	if (st->done)
		fprintf(f, ",%d", st->cpu);
	else
		fputc(',', f);
	fprintf(f, ",%.6f,", (double)st->wake / 1e6);
	if (st->done)
		fprintf(f, "%.6f,%.6f,%.6f,%.0f", (double)st->wlat_ns / 1e6,
			(double)st->run_ns / 1e6, (double)st->end / 1e6,
			st->khz);
	else
		fputs(",,,", f);
}

int chains_csv_write(struct sim *s, FILE *f)
{
	int i, n, most = 0;

	chains_close(s);
	for (i = 0; i < s->nchains; i++)
		if (s->chains[i].wc->ntasks > most)
			most = s->chains[i].wc->ntasks;
	fputs("chain,period,trigger_ms,done_ms,latency_ms,late,lost", f);
	for (n = 0; n < most; n++)
		stage_header(f, n);
	fputc('\n', f);
	for (i = 0; i < s->nchains; i++) {
		const struct chain_run *cr = &s->chains[i];
		size_t j = 0;
		uint64_t k;

		/* every judged frame; the begun ones are cr->f[], by k */
		for (k = 0; k < cr->judged; k++) {
			const struct chain_frame *p = j < cr->n &&
				cr->f[j].k == k ? &cr->f[j] : NULL;

			/* ms to the ns: the unit of every time column */
			csv_put_field(f, cr->wc->name);
			fprintf(f, ",%llu,%.6f,", (unsigned long long)k,
				(double)chain_trigger(cr, k) / 1e6);
			if (p && p->finished)
				fprintf(f, "%.6f,%.6f,%d,0", (double)p->done / 1e6,
					(double)chain_frame_latency(cr, p) / 1e6,
					chain_frame_late(cr, p));
			else
				fprintf(f, ",,1,%d", p && p->lost);
			for (n = 0; n < most; n++)
				stage_cols(s, f, p && n < cr->wc->ntasks ?
					   chain_stage_of(cr, j, n) : NULL);
			fputc('\n', f);
			j += p != NULL;
		}
	}
	return ferror(f) ? -1 : 0;
}

/* A latency percentile in ms, "-" without samples */
static void print_ms(FILE *f, struct samples *sm, double pct)
{
	if (sm->n)
		fprintf(f, " %8.3f", (double)samples_pct(sm, pct) / 1e6);
	else
		fprintf(f, " %8s", "-");
}

void chains_print(struct sim *s, FILE *f)
{
	int i;

	if (!s->nchains)
		return;
	chains_close(s);
	fprintf(f, "%-16s %8s %6s %7s %6s %8s %8s %8s %8s\n", "chain",
		"periods", "late", "dropped", "lost", "jank_pct", "lat50_ms",
		"lat95_ms", "lat99_ms");
	for (i = 0; i < s->nchains; i++) {
		struct chain_run *cr = &s->chains[i];

		fprintf(f, "%-16s %8lu %6lu %7lu %6lu %8.2f", cr->wc->name,
			(unsigned long)cr->judged, (unsigned long)cr->late,
			(unsigned long)cr->dropped, (unsigned long)cr->lost,
			chain_jank_pct(cr));
		print_ms(f, &cr->lat, 50);
		print_ms(f, &cr->lat, 95);
		print_ms(f, &cr->lat, 99);
		fputc('\n', f);
	}
	/* a chain nobody named: the reader must know where it came from */
	for (i = 0; i < s->nchains; i++)
		if (s->chains[i].wc->inferred)
			fprintf(f, "  %s: inferred from resume/suspend (summary.json's inferred_from names the events)\n",
				s->chains[i].wc->name);
}
