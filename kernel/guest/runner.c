// SPDX-License-Identifier: GPL-2.0
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"
#include "work.h"


/* include/uapi/linux/sched/types.h, sched.h (libc has no sched_setattr) */
struct sched_attr_v1 {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};
#define POLICY_DEADLINE 6
#define FLAG_UTIL_CLAMP_MIN 0x20
#define FLAG_UTIL_CLAMP_MAX 0x40

/* What the task instances share: resources and statistics */
struct res_state {
	pthread_mutex_t m;
	pthread_cond_t c;
	pthread_barrier_t b;
	int waiters, wakes;	/* suspend/resume */
	bool t_init;		/* a timer shared by its users */
	long long t_next;
};

struct inst_stats {
	long activations;
	long misses;
	long long busy_ns;
};

struct shared {
	struct res_state *res;
	struct inst_stats *stats;
};

static const struct runner_opts *opts;
static const struct workload *wl;

/* ---- files ---------------------------------------------------------- */

/* Write @val to @path, or print it in a plan; 0 or -errno */
static int put(const char *path, const char *val)
{
	int fd, err = 0;

	if (opts->plan_only) {
		fprintf(opts->out, "write %s %s\n", path, val);
		return 0;
	}
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static const char *err_name(int err)
{
	static char buf[16];

	switch (err) {
	case 0: return "OK";
	case -EINVAL: return "EINVAL";
	case -ERANGE: return "ERANGE";
	case -ENOENT: return "ENOENT";
	default:
		snprintf(buf, sizeof(buf), "E%d", -err);
		return buf;
	}
}

/* ---- groups --------------------------------------------------------- */

static char *cg_path(const char *group, const char *file)
{
	char *p;

	if (asprintf(&p, "%s%s%s%s", opts->cgroot,
		     strcmp(group, "/") ? group : "", file ? "/" : "",
		     file ? file : "") < 0)
		abort();
	return p;
}

/* mkdir -p, enabling the cpu controller on the way down */
static void cg_mkdir(const char *group)
{
	char *path = cg_path(group, NULL);
	size_t root = strlen(opts->cgroot);
	char *p;

	for (p = path + root + 1; *p; p++) {
		if (p[1] && p[1] != '/')
			continue;
		{
			char c = p[1], *ctl;

			p[1] = 0;
			if (opts->plan_only)
				fprintf(opts->out, "mkdir %s\n", path);
			else
				mkdir(path, 0755);
			if (c) {
				if (asprintf(&ctl, "%s/cgroup.subtree_control", path) < 0)
					abort();
				put(ctl, "+cpu");
				free(ctl);
			}
			p[1] = c;
		}
	}
	free(path);
}

/* A group attribute (0: min, 1: max) as the policy writes it */
static int cg_set(const char *group, int attr, uint64_t v)
{
	const struct clamp_policy_info *pi = clamp_policy_info(opts->policy);
	char val[32], *path;
	int err;

	if (!clamp_policy_clamps(pi))
		return 0;
	if (pi->capacity_range) {
		path = cg_path(group, attr ? "cpu.capacity_max" : "cpu.capacity_min");
		snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
	} else {
		/* cpu.uclamp.*: a percentage with two decimals */
		path = cg_path(group, attr ? "cpu.uclamp.max" : "cpu.uclamp.min");
		snprintf(val, sizeof(val), "%llu.%02llu",
			 (unsigned long long)(v * 100 / 1024),
			 (unsigned long long)(v * 10000 / 1024 % 100));
	}
	err = put(path, val);
	free(path);
	return err;
}

static int depth(const char *path)
{
	int n = 0;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

static int cmp_group_depth(const void *a, const void *b)
{
	const struct wl_group *x = *(const struct wl_group *const *)a;
	const struct wl_group *y = *(const struct wl_group *const *)b;

	return depth(x->path) - depth(y->path);
}

static void print_group_id(const char *group)
{
	char *path = cg_path(group, NULL);
	struct stat sb;

	if (!opts->plan_only && !stat(path, &sb))
		fprintf(opts->out, "capsim-run: group %s id=%lu\n", group,
			(unsigned long)sb.st_ino);
	free(path);
}

/* A group only tasks name: created with its parent's values */
static void mkdir_undeclared(const char *group)
{
	int i;

	if (!strcmp(group, "/"))
		return;
	for (i = 0; i < wl->ngroups; i++)
		if (!strcmp(wl->groups[i].path, group))
			return;
	cg_mkdir(group);
}

/*
 * Parents before children, each set before its children exist so that
 * they inherit its values; min and max in whichever order the current
 * values allow. Then the groups only tasks name.
 */
static int setup_groups(void)
{
	const struct wl_group **g = calloc(wl->ngroups + 1, sizeof(*g));
	int i, j, bad = 0;

	for (i = 0; i < wl->ngroups; i++)
		g[i] = &wl->groups[i];
	qsort(g, wl->ngroups, sizeof(*g), cmp_group_depth);
	for (i = 0; i < wl->ngroups; i++) {
		int emin = 0, emax = 0;

		cg_mkdir(g[i]->path);
		if (g[i]->min_set)
			emin = cg_set(g[i]->path, 0, g[i]->min);
		if (g[i]->max_set)
			emax = cg_set(g[i]->path, 1, g[i]->max);
		if (emin)
			emin = cg_set(g[i]->path, 0, g[i]->min);
		if (emin || emax) {
			fprintf(stderr, "capsim-run: %s: capacity_min=%u/capacity_max=%u refused (%s)\n",
				g[i]->path, g[i]->min, g[i]->max,
				err_name(emin ? emin : emax));
			bad = 1;
		}
		print_group_id(g[i]->path);
	}
	free(g);
	for (i = 0; i < wl->ntasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (t->attrs.group_set)
			mkdir_undeclared(t->attrs.group);
		for (j = 0; j < t->nphases; j++)
			if (t->phases[j].attrs.group_set)
				mkdir_undeclared(t->phases[j].attrs.group);
	}
	return bad;
}

/* ---- task attributes ------------------------------------------------ */

static const int sched_policy[] = {
	[WL_SCHED_OTHER] = SCHED_OTHER, [WL_SCHED_BATCH] = SCHED_BATCH,
	[WL_SCHED_IDLE] = SCHED_IDLE, [WL_SCHED_FIFO] = SCHED_FIFO,
	[WL_SCHED_RR] = SCHED_RR, [WL_SCHED_DEADLINE] = POLICY_DEADLINE,
};

/* The running attributes of an instance, updated phase by phase */
struct live_attrs {
	enum wl_policy policy;
	int prio;
	bool util_set;
	unsigned int util_min, util_max;
};

static void apply_sched(const struct wl_task *t, const struct live_attrs *a,
			const char *who)
{
	struct sched_attr_v1 sa = {
		.size = sizeof(sa),
		.sched_policy = (uint32_t)sched_policy[a->policy],
	};

	if (a->policy == WL_SCHED_FIFO || a->policy == WL_SCHED_RR)
		sa.sched_priority = (uint32_t)a->prio;
	else if (a->policy != WL_SCHED_DEADLINE)
		sa.sched_nice = a->prio;
	if (a->policy == WL_SCHED_DEADLINE) {
		sa.sched_runtime = t->dl_runtime_us * 1000;
		sa.sched_period = t->dl_period_us * 1000;
		sa.sched_deadline = (t->dl_deadline_us ? t->dl_deadline_us :
				     t->dl_period_us) * 1000;
	}
	/* per-task uclamp values belong to the uclamp policy only, as in
	 * the simulator */
	if (a->util_set && clamp_policy_info(opts->policy)->uclamp_values) {
		sa.sched_flags |= FLAG_UTIL_CLAMP_MIN | FLAG_UTIL_CLAMP_MAX;
		sa.sched_util_min = a->util_min;
		sa.sched_util_max = a->util_max;
	}
	if (opts->plan_only) {
		fprintf(opts->out, "%s: sched_setattr policy=%s prio=%d util=%u-%u%s\n",
			who, wl_policy_name(a->policy), a->prio,
			sa.sched_util_min, sa.sched_util_max ? sa.sched_util_max : 1024,
			sa.sched_flags ? "" : " (unclamped)");
		return;
	}
	if (syscall(SYS_sched_setattr, 0, &sa, 0))
		fprintf(stderr, "capsim-run: %s: sched_setattr(%s): %s\n", who,
			wl_policy_name(a->policy), strerror(errno));
}

static void apply_cpus(const struct wl_attrs *at, const char *who)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < at->ncpus; i++)
		CPU_SET(at->cpus[i], &set);
	if (opts->plan_only) {
		fprintf(opts->out, "%s: affinity", who);
		for (i = 0; i < at->ncpus; i++)
			fprintf(opts->out, "%s%d", i ? "," : " ", at->cpus[i]);
		fputc('\n', opts->out);
		return;
	}
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "capsim-run: %s: sched_setaffinity: %s\n", who,
			strerror(errno));
}

/* A task without "cpus": every CPU, as rt-app's default affinity */
static void apply_all_cpus(const char *who)
{
	cpu_set_t set;
	long i, n = sysconf(_SC_NPROCESSORS_CONF);

	if (opts->plan_only) {
		fprintf(opts->out, "%s: affinity all\n", who);
		return;
	}
	CPU_ZERO(&set);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "capsim-run: %s: sched_setaffinity: %s\n", who,
			strerror(errno));
}

static void apply_group(const char *group, const char *who)
{
	char *path = cg_path(group, "cgroup.procs");
	int err = put(path, "0");

	if (err)
		fprintf(stderr, "capsim-run: %s: cannot join %s: %s\n", who,
			group, err_name(err));
	free(path);
}

/* Apply the attributes @at sets (all of them for a task's own) */
static void apply_attrs(const struct wl_task *t, const struct wl_attrs *at,
			struct live_attrs *live, const char *who)
{
	bool sched = false;

	if (at->group_set)
		apply_group(at->group, who);
	/* a phase without a list returns to the task's (rt-app) */
	if (at->cpus_set && (at->ncpus || t->attrs.cpus_set))
		apply_cpus(at->ncpus ? at : &t->attrs, who);
	else if (at->cpus_set)
		apply_all_cpus(who);
	if (at->policy_set) {
		live->policy = at->policy;
		sched = true;
	}
	if (at->prio_set) {
		live->prio = at->prio;
		sched = true;
	}
	if (at->util_min_set || at->util_max_set) {
		if (!live->util_set) {
			live->util_min = 0;
			live->util_max = 1024;
		}
		live->util_set = true;
		if (at->util_min_set)
			live->util_min = at->util_min;
		if (at->util_max_set)
			live->util_max = at->util_max;
		sched = true;
	}
	if (sched)
		apply_sched(t, live, who);
}

/* ---- events --------------------------------------------------------- */

struct instance {
	const struct wl_task *t;
	char who[64];
	struct inst_stats *st;
	struct res_state *res;
	long long t_first;		/* start, after the delay */
	long long *timer_next;		/* per resource, for unique timers */
	bool *timer_init;
	char *mem;
};

static void timer_event(struct instance *in, const struct wl_event *e)
{
	const struct wl_resource *wr = &wl->res[e->res];
	struct res_state *rs = &in->res[e->res];
	long long *next = wr->unique ? &in->timer_next[e->res] : &rs->t_next;
	bool *init = wr->unique ? &in->timer_init[e->res] : &rs->t_init;
	long long now, wake;

	if (!wr->unique)
		pthread_mutex_lock(&rs->m);
	if (!*init) {
		*init = true;
		*next = in->t_first;
	}
	*next += (long long)e->us * 1000;
	wake = *next;
	now = now_ns(CLOCK_MONOTONIC);
	in->st->activations++;
	if (wake < now) {
		in->st->misses++;
		if (!e->absolute)
			*next = now;
	}
	if (!wr->unique)
		pthread_mutex_unlock(&rs->m);
	if (now < wake)
		sleep_until_ns(wake);
}

static void copy_bytes(struct instance *in, uint64_t bytes, bool io)
{
	size_t chunk = wl->mem_buffer_size ? wl->mem_buffer_size : 4096;
	static int null_fd = -1;

	if (io && null_fd < 0)
		null_fd = open("/dev/null", O_WRONLY);
	if (!in->mem)
		in->mem = calloc(1, chunk);
	while (bytes) {
		size_t n = bytes < chunk ? bytes : chunk;

		if (io) {
			if (write(null_fd, in->mem, n) < 0)
				break;
		} else {
			memset(in->mem, (int)bytes, n);
		}
		bytes -= n;
	}
}

static void run_event(struct instance *in, const struct wl_event *e)
{
	struct res_state *rs = e->res >= 0 ? &in->res[e->res] : NULL;

	switch (e->type) {
	case WL_EV_RUN:
		in->st->busy_ns += work_run(e->us);
		break;
	case WL_EV_RUNTIME:
		in->st->busy_ns += work_runtime(e->us);
		break;
	case WL_EV_SLEEP:
		sleep_until_ns(now_ns(CLOCK_MONOTONIC) + (long long)e->us * 1000);
		break;
	case WL_EV_TIMER:
		timer_event(in, e);
		break;
	case WL_EV_IORUN:
		copy_bytes(in, e->bytes, true);
		break;
	case WL_EV_MEM:
		copy_bytes(in, e->bytes, false);
		break;
	case WL_EV_YIELD:
		sched_yield();
		break;
	case WL_EV_LOCK:
		pthread_mutex_lock(&rs->m);
		break;
	case WL_EV_UNLOCK:
		pthread_mutex_unlock(&rs->m);
		break;
	case WL_EV_WAIT:
		pthread_cond_wait(&rs->c, &in->res[e->mutex].m);
		break;
	case WL_EV_SIGNAL:
		pthread_cond_signal(&rs->c);
		break;
	case WL_EV_BROAD:
		pthread_cond_broadcast(&rs->c);
		break;
	case WL_EV_BARRIER:
		pthread_barrier_wait(&rs->b);
		break;
	case WL_EV_SUSPEND:
		/* as the simulator: a resume with nobody suspended is lost */
		pthread_mutex_lock(&rs->m);
		rs->waiters++;
		while (!rs->wakes)
			pthread_cond_wait(&rs->c, &rs->m);
		rs->wakes--;
		pthread_mutex_unlock(&rs->m);
		break;
	case WL_EV_RESUME:
		pthread_mutex_lock(&rs->m);
		if (rs->waiters) {
			rs->waiters--;
			rs->wakes++;
			pthread_cond_broadcast(&rs->c);
		}
		pthread_mutex_unlock(&rs->m);
		break;
	}
}

static void plan_events(const struct wl_task *t, const char *who)
{
	int j, k;

	for (j = 0; j < t->nphases; j++) {
		const struct wl_phase *ph = &t->phases[j];

		fprintf(opts->out, "%s: phase %s loop %d:", who,
			ph->name ? ph->name : "-", ph->loop);
		for (k = 0; k < ph->nev; k++) {
			const struct wl_event *e = &ph->ev[k];

			fprintf(opts->out, " %s", wl_ev_name(e->type));
			if (e->us)
				fprintf(opts->out, "=%lluus", (unsigned long long)e->us);
			if (e->bytes)
				fprintf(opts->out, "=%lluB", (unsigned long long)e->bytes);
			if (e->res >= 0)
				fprintf(opts->out, "(%s)", wl->res[e->res].name);
		}
		fputc('\n', opts->out);
	}
}

static void __attribute__((noreturn))
instance_main(const struct wl_task *t, int idx, struct shared *sh,
	      struct inst_stats *st, int start_fd)
{
	struct live_attrs live = { 0 };
	struct instance in = { .t = t, .st = st, .res = sh->res };
	long loop;
	char c;
	int j, k;

	if (t->instances > 1)
		snprintf(in.who, sizeof(in.who), "%s-%d", t->name, idx);
	else
		snprintf(in.who, sizeof(in.who), "%s", t->name);
	in.timer_next = calloc(wl->nres + 1, sizeof(*in.timer_next));
	in.timer_init = calloc(wl->nres + 1, sizeof(*in.timer_init));
	put("/proc/self/comm", in.who);
	apply_attrs(t, &t->attrs, &live, in.who);
	if (read(start_fd, &c, 1) < 0)
		_exit(1);
	if (t->delay_us)
		sleep_until_ns(now_ns(CLOCK_MONOTONIC) + (long long)t->delay_us * 1000);
	in.t_first = now_ns(CLOCK_MONOTONIC);
	for (loop = t->loop; loop; loop -= loop > 0) {
		for (j = 0; j < t->nphases; j++) {
			const struct wl_phase *ph = &t->phases[j];
			long n;

			apply_attrs(t, &ph->attrs, &live, in.who);
			for (n = ph->loop; n; n -= n > 0)
				for (k = 0; k < ph->nev; k++)
					run_event(&in, &ph->ev[k]);
		}
	}
	_exit(0);
}

/* ---- the run -------------------------------------------------------- */

static void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("capsim-run: mmap");
		exit(1);
	}
	return p;
}

static void shared_init(struct shared *sh, int ninst)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	pthread_barrierattr_t ba;
	int i;

	sh->res = shared_alloc(sizeof(*sh->res) * wl->nres);
	sh->stats = shared_alloc(sizeof(*sh->stats) * ninst);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
	for (i = 0; i < wl->nres; i++) {
		pthread_mutex_init(&sh->res[i].m, &ma);
		pthread_cond_init(&sh->res[i].c, &ca);
		if (wl->res[i].kind == WL_RES_BARRIER)
			pthread_barrier_init(&sh->res[i].b, &ba,
					     wl->res[i].users > 0 ?
					     (unsigned int)wl->res[i].users : 1);
	}
}

static void group_event(const struct wl_group_event *ge, long long t0)
{
	int err;

	if (!opts->plan_only)
		sleep_until_ns(t0 + (long long)ge->at_ns);
	err = cg_set(ge->group, ge->attr, ge->value);
	fprintf(opts->out, "capsim-run: event at_ms=%llu group=%s %s=%llu %s\n",
		(unsigned long long)(opts->plan_only ? ge->at_ns / 1000000 :
		 (unsigned long long)(now_ns(CLOCK_MONOTONIC) - t0) / 1000000),
		ge->group, ge->attr ? "capacity_max" : "capacity_min",
		(unsigned long long)ge->value, err_name(err));
}

static void plan(void)
{
	int i, n;

	for (i = 0; i < wl->ntasks; i++) {
		const struct wl_task *t = &wl->tasks[i];
		struct live_attrs live = { 0 };

		for (n = 0; n < t->instances; n++) {
			char who[64];

			if (t->instances > 1)
				snprintf(who, sizeof(who), "%s-%d", t->name, n);
			else
				snprintf(who, sizeof(who), "%s", t->name);
			fprintf(opts->out, "task %s: loop %d delay %lluus\n", who,
				t->loop, (unsigned long long)t->delay_us);
			apply_attrs(t, &t->attrs, &live, who);
			plan_events(t, who);
		}
	}
	for (i = 0; i < wl->ngevents; i++)
		group_event(&wl->gevents[i], 0);
	if (wl->duration_s >= 0)
		fprintf(opts->out, "duration %.3f s\n", wl->duration_s);
	else
		fprintf(opts->out, "duration: until every task ends\n");
}

int runner_run(const struct workload *w, const struct runner_opts *o)
{
	struct shared sh;
	pid_t *pids;
	int ninst = 0, npids = 0, start[2], i, n, bad;
	long long t0;

	opts = o;
	wl = w;
	bad = setup_groups();
	if (o->plan_only) {
		plan();
		return bad;
	}
	for (i = 0; i < wl->ntasks; i++)
		ninst += wl->tasks[i].instances;
	shared_init(&sh, ninst);
	pids = calloc(ninst + 1, sizeof(*pids));
	work_init();
	if (pipe(start)) {
		perror("capsim-run: pipe");
		return 1;
	}
	fflush(o->out);
	for (i = 0; i < wl->ntasks; i++) {
		for (n = 0; n < wl->tasks[i].instances; n++) {
			pid_t pid = fork();

			if (pid < 0) {
				perror("capsim-run: fork");
				break;
			}
			if (!pid) {
				close(start[1]);
				instance_main(&wl->tasks[i], n, &sh,
					      &sh.stats[npids], start[0]);
			}
			fprintf(o->out, "capsim-run: task %s pid=%d\n",
				wl->tasks[i].name, pid);
			pids[npids++] = pid;
		}
	}
	close(start[0]);
	fflush(o->out);
	/* every instance has joined its group and set its attributes */
	usleep(20000);
	put(o->trace_marker, "capsim-run: start");
	t0 = now_ns(CLOCK_MONOTONIC);
	close(start[1]);

	for (i = 0; i < wl->ngevents; i++)
		group_event(&wl->gevents[i], t0);
	if (wl->duration_s >= 0) {
		sleep_until_ns(t0 + (long long)(wl->duration_s * 1e9));
		for (i = 0; i < npids; i++)
			kill(pids[i], SIGKILL);
	}
	for (i = 0; i < npids; i++)
		waitpid(pids[i], NULL, 0);
	put(o->trace_marker, "capsim-run: end");
	for (i = 0; i < npids; i++)
		fprintf(o->out, "capsim-run: stats pid=%d activations=%ld misses=%ld busy_ms=%lld\n",
			pids[i], sh.stats[i].activations, sh.stats[i].misses,
			sh.stats[i].busy_ns / 1000000);
	free(pids);
	return bad;
}
