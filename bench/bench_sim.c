/*
 * The simulator's speed, as ratios to a bare event loop measured side by
 * side in the same run.
 *
 * The reference workload: 64 periodic tasks (4 SCHED_FIFO), each with its
 * own timer, periods 4-18 ms, 50-130 us of work, on the 8-CPU sd855
 * platform, SECONDS simulated (default 60: an hour would be a 15 GB
 * trace). Three ways, taking turns in each of ROUNDS rounds:
 *
 *   bare    a binary min-heap of events ordered by (time, sequence), as
 *           the engine's, with the model's average number of pending
 *           events: pop the earliest, call a handler through a table,
 *           push one event a pseudo-random 1-1000 us later. The cost of
 *           a discrete-event loop that does nothing.
 *   model   sim_run() without a trace (capsim run --no-trace)
 *   trace   sim_run() writing the ftrace text into a file in the current
 *           directory (capsim run's trace.txt)
 *
 * and once: summary.json (summary_write()) of the model run. Each figure
 * is events per second of wall time (the model's events: those the engine
 * popped); the ratios are per round, the table gives their median. The
 * bare loop is also measured at 8 and 64 pending events, the range the
 * issue compared against. Nothing here asserts on time.
 *
 *   bench_sim [SECONDS [ROUNDS]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "platform.h"
#include "sim.h"
#include "summary.h"
#include "workload.h"

enum { MAX_ROUNDS = 15, NTASKS = 64 };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- the bare loop ---- */

struct bev {
	uint64_t time, seq;
	unsigned int kind;
	int a;
	uint32_t gen;
};

struct bheap {
	struct bev *h;
	size_t n;
	uint64_t seq;
};

static int bbefore(const struct bev *x, const struct bev *y)
{
	return x->time != y->time ? x->time < y->time : x->seq < y->seq;
}

static void bpush(struct bheap *q, uint64_t time, int a)
{
	struct bev e = { time, q->seq++, 0, a, 0 };
	size_t i = q->n++;

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!bbefore(&e, &q->h[p]))
			break;
		q->h[i] = q->h[p];
		i = p;
	}
	q->h[i] = e;
}

static struct bev bpop(struct bheap *q)
{
	struct bev top = q->h[0], last = q->h[--q->n];
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct bev *best = &last;

		if (l < q->n && bbefore(&q->h[l], best)) {
			m = l;
			best = &q->h[l];
		}
		if (r < q->n && bbefore(&q->h[r], best))
			m = r;
		if (m == i)
			break;
		q->h[i] = q->h[m];
		i = m;
	}
	if (q->n)
		q->h[i] = last;
	return top;
}

static uint64_t bare_sink;

static void bare_handler(const struct bev *e)
{
	bare_sink += (uint64_t)e->a;
}

/* the handler table, as the engine dispatches through one */
static void (*const volatile bare_handlers[1])(const struct bev *) = {
	bare_handler,
};

/* @events events with @pending in the heap: events per second */
static double bare_loop(int pending, uint64_t events)
{
	struct bheap q = { malloc((size_t)(pending + 1) * sizeof(struct bev)),
			   0, 0 };
	uint64_t rng = 0x9e3779b97f4a7c15ULL, i;
	double t0;
	int k;

	for (k = 0; k < pending; k++)
		bpush(&q, rng_next(&rng) % 1000000, k);
	t0 = now_s();
	for (i = 0; i < events; i++) {
		struct bev e = bpop(&q);

		bare_handlers[e.kind](&e);
		bpush(&q, e.time + 1000 + rng_next(&rng) % 999001, e.a);
	}
	t0 = now_s() - t0;
	free(q.h);
	return (double)events / t0;
}

/* ---- the model ---- */

static char *reference_workload(void)
{
	struct strbuf sb;
	int i;

	sb_init(&sb);
	sb_puts(&sb, "{ \"tasks\": {\n");
	for (i = 0; i < NTASKS; i++) {
		int period = 4000 + (i % 8) * 2000, run = 50 + 20 * (i % 5);

		sb_printf(&sb, "%s  \"t%d\": { %s\"run\": %d, \"timer\": { \"ref\": \"unique\", \"period\": %d } }",
			  i ? ",\n" : "", i,
			  i % 16 ? "" : "\"policy\": \"SCHED_FIFO\", \"priority\": 10, ",
			  run, period);
	}
	sb_puts(&sb, "\n} }\n");
	return sb.buf;
}

struct pending_avg {
	struct sim *s;
	double sum;
	uint64_t n;
};

/* the progress callback comes every 65 536 events: sample the queue */
static void sample_pending(void *arg, unsigned long long now,
			   unsigned long long end)
{
	struct pending_avg *p = arg;

	(void)now;
	(void)end;
	p->sum += (double)p->s->q.n;
	p->n++;
}

struct model_run {
	double ev_s;		/* events per wall second of sim_run() */
	uint64_t events;
	uint64_t trace_bytes;
	double pending;
	double summary_s;	/* summary_write() */
};

static struct model_run model(const struct platform *pl,
			      const struct workload *wl, uint64_t dur_ns,
			      bool trace, bool summary)
{
	struct sim_opts o = { .clamp_policy = POLICY_RFC, .activations = true,
			      .duration_ns = dur_ns };
	struct model_run r = { 0 };
	struct pending_avg pa = { 0 };
	char path[] = "bench-sim-trace.XXXXXX";
	FILE *f = NULL;
	struct diag d;
	struct sim *s;
	double t0;

	diag_init(&d, true);
	sim_opts_resolve(&o, wl);
	s = sim_create(pl, wl, &o, &d);
	if (!s) {
		fprintf(stderr, "bench_sim: the reference workload does not run\n");
		exit(1);
	}
	if (trace) {
		int fd = mkstemp(path);

		if (fd < 0 || !(f = fdopen(fd, "w+"))) {
			perror("bench_sim: a trace file in the current directory");
			exit(1);
		}
		unlink(path);
	}
	pa.s = s;
	s->progress = sample_pending;
	s->progress_arg = &pa;
	t0 = now_s();
	if (sim_run(s, f) || s->failed) {
		fprintf(stderr, "bench_sim: the run failed\n");
		exit(1);
	}
	r.ev_s = (double)s->nevents / (now_s() - t0);
	r.events = s->nevents;
	r.pending = pa.n ? pa.sum / (double)pa.n : 0;
	if (f) {
		r.trace_bytes = (uint64_t)ftell(f);
		fclose(f);
	}
	if (summary) {
		struct run_info ri = { "bench", NULL, NULL, 0 };
		FILE *null = fopen("/dev/null", "w");

		t0 = now_s();
		summary_write(s, &ri, null);
		r.summary_s = now_s() - t0;
		fclose(null);
	}
	sim_destroy(s);
	diag_free(&d);
	return r;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 60;
	int rounds = argc > 2 ? atoi(argv[2]) : 3, r, pending;
	double bare[MAX_ROUNDS], mod[MAX_ROUNDS], trc[MAX_ROUNDS];
	double rm[MAX_ROUNDS], rt[MAX_ROUNDS], b8[MAX_ROUNDS], b64[MAX_ROUNDS];
	struct model_run m0, m, t = { 0 };
	struct platform *pl;
	struct workload *wl;
	char *text = reference_workload();
	struct diag d;

	if (secs <= 0 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: bench_sim [SECONDS [ROUNDS <= %d]]\n",
			MAX_ROUNDS);
		return 2;
	}
	diag_init(&d, false);
	pl = platform_load("sd855", &d);
	wl = workload_load_buffer("bench-ref", text, &d);
	if (!pl || !wl)
		return 1;
	/* a first run: the pending count the bare loop keeps, the summary */
	m0 = model(pl, wl, (uint64_t)(secs * 1e9), false, true);
	pending = (int)(m0.pending + 0.5);
	printf("reference: 64 tasks, sd855 (8 CPUs), %.0f s simulated: %lu events, %.1f pending on average; summary.json %.3f s (%.1f %% of the model run)\n",
	       secs, (unsigned long)m0.events, m0.pending, m0.summary_s,
	       100 * m0.summary_s / ((double)m0.events / m0.ev_s));
	printf("round  bare(%d) ev/s   model ev/s   trace ev/s  model/bare trace/bare  bare(8)  bare(64)\n",
	       pending);
	for (r = 0; r < rounds; r++) {
		/* the order rotates, so that a noisy neighbour hits all alike */
		int k;

		for (k = 0; k < 3; k++) {
			switch ((r + k) % 3) {
			case 0:
				bare[r] = bare_loop(pending, m0.events);
				b8[r] = bare_loop(8, m0.events);
				b64[r] = bare_loop(64, m0.events);
				break;
			case 1:
				m = model(pl, wl, (uint64_t)(secs * 1e9), false,
					  false);
				mod[r] = m.ev_s;
				break;
			default:
				t = model(pl, wl, (uint64_t)(secs * 1e9), true,
					  false);
				trc[r] = t.ev_s;
				break;
			}
		}
		rm[r] = mod[r] / bare[r];
		rt[r] = trc[r] / bare[r];
		printf("%5d  %13.0f %12.0f %12.0f  %9.3f  %9.3f  %7.2fM  %7.2fM\n",
		       r + 1, bare[r], mod[r], trc[r], rm[r], rt[r], b8[r] / 1e6,
		       b64[r] / 1e6);
	}
	printf("trace: %.1f MB, %.1f bytes per event\n",
	       (double)t.trace_bytes / 1e6,
	       (double)t.trace_bytes / (double)t.events);
	printf("median: bare %.2f M ev/s, model %.2f M ev/s (%.3fx bare), trace %.2f M ev/s (%.3fx bare); bare at 8 / 64 pending %.2f / %.2f M ev/s\n",
	       median(bare, rounds) / 1e6, median(mod, rounds) / 1e6,
	       median(rm, rounds), median(trc, rounds) / 1e6,
	       median(rt, rounds), median(b8, rounds) / 1e6,
	       median(b64, rounds) / 1e6);
	printf("goals: model >= 0.5x bare: %s; trace >= 0.25x bare: %s\n",
	       median(rm, rounds) >= 0.5 ? "met" : "not met",
	       median(rt, rounds) >= 0.25 ? "met" : "not met");
	workload_free(wl);
	platform_free(pl);
	diag_free(&d);
	free(text);
	return 0;
}
