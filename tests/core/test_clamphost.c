/*
 * The one host of the core (src/clamphost): its negative errno values, the
 * range-changed callback with each cause, write then reposition, and
 * clamp_host_explain() agreeing with the core's own verdict on every
 * write of a matrix (so the words can never claim a rule the core does
 * not apply).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/errno.h>

#include "clamp_host.h"

static struct {
	unsigned int cpu[16];
	enum clamp_host_cause cause[16];
	int n;
} seen;

static void changed(void *ctx, unsigned int cpu, enum clamp_host_cause cause)
{
	(void)ctx;
	if (seen.n < 16) {
		seen.cpu[seen.n] = cpu;
		seen.cause[seen.n] = cause;
	}
	seen.n++;
}

static void range_is(struct clamp_host *h, unsigned int cpu, unsigned int min,
		     unsigned int max)
{
	struct cap_clamp_range r;

	assert_int_equal(clamp_host_range(h, cpu, &r), 0);
	assert_int_equal(r.min, min);
	assert_int_equal(r.max, max);
}

static void test_errors(void **state)
{
	struct clamp_host h;
	struct host_group *a, *b;
	struct host_entity *e;

	(void)state;
	assert_int_equal(clamp_host_init(&h, 2), 0);
	assert_int_equal(clamp_host_group_create(&h, "/a", &a), 0);
	assert_int_equal(clamp_host_group_create(&h, "/a", NULL), -EEXIST);
	assert_int_equal(clamp_host_group_create(&h, "/x/y", NULL), -ENOENT);
	assert_int_equal(clamp_host_group_create(&h, "a", NULL), -EINVAL);
	assert_int_equal(clamp_host_group_create(&h, "/a/", NULL), -EINVAL);
	assert_int_equal(clamp_host_group_create(&h, "/b", &b), 0);
	assert_ptr_equal(clamp_host_group(&h, "/a"), a);
	assert_null(clamp_host_group(&h, "/nope"));
	assert_null(clamp_host_entity(&h, 7));
	assert_int_equal(clamp_host_entity_get(&h, 7, &e), 0);
	assert_ptr_equal(clamp_host_entity(&h, 7), e);
	assert_int_equal(clamp_host_enqueue(&h, e, 2, a), -ERANGE);
	assert_int_equal(clamp_host_dequeue(&h, e), -EALREADY);
	assert_true(clamp_host_enqueue(&h, e, 0, a) >= 0);
	assert_int_equal(clamp_host_enqueue(&h, e, 1, a), -EBUSY);
	assert_true(clamp_host_dequeue(&h, e) >= 0);
	assert_int_equal(clamp_host_enqueue(&h, e, 0, b), -EXDEV);
	assert_int_equal(clamp_host_write(&h, a, CAP_CLAMP_MIN, 900), 0);
	assert_int_equal(clamp_host_write(&h, a, CAP_CLAMP_MAX, 800), -EINVAL);
	assert_int_equal(clamp_host_range(&h, 5, &(struct cap_clamp_range){ 0 }),
			 -ERANGE);
	/* the backend is chosen while nothing is RUNNABLE */
	assert_int_equal(clamp_host_set_backend(&h, "bucket"), -EINVAL);
	assert_int_equal(clamp_host_set_backend(&h, "rbtree"), 0);
	assert_string_equal(clamp_host_backend(&h), "rbtree");
	assert_int_equal(clamp_host_set_backend(&h, "exact"), 0);
	assert_string_equal(clamp_host_backend(&h), "exact");
	assert_true(clamp_host_enqueue(&h, e, 0, a) >= 0);
	assert_int_equal(clamp_host_set_backend(&h, "rbtree"), -EBUSY);
	clamp_host_destroy(&h);
}

static void test_callback_causes(void **state)
{
	struct clamp_host h;
	struct host_group *lo, *hi;
	struct host_entity *e1, *e2;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(clamp_host_init(&h, 2), 0);
	clamp_host_set_callback(&h, changed, NULL);
	assert_int_equal(clamp_host_group_create(&h, "/lo", &lo), 0);
	assert_int_equal(clamp_host_group_create(&h, "/hi", &hi), 0);
	assert_int_equal(clamp_host_write(&h, lo, CAP_CLAMP_MAX, 300), 0);
	assert_int_equal(seen.n, 0);		/* nothing RUNNABLE yet */
	assert_int_equal(clamp_host_entity_get(&h, 1, &e1), 0);
	assert_int_equal(clamp_host_entity_get(&h, 2, &e2), 0);

	/* an empty CPU is [0, 1024]; the first enqueue makes it [0, 300] */
	assert_int_equal(clamp_host_enqueue(&h, e1, 1, lo), 1);
	range_is(&h, 1, 0, 300);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.cpu[0], 1);
	assert_int_equal(seen.cause[0], CLAMP_HOST_ENQUEUE);
	/* a second task of the same group changes nothing, no call */
	assert_int_equal(clamp_host_enqueue(&h, e2, 1, lo), 0);
	assert_int_equal(seen.n, 1);
	/* a write repositions the RUNNABLE tasks: one call per change */
	assert_int_equal(clamp_host_write(&h, lo, CAP_CLAMP_MAX, 200), 0);
	range_is(&h, 1, 0, 200);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.cause[1], CLAMP_HOST_WRITE);
	/* a move re-reads the group: MAX of the maxes is 1024 */
	assert_int_equal(clamp_host_move(&h, e2, hi), 1);
	range_is(&h, 1, 0, 1024);
	assert_int_equal(seen.cause[2], CLAMP_HOST_MOVE);
	/* the boosted one leaves: back to the cap */
	assert_int_equal(clamp_host_dequeue(&h, e2), 1);
	range_is(&h, 1, 0, 200);
	assert_int_equal(seen.cause[3], CLAMP_HOST_DEQUEUE);
	/* a move of a task that is not RUNNABLE touches no CPU */
	assert_int_equal(clamp_host_move(&h, e2, lo), 0);
	assert_int_equal(seen.n, 4);
	range_is(&h, 0, 0, 1024);
	clamp_host_destroy(&h);
}

/* Every write of the matrix: explain() says "allowed" iff the core agrees */
static void test_explain_agrees_with_core(void **state)
{
	static const uint64_t values[] = {
		0, 1, 99, 100, 299, 300, 301, 511, 512, 700, 1023, 1024, 1025,
		1ull << 32, UINT64_MAX,
	};
	static const char *const paths[] = { "/", "/p", "/p/c1", "/p/c2", "/q" };
	struct clamp_host h;
	unsigned long writes = 0, refused = 0;
	size_t s, g, v;
	int id;

	(void)state;
	for (s = 0; s < 4; s++) {
		assert_int_equal(clamp_host_init(&h, 1), 0);
		assert_int_equal(clamp_host_group_create(&h, "/p", NULL), 0);
		assert_int_equal(clamp_host_group_create(&h, "/p/c1", NULL), 0);
		assert_int_equal(clamp_host_group_create(&h, "/p/c2", NULL), 0);
		assert_int_equal(clamp_host_group_create(&h, "/q", NULL), 0);
		/* four starting configurations of the hierarchy */
		if (s & 1) {
			clamp_host_write(&h, clamp_host_group(&h, "/p"),
					 CAP_CLAMP_MIN, 100);
			clamp_host_write(&h, clamp_host_group(&h, "/p/c1"),
					 CAP_CLAMP_MIN, 300);
		}
		if (s & 2) {
			clamp_host_write(&h, clamp_host_group(&h, "/p"),
					 CAP_CLAMP_MAX, 700);
			clamp_host_write(&h, clamp_host_group(&h, "/p/c2"),
					 CAP_CLAMP_MAX, 512);
		}
		for (g = 0; g < sizeof(paths) / sizeof(paths[0]); g++) {
			struct host_group *grp = clamp_host_group(&h, paths[g]);

			for (id = 0; id < 2; id++) {
				for (v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
					unsigned int before[2] = {
						grp->cg.value[0], grp->cg.value[1] };
					char why[512];
					int want = clamp_host_explain(&h, grp, id,
								      values[v],
								      why,
								      sizeof(why));
					int got = clamp_host_write(&h, grp, id,
								   values[v]);

					writes++;
					if (want != got)
						fail_msg("%s %s=%llu: explain %d (%s), core %d",
							 paths[g], id ? "max" : "min",
							 (unsigned long long)values[v],
							 want, why, got);
					if (got) {
						refused++;
						assert_true(strlen(why) > 10);
						continue;
					}
					/* put it back (the configuration before
					 * was valid, so this is too): the next
					 * write starts from the same one */
					assert_int_equal(clamp_host_write(&h, grp, id,
									  before[id]), 0);
				}
			}
		}
		clamp_host_destroy(&h);
	}
	/* both verdicts were exercised */
	assert_true(refused > 0 && refused < writes);
}

/*
 * The host's own count of the entities queued on a CPU (what the
 * simulator traces as clamp_nr) stays the core's aggregate count through
 * enqueue, move, a refused double enqueue and dequeue.
 */
static void nr_is(struct clamp_host *h, unsigned int cpu, unsigned int nr)
{
	assert_int_equal(clamp_host_nr_queued(h, cpu), nr);
	assert_int_equal(h->cpus[cpu].cc.nr, nr);
}

static void test_nr_queued(void **state)
{
	struct clamp_host h;
	struct host_group *a, *b;
	struct host_entity *e1, *e2;

	(void)state;
	assert_int_equal(clamp_host_init(&h, 2), 0);
	assert_int_equal(clamp_host_group_create(&h, "/a", &a), 0);
	assert_int_equal(clamp_host_group_create(&h, "/b", &b), 0);
	assert_int_equal(clamp_host_entity_get(&h, 1, &e1), 0);
	assert_int_equal(clamp_host_entity_get(&h, 2, &e2), 0);
	nr_is(&h, 0, 0);
	assert_true(clamp_host_enqueue(&h, e1, 0, a) >= 0);
	assert_true(clamp_host_enqueue(&h, e2, 0, b) >= 0);
	nr_is(&h, 0, 2);
	nr_is(&h, 1, 0);
	assert_int_equal(clamp_host_enqueue(&h, e1, 1, a), -EBUSY);
	assert_true(clamp_host_move(&h, e1, b) >= 0);
	nr_is(&h, 0, 2);
	nr_is(&h, 1, 0);
	assert_true(clamp_host_dequeue(&h, e2) >= 0);
	assert_int_equal(clamp_host_dequeue(&h, e2), -EALREADY);
	nr_is(&h, 0, 1);
	assert_true(clamp_host_enqueue(&h, e2, 1, b) >= 0);
	nr_is(&h, 1, 1);
	assert_int_equal(clamp_host_nr_queued(&h, 2), 0);	/* no such CPU */
	clamp_host_destroy(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_callback_causes),
		cmocka_unit_test(test_nr_queued),
		cmocka_unit_test(test_explain_agrees_with_core),
	};

	return cmocka_run_group_tests_name("clamphost", tests, NULL, NULL);
}
