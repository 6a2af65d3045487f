// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app's trace markers (rtapp_markers.h). The text follows rt-app's
 * format strings; the type numbers of rtapp_event are rt-app's enum
 * resource_t (src/rt-app_types.h), which LISA reports as they are.
 */
#include <stdbool.h>

#include "rtapp_markers.h"
#include "sim.h"

/* The workload asks for the markers of category @cat (WL_FTRACE_*) */
static bool asked(const struct sim *s, unsigned int cat)
{
	return s->wl->ftrace & cat;
}

/*
 * rt-app's main thread is no task of the simulation: its lines come from
 * CPU 0's idle task (pid 0), so that no reader takes them for a task
 */
void rtapp_mark_main(struct sim *s, bool start)
{
	if (!asked(s, WL_FTRACE_MAIN))
		return;
	trace_rtapp_main(s, 0, "<idle>", 0, &(struct te_rtapp_main){
		.event = start ? "start" : "end" });
	/* the first thread's reference time, in µs of the trace clock */
	if (start)
		trace_rtapp_main_clock(s, 0, "<idle>", 0,
				       &(struct te_rtapp_main_clock){
			.data = (s->tr.clock_ns + s->now) / NSEC_PER_USEC });
}

void rtapp_mark_task(struct sim *s, struct sim_task *t, bool start)
{
	if (asked(s, WL_FTRACE_TASK))
		trace_rtapp_task(s, t->cpu, t->comm, t->pid,
				 &(struct te_rtapp_task){
			.event = start ? "start" : "end" });
}

void rtapp_mark_loop(struct sim *s, struct sim_task *t, bool start)
{
	if (asked(s, WL_FTRACE_LOOP))
		trace_rtapp_loop(s, t->cpu, t->comm, t->pid,
				 &(struct te_rtapp_loop){
			.event = start ? "start" : "end",
			.thread_loop = t->loop_iter, .phase = t->phase,
			.phase_loop = t->phase_iter });
}

/* rt-app's enum resource_t value of each event kind */
static int rtapp_type(enum wl_ev_type type)
{
	switch (type) {
	case WL_EV_WAIT:	return 2;
	case WL_EV_SIGNAL:	return 3;
	case WL_EV_BROAD:	return 4;
	case WL_EV_SLEEP:	return 5;
	case WL_EV_RUN:		return 6;
	case WL_EV_LOCK:	return 8;
	case WL_EV_UNLOCK:	return 9;
	case WL_EV_TIMER:	return 10;
	case WL_EV_SUSPEND:	return 11;
	case WL_EV_RESUME:	return 12;
	case WL_EV_MEM:		return 13;
	case WL_EV_IORUN:	return 14;
	case WL_EV_RUNTIME:	return 15;
	case WL_EV_YIELD:	return 16;
	case WL_EV_BARRIER:	return 17;
	}
	return 0;		/* rtapp_unknown */
}

void rtapp_mark_event(struct sim *s, struct sim_task *t, int id)
{
	const struct wl_event *e = &t->wt->phases[t->phase].ev[id];
	char desc[64];
	size_t i;

	if (!(s->wl->ftrace & WL_FTRACE_EVENT))
		return;
	/* the key is the workload's text: a newline in it would start a
	 * line of its own in the trace, which capsim's readers would take
	 * for an event */
	snprintf(desc, sizeof(desc), "%s", e->key);
	for (i = 0; desc[i]; i++)
		if ((unsigned char)desc[i] < 0x20 || desc[i] == 0x7f)
			desc[i] = '?';
	trace_rtapp_event(s, t->cpu, t->comm, t->pid, &(struct te_rtapp_event){
		.id = id, .type = rtapp_type(e->type), .desc = desc });
}

/* The run time the phase asks for (rt-app's c_run), µs */
static uint64_t phase_run_us(const struct wl_phase *ph)
{
	uint64_t us = 0;
	int i;

	for (i = 0; i < ph->nev; i++)
		if (ph->ev[i].type == WL_EV_RUN ||
		    ph->ev[i].type == WL_EV_RUNTIME)
			us += ph->ev[i].us;
	return us;
}

void rtapp_mark_stats(struct sim *s, struct sim_task *t,
		      const struct activation *a)
{
	const struct wl_phase *ph = &t->wt->phases[a->phase];

	if (!asked(s, WL_FTRACE_STATS))
		return;
	trace_rtapp_stats(s, t->cpu, t->comm, t->pid, &(struct te_rtapp_stats){
		.period = (a->end - t->loop_start_ns) / NSEC_PER_USEC,
		.run = a->run_ns / NSEC_PER_USEC,
		.wu_lat = a->wu_lat_ns < 0 ? 0 : a->wu_lat_ns / 1000,
		.slack = a->slack_ns / 1000,
		.c_period = a->period_ns / NSEC_PER_USEC,
		.c_run = phase_run_us(ph) });
}
