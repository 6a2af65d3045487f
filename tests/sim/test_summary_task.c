// SPDX-License-Identifier: GPL-2.0
/*
 * summary.json's task objects are written without a jansson tree
 * (summary_task_write()): here the tree they were built as until then
 * is kept as the reference (task_tree(), the same json_object_set_new()
 * calls in the same order) and both are compared byte for byte, through
 * json_dumps() itself at depth 0 and as an element of "tasks" at depth
 * 2, over tasks with hostile names (escapes, non-ASCII, invalid UTF-8:
 * the key left out, as json_string()'s NULL left it), reals at the edges
 * of jdump_real()'s paths, integers past INT64_MAX, and empty and huge
 * samples, CPU and domain lists.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "jdump.h"
#include "sched_class.h"
#include "summary.h"

#define FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(9))
#define NCPUS 1024
#define NDOMS 128		/* 8 CPUs a domain */

/* ---- the reference: the jansson tree summary.c built until a00f62d */

static json_t *ref_migrations(const struct sim_task *t)
{
	json_t *o = json_object();
	int r;

	for (r = 0; r < NR_MIG_REASONS; r++)
		json_object_set_new(o, mig_reason_name[r],
				    json_integer((json_int_t)t->mig[r]));
	return o;
}

static int ref_cmp_cpu(const void *a, const void *b)
{
	const struct cpu_time *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static json_t *ref_cpu_residency(const struct sim_task *t)
{
	struct cpu_time *ct = calloc((size_t)t->ncpu_time + 1, sizeof(*ct));
	json_t *o = json_object();
	char key[16];
	int i;

	if (t->ncpu_time)
		memcpy(ct, t->cpu_time, (size_t)t->ncpu_time * sizeof(*ct));
	qsort(ct, (size_t)t->ncpu_time, sizeof(*ct), ref_cmp_cpu);
	for (i = 0; i < t->ncpu_time; i++) {
		snprintf(key, sizeof(key), "%d", ct[i].cpu);
		json_object_set_new(o, key, json_real((double)ct[i].ns / 1e9));
	}
	free(ct);
	return o;
}

/* per domain in domain order, summed here from the CPUs' side (summary.c
 * walks the domains): the same sums, another way */
static json_t *ref_domain_residency(const struct sim *s,
				    const struct sim_task *t)
{
	uint64_t *ns = calloc((size_t)s->ndoms, sizeof(*ns));
	bool *ran = calloc((size_t)s->ndoms, sizeof(*ran));
	json_t *o = json_object();
	char key[16];
	int d, i;

	for (i = 0; i < t->ncpu_time; i++) {
		d = (int)(s->cpus[t->cpu_time[i].cpu].dom - s->doms);
		ns[d] += t->cpu_time[i].ns;
		ran[d] = true;
	}
	for (d = 0; d < s->ndoms; d++) {
		if (!ran[d])
			continue;
		snprintf(key, sizeof(key), "%d", s->doms[d].pd->id);
		json_object_set_new(o, key, json_real((double)ns[d] / 1e9));
	}
	free(ns);
	free(ran);
	return o;
}

static json_t *ref_sched_latency(const struct sim_task *t)
{
	json_t *o = json_object();
	double sum = 0;
	size_t i;

	for (i = 0; i < t->wlat.n; i++)
		sum += (double)t->wlat.v[i];
	json_object_set_new(o, "runtime_ms",
			    json_real((double)t->runtime_ns / 1e6));
	json_object_set_new(o, "switches",
			    json_integer((json_int_t)t->switches));
	json_object_set_new(o, "avg_delay_ms", t->wlat.n ?
			    json_real(sum / (double)t->wlat.n / 1e6) :
			    json_null());
	json_object_set_new(o, "max_delay_ms", t->wlat.n ?
			    json_real((double)t->wlat_max / 1e6) : json_null());
	json_object_set_new(o, "max_delay_at_s", t->wlat.n ?
			    json_real((double)t->wlat_max_at / 1e9) :
			    json_null());
	return o;
}

static json_t *task_tree(struct sim *s, struct sim_task *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(t->name));
	json_object_set_new(o, "comm", json_string(t->comm));
	json_object_set_new(o, "pid", json_integer(t->pid));
	json_object_set_new(o, "group", json_string(t->group->path));
	json_object_set_new(o, "policy", json_string(wl_policy_name(t->policy)));
	json_object_set_new(o, "priority", json_integer(t->prio));
	json_object_set_new(o, "activations", json_integer((json_int_t)t->activations));
	json_object_set_new(o, "completed", json_integer((json_int_t)t->completed));
	if (t->timed)
		json_object_set_new(o, "deadline_misses",
				    json_integer((json_int_t)t->misses));
	else
		json_object_set_new(o, "deadline_misses", json_null());
	json_object_set_new(o, "wakeup_latency_us", summary_pct_obj(&t->wlat));
	json_object_set_new(o, "response_us", summary_pct_obj(&t->resp));
	json_object_set_new(o, "timer_latency_us", summary_pct_obj(&t->tlat));
	json_object_set_new(o, "slack_us", summary_pct_obj(&t->slack));
	json_object_set_new(o, "runtime_s", json_real((double)t->runtime_ns / 1e9));
	json_object_set_new(o, "migrations", json_integer((json_int_t)t->migrations));
	json_object_set_new(o, "migrations_by_reason", ref_migrations(t));
	json_object_set_new(o, "cpu_residency_s", ref_cpu_residency(t));
	json_object_set_new(o, "domain_residency_s",
			    ref_domain_residency(s, t));
	json_object_set_new(o, "sched_latency", ref_sched_latency(t));
	json_object_set_new(o, "preemptions", json_integer((json_int_t)t->preempted));
	if (t->cls == &dl_sched_class)
		json_object_set_new(o, "dl_throttled",
				    json_integer((json_int_t)t->dl.throttles));
	json_object_set_new(o, "state", json_string(
		t->state == TS_DEAD ? "exited" : t->state == TS_SLEEPING ?
		"sleeping" : t->state == TS_NEW ? "not started" : "runnable"));
	return o;
}

/* ---- a platform of NCPUS CPUs in NDOMS domains, and tasks on it */

static struct sim sim;
static struct pdomain pds[NDOMS];
static struct host_group groups[3];
static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void setup_sim(void)
{
	static char *paths[] = { "/", "/top-app/\"q\"\\x", "/b\xc3\xa9g\n" };
	int i;

	sim.ncpus = NCPUS;
	sim.ndoms = NDOMS;
	sim.cpus = calloc(NCPUS, sizeof(*sim.cpus));
	sim.doms = calloc(NDOMS, sizeof(*sim.doms));
	for (i = 0; i < NDOMS; i++) {
		/* ids out of order and far apart, negative too */
		pds[i].id = i % 2 ? 1000000 * i : -i;
		sim.doms[i].pd = &pds[i];
	}
	for (i = 0; i < NCPUS; i++) {
		sim.cpus[i].id = i;
		sim.cpus[i].dom = &sim.doms[i / (NCPUS / NDOMS)];
	}
	for (i = 0; i < 3; i++)
		groups[i].path = paths[i];
}

static void fill_samples(struct samples *sm, size_t n, int64_t lo,
			 uint64_t span)
{
	size_t i;

	sm->v = n ? malloc(n * sizeof(*sm->v)) : NULL;
	sm->n = sm->cap = n;
	sm->sorted = 0;
	for (i = 0; i < n; i++)
		sm->v[i] = lo + (int64_t)(next_rand() % span);
}

/* Reals from ns: short decimals, thirds, and beyond 1e9 s and below 1e-4 */
static uint64_t edge_ns(int k)
{
	static const uint64_t e[] = {
		0, 1, 7, 999, 1000, 100000, 333333333, 1000000000,
		2403592000, 999999999999999999ULL, UINT64_MAX, 12345678901ULL,
		(1ULL << 53) + 1,
	};

	return k < 13 ? e[k] : next_rand() >> (next_rand() % 64);
}

static struct sim_task *make_task(int k)
{
	static const char *names[] = {
		"plain", "t\"1\\x\n\t\001/\x7f", "\xf0\x9f\x98\x80-emoji",
		"bad\xff utf8", "", "a-very-long-name-beyond-fifteen-bytes",
	};
	struct sim_task *t = calloc(1, sizeof(*t));
	size_t nsamp = k % 7 == 3 ? 100000 : (size_t)(k % 5), len;
	const char *comm;
	int i, ncpu;

	t->name = k % 11 == 10 ? NULL : strdup(names[k % 6]);
	/* comm: 15 bytes, a multi-byte character cut at k % 3 == 1 */
	comm = k % 3 == 1 ? "abcdefghijklmn\xc3\xa9" : k % 3 ? "c\\omm" :
	       "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac";
	len = strlen(comm) < sizeof(t->comm) ? strlen(comm) :
	      sizeof(t->comm) - 1;
	memcpy(t->comm, comm, len);
	t->comm[len] = '\0';
	t->pid = k % 4 ? 1000 + k : -k;
	t->group = &groups[k % 3];
	t->policy = (enum wl_policy)(k % 6);
	t->prio = k % 2 ? -20 : 99;
	t->cls = k % 6 == WL_SCHED_DEADLINE ? &dl_sched_class :
		 &fair_sched_class;
	t->dl.throttles = edge_ns(k % 13);
	t->state = (enum task_state)(k % 4);
	t->activations = edge_ns((k + 1) % 13);
	t->completed = edge_ns((k + 2) % 13);
	t->misses = edge_ns((k + 3) % 13);
	t->runtime_ns = edge_ns(k % 16);
	t->migrations = edge_ns((k + 4) % 13);
	t->preempted = edge_ns((k + 5) % 13);
	t->switches = edge_ns((k + 6) % 13);
	for (i = 0; i < NR_MIG_REASONS; i++)
		t->mig[i] = edge_ns((k + i) % 16);
	fill_samples(&t->wlat, nsamp, 0, 1 + (uint64_t)k * 1000003);
	fill_samples(&t->resp, (size_t)(k % 3), 1000, 5000000);
	fill_samples(&t->tlat, k % 2 ? nsamp : 0, 1, 10000);
	/* slack: negative too, and the extremes */
	fill_samples(&t->slack, (size_t)(k % 4), -1000000, 2000000);
	/* a timer event whose activation did not complete: no sample */
	t->timed = t->slack.n || k % 5 == 1;
	if (k % 4 == 2)
		t->slack.v[0] = INT64_MIN, t->slack.v[1] = INT64_MAX;
	t->wlat_max = t->wlat.n ? t->wlat.v[0] : 0;
	t->wlat_max_at = edge_ns((k + 7) % 16);
	/* CPUs: none, one, a few in any order, or every one of them */
	ncpu = k % 9 == 4 ? NCPUS : k % 9 == 0 ? 0 : k % 9;
	t->ncpu_time = t->cap_cpu_time = ncpu;
	t->cpu_time = ncpu ? calloc((size_t)ncpu, sizeof(*t->cpu_time)) : NULL;
	for (i = 0; i < ncpu; i++) {
		t->cpu_time[i].cpu = ncpu == NCPUS ? NCPUS - 1 - i :
				     (int)(next_rand() % (NCPUS / ncpu)) * ncpu + i;
		t->cpu_time[i].ns = edge_ns((k + i) % 16);
	}
	return t;
}

static void free_task(struct sim_task *t)
{
	free(t->name);
	free(t->wlat.v);
	free(t->resp.v);
	free(t->tlat.v);
	free(t->slack.v);
	free(t->cpu_time);
	free(t);
}

/* @got is @want; else where the two part (the whole is too long for
 * check's message) */
static void assert_same(const char *got, const char *want, int k)
{
	size_t i;

	for (i = 0; got[i] && got[i] == want[i]; i++)
		;
	ck_assert_msg(!got[i] && !want[i],
		      "case %d, byte %zu: \"%.60s\", jansson \"%.60s\"", k, i,
		      got + i, want + i);
}

START_TEST(tasks_as_jansson)
{
	struct cpu_time *ct = calloc(NCPUS + 1, sizeof(*ct));
	struct strbuf got, want;
	int k, dropped = 0;

	setup_sim();
	sb_init(&got);
	sb_init(&want);
	for (k = 0; k < 400; k++) {
		struct sim_task *t = make_task(k);
		json_t *o = task_tree(&sim, t), *wrap, *arr;
		char *ref = json_dumps(o, FLAGS), *wref;

		ck_assert_ptr_nonnull(ref);
		got.len = 0;
		summary_task_write(&got, &sim, t, 0, ct);
		ck_assert_uint_eq(got.len, strlen(got.buf));
		assert_same(got.buf, ref, k);
		if (!json_object_get(o, "name") || !json_object_get(o, "comm"))
			dropped++;
		/* as an element of summary.json's "tasks", at depth 2 */
		arr = json_array();
		wrap = json_object();
		json_array_append(arr, o);
		json_object_set_new(wrap, "tasks", arr);
		wref = json_dumps(wrap, FLAGS);
		want.len = 0;
		sb_puts(&want, "{\n  \"tasks\": [\n    ");
		summary_task_write(&want, &sim, t, 2, ct);
		sb_puts(&want, "\n  ]\n}");
		assert_same(want.buf, wref, k);
		free(ref);
		free(wref);
		json_decref(o);
		json_decref(wrap);
		free_task(t);
	}
	/* the invalid names and the cut comm did leave their keys out */
	ck_assert_int_gt(dropped, 100);
	sb_free(&got);
	sb_free(&want);
	free(ct);
	free(sim.cpus);
	free(sim.doms);
}
END_TEST

/* The object writer's own cases: "{}", and a member set_new refuses */
START_TEST(members_left_out)
{
	struct jdump_obj o, in;
	struct strbuf sb;
	json_t *ref = json_object(), *inner = json_object();
	char *want;

	sb_init(&sb);
	jdump_obj_open(&o, &sb, 0);
	jdump_obj_string(&o, "bad", "\xc3");
	jdump_obj_real(&o, "inf", 1.0 / 0.0);
	jdump_obj_object(&o, "empty", &in);
	jdump_obj_close(&in);
	jdump_obj_real(&o, "nan", 0.0 / 0.0);
	jdump_obj_string(&o, "null", NULL);
	jdump_obj_close(&o);
	json_object_set_new(ref, "bad", json_string("\xc3"));
	json_object_set_new(ref, "inf", json_real(1.0 / 0.0));
	json_object_set_new(ref, "empty", inner);
	json_object_set_new(ref, "nan", json_real(0.0 / 0.0));
	json_object_set_new(ref, "null", json_string(NULL));
	want = json_dumps(ref, FLAGS);
	ck_assert_str_eq(sb.buf, want);
	ck_assert_str_eq(sb.buf, "{\n  \"empty\": {}\n}");
	/* nothing at all: "{}" */
	sb.len = 0;
	jdump_obj_open(&o, &sb, 3);
	jdump_obj_string(&o, "bad", "\xff");
	jdump_obj_close(&o);
	ck_assert_str_eq(sb.buf, "{}");
	free(want);
	json_decref(ref);
	sb_free(&sb);
}
END_TEST

/* member_key()'s other path: a line longer than its buffer (a deep
 * member, a long key) */
START_TEST(deep_and_long)
{
	struct jdump_obj o[70];
	struct strbuf sb;
	json_t *ref = json_object(), *at = ref;
	char key[201], *want;
	int i;

	memset(key, 'k', 200);
	key[200] = '\0';
	sb_init(&sb);
	jdump_obj_open(&o[0], &sb, 0);
	jdump_obj_int(&o[0], key, 1);
	json_object_set_new(ref, key, json_integer(1));
	for (i = 1; i < 70; i++) {
		json_t *in = json_object();

		jdump_obj_int(&o[i - 1], "n", i);
		jdump_obj_object(&o[i - 1], "in", &o[i]);
		json_object_set_new(at, "n", json_integer(i));
		json_object_set_new(at, "in", in);
		at = in;
	}
	jdump_obj_real(&o[69], "x", 0.5);
	json_object_set_new(at, "x", json_real(0.5));
	for (i = 69; i >= 0; i--)
		jdump_obj_close(&o[i]);
	want = json_dumps(ref, FLAGS);
	assert_same(sb.buf, want, 0);
	free(want);
	json_decref(ref);
	sb_free(&sb);
}
END_TEST

int main(void)
{
	return check_main("summary_task", 300,
			  CHECK_TESTS(tasks_as_jansson, members_left_out,
				      deep_and_long));
}
