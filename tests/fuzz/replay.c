// SPDX-License-Identifier: GPL-2.0
/*
 * A main() for the fuzz harnesses without libFuzzer: runs
 * LLVMFuzzerTestOneInput() once on each file given, or on each file of a
 * directory given (sorted, so a failure is reproducible), and says how
 * many. A crash, a sanitizer report or an abort() fails the run, as it
 * would fail the fuzzer: the saved inputs of tests/fuzz/regressions/ and
 * the seeds replay in every build, gcc and sanitizers alike.
 */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;
	int ret = 0;
	DIR *d = opendir(dir);

	if (!d) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names)
			abort();
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		size_t plen = strlen(dir) + strlen(names[i]) + 2;
		char *p = malloc(plen);
		struct stat st;

		snprintf(p, plen, "%s/%s", dir, names[i]);
		if (!stat(p, &st) && S_ISDIR(st.st_mode)) {
			ret |= run_dir(p, count);
		} else if (!stat(p, &st) && S_ISREG(st.st_mode)) {
			ret |= run_file(p);
			++*count;
		}
		free(p);
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	int i, count = 0, ret = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			ret = 1;
		} else if (S_ISDIR(st.st_mode)) {
			ret |= run_dir(argv[i], &count) ? 1 : 0;
		} else {
			ret |= run_file(argv[i]) ? 1 : 0;
			count++;
		}
	}
	printf("%d inputs replayed\n", count);
	return ret || !count;
}
