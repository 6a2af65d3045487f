/* SPDX-License-Identifier: GPL-2.0 */
/* A run's chains in summary.json, chains.csv and `capsim run`'s table. */
#ifndef CAPSIM_CHAINS_OUT_H
#define CAPSIM_CHAINS_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "sim.h"

/* summary.json's "chains": one object per chain, by name */
json_t *chains_json(struct sim *s);
/* chains.csv: chain,period,trigger_ms,done_ms,latency_ms,late,lost, then
 * per stage N stageN_task,_cpu,_wakeup_ms,_wlat_ms,_run_ms,_end_ms,_khz */
int chains_csv_write(struct sim *s, FILE *f);
/* one line per chain: periods, late, dropped, lost, jank %, latency in ms */
void chains_print(struct sim *s, FILE *f);

#endif
