// SPDX-License-Identifier: GPL-2.0
/*
 * capsim-wake: a wake-up latency benchmark for the guest
 * (kernel/tools/overhead.sh). Two modes:
 *
 *   timer (default): THREADS threads, each sleeping SAMPLES times on
 *     clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until the next
 *     multiple of PERIOD_US, with a timer slack of 1 ns; the delay is the
 *     time read on waking minus the deadline (timer interrupt, wake-up,
 *     enqueue, switch, return).
 *   pipe (-P): two processes ping-pong one message over two pipes
 *     SAMPLES times; each message carries its send time, the delay is
 *     the time the reader reads it minus that (one wake-up of a blocked
 *     reader, across CPUs or not).
 *
 * Output, one line (ns, over all samples of all threads):
 *   capsim-wake: mode=timer threads=T samples=N period_us=P
 *                median_ns=M p99_ns=Q max_ns=X mean_ns=A time_ns=W
 * time_ns is the wall time of the whole run. Exit 0, 1 on error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64

static int threads = 4, samples = 1000, period_us = 1000, pipe_mode;
static int64_t *delays; /* threads * samples, or 2 * samples (pipe) */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "capsim-wake: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int parse(const char *s, int lo, int hi, const char *name)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "capsim-wake: %s: %s is not in [%d, %d]\n",
			name, s, lo, hi);
		exit(2);
	}
	return (int)v;
}

static void *timer_thread(void *arg)
{
	int64_t *out = arg;
	int64_t period = (int64_t)period_us * 1000;
	/* start on a period boundary after a short settle */
	int64_t next = (now_ns() / period + 2) * period;

	/* no timer slack (50 us by default): the delay is the kernel's */
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL))
		die("prctl(PR_SET_TIMERSLACK)");

	for (int i = 0; i < samples; i++) {
		struct timespec ts = {
			.tv_sec = next / 1000000000,
			.tv_nsec = next % 1000000000,
		};
		int err;

		while ((err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					      &ts, NULL)) == EINTR)
			;
		if (err) {
			errno = err;
			die("clock_nanosleep");
		}
		out[i] = now_ns() - next;
		next += period;
		/* a delay longer than a period: skip the missed deadlines */
		while (next <= now_ns())
			next += period;
	}
	return NULL;
}

static void run_timer(void)
{
	pthread_t tid[MAX_THREADS];

	for (int t = 0; t < threads; t++)
		if ((errno = pthread_create(&tid[t], NULL, timer_thread,
					    delays + (size_t)t * samples)))
			die("pthread_create");
	for (int t = 0; t < threads; t++)
		pthread_join(tid[t], NULL);
}

static int xread(int fd, void *buf, size_t n)
{
	ssize_t r;

	while ((r = read(fd, buf, n)) < 0 && errno == EINTR)
		;
	return r == (ssize_t)n ? 0 : -1;
}

static int xwrite(int fd, const void *buf, size_t n)
{
	ssize_t w;

	while ((w = write(fd, buf, n)) < 0 && errno == EINTR)
		;
	return w == (ssize_t)n ? 0 : -1;
}

/*
 * pipe mode: the parent sends, the child answers; each side records the
 * delay of the messages it receives. The child's delays come back over
 * the pipe at the end.
 */
static void run_pipe(void)
{
	int ab[2], ba[2];
	pid_t pid;
	int64_t t, *mine = delays, *theirs = delays + samples;
	int st;

	if (pipe(ab) || pipe(ba))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(ab[1]);
		close(ba[0]);
		for (int i = 0; i < samples; i++) {
			if (xread(ab[0], &t, sizeof(t)))
				_exit(1);
			theirs[i] = now_ns() - t;
			t = now_ns();
			if (xwrite(ba[1], &t, sizeof(t)))
				_exit(1);
		}
		for (int i = 0; i < samples; i++)
			if (xwrite(ba[1], &theirs[i], sizeof(theirs[i])))
				_exit(1);
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	for (int i = 0; i < samples; i++) {
		t = now_ns();
		if (xwrite(ab[1], &t, sizeof(t)) || xread(ba[0], &t, sizeof(t)))
			die("ping-pong");
		mine[i] = now_ns() - t;
	}
	for (int i = 0; i < samples; i++)
		if (xread(ba[0], &theirs[i], sizeof(theirs[i])))
			die("reading the child's delays");
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "capsim-wake: the pipe child failed\n");
		exit(1);
	}
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	size_t n;
	int64_t t0, t1, sum = 0;
	int opt;

	while ((opt = getopt(argc, argv, "t:n:p:P")) != -1) {
		switch (opt) {
		case 't': threads = parse(optarg, 1, MAX_THREADS, "threads"); break;
		case 'n': samples = parse(optarg, 1, 10000000, "samples"); break;
		case 'p': period_us = parse(optarg, 1, 10000000, "period_us"); break;
		case 'P': pipe_mode = 1; break;
		default:
			fprintf(stderr, "usage: capsim-wake [-t THREADS] [-n SAMPLES] "
				"[-p PERIOD_US] [-P (pipe ping-pong)]\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "capsim-wake: unexpected argument %s\n", argv[optind]);
		return 2;
	}
	n = pipe_mode ? 2 * (size_t)samples : (size_t)threads * samples;
	delays = calloc(n, sizeof(*delays));
	if (!delays)
		die("calloc");

	t0 = now_ns();
	if (pipe_mode)
		run_pipe();
	else
		run_timer();
	t1 = now_ns();

	qsort(delays, n, sizeof(*delays), cmp64);
	for (size_t i = 0; i < n; i++)
		sum += delays[i];
	if (pipe_mode)
		printf("capsim-wake: mode=pipe samples=%d", samples);
	else
		printf("capsim-wake: mode=timer threads=%d samples=%d period_us=%d",
		       threads, samples, period_us);
	printf(" median_ns=%lld p99_ns=%lld max_ns=%lld mean_ns=%lld time_ns=%lld\n",
	       (long long)delays[n / 2], (long long)delays[(n * 99) / 100],
	       (long long)delays[n - 1], (long long)(sum / (int64_t)n),
	       (long long)(t1 - t0));
	return 0;
}
