/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt-app's trace_marker lines, written into the run's trace where rt-app
 * writes them (src/rt-app.c: log_ftrace() with FTRACE_MAIN, _TASK, _LOOP,
 * _EVENT, _STATS), so that LISA's rt-app analysis (its userspace@rtapp_*
 * meta events) finds a capsim trace's tasks, phases and loops. Each line
 * is the kernel's "tracing_mark_write: TEXT" as the writing task on its
 * CPU; docs/traces.md lists them with where capsim departs from rt-app.
 */
#ifndef CAPSIM_RTAPP_MARKERS_H
#define CAPSIM_RTAPP_MARKERS_H

#include <stdbool.h>

struct sim;
struct sim_task;
struct activation;

/* "rtapp_main: event=start" (and clock_ref) or "=end", from the idle task */
void rtapp_mark_main(struct sim *s, bool start);
/* "rtapp_task: event=start|end", by @t as it runs */
void rtapp_mark_task(struct sim *s, struct sim_task *t, bool start);
/* "rtapp_loop: event=start|end thread_loop= phase= phase_loop=" of @t's
 * current phase iteration */
void rtapp_mark_loop(struct sim *s, struct sim_task *t, bool start);
/* "rtapp_event: id= type= desc=" before event @id of @t's phase runs */
void rtapp_mark_event(struct sim *s, struct sim_task *t, int id);
/* "rtapp_stats: period= run= wu_lat= slack= c_period= c_run=" of the
 * iteration @a that just ended (after its loop end, as rt-app) */
void rtapp_mark_stats(struct sim *s, struct sim_task *t,
		      const struct activation *a);

#endif
