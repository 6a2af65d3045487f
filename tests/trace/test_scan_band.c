// SPDX-License-Identifier: GPL-2.0
/*
 * The clamp band of a domain (src/trace/trace_scan.c) made of the range
 * its struct scan's band names: the RFC's per-CPU range (cap_clamp_cpu)
 * or uclamp's rq clamps (LISA's lisa__uclamp_util_cfs), composed over
 * the domain's non-idle CPUs (MAX of the mins, MAX of the maxes), and
 * for a bare trace (SCAN_BAND_AUTO) the source the trace shows first.
 * One hand-made kernel-text trace on sym4 (one domain of CPUs 0-3)
 * carries both events with different values, so that every assertion
 * tells the sources apart.
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

#include "diag.h"
#include "platform.h"
#include "trace_scan.h"

/* the band the domain hook reported last at or before a time */
struct band_seen {
	uint64_t t;
	unsigned int min_khz, max_khz;
	bool has;
};

struct recorder {
	struct band_seen v[64];
	int n;
	unsigned int cmin[4], cmax[4];	/* the util hook's, last */
};

static void on_domain(void *arg, int dom, uint64_t t, unsigned int khz,
		      unsigned int bmin, unsigned int bmax, bool has)
{
	struct recorder *r = arg;

	(void)khz;
	assert_int_equal(dom, 0);
	assert_true(r->n < 64);
	r->v[r->n++] = (struct band_seen){ t, bmin, bmax, has };
}

static void on_util(void *arg, int cpu, uint64_t t, unsigned int util,
		    unsigned int cmin, unsigned int cmax)
{
	struct recorder *r = arg;

	(void)t;
	(void)util;
	r->cmin[cpu] = cmin;
	r->cmax[cpu] = cmax;
}

static const struct band_seen *at(const struct recorder *r, double s)
{
	uint64_t t = (uint64_t)(s * 1e9 + 0.5);
	const struct band_seen *b = NULL;

	for (int i = 0; i < r->n; i++)
		if (r->v[i].t <= t)
			b = &r->v[i];
	assert_non_null(b);
	return b;
}

#define LINE "          <idle>-0     [%03d] d..2. %s: "

/*
 * CPUs 2 and 3 go idle at once; CPU 0 and 1 carry both ranges:
 *   RFC:    cpu0 [0, 300]   cpu1 [0, 1024]
 *   uclamp: cpu0 [100, 512] cpu1 [200, 256]
 * then CPU 0 goes idle too (the band follows CPU 1 alone), and at the
 * end CPU 1 takes uclamp [700, 800] (the uclamp band only moves).
 * @uclamp_first: the uclamp lines before the RFC's (for AUTO).
 */
static char *write_trace(bool uclamp_first)
{
	static char path[64];
	int fd, c;
	FILE *f;
	const char *rfc[] = { "cap_clamp_cpu: cpu=0 min=0 max=300",
			      "cap_clamp_cpu: cpu=1 min=0 max=1024" };
	const char *ucl[] = {
		"lisa__uclamp_util_cfs: cpu=0 util_avg=90 uclamp_avg=100 uclamp_min=100 uclamp_max=512",
		"lisa__uclamp_util_cfs: cpu=1 util_avg=300 uclamp_avg=256 uclamp_min=200 uclamp_max=256" };

	strcpy(path, "/tmp/U-scan-band-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (c = 0; c < 4; c++)
		fprintf(f, LINE "cpu_frequency: state=1000000 cpu_id=%d\n", c,
			"1.000000", c);
	for (c = 2; c < 4; c++)
		fprintf(f, LINE "cpu_idle: state=0 cpu_id=%d\n", c, "1.000500",
			c);
	for (c = 0; c < 2; c++) {
		fprintf(f, LINE "%s\n", c, "1.001000",
			uclamp_first ? ucl[c] : rfc[c]);
		fprintf(f, LINE "%s\n", c, "1.001000",
			uclamp_first ? rfc[c] : ucl[c]);
	}
	fprintf(f, LINE "capsim_util: cpu=0 util_cfs=90 util_rt=0 util_dl=0\n",
		0, "1.001500");
	fprintf(f, LINE "cpu_idle: state=0 cpu_id=0\n", 0, "1.002000");
	fprintf(f, LINE "lisa__uclamp_util_cfs: cpu=1 util_avg=300 uclamp_avg=700 uclamp_min=700 uclamp_max=800\n",
		1, "1.003000");
	fprintf(f, LINE "cpu_frequency: state=1500000 cpu_id=1\n", 1,
		"1.004000");
	assert_int_equal(fclose(f), 0);
	return path;
}

/* scan the trace on sym4 with @band; @rec gets the hooks' calls */
static void scan(enum scan_band band, bool uclamp_first, struct recorder *rec,
		 struct scan *sc)
{
	char *path = write_trace(uclamp_first);
	struct diag d;

	memset(sc, 0, sizeof(*sc));
	memset(rec, 0, sizeof(*rec));
	diag_init(&d, false);
	sc->pl = platform_load("sym4", &d);
	diag_free(&d);
	assert_non_null(sc->pl);
	sc->band = band;
	sc->hooks = (struct scan_hooks){ .arg = rec, .domain = on_domain,
					 .util = on_util };
	assert_int_equal(scan_trace(sc, path), 0);
	unlink(path);
}

static void done(struct scan *sc)
{
	platform_free((struct platform *)sc->pl);
	scan_free(sc);
}

/* @b is the band [lo, hi] (capacity units) as OPPs of domain 0 */
static void assert_band(const struct scan *sc, const struct band_seen *b,
			unsigned int lo, unsigned int hi)
{
	assert_true(b->has);
	assert_int_equal(b->min_khz, scan_clamp_khz(sc, &sc->doms[0], lo));
	assert_int_equal(b->max_khz, scan_clamp_khz(sc, &sc->doms[0], hi));
}

static void uclamp_band_is_uclamp_ranges(void **state)
{
	struct recorder r;
	struct scan sc;

	(void)state;
	scan(SCAN_BAND_UCLAMP, false, &r, &sc);
	assert_int_equal(sc.band_used, SCAN_BAND_UCLAMP);
	assert_true(sc.has_clamp_lines && sc.has_uclamp_lines);
	/* CPUs 0, 1 busy: [max(100, 200), max(512, 256)] */
	assert_band(&sc, at(&r, 1.0015), 200, 512);
	/* the per-CPU range the util plot draws is uclamp's too */
	assert_int_equal(r.cmin[0], 100);
	assert_int_equal(r.cmax[0], 512);
	/* CPU 0 idle: CPU 1's alone */
	assert_band(&sc, at(&r, 1.0025), 200, 256);
	assert_band(&sc, at(&r, 1.0035), 700, 800);
	done(&sc);
}

static void rfc_band_ignores_uclamp(void **state)
{
	struct recorder r;
	struct scan sc;

	(void)state;
	scan(SCAN_BAND_RFC, true, &r, &sc);
	assert_int_equal(sc.band_used, SCAN_BAND_RFC);
	assert_band(&sc, at(&r, 1.0015), 0, 1024);
	assert_int_equal(r.cmax[0], 300);
	assert_band(&sc, at(&r, 1.0035), 0, 1024);
	done(&sc);
}

/* a bare trace: the first source it shows */
static void auto_takes_the_first_source(void **state)
{
	struct recorder r;
	struct scan sc;

	(void)state;
	scan(SCAN_BAND_AUTO, true, &r, &sc);
	assert_int_equal(sc.band_used, SCAN_BAND_UCLAMP);
	assert_band(&sc, at(&r, 1.0015), 200, 512);
	done(&sc);
	scan(SCAN_BAND_AUTO, false, &r, &sc);
	assert_int_equal(sc.band_used, SCAN_BAND_RFC);
	assert_band(&sc, at(&r, 1.0015), 0, 1024);
	done(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uclamp_band_is_uclamp_ranges),
		cmocka_unit_test(rfc_band_ignores_uclamp),
		cmocka_unit_test(auto_takes_the_first_source),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
