// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app's trace markers (rtapp_markers.h). The text follows rt-app's
 * format strings; the type numbers of rtapp_event are rt-app's enum
 * resource_t (src/rt-app_types.h), which LISA reports as they are.
 */
#include <stdarg.h>

#include "rtapp_markers.h"
#include "sim.h"

/*
 * One marker line of category @cat (WL_FTRACE_*) as @comm/@pid on @cpu,
 * if the workload asks for the category; counted when there is no trace
 */
static void mark(struct sim *s, unsigned int cat, int cpu, const char *comm,
		 int pid, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void mark(struct sim *s, unsigned int cat, int cpu, const char *comm,
		 int pid, const char *fmt, ...)
{
	va_list ap;

	if (!(s->wl->ftrace & cat))
		return;
	if (!ftrace_writer_on(&s->tr)) {
		ftrace_writer_skip(&s->tr);
		return;
	}
	va_start(ap, fmt);
	ftrace_writer_vevent(&s->tr, s->now, cpu, comm, pid,
			     "tracing_mark_write", fmt, ap);
	va_end(ap);
}

/*
 * rt-app's main thread is no task of the simulation: its lines come from
 * CPU 0's idle task (pid 0), so that no reader takes them for a task
 */
void rtapp_mark_main(struct sim *s, bool start)
{
	mark(s, WL_FTRACE_MAIN, 0, "<idle>", 0, "rtapp_main: event=%s",
	     start ? "start" : "end");
	/* the first thread's reference time, in µs of the trace clock */
	if (start)
		mark(s, WL_FTRACE_MAIN, 0, "<idle>", 0,
		     "rtapp_main: event=clock_ref data=%llu",
		     (unsigned long long)((s->tr.clock_ns + s->now) /
					  NSEC_PER_USEC));
}

void rtapp_mark_task(struct sim *s, struct sim_task *t, bool start)
{
	mark(s, WL_FTRACE_TASK, t->cpu, t->comm, t->pid, "rtapp_task: event=%s",
	     start ? "start" : "end");
}

void rtapp_mark_loop(struct sim *s, struct sim_task *t, bool start)
{
	mark(s, WL_FTRACE_LOOP, t->cpu, t->comm, t->pid,
	     "rtapp_loop: event=%s thread_loop=%d phase=%d phase_loop=%d",
	     start ? "start" : "end", t->loop_iter, t->phase, t->phase_iter);
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
	mark(s, WL_FTRACE_EVENT, t->cpu, t->comm, t->pid, "rtapp_event: id=%d type=%d desc=%s",
	     id, rtapp_type(e->type), desc);
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

	mark(s, WL_FTRACE_STATS, t->cpu, t->comm, t->pid,
	     "rtapp_stats: period=%llu run=%llu wu_lat=%lld slack=%lld c_period=%llu c_run=%llu",
	     (unsigned long long)((a->end - t->loop_start_ns) / NSEC_PER_USEC),
	     (unsigned long long)(a->run_ns / NSEC_PER_USEC),
	     (long long)(a->wu_lat_ns < 0 ? 0 : a->wu_lat_ns / 1000),
	     (long long)(a->slack_ns / 1000),
	     (unsigned long long)(a->period_ns / NSEC_PER_USEC),
	     (unsigned long long)phase_run_us(ph));
}
