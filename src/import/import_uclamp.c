// SPDX-License-Identifier: GPL-2.0
/*
 * A task's uclamp where the trace shows it: LISA's `lisa__uclamp_util_se`
 * (pid= comm= cpu= util_avg= uclamp_avg= uclamp_min= uclamp_max=). Its
 * clamps are not the task's: LISA's module fills them from the CPU's
 * rq->uclamp[].value, the MAX of the effective clamps of the tasks
 * RUNNABLE there (capsim's simulator writes the same). While the task
 * runs it is one of them, so each of the CPU's clamps is at or above the
 * task's own; when it runs alone (or beside tasks clamped no higher) they
 * are equal. So a task's clamp is the lowest the CPU showed over the
 * samples taken while it was running there, two kinds of sample left out:
 *  - of a task not running: 6.12 accounts a waking task's clamps only
 *    after its class enqueued it (uclamp_rq_inc() after enqueue_task()),
 *    and an idle CPU keeps its last task's max, so those samples can be
 *    below its clamps;
 *  - the last of a stint that ends blocking: 6.12 drops a sleeping task's
 *    clamps before its class dequeues it (uclamp_rq_dec() before
 *    ->dequeue_task()), whose PELT update fires the event with the task
 *    still running and its clamps gone (an idle CPU's min is 0). So each
 *    sample waits to count until the task's next one, or until it is
 *    switched out still runnable (preempted).
 * If the lowest min is above the lowest max, the max is raised to it: the
 * kernel lets the min win such an inversion (uclamp_rq_util_with()), and
 * rt-app and capsim refuse util_min > util_max.
 * Limits (docs/import.md): a task never alone gets its co-runners'
 * clamps; a clamp that changed inside the window gives its lowest value.
 */
#include <stdint.h>
#include <string.h>

#include "import.h"

/* the task's pending sample counts */
static void count(struct import_task *t)
{
	t->uclamp_pending = false;
	if (!t->uclamp_samples++) {
		t->uclamp_min = t->uclamp_pend_min;
		t->uclamp_max = t->uclamp_pend_max;
		return;
	}
	if (t->uclamp_pend_min < t->uclamp_min)
		t->uclamp_min = t->uclamp_pend_min;
	if (t->uclamp_pend_max < t->uclamp_max)
		t->uclamp_max = t->uclamp_pend_max;
}

void import_uclamp_event(struct import_model *m, const struct ftrace_event *ev)
{
	struct import_task *t;
	int64_t pid, cpu, mn, mx;

	if (ev->ts_ns < m->ws || ev->ts_ns > m->we ||
	    !ftrace_get_i64(ev, "pid", &pid) || pid < 1 ||
	    pid > FTRACE_PID_MAX || !ftrace_get_i64(ev, "cpu", &cpu) ||
	    cpu < 0 || cpu >= m->ss.ncpus ||
	    !ftrace_get_i64(ev, "uclamp_min", &mn) || mn < 0 || mn > 1024 ||
	    !ftrace_get_i64(ev, "uclamp_max", &mx) || mx < 0 || mx > 1024)
		return;		/* not one we read: skipped */
	t = (struct import_task *)sched_state_find(&m->ss, (int)pid);
	if (!t || t->st.state != SCHED_RUNNING ||
	    m->ss.cpus[cpu].curr != t->st.idx)
		return;
	if (t->uclamp_pending)
		count(t);
	t->uclamp_pending = true;
	t->uclamp_pend_min = (int)mn;
	t->uclamp_pend_max = (int)mx;
}

void import_uclamp_switched(struct import_task *prev, const char *prev_state)
{
	if (!prev->uclamp_pending)
		return;
	/* preempted: still runnable, its clamps still the CPU's */
	if (prev_state && prev_state[0] == 'R')
		count(prev);
	prev->uclamp_pending = false;
}

void import_uclamp_finish(struct import_model *m)
{
	int i;

	for (i = 0; i < m->ss.ntasks; i++) {
		struct import_task *t = import_task(m, i);

		if (t->uclamp_pending)
			count(t);
		if (t->uclamp_samples && t->uclamp_min > t->uclamp_max)
			t->uclamp_max = t->uclamp_min;
	}
}
