/*
 * Runs a test that must fail, and passes only when it fails the way the
 * defect makes it fail:
 *   expect_defect REGEX PROGRAM [ARGS...]
 * PROGRAM must exit normally with status 1 (cmocka's count of failed
 * tests: the one test run) and print a line matching REGEX (POSIX ERE),
 * the defect's own failure message. Anything else fails this runner and
 * the meson test: a signal, another exit status (99 is a usage slip, 2
 * and up more failed tests), a sanitizer or valgrind report (ASan exits 1
 * too, so its report is looked for), a signal cmocka caught in the test
 * ("Test failed with exception"), or a failure with another message.
 * The program's output is passed through, then the verdict is printed.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reports that mean "broken for another reason", whatever the status */
static const char *const bad_reports[] = {
	"Sanitizer",			/* ==N==ERROR: AddressSanitizer ... */
	"runtime error:",		/* UBSan */
	"Test failed with exception",	/* a signal cmocka caught */
	"Invalid read", "Invalid write",	/* memcheck */
};

static char *run(char **argv, int *status)
{
	size_t len = 0, cap = 4096;
	char *out = malloc(cap);
	int fd[2];
	pid_t pid;
	ssize_t n;

	if (!out || pipe(fd)) {
		perror("expect_defect");
		exit(1);
	}
	pid = fork();
	if (pid < 0) {
		perror("expect_defect: fork");
		exit(1);
	}
	if (!pid) {
		close(fd[0]);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[1]);
		execv(argv[0], argv);
		fprintf(stderr, "expect_defect: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		if (len + 1 == cap) {
			char *p = realloc(out, cap *= 2);

			if (!p) {
				perror("expect_defect");
				exit(1);
			}
			out = p;
		}
		n = read(fd[0], out + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	out[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			perror("expect_defect: waitpid");
			exit(1);
		}
	return out;
}

int main(int argc, char **argv)
{
	regex_t re;
	char *out;
	size_t i;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: expect_defect REGEX PROGRAM [ARGS...]\n");
		return 99;
	}
	if (regcomp(&re, argv[1], REG_EXTENDED | REG_NOSUB | REG_NEWLINE)) {
		fprintf(stderr, "expect_defect: bad regex '%s'\n", argv[1]);
		return 99;
	}
	out = run(argv + 2, &status);
	fputs(out, stdout);
	if (WIFSIGNALED(status)) {
		printf("expect_defect: FAIL: killed by signal %d, not the defect\n",
		       WTERMSIG(status));
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 1) {
		printf("expect_defect: FAIL: exit status %d, expected 1 (one failed test)\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return 1;
	}
	for (i = 0; i < sizeof(bad_reports) / sizeof(*bad_reports); i++)
		if (strstr(out, bad_reports[i])) {
			printf("expect_defect: FAIL: output reports '%s', not the defect\n",
			       bad_reports[i]);
			return 1;
		}
	if (regexec(&re, out, 0, NULL, 0)) {
		printf("expect_defect: FAIL: no line matches /%s/: failed for another reason\n",
		       argv[1]);
		return 1;
	}
	printf("expect_defect: ok: failed with the defect's message /%s/\n",
	       argv[1]);
	regfree(&re);
	free(out);
	return 0;
}
