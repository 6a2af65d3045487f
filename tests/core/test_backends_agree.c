/*
 * The two aggregators side by side: one random stream of enqueues,
 * dequeues, migrations and group writes (each followed by the update of
 * every queued entity of the group) goes to an rbtree world and to an
 * exact world that share the groups. Every call must return the same
 * "range changed" answer in both, and both CPUs' ranges must agree after
 * every step; both aggregates must stay internally consistent. Phases that
 * fill the CPUs (up to 2 048 entities on 2 CPUs, far more than the model
 * check has) alternate with phases that drain them empty and that keep
 * only a few entities, whose maximum may be any value. CAPSIM_TEST_SEED=N
 * reproduces a run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/bug.h>
#include <linux/sched/cap_clamp.h>
#include "agg_check.h"
#include "test_rand.h"

enum { CPUS = 2, ENTITIES = 2048, GROUPS = 24, STEPS = 200000 };

struct world {
	struct cap_clamp_cpu cpu[CPUS];
	raw_spinlock_t lock[CPUS];
	struct cap_clamp_se se[ENTITIES];
};

static struct world w[2];		/* indexed by enum agg_backend */
static struct cap_clamp_group root, groups[GROUPS];
static int group_of[ENTITIES], cpu_of[ENTITIES];
static struct mutex glock;

static uint64_t seed;
static long step;

static void setup_worlds(void)
{
	int b, c, i;

	mutex_init(&glock);
	cap_clamp_group_init_root(&root);
	mutex_lock(&glock);
	for (i = 0; i < GROUPS; i++)
		cap_clamp_group_link(&groups[i], &root, &glock);
	mutex_unlock(&glock);
	for (b = 0; b < 2; b++) {
		for (c = 0; c < CPUS; c++) {
			agg_init(&w[b].cpu[c], b);
			raw_spin_lock_init(&w[b].lock[c]);
		}
		for (i = 0; i < ENTITIES; i++)
			cap_clamp_se_init(&w[b].se[i]);
	}
	for (i = 0; i < ENTITIES; i++) {
		group_of[i] = i % GROUPS;
		cpu_of[i] = -1;
	}
}

enum op { ENQ, DEQ, UPD };

/* One core call in both worlds; the answers must be the same. */
static void both(enum op op, int i, int c)
{
	bool ret[2];
	int b;

	for (b = 0; b < 2; b++) {
		struct cap_clamp_cpu *cc = &w[b].cpu[c];
		struct cap_clamp_se *se = &w[b].se[i];
		raw_spinlock_t *l = &w[b].lock[c];

		raw_spin_lock(l);
		if (op == ENQ)
			ret[b] = cap_clamp_enqueue(cc, se, &groups[group_of[i]], l);
		else if (op == DEQ)
			ret[b] = cap_clamp_dequeue(cc, se, l);
		else
			ret[b] = cap_clamp_update(cc, se, &groups[group_of[i]], l);
		raw_spin_unlock(l);
	}
	if (ret[AGG_RBTREE] != ret[AGG_EXACT])
		fail_msg("seed %llu step %ld: op %d on entity %d cpu%d: rbtree says changed=%d, exact %d",
			 (unsigned long long)seed, step, op, i, c,
			 ret[AGG_RBTREE], ret[AGG_EXACT]);
}

/*
 * Not a copy of test_model.c's pick_value(): that one also draws past 1024
 * and from the parent's range, to exercise the writes the core rejects;
 * the two aggregators are compared here, on values in [0, 1024].
 */
static unsigned int pick_value(struct test_rand *r)
{
	static const unsigned int edge[] = { 0, 1, 63, 64, 1023, 1024 };

	if (test_rand_below(r, 4) == 0)
		return edge[test_rand_below(r, sizeof(edge) / sizeof(*edge))];
	return (unsigned int)test_rand_below(r, 1025);
}

static void group_write(struct test_rand *r)
{
	int g = (int)test_rand_below(r, GROUPS);
	int id = (int)test_rand_below(r, 2);
	int i, ret;

	mutex_lock(&glock);
	ret = cap_clamp_group_write(&groups[g], id, pick_value(r), &glock);
	mutex_unlock(&glock);
	if (ret)
		return;
	for (i = 0; i < ENTITIES; i++)
		if (group_of[i] == g && cpu_of[i] >= 0)
			both(UPD, i, cpu_of[i]);
}

static void compare(bool deep)
{
	struct cap_clamp_range r[2];
	const char *why;
	int b, c;

	for (c = 0; c < CPUS; c++) {
		for (b = 0; b < 2; b++) {
			cap_clamp_cpu_range(&w[b].cpu[c], &r[b]);
			why = deep ? agg_check(&w[b].cpu[c]) : NULL;
			if (why)
				fail_msg("seed %llu step %ld cpu%d %s: %s",
					 (unsigned long long)seed, step, c,
					 agg_backend_name[b], why);
		}
		if (r[0].min != r[1].min || r[0].max != r[1].max)
			fail_msg("seed %llu step %ld cpu%d: rbtree %u..%u, exact %u..%u",
				 (unsigned long long)seed, step, c, r[0].min,
				 r[0].max, r[1].min, r[1].max);
		if (cap_clamp_cpu_empty(&w[0].cpu[c]) !=
		    cap_clamp_cpu_empty(&w[1].cpu[c]))
			fail_msg("seed %llu step %ld cpu%d: emptiness differs",
				 (unsigned long long)seed, step, c);
	}
}

static void backends_agree(void **state)
{
	unsigned long warns = kcompat_warn_count;
	long writes = 0, max_queued = 0, queued = 0, min_queued = ENTITIES;
	struct test_rand r;

	(void)state;
	seed = test_seed();
	test_rand_init(&r, seed);
	setup_worlds();
	for (step = 0; step < STEPS; step++) {
		int i = (int)test_rand_below(&r, ENTITIES);
		int c = (int)test_rand_below(&r, CPUS);
		unsigned int k = (unsigned int)test_rand_below(&r, 128);
		/* out of 128, enqueue below, dequeue from: fill, drain, few */
		static const unsigned int stay_in[] = { 120, 1, 2 };
		unsigned int stay = stay_in[(step / 20000) % 3];

		if (k == 0) {
			group_write(&r);
			writes++;
		} else if (cpu_of[i] < 0) {
			if (k >= stay)
				continue;
			if (k < 8)
				group_of[i] = (int)test_rand_below(&r, GROUPS);
			both(ENQ, i, c);
			cpu_of[i] = c;
			queued++;
		} else if (k < 16) {
			both(DEQ, i, cpu_of[i]);	/* migration */
			both(ENQ, i, c);
			cpu_of[i] = c;
		} else if (k >= stay) {
			both(DEQ, i, cpu_of[i]);
			cpu_of[i] = -1;
			queued--;
		}
		if (queued > max_queued)
			max_queued = queued;
		if (queued < min_queued)
			min_queued = queued;
		compare(step % 512 == 0);
	}
	compare(true);
	print_message("%d steps (seed %llu): %ld group writes, %ld to %ld entities queued\n",
		      STEPS, (unsigned long long)seed, writes, min_queued,
		      max_queued);
	assert_true(max_queued > ENTITIES / 2);
	assert_true(min_queued < 4);
	assert_true(writes > STEPS / 200);
	assert_int_equal(kcompat_warn_count, warns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(backends_agree),
	};

	return cmocka_run_group_tests_name("backends_agree", tests, NULL, NULL);
}
