// SPDX-License-Identifier: GPL-2.0
/*
 * Frequency domains inferred from a trace (src/trace/domain_infer.c): the
 * real Juno r0 excerpt (devlib's one snapshot: LITTLE 0,3,4,5 at 950 MHz,
 * big 1,2 at 1.2 GHz), capsim's juno-r0 capture as systrace text, and
 * hand-made traces for the rule's edges and its documented failure modes.
 * Usage: test_domain_infer SRCDIR
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "domain_infer.h"

static const char *srcdir;

/* The domains of @path as "{..},{..}" (caller frees) */
static char *infer(const char *path)
{
	struct domain_guess g;
	char *s;

	assert_int_equal(domain_infer(path, &g), 0);
	s = domain_guess_str(&g);
	domain_guess_free(&g);
	return s;
}

static char *infer_fixture(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", srcdir, rel);
	return infer(path);
}

/* A kernel-text trace of @n cpu_frequency events: "SECS CPU KHZ" each */
static char *infer_events(const char *const *evs, int n)
{
	char path[] = "/tmp/replay-infer-XXXXXX";
	int fd = mkstemp(path), i;
	FILE *f;
	char *s;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < n; i++) {
		double ts;
		int cpu;
		unsigned int khz;

		assert_int_equal(sscanf(evs[i], "%lf %d %u", &ts, &cpu, &khz), 3);
		fprintf(f, "          <idle>-0     [%03d] d..2. %.6f: cpu_frequency: state=%u cpu_id=%d\n",
			cpu, ts, khz, cpu);
	}
	assert_int_equal(fclose(f), 0);
	s = infer(path);
	unlink(path);
	return s;
}

static void juno_devlib_snapshot(void **state)
{
	char *s = infer_fixture("tests/fixtures/traces/juno/lisa-trace.txt");

	(void)state;
	assert_string_equal(s, "{0,3-5},{1-2}");
	free(s);
}

static void capsim_juno_r0_as_systrace(void **state)
{
	char *s = infer_fixture("tests/fixtures/traces/systrace.txt");

	(void)state;
	assert_string_equal(s, "{0,3-5},{1-2}");
	free(s);
}

/* one policy set at once, the other later: apart; a CPU never set: none */
static void together_and_apart(void **state)
{
	static const char *const evs[] = {
		"1.000000 0 500000", "1.000002 1 500000",
		"1.000004 2 800000", "1.000006 3 800000",
		"1.100000 2 900000", "1.100003 3 900000",
		"1.200000 0 600000", "1.200001 1 600000",
	};
	char *s = infer_events(evs, 8);

	(void)state;
	assert_string_equal(s, "{0-1},{2-3}");
	free(s);
	{
		static const char *const one[] = { "1.0 5 500000" };

		s = infer_events(one, 1);
		assert_string_equal(s, "{5}");	/* CPUs 0-4: no domain */
		free(s);
	}
}

/* the failure modes docs/traces.md names: policies always set alike
 * merge; a policy's events more than DOMAIN_BURST_NS apart split it */
static void failure_modes(void **state)
{
	static const char *const alike[] = {
		"1.000000 0 500000", "1.000001 1 500000",
		"2.000000 0 700000", "2.000001 1 700000",
	};
	static const char *const slow[] = {
		"1.000000 0 500000", "1.002000 1 500000",
	};
	char *s = infer_events(alike, 4);

	(void)state;
	assert_string_equal(s, "{0-1}");
	free(s);
	s = infer_events(slow, 2);
	assert_string_equal(s, "{0},{1}");
	free(s);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(juno_devlib_snapshot),
		cmocka_unit_test(capsim_juno_r0_as_systrace),
		cmocka_unit_test(together_and_apart),
		cmocka_unit_test(failure_modes),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s SRCDIR\n", argv[0]);
		return 2;
	}
	srcdir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
