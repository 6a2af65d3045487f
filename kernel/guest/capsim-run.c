// SPDX-License-Identifier: GPL-2.0
/*
 * capsim-run: the in-guest workload runner and trace checker.
 *
 *   capsim-run WORKLOAD.json      run an rt-app-like workload (subset)
 *   capsim-run replay TRACE       replay the cap_clamp events of a trace
 *   capsim-run spin SECONDS       busy loop (a hog)
 *   capsim-run periodic RUN_US PERIOD_US SECONDS [fifo PRIO]
 *   capsim-run write PATH VALUE   write VALUE, print OK or the errno name
 *
 * Workload subset: "global": {"duration" (s), "default_policy"};
 * "tasks": {NAME: {"instance", "loop", "delay", "policy", "priority",
 * "cpus", "taskgroup", "util_min", "util_max", events or "phases"}} with
 * the events "run" (fixed work, us at the top OPP), "runtime" (us of wall
 * time busy), "sleep" (us) and "timer" ({"ref", "period"} us). Unknown keys
 * are reported on stderr, never silently ignored. The top-level "capsim"
 * object (ignored by rt-app) carries "taskgroups": {PATH: {"capacity_min",
 * "capacity_max", "uclamp_min", "uclamp_max"}} and "events": [{"at_ms",
 * "group", "capacity_min"|"capacity_max"}].
 *
 * Each task instance is a process: it joins its cgroup (cgroup v2, under
 * /sys/fs/cgroup) itself. A "run" event is fixed work: QEMU executes at the
 * same speed whatever the virtual frequency, so the runner stretches busy
 * time by the current frequency ratio: it spins in slices of CPU time (the
 * thread's own clock, so preemption does not count as work) and credits
 * each slice with slice * cur_freq / max_freq of work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CGROOT "/sys/fs/cgroup"
#define MAX_CPUS 64

static long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

static long read_long(const char *path, long dflt)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return dflt;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return dflt;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

/* ---- frequency-scaled fixed work ------------------------------------ */

static int freq_fd[MAX_CPUS];
static long freq_max;

static void freq_init(void)
{
	char path[128];
	int cpu;

	freq_max = read_long("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", 0);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
		freq_fd[cpu] = open(path, O_RDONLY);
	}
}

static long freq_cur(void)
{
	int cpu = sched_getcpu();
	char buf[32];
	ssize_t n;

	if (!freq_max || cpu < 0 || cpu >= MAX_CPUS || freq_fd[cpu] < 0)
		return freq_max;
	n = pread(freq_fd[cpu], buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return freq_max;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

static volatile unsigned long sink;

static void spin_cpu_ns(long long ns)
{
	long long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
		int i;

		for (i = 0; i < 1000; i++)
			sink += i;
	}
}

/* "run": @us of work as measured at the top OPP */
static void do_run(long us)
{
	long long want = us * 1000LL, done = 0;
	const long long slice = 200000;

	while (done < want) {
		long long t0 = now_ns(CLOCK_THREAD_CPUTIME_ID), dt;
		long f;

		spin_cpu_ns(slice);
		dt = now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		f = freq_cur();
		done += freq_max ? dt * f / freq_max : dt;
	}
}

/* "runtime": busy for @us of wall time */
static void do_runtime(long us)
{
	long long end = now_ns(CLOCK_MONOTONIC) + us * 1000LL;

	while (now_ns(CLOCK_MONOTONIC) < end)
		sink++;
}

static void sleep_until(long long t)
{
	struct timespec ts = { t / 1000000000LL, t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* ---- cgroups ------------------------------------------------------- */

static void cg_mkdir(const char *group)
{
	char path[512], ctl[600];
	char *p;

	snprintf(path, sizeof(path), CGROOT "%s", group);
	for (p = path + strlen(CGROOT) + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = 0;
			mkdir(path, 0755);
			if (c) {
				snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", path);
				write_file(ctl, "+cpu");
			}
			*p = c;
			if (!c)
				break;
		}
	}
}

static int cg_set(const char *group, const char *attr, long long v)
{
	char path[600], val[32];

	snprintf(path, sizeof(path), CGROOT "%s/cpu.%s", group, attr);
	snprintf(val, sizeof(val), "%lld", v);
	return write_file(path, val);
}

/* Set min and max, in whichever order the current values allow */
static void cg_set_range(const char *group, json_t *min, json_t *max)
{
	int err = 0;

	if (min && cg_set(group, "capacity_min", json_integer_value(min)))
		err = 1;
	if (max && cg_set(group, "capacity_max", json_integer_value(max)))
		err |= 2;
	if (err & 1 && min && cg_set(group, "capacity_min", json_integer_value(min)))
		fprintf(stderr, "capsim-run: %s: capacity_min=%lld refused\n",
			group, json_integer_value(min));
	if (err & 2 && max && cg_set(group, "capacity_max", json_integer_value(max)))
		fprintf(stderr, "capsim-run: %s: capacity_max=%lld refused\n",
			group, json_integer_value(max));
}

/* ---- tasks --------------------------------------------------------- */

struct task_stats {
	long activations;
	long overruns;
	long long busy_ns;
};

static struct task_stats *stats;
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int policy_of(const char *s)
{
	if (!s || !strcmp(s, "SCHED_OTHER"))
		return SCHED_OTHER;
	if (!strcmp(s, "SCHED_FIFO"))
		return SCHED_FIFO;
	if (!strcmp(s, "SCHED_RR"))
		return SCHED_RR;
	if (!strcmp(s, "SCHED_BATCH"))
		return SCHED_BATCH;
	if (!strcmp(s, "SCHED_IDLE"))
		return SCHED_IDLE;
	if (!strcmp(s, "SCHED_DEADLINE"))
		return 6;
	fprintf(stderr, "capsim-run: unknown policy %s\n", s);
	return SCHED_OTHER;
}

struct sched_attr_v1 {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};

static void set_policy(json_t *t, const char *dflt_policy)
{
	json_t *pol = json_object_get(t, "policy");
	int policy = policy_of(pol ? json_string_value(pol) : dflt_policy);
	long prio = json_integer_value(json_object_get(t, "priority"));
	json_t *umin = json_object_get(t, "util_min");
	json_t *umax = json_object_get(t, "util_max");
	struct sched_attr_v1 a = { .size = sizeof(a), .sched_policy = policy };

	if (policy == SCHED_FIFO || policy == SCHED_RR)
		a.sched_priority = prio ? prio : 10;
	else if (policy != 6)
		a.sched_nice = prio;
	if (policy == 6) {
		a.sched_runtime = json_integer_value(json_object_get(t, "dl-runtime")) * 1000;
		a.sched_period = json_integer_value(json_object_get(t, "dl-period")) * 1000;
		a.sched_deadline = json_integer_value(json_object_get(t, "dl-deadline")) * 1000;
		if (!a.sched_deadline)
			a.sched_deadline = a.sched_period;
	}
	if (umin || umax) {
		a.sched_flags |= 0x20 | 0x40; /* UTIL_CLAMP_MIN | MAX */
		a.sched_util_min = umin ? json_integer_value(umin) : 0;
		a.sched_util_max = umax ? json_integer_value(umax) : 1024;
	}
	if (syscall(SYS_sched_setattr, 0, &a, 0))
		fprintf(stderr, "capsim-run: sched_setattr(policy %d): %s\n",
			policy, strerror(errno));
}

static const char *const task_keys[] = {
	"instance", "loop", "delay", "policy", "priority", "cpus", "taskgroup",
	"util_min", "util_max", "phases", "dl-runtime", "dl-period",
	"dl-deadline", NULL
};

static int is_key(const char *k, const char *const *keys)
{
	for (; *keys; keys++)
		if (!strcmp(k, *keys))
			return 1;
	return 0;
}

/*
 * rt-app names events by prefix so that one object can hold several of a
 * kind: "run", "run1", "run_b"... "runtime" is not a "run".
 */
static int is_event(const char *k, const char *ev)
{
	size_t n = strlen(ev);

	if (strncmp(k, ev, n))
		return 0;
	if (!strcmp(ev, "run") && !strncmp(k, "runtime", 7))
		return 0;
	return k[n] == 0 || !((k[n] >= 'a' && k[n] <= 'z'));
}

/* Run the events of one phase (or of a task without phases) once */
static void run_events(json_t *obj, const char *const *skip, long long *timer_ref,
		       struct task_stats *st)
{
	const char *k;
	json_t *v;

	json_object_foreach(obj, k, v) {
		if (stop)
			return;
		if (skip && is_key(k, skip))
			continue;
		if (is_event(k, "run")) {
			long long t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

			do_run(json_integer_value(v));
			st->busy_ns += now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		} else if (is_event(k, "runtime")) {
			long long t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

			do_runtime(json_integer_value(v));
			st->busy_ns += now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		} else if (is_event(k, "sleep")) {
			sleep_until(now_ns(CLOCK_MONOTONIC) +
				    json_integer_value(v) * 1000LL);
		} else if (is_event(k, "timer")) {
			long long period = json_integer_value(json_object_get(v, "period")) * 1000LL;
			long long t = now_ns(CLOCK_MONOTONIC);

			st->activations++;
			if (!*timer_ref)
				*timer_ref = t;
			*timer_ref += period;
			if (*timer_ref < t) {
				st->overruns++;
				*timer_ref = t;
			} else {
				sleep_until(*timer_ref);
			}
		} else if (strcmp(k, "loop")) {
			fprintf(stderr, "capsim-run: unknown event %s\n", k);
		}
	}
}

static void task_main(const char *name, json_t *t, const char *dflt_policy,
		      int rfd, struct task_stats *st)
{
	json_t *cpus = json_object_get(t, "cpus");
	json_t *grp = json_object_get(t, "taskgroup");
	json_t *phases = json_object_get(t, "phases");
	json_t *loopj = json_object_get(t, "loop");
	long loop = loopj ? json_integer_value(loopj) : -1;
	long delay = json_integer_value(json_object_get(t, "delay"));
	long long timer_ref = 0;
	char c;

	signal(SIGTERM, on_term);
	if (cpus) {
		cpu_set_t set;
		size_t i;
		json_t *c;

		CPU_ZERO(&set);
		json_array_foreach(cpus, i, c)
			CPU_SET(json_integer_value(c), &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("capsim-run: sched_setaffinity");
	}
	if (grp) {
		char path[600];

		snprintf(path, sizeof(path), CGROOT "%s/cgroup.procs", json_string_value(grp));
		if (write_file(path, "0"))
			fprintf(stderr, "capsim-run: %s: cannot join %s\n", name, path);
	}
	set_policy(t, dflt_policy);
	{
		char comm[16];

		snprintf(comm, sizeof(comm), "%s", name);
		write_file("/proc/self/comm", comm);
	}
	if (read(rfd, &c, 1) < 0)
		_exit(1);
	if (delay)
		sleep_until(now_ns(CLOCK_MONOTONIC) + delay * 1000LL);
	while (!stop && loop--) {
		if (phases) {
			const char *pk;
			json_t *p;

			json_object_foreach(phases, pk, p) {
				json_t *pl = json_object_get(p, "loop");
				long n = pl ? json_integer_value(pl) : 1;

				while (!stop && n--)
					run_events(p, NULL, &timer_ref, st);
			}
		} else {
			run_events(t, task_keys, &timer_ref, st);
		}
	}
	_exit(0);
}

static int run_workload(const char *file)
{
	json_error_t jerr;
	json_t *root = json_load_file(file, 0, &jerr);
	json_t *global, *tasks, *capsim, *groups, *events, *t;
	const char *dflt_policy = "SCHED_OTHER", *name, *k;
	double duration = 5;
	pid_t pids[256];
	int npids = 0, pfd[2], i;
	long long t0;
	size_t ei;
	json_t *ev;

	if (!root) {
		fprintf(stderr, "capsim-run: %s:%d: %s\n", file, jerr.line, jerr.text);
		return 2;
	}
	json_object_foreach(root, k, t) {
		if (strcmp(k, "global") && strcmp(k, "tasks") && strcmp(k, "capsim"))
			fprintf(stderr, "capsim-run: warning: unknown top-level key %s\n", k);
	}
	global = json_object_get(root, "global");
	if (json_object_get(global, "duration"))
		duration = json_number_value(json_object_get(global, "duration"));
	if (json_object_get(global, "default_policy"))
		dflt_policy = json_string_value(json_object_get(global, "default_policy"));
	tasks = json_object_get(root, "tasks");
	capsim = json_object_get(root, "capsim");
	groups = json_object_get(capsim, "taskgroups");
	events = json_object_get(capsim, "events");

	freq_init();
	stats = mmap(NULL, sizeof(*stats) * 256, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	memset(stats, 0, sizeof(*stats) * 256);

	json_object_foreach(groups, name, t) {
		struct stat sb;
		char path[512];

		cg_mkdir(name);
		cg_set_range(name, json_object_get(t, "capacity_min"),
			     json_object_get(t, "capacity_max"));
		if (json_object_get(t, "uclamp_min") || json_object_get(t, "uclamp_max")) {
			char v[32];

			snprintf(path, sizeof(path), CGROOT "%s/cpu.uclamp.min", name);
			snprintf(v, sizeof(v), "%.2f",
				 json_integer_value(json_object_get(t, "uclamp_min")) * 100.0 / 1024);
			if (json_object_get(t, "uclamp_min"))
				write_file(path, v);
			snprintf(path, sizeof(path), CGROOT "%s/cpu.uclamp.max", name);
			snprintf(v, sizeof(v), "%.2f",
				 json_integer_value(json_object_get(t, "uclamp_max")) * 100.0 / 1024);
			if (json_object_get(t, "uclamp_max"))
				write_file(path, v);
		}
		snprintf(path, sizeof(path), CGROOT "%s", name);
		if (!stat(path, &sb))
			printf("capsim-run: group %s id=%lu\n", name, (unsigned long)sb.st_ino);
	}
	/* groups named by tasks only */
	json_object_foreach(tasks, name, t) {
		json_t *g = json_object_get(t, "taskgroup");

		if (g)
			cg_mkdir(json_string_value(g));
		json_object_foreach(t, k, ev) {
			if (!is_key(k, task_keys) && !is_event(k, "run") && !is_event(k, "runtime") &&
			    !is_event(k, "sleep") && !is_event(k, "timer"))
				fprintf(stderr, "capsim-run: warning: %s: unknown key %s\n", name, k);
		}
	}

	if (pipe(pfd))
		return 2;
	json_object_foreach(tasks, name, t) {
		json_t *inst = json_object_get(t, "instance");
		long n = inst ? json_integer_value(inst) : 1;

		while (n-- && npids < 256) {
			pid_t pid = fork();

			if (!pid) {
				close(pfd[1]);
				task_main(name, t, dflt_policy, pfd[0], &stats[npids]);
			}
			printf("capsim-run: task %s pid=%d\n", name, pid);
			pids[npids++] = pid;
		}
	}
	close(pfd[0]);
	fflush(stdout);
	usleep(20000);
	write_file("/sys/kernel/tracing/trace_marker", "capsim-run: start");
	t0 = now_ns(CLOCK_MONOTONIC);
	close(pfd[1]);

	json_array_foreach(events, ei, ev) {
		long long at = t0 + (long long)(json_number_value(json_object_get(ev, "at_ms")) * 1e6);
		const char *g = json_string_value(json_object_get(ev, "group"));

		if (!g)
			continue;
		sleep_until(at);
		cg_set_range(g, json_object_get(ev, "capacity_min"),
			     json_object_get(ev, "capacity_max"));
		printf("capsim-run: event at_ms=%.0f group=%s\n",
		       (now_ns(CLOCK_MONOTONIC) - t0) / 1e6, g);
	}
	sleep_until(t0 + (long long)(duration * 1e9));
	for (i = 0; i < npids; i++)
		kill(pids[i], SIGTERM);
	for (i = 0; i < npids; i++)
		waitpid(pids[i], NULL, 0);
	write_file("/sys/kernel/tracing/trace_marker", "capsim-run: end");
	for (i = 0; i < npids; i++)
		printf("capsim-run: stats pid=%d activations=%ld overruns=%ld busy_ms=%lld\n",
		       pids[i], stats[i].activations, stats[i].overruns,
		       stats[i].busy_ns / 1000000);
	return 0;
}

/* ---- replay -------------------------------------------------------- */

/*
 * Replay the cap_clamp events of a trace: per CPU, in seq order, rebuild
 * the set of queued tasks with their keys and check that the range (and
 * task count) the kernel reported after each operation is the MAX of the
 * mins and the MAX of the maxes of that set ([0, 1024] when empty). A gap
 * in seq (lost events, e.g. while tracing re-enables boot-time events)
 * makes the CPU unsynced until the next operation that leaves it empty
 * (nr=0); operations replayed while unsynced are counted, not checked.
 */
struct ev {
	int cpu, kind, pid;
	unsigned long long seq;
	unsigned int min, max, omin, omax, cmin, cmax, nr;
};

enum { EV_ENQ, EV_DEQ, EV_UPD, EV_CPU };

static int ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	/* the op comes before the range change it caused */
	return x->kind - y->kind;
}

static unsigned long long field(const char *line, const char *key, int *ok)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p) {
		*ok = 0;
		return 0;
	}
	return strtoull(p + strlen(pat), NULL, 10);
}

struct ent {
	int pid;
	unsigned int min, max;
};

/* report the first few problems only */
static long replay_reports;
#define report(...) do {						\
	if (replay_reports++ < 20)					\
		fprintf(stderr, __VA_ARGS__);				\
} while (0)

static int replay(const char *file)
{
	FILE *f = fopen(file, "r");
	size_t n = 0, cap = 1 << 16, i;
	struct ev *evs = malloc(cap * sizeof(*evs));
	char line[1024];
	long bad = 0, gaps = 0, ops = 0, checked = 0, resyncs = 0, unsynced_end = 0;
	int cpus = 0;

	if (!f) {
		perror(file);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ev e = { 0 };
		const char *p;
		int ok = 1;

		if ((p = strstr(line, "cap_clamp_enqueue: ")))
			e.kind = EV_ENQ;
		else if ((p = strstr(line, "cap_clamp_dequeue: ")))
			e.kind = EV_DEQ;
		else if ((p = strstr(line, "cap_clamp_update: ")))
			e.kind = EV_UPD;
		else if ((p = strstr(line, "cap_clamp_cpu: ")))
			e.kind = EV_CPU;
		else
			continue;
		p = strchr(p, ' ');
		e.cpu = field(p, "cpu", &ok);
		e.seq = field(p, "seq", &ok);
		e.min = field(p, "min", &ok);
		e.max = field(p, "max", &ok);
		if (e.kind != EV_CPU) {
			e.pid = field(p, "pid", &ok);
			e.cmin = field(p, "cpu_min", &ok);
			e.cmax = field(p, "cpu_max", &ok);
			e.nr = field(p, "nr", &ok);
		}
		if (e.kind == EV_UPD) {
			e.omin = field(p, "old_min", &ok);
			e.omax = field(p, "old_max", &ok);
		}
		if (!ok || e.cpu >= MAX_CPUS) {
			report("replay: bad line: %s", line);
			bad++;
			continue;
		}
		if (n == cap)
			evs = realloc(evs, (cap *= 2) * sizeof(*evs));
		evs[n++] = e;
		if (e.cpu + 1 > cpus)
			cpus = e.cpu + 1;
	}
	fclose(f);
	qsort(evs, n, sizeof(*evs), ev_cmp);

	for (int cpu = 0; cpu < cpus; cpu++) {
		struct ent *set = NULL;
		size_t ns = 0, nsc = 0;
		unsigned long long last = 0;
		int first = 1, synced = 1;

		for (i = 0; i < n; i++) {
			struct ev *e = &evs[i];
			unsigned int rmin = 0, rmax = 1024, kmin, kmax;
			size_t j, at;

			if (e->cpu != cpu)
				continue;
			if (e->kind != EV_CPU) {
				if ((first && e->seq != 1) || (!first && e->seq != last + 1)) {
					gaps++;
					synced = 0;
				}
				first = 0;
				last = e->seq;
				ops++;
			}
			at = ns;
			for (j = 0; j < ns; j++)
				if (set[j].pid == e->pid)
					at = j;
			switch (e->kind) {
			case EV_ENQ:
				if (at != ns) {
					if (synced) {
						report("replay: cpu%d seq %llu: pid %d enqueued twice\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					set[at] = (struct ent){ e->pid, e->min, e->max };
					break;
				}
				if (ns == nsc)
					set = realloc(set, (nsc = nsc * 2 + 16) * sizeof(*set));
				set[ns++] = (struct ent){ e->pid, e->min, e->max };
				break;
			case EV_DEQ:
			case EV_UPD:
				if (at == ns) {
					if (synced) {
						report("replay: cpu%d seq %llu: pid %d not queued\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					if (e->kind == EV_UPD) {
						if (ns == nsc)
							set = realloc(set, (nsc = nsc * 2 + 16) * sizeof(*set));
						set[ns++] = (struct ent){ e->pid, e->min, e->max };
					}
					break;
				}
				if (e->kind == EV_DEQ) {
					if (synced && (set[at].min != e->min || set[at].max != e->max)) {
						report("replay: cpu%d seq %llu: pid %d left with other keys\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					set[at] = set[--ns];
				} else {
					if (synced && (set[at].min != e->omin || set[at].max != e->omax)) {
						report("replay: cpu%d seq %llu: pid %d old keys differ\n",
							cpu, e->seq, e->pid);
						bad++;
					}
					set[at].min = e->min;
					set[at].max = e->max;
				}
				break;
			}
			if (!synced) {
				if (e->kind != EV_CPU && e->nr == 0) {
					ns = 0;
					synced = 1;
					resyncs++;
				}
				continue;
			}
			/* an empty CPU is unconstrained: [0, 1024] */
			if (ns) {
				rmin = 0;
				rmax = 0;
				for (j = 0; j < ns; j++) {
					if (set[j].min > rmin)
						rmin = set[j].min;
					if (set[j].max > rmax)
						rmax = set[j].max;
				}
			}
			kmin = e->kind == EV_CPU ? e->min : e->cmin;
			kmax = e->kind == EV_CPU ? e->max : e->cmax;
			if (kmin != rmin || kmax != rmax ||
			    (e->kind != EV_CPU && e->nr != ns)) {
				report("replay: cpu%d seq %llu: kernel [%u,%u] nr=%u, replay [%u,%u] nr=%zu\n",
					cpu, e->seq, kmin, kmax, e->nr, rmin, rmax, ns);
				bad++;
			}
			if (e->kind != EV_CPU)
				checked++;
		}
		if (!synced)
			unsynced_end++;
		free(set);
	}
	printf("replay: events=%zu ops=%ld checked=%ld cpus=%d mismatches=%ld gaps=%ld resyncs=%ld unsynced=%ld\n",
	       n, ops, checked, cpus, bad, gaps, resyncs, unsynced_end);
	/* every gap resynced, and at most 1% of the operations unchecked */
	return (bad || unsynced_end || !ops || (ops - checked) * 100 > ops) ? 1 : 0;
}

/* ---- helpers ------------------------------------------------------- */

static int cmd_periodic(int argc, char **argv)
{
	long run = atol(argv[2]), period = atol(argv[3]);
	long long end = now_ns(CLOCK_MONOTONIC) + (long long)(atof(argv[4]) * 1e9);
	long long next = now_ns(CLOCK_MONOTONIC);

	if (argc > 6 && !strcmp(argv[5], "fifo")) {
		struct sched_param sp = { .sched_priority = atoi(argv[6]) };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			perror("sched_setscheduler");
	}
	while (now_ns(CLOCK_MONOTONIC) < end) {
		do_runtime(run);
		next += period * 1000LL;
		sleep_until(next);
	}
	return 0;
}

/* write VALUE (as given, no newline) to PATH; print OK or the errno name */
static int cmd_write(const char *path, const char *val)
{
	int err = write_file(path, val);

	if (!err)
		printf("OK\n");
	else if (err == -EINVAL)
		printf("EINVAL\n");
	else if (err == -ERANGE)
		printf("ERANGE\n");
	else
		printf("E%d\n", -err);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "replay"))
		return replay(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "spin")) {
		long long end = now_ns(CLOCK_MONOTONIC) + (long long)(atof(argv[2]) * 1e9);

		while (now_ns(CLOCK_MONOTONIC) < end)
			sink++;
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "periodic"))
		return cmd_periodic(argc, argv);
	if (argc >= 2)
		return run_workload(argv[1]);
	fprintf(stderr, "usage: capsim-run WORKLOAD.json | replay TRACE | spin S | periodic RUN_US PERIOD_US S [fifo PRIO]\n");
	return 2;
}
