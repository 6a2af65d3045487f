/* SPDX-License-Identifier: GPL-2.0 */
/* summary.json and the short human table printed after a run. */
#ifndef CAPSIM_SUMMARY_H
#define CAPSIM_SUMMARY_H

#include <jansson.h>
#include <stdio.h>

#include "sim.h"

struct run_info {
	const char *workload_file;
	const char *trace_path;
	const char *summary_path;
	double wall_s;
};

int summary_write(struct sim *s, const struct run_info *ri, FILE *f);
/* DIR/activations.csv (needs sim_opts.activations) */
int activations_write(struct sim *s, FILE *f);
void summary_print(struct sim *s, const struct run_info *ri, FILE *f);
/* Each task's response times (wake-up to asleep again, summary.json's
 * response_us) in ms: p50, p95, p99, with its activations */
void summary_print_response(struct sim *s, FILE *f);
/* {"count", and with samples "p50", "p95", "p99", "max", "min"} in us
 * of samples in ns (nearest rank: samples_pct()) */
json_t *summary_pct_obj(struct samples *sm);
/*
 * Append task @t's object of summary.json's "tasks", as jansson's dump
 * (JSON_INDENT(2), JSON_REAL_PRECISION(9)) at nesting @depth would write
 * it, without building it: a key whose string jansson refuses (invalid
 * UTF-8) is left out. @ct: scratch for at least @t's CPUs (s->ncpus).
 */
void summary_task_write(struct strbuf *sb, struct sim *s, struct sim_task *t,
			int depth, struct cpu_time *ct);

#endif
