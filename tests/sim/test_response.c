// SPDX-License-Identifier: GPL-2.0
/*
 * The response times a run keeps for summary.json (response_us) are the
 * ones src/trace/trace_scan.c measures on the run's trace.txt, sample for
 * sample: a sweep reads them from the summary instead of scanning every
 * point's trace, so the two must never drift apart.
 */
#include "simtest.h"

#include "trace_scan.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int64_t *sorted_copy(const struct samples *sm)
{
	int64_t *v = xcalloc(sm->n + 1, sizeof(*v));

	if (sm->n)
		memcpy(v, sm->v, sm->n * sizeof(*v));
	qsort(v, sm->n, sizeof(*v), cmp_i64);
	return v;
}

/* Run @file on @platform under @pol into a trace file, scan it, compare */
static void check(const char *file, const char *platform,
		  enum clamp_policy pol, double duration_s)
{
	const char *root = getenv("CAPSIM_SRCDIR");
	char *path = xasprintf("%s/%s", root ? root : "../..", file);
	char tpath[] = "/tmp/capsim-test-response.XXXXXX";
	size_t len;
	char *text = read_file(path, &len);
	int fd = mkstemp(tpath);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct scan sc;
	struct run *r;
	long total = 0;
	int i;

	ck_assert_msg(text, "cannot read %s", path);
	ck_assert(f);
	r = run_text(text, platform, pol, CLAMP_ORDER_612, duration_s, f);
	RUN_OK(r);
	ck_assert_int_eq(fclose(f), 0);
	memset(&sc, 0, sizeof(sc));
	sc.pl = r->pl;
	sc.sched_only = true;	/* as a sweep scanned its points */
	ck_assert_int_eq(scan_trace(&sc, tpath), 0);
	for (i = 0; i < r->s->ntasks; i++) {
		struct sim_task *t = r->s->tasks[i];
		struct scan_task *st = scan_task_by_pid(&sc, t->pid);
		int64_t *a, *b;
		size_t k;

		ck_assert_msg(st || !t->resp.n, "%s: samples but not in the trace",
			      t->name);
		if (!st)
			continue;
		ck_assert_msg(t->resp.n == st->resp.n,
			      "%s (%s on %s): %zu response samples, the trace has %zu",
			      t->name, file, platform, t->resp.n, st->resp.n);
		a = sorted_copy(&t->resp);
		b = sorted_copy(&st->resp);
		for (k = 0; k < t->resp.n; k++)
			ck_assert_msg(a[k] == b[k], "%s: sample %zu: %lld ns, the trace %lld ns",
				      t->name, k, (long long)a[k], (long long)b[k]);
		/* the trace's microseconds: what a scan can see */
		for (k = 0; k < t->resp.n; k++)
			ck_assert_int_eq(a[k] % 1000, 0);
		total += (long)t->resp.n;
		free(a);
		free(b);
	}
	ck_assert_int_gt(total, 10);
	ck_assert_uint_eq(kcompat_warn_count, 0);
	scan_free(&sc);
	unlink(tpath);
	run_free(r);
	free(text);
	free(path);
}

START_TEST(response_matches_the_trace_sym4)
{
	check("traces/whatif-bg-cap.json", "sym4", POLICY_RFC, 5);
	check("traces/video-playback.json", "sym4", POLICY_NONE, 3);
	check("traces/audio.json", "sym4", POLICY_UCLAMP, 3);
}
END_TEST

/* migrations, FIFO, I/O waits, tasks that end: every kind of switch-out */
START_TEST(response_matches_the_trace_asymmetric)
{
	check("traces/rt-capped.json", "sd855", POLICY_RFC, 3);
	check("traces/bg-batch-capped.json", "juno-r0", POLICY_UCLAMP, 3);
	check("traces/web-burst.json", "sd855", POLICY_RFC, 3);
	check("traces/phone-minute.json", "sd855", POLICY_RFC, 3);
}
END_TEST

int main(void)
{
	return check_main("response", 120, CHECK_TESTS(
			  response_matches_the_trace_sym4,
			  response_matches_the_trace_asymmetric));
}
