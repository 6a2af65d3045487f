/* SPDX-License-Identifier: GPL-2.0 */
/* summary.json and the short human table printed after a run. */
#ifndef CAPSIM_SUMMARY_H
#define CAPSIM_SUMMARY_H

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

#endif
