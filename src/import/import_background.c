// SPDX-License-Identifier: GPL-2.0
/*
 * The background: tasks that do not become tasks of their own fold into
 * one periodic load per CPU, so the CPUs stay as busy as in the trace:
 *   - kernel threads, by name (the prefixes below: kworker/, ksoftirqd/,
 *     rcu_ ...; a trace says no ppid, so the name is what there is);
 *   - tasks busy for less than --min-busy percent of the window
 *     (default IMPORT_MIN_BUSY_PCT, 0.5 %);
 *   - tasks --tasks does not match.
 * Per CPU, the work they did there over the window becomes `bg_cpuN`:
 * pinned to CPU N, SCHED_OTHER, `run` of that work per
 * IMPORT_BG_PERIOD_US (10 ms) on a `timer`, i.e. the measured rate.
 */
#include <string.h>

#include "import.h"
#include "util.h"

static const char *const kthread_prefixes[] = {
	"kworker/", "ksoftirqd/", "migration/", "rcu_", "rcuc/", "rcuop/",
	"rcuos/", "irq/", "watchdog/", "watchdogd", "cpuhp/", "kswapd",
	"kcompactd", "khungtaskd", "jbd2/", "kthreadd", "kblockd",
	"writeback", "oom_reaper", "kauditd", "ksmd", "khugepaged", "scsi_",
	"kdevtmpfs", "kintegrityd", "idle_inject/", "mmcqd/", "spi", "kdmflush",
	"ext4-", "xfs", "nvme", "ipv6_addrconf", "mm_percpu_wq", "netns",
	"cfg80211", "edac-poller", "devfreq_wq", "pm_wq", "inet_frag_wq",
	"kthrotld", "zswap", "kstrp", "charger_manager", "crypto",
	"khungtask", "sugov:",
	NULL,
};

static bool is_kthread(const struct import_task *t)
{
	int i;

	for (i = 0; kthread_prefixes[i]; i++)
		if (!strncmp(t->st.comm, kthread_prefixes[i],
			     strlen(kthread_prefixes[i])))
			return true;
	return false;
}

void import_fold(struct import_model *m, bool (*selected)(void *, const char *),
		 void *arg)
{
	double window = (double)(m->we - m->ws);
	int i, c;

	m->bg_work = xcalloc((size_t)m->ncpus, sizeof(double));
	for (i = 0; i < m->ss.ntasks; i++) {
		struct import_task *t = import_task(m, i);
		double pct = window > 0 ? 100.0 * (double)t->busy_ns / window : 0;
		int k;

		t->kthread = is_kthread(t);
		t->selected = true;
		for (k = 0; k < t->st.ncomms && selected; k++)
			if ((t->selected = selected(arg, t->st.comms[k])))
				break;
		if (!t->selected)
			t->fold_why = "not matched by --tasks";
		else if (t->kthread)
			t->fold_why = "a kernel thread (by its name)";
		else if (pct < m->o->min_busy_pct)
			t->fold_why = "busy below --min-busy";
		else
			continue;
		t->folded = true;
		for (c = 0; c < m->ncpus && c < t->cpu_work_n; c++)
			m->bg_work[c] += t->cpu_work[c];
	}
	for (c = 0; c < m->ncpus; c++)
		if (m->bg_work[c] * IMPORT_BG_PERIOD_US / window >= 1.0)
			m->nbg++;
}
