// SPDX-License-Identifier: GPL-2.0
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "work.h"

#define CPUFREQ "/sys/devices/system/cpu/cpu%d/cpufreq/"
/* a slice of CPU time between two frequency reads */
#define SLICE_NS 200000LL

static int cur_fd[WORK_MAX_CPUS];
static long max_khz[WORK_MAX_CPUS];
static long capacity[WORK_MAX_CPUS];
static volatile unsigned long sink;

long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void sleep_until_ns(long long t)
{
	struct timespec ts = { t / 1000000000LL, t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static long read_long_at(int fd, long dflt)
{
	char buf[32];
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return dflt;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

static long read_long(const char *fmt, int cpu, long dflt)
{
	char path[128];
	int fd;
	long v;

	snprintf(path, sizeof(path), fmt, cpu);
	fd = open(path, O_RDONLY);
	v = read_long_at(fd, dflt);
	if (fd >= 0)
		close(fd);
	return v;
}

void work_init(void)
{
	char path[128];
	int cpu;

	for (cpu = 0; cpu < WORK_MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), CPUFREQ "scaling_cur_freq", cpu);
		cur_fd[cpu] = open(path, O_RDONLY);
		max_khz[cpu] = read_long(CPUFREQ "cpuinfo_max_freq", cpu, 0);
		/* the capsim driver's capacity at the top OPP (patch 10) */
		capacity[cpu] = read_long(CPUFREQ "capsim_capacity", cpu, 1024);
	}
}

unsigned int work_rate(int cpu)
{
	long cur;

	if (cpu < 0 || cpu >= WORK_MAX_CPUS || !max_khz[cpu])
		return 1024;
	cur = read_long_at(cur_fd[cpu], max_khz[cpu]);
	return (unsigned int)(capacity[cpu] * cur / max_khz[cpu]);
}

static void spin_cpu_ns(long long ns)
{
	long long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
		int i;

		for (i = 0; i < 1000; i++)
			sink += i;
	}
}

long long work_run(uint64_t us)
{
	long long want = (long long)us * 1000LL * 1024, done = 0;
	long long t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

	while (done < want) {
		long long s0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		unsigned int rate;

		spin_cpu_ns(SLICE_NS);
		rate = work_rate(sched_getcpu());
		done += (now_ns(CLOCK_THREAD_CPUTIME_ID) - s0) * (rate ? rate : 1);
	}
	return now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
}

long long work_runtime(uint64_t us)
{
	long long t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	long long end = now_ns(CLOCK_MONOTONIC) + (long long)us * 1000LL;

	while (now_ns(CLOCK_MONOTONIC) < end)
		sink++;
	return now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
}
