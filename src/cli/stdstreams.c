// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stdstreams.h"

static bool stdout_was_closed;

/*
 * A closed fd 0, 1 or 2 would be the next file opened, and a run's trace
 * or summary would then receive the table meant for stdout. Standard
 * input and error get /dev/null; standard output gets /dev/full, so that
 * writing to it fails and std_streams_close() says so.
 */
void std_streams_open(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		nfd = open(fd == 1 ? "/dev/full" : "/dev/null",
			   fd ? O_WRONLY : O_RDONLY);
		if (nfd >= 0 && nfd != fd) {
			dup2(nfd, fd);
			close(nfd);
		}
		if (fd == 1)
			stdout_was_closed = true;
	}
}

int std_streams_close(int status)
{
	int err = 0;

	errno = 0;

	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return status;
	if (stdout_was_closed)
		fprintf(stderr, "capsim: standard output is closed: its output is lost\n");
	else
		fprintf(stderr, "capsim: error writing to standard output: %s\n",
			strerror(err));
	return status ? status : 1;
}
