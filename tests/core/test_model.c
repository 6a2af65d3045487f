/*
 * Randomized model check of the clamp core: 2 x 10^5 random operations
 * (enqueue, dequeue, migrate, group writes, group moves) on 4 CPUs over a
 * four-level group hierarchy; after every step each CPU's range must equal
 * a brute-force recomputation and every tree must pass the red-black and
 * order checks. CAPSIM_TEST_SEED=N reproduces a run; failures print it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/bug.h>
#include "impl_select.h"
#include "test_rand.h"

enum { CPUS = 4, TASKS = 64, STEPS = 200000 };

static int nr_groups;
static int parent_of[IMPL_MAX_GROUPS];

static void build_hierarchy(void)
{
	int i, j, k;

	nr_groups = 1;
	parent_of[0] = -1;
	for (i = 0; i < 3; i++) {
		int a = impl_group_new(0);

		parent_of[a] = 0;
		for (j = 0; j < 2; j++) {
			int b = impl_group_new(a);

			parent_of[b] = a;
			for (k = 0; k < 1; k++) {
				int c = impl_group_new(b);

				parent_of[c] = b;
			}
		}
	}
	nr_groups = 1 + 3 + 6 + 6;
}

static uint64_t pick_value(struct test_rand *r, int g, int id)
{
	static const uint64_t edge[] = {
		0, 1, 1023, 1024, 1025, 4096, UINT64_MAX,
	};
	int p = parent_of[g];
	unsigned int lo = p < 0 ? 0 : impl_group_value(p, 0);
	unsigned int hi = p < 0 ? 1024 : impl_group_value(p, 1);

	(void)id;
	switch (test_rand_below(r, 4)) {
	case 0:
		return edge[test_rand_below(r, sizeof(edge) / sizeof(*edge))];
	case 1:
		return test_rand_below(r, 1100);
	default:
		/* Inside the parent's range: mostly accepted. */
		return lo + test_rand_below(r, hi - lo + 1);
	}
}

static void model_check(void **state)
{
	uint64_t seed = test_seed();
	unsigned long warns = kcompat_warn_count;
	long accepted = 0, rejected = 0, moves = 0, migrations = 0;
	struct test_rand r;
	long step;

	(void)state;
	test_rand_init(&r, seed);
	impl_reset(selected_impl, CPUS);
	build_hierarchy();

	for (step = 0; step < STEPS; step++) {
		int t = (int)test_rand_below(&r, TASKS);
		int g = (int)test_rand_below(&r, nr_groups);
		int cpu = (int)test_rand_below(&r, CPUS);
		unsigned int before[CPUS][2];
		bool single = true;	/* one core call: exact change report */
		const char *why;
		int c;

		for (c = 0; c < CPUS; c++)
			impl_brute_range(c, &before[c][0], &before[c][1]);
		impl_changed_mask = 0;

		switch (test_rand_below(&r, 10)) {
		case 0: case 1: case 2:
			if (impl_queued(t))
				impl_dequeue(t);
			else
				impl_enqueue(t, cpu, impl_task_group(t));
			break;
		case 3:
			if (impl_queued(t)) {	/* migration */
				impl_dequeue(t);
				impl_enqueue(t, cpu, impl_task_group(t));
				migrations++;
				single = false;
			}
			break;
		case 4: case 5: case 6: case 7: {
			int id = (int)test_rand_below(&r, 2);

			if (impl_write(g, id, pick_value(&r, g, id)))
				rejected++;
			else
				accepted++;
			single = false;	/* one update per RUNNABLE task */
			if (!impl_hierarchy_valid())
				fail_msg("seed %llu step %ld: hierarchy broken",
					 (unsigned long long)seed, step);
			break;
		}
		default:
			/* sched_move_task(): dequeue, change group, enqueue */
			if (impl_queued(t)) {
				impl_dequeue(t);
				impl_enqueue(t, cpu, g);
			} else {
				impl_enqueue(t, cpu, g);
				impl_dequeue(t);
			}
			moves++;
			single = false;
			break;
		}

		why = impl_check_trees();
		if (why)
			fail_msg("seed %llu step %ld: %s",
				 (unsigned long long)seed, step, why);
		for (c = 0; c < CPUS; c++) {
			unsigned int mn, mx, bmn, bmx;
			bool changed;

			impl_range(c, &mn, &mx);
			impl_brute_range(c, &bmn, &bmx);
			if (mn != bmn || mx != bmx)
				fail_msg("seed %llu step %ld cpu%d: range %u..%u, expected %u..%u",
					 (unsigned long long)seed, step, c,
					 mn, mx, bmn, bmx);
			if (selected_impl != IMPL_CORE)
				continue;
			/*
			 * "range changed" must never be missed; for a single
			 * core call it must also never be claimed falsely.
			 */
			changed = before[c][0] != bmn || before[c][1] != bmx;
			if ((changed && !(impl_changed_mask & (1ul << c))) ||
			    (single && !changed &&
			     (impl_changed_mask & (1ul << c))))
				fail_msg("seed %llu step %ld cpu%d: change reported %d, range changed %d",
					 (unsigned long long)seed, step, c,
					 !!(impl_changed_mask & (1ul << c)),
					 changed);
		}
	}
	print_message("%d ops: %ld writes accepted, %ld rejected, %ld moves, %ld migrations (seed %llu)\n",
		      STEPS, accepted, rejected, moves, migrations,
		      (unsigned long long)seed);
	/* The run must have exercised both outcomes of a write. */
	assert_true(accepted > STEPS / 10);
	assert_true(rejected > STEPS / 20);
	assert_int_equal(kcompat_warn_count, warns);
	/* The core's write decisions are the RFC's (below 2^32). */
	assert_int_equal(impl_validation_disagreements, 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_check),
	};
	const char *filter;

	if (impl_select(argc, argv, &filter))
		return 99;
	return cmocka_run_group_tests_name("clamp_model", tests, NULL, NULL);
}
