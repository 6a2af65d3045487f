// SPDX-License-Identifier: GPL-2.0
#undef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define REDRAW_S 0.2
#define BAR_WIDTH 24

double progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, bool quiet, const char *what,
		   const char *unit, double total)
{
	/* CAPSIM_PROGRESS=1 forces the plain line on, =bar the bar, for
	 * the tests of the line itself */
	const char *force = getenv("CAPSIM_PROGRESS");
	const char *term = getenv("TERM");
	bool tty = isatty(STDERR_FILENO);

	if (!force)
		force = "";
	p->on = !quiet && (tty || !strcmp(force, "1") || !strcmp(force, "bar"));
	/* a terminal that cannot redraw in place gets the plain line */
	p->bar = !strcmp(force, "bar") ||
		 (tty && strcmp(force, "1") && !(term && !strcmp(term, "dumb")));
	p->what = what;
	p->unit = unit;
	p->total = total;
	p->t0 = progress_now();
	p->last_draw = 0;
	p->drawn = false;
}

static void fmt_duration(char *buf, size_t n, double s)
{
	if (s < 60)
		snprintf(buf, n, "%.0f s", s);
	else if (s < 3600)
		snprintf(buf, n, "%d min %02d s", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, n, "%d h %02d min", (int)s / 3600,
			 ((int)s % 3600) / 60);
}

void progress_update(struct progress *p, double done)
{
	double now, el, rate;
	char eta[32] = "?";

	if (!p->on)
		return;
	now = progress_now();
	if (p->drawn && now - p->last_draw < REDRAW_S && done < p->total)
		return;
	p->last_draw = now;
	el = now - p->t0;
	rate = el > 0 ? done / el : 0;
	if (rate > 0 && p->total > done)
		fmt_duration(eta, sizeof(eta), (p->total - done) / rate);
	else if (p->total <= done)
		snprintf(eta, sizeof(eta), "0 s");
	if (p->total <= 0) {
		/* no end known (a workload that ends with its tasks) */
		fprintf(stderr, "\r\033[K%s: %.4g %s, %.3g %s/s", p->what, done,
			p->unit, rate, p->unit);
		fflush(stderr);
		p->drawn = true;
		return;
	}
	/* \r and erase-to-end: one line, redrawn in place */
	if (p->bar) {
		char bar[BAR_WIDTH + 1];
		int full = (int)(BAR_WIDTH * (done < p->total ? done / p->total : 1));

		memset(bar, '#', (size_t)full);
		memset(bar + full, '.', (size_t)(BAR_WIDTH - full));
		bar[BAR_WIDTH] = '\0';
		fprintf(stderr, "\r\033[K%s [%s] %.4g/%.4g %s (%.0f%%), %.3g %s/s, ETA %s",
			p->what, bar, done, p->total, p->unit,
			100.0 * done / p->total, rate, p->unit, eta);
	} else {
		fprintf(stderr, "\r\033[K%s: %.4g/%.4g %s (%.0f%%), %.3g %s/s, ETA %s",
			p->what, done, p->total, p->unit,
			100.0 * done / p->total, rate, p->unit, eta);
	}
	fflush(stderr);
	p->drawn = true;
}

void progress_end(struct progress *p)
{
	if (p->on && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->drawn = false;
}

void progress_sim_cb(void *arg, unsigned long long now_ns,
		     unsigned long long end_ns)
{
	struct progress *p = arg;

	(void)end_ns;
	progress_update(p, (double)now_ns / 1e9);
}
