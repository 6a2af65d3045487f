// SPDX-License-Identifier: GPL-2.0
/*
 * capsim-msg: a hackbench-like messaging benchmark for the guest
 * (kernel/tools/overhead.sh). GROUPS groups of FDS sender and FDS receiver
 * processes; every sender writes LOOPS messages of MSG bytes to each
 * receiver of its group over its own AF_UNIX socketpair (or pipe, -p);
 * every receiver reads FDS * LOOPS messages. Every message is a wake-up of
 * a blocked reader or writer, so the run is dominated by enqueue/dequeue
 * and context switches: the paths the clamp aggregator sits on.
 *
 * All processes are forked and ready before the clock starts; the time is
 * CLOCK_MONOTONIC from releasing them (one write closes the start pipe) to
 * the last one reaped. Output, one line:
 *   capsim-msg: groups=G fds=F loops=L bytes=B ipc=socket time_ns=T
 * Exit 0 on success, 1 on any error (a child's failure included).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 64
#define MAX_MSG 4096

static int groups = 4, fds = 10, loops = 100, msg = 100, use_pipe;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "capsim-msg: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int full_write(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static int full_read(int fd, char *buf, size_t n)
{
	while (n) {
		ssize_t r = read(fd, buf, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			return -1; /* early EOF: a sender died */
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

/* wait for the start: the parent closes its end of the start pipe */
static void wait_start(int ready_wr, int start_rd)
{
	char c = 0;

	if (full_write(ready_wr, &c, 1))
		_exit(1);
	if (read(start_rd, &c, 1) != 0)
		_exit(1);
}

static int parse(const char *s, int lo, int hi, const char *name)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "capsim-msg: %s: %s is not in [%d, %d]\n",
			name, s, lo, hi);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char **argv)
{
	int ready[2], start[2], opt, children = 0, failed = 0;
	uint64_t t0, t1;
	char c;

	while ((opt = getopt(argc, argv, "g:f:l:s:p")) != -1) {
		switch (opt) {
		case 'g': groups = parse(optarg, 1, 1000, "groups"); break;
		case 'f': fds = parse(optarg, 1, MAX_FDS, "fds"); break;
		case 'l': loops = parse(optarg, 1, 100000000, "loops"); break;
		case 's': msg = parse(optarg, 1, MAX_MSG, "bytes"); break;
		case 'p': use_pipe = 1; break;
		default:
			fprintf(stderr, "usage: capsim-msg [-g GROUPS] [-f FDS] "
				"[-l LOOPS] [-s BYTES] [-p (pipes)]\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "capsim-msg: unexpected argument %s\n", argv[optind]);
		return 2;
	}
	if (pipe(ready) || pipe(start))
		die("pipe");

	for (int g = 0; g < groups; g++) {
		int rd[MAX_FDS], wr[MAX_FDS];

		for (int i = 0; i < fds; i++) {
			int sv[2];

			if (use_pipe ? pipe(sv) : socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
				die(use_pipe ? "pipe" : "socketpair");
			rd[i] = sv[0];
			wr[i] = sv[1];
		}
		/* receivers: receiver i reads fds * loops messages on rd[i] */
		for (int i = 0; i < fds; i++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				char buf[MAX_MSG];

				close(ready[0]);
				close(start[1]);
				for (int j = 0; j < fds; j++) {
					close(wr[j]);
					if (j != i)
						close(rd[j]);
				}
				wait_start(ready[1], start[0]);
				for (long n = 0; n < (long)fds * loops; n++)
					if (full_read(rd[i], buf, (size_t)msg))
						_exit(1);
				_exit(0);
			}
			children++;
		}
		/* senders: each writes loops messages to every receiver */
		for (int i = 0; i < fds; i++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				char buf[MAX_MSG];

				memset(buf, 'm', sizeof(buf));
				close(ready[0]);
				close(start[1]);
				for (int j = 0; j < fds; j++)
					close(rd[j]);
				wait_start(ready[1], start[0]);
				for (int n = 0; n < loops; n++)
					for (int j = 0; j < fds; j++)
						if (full_write(wr[j], buf, (size_t)msg))
							_exit(1);
				_exit(0);
			}
			children++;
		}
		for (int i = 0; i < fds; i++) {
			close(rd[i]);
			close(wr[i]);
		}
	}
	close(ready[1]);
	close(start[0]);
	for (int i = 0; i < children; i++)
		if (full_read(ready[0], &c, 1))
			die("waiting for the children to be ready");

	t0 = now_ns();
	close(start[1]);
	for (int i = 0; i < children; i++) {
		int st;

		if (wait(&st) < 0)
			die("wait");
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			failed++;
	}
	t1 = now_ns();
	if (failed) {
		fprintf(stderr, "capsim-msg: %d of %d processes failed\n",
			failed, children);
		return 1;
	}
	printf("capsim-msg: groups=%d fds=%d loops=%d bytes=%d ipc=%s time_ns=%llu\n",
	       groups, fds, loops, msg, use_pipe ? "pipe" : "socket",
	       (unsigned long long)(t1 - t0));
	return 0;
}
