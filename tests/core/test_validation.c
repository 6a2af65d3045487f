/*
 * The group write rules of RFC patch 1, as a matrix: every group of a
 * parent/child/sibling hierarchy x both indexes x boundary values, in
 * several starting configurations. Each result is compared with the
 * "limits" model stated independently (after the write every group still
 * has min <= max and lies within its parent), and a failed write must leave
 * every group as it was. Hand-written cases pin the RFC's specifics.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/errno.h>
#include <linux/sched/cap_clamp.h>

enum { R, A, A1, A2, B, NG };
static const int parent[NG] = { -1, R, A, A, R };
static const char *const name[NG] = { "root", "A", "A/1", "A/2", "B" };

static struct cap_clamp_group g[NG];
static struct mutex lock;

static const uint64_t values[] = {
	0, 1, 99, 100, 101, 199, 200, 300, 511, 512, 700, 800, 801, 899, 900,
	1023, 1024, 1025, 4096, 1ull << 32, (1ull << 32) + 5, UINT64_MAX,
};

/* Starting points: {min, max} per group, each a valid hierarchy. */
static const unsigned int configs[][NG][2] = {
	{ { 0, 1024 }, { 0, 1024 }, { 0, 1024 }, { 0, 1024 }, { 0, 1024 } },
	{ { 100, 900 }, { 200, 800 }, { 300, 700 }, { 200, 800 },
	  { 100, 900 } },
	{ { 512, 512 }, { 512, 512 }, { 512, 512 }, { 512, 512 },
	  { 512, 512 } },
	{ { 0, 1024 }, { 1, 1023 }, { 1, 1 }, { 1023, 1023 }, { 1024, 1024 } },
};

static void load(const unsigned int cfg[NG][2])
{
	int i;

	mutex_init(&lock);
	cap_clamp_group_init_root(&g[R]);
	mutex_lock(&lock);
	for (i = 1; i < NG; i++)
		cap_clamp_group_link(&g[i], &g[parent[i]], &lock);
	mutex_unlock(&lock);
	for (i = 0; i < NG; i++) {
		g[i].value[CAP_CLAMP_MIN] = cfg[i][0];
		g[i].value[CAP_CLAMP_MAX] = cfg[i][1];
	}
}

static bool hierarchy_valid(unsigned int v[NG][2])
{
	int i;

	for (i = 0; i < NG; i++) {
		if (v[i][0] > v[i][1] || v[i][1] > 1024)
			return false;
		if (parent[i] >= 0 && (v[i][0] < v[parent[i]][0] ||
				       v[i][1] > v[parent[i]][1]))
			return false;
	}
	return true;
}

static void matrix(void **state)
{
	size_t c, k;
	int grp, id, total = 0, ok = 0;

	(void)state;
	for (c = 0; c < sizeof(configs) / sizeof(configs[0]); c++) {
		for (grp = 0; grp < NG; grp++) {
			for (id = 0; id < 2; id++) {
				for (k = 0; k < sizeof(values) / sizeof(*values); k++) {
					unsigned int before[NG][2], after[NG][2];
					uint64_t v = values[k];
					unsigned int cl = v > 1024 ? 1024 : (unsigned int)v;
					int i, ret, expect;

					load(configs[c]);
					for (i = 0; i < NG; i++) {
						before[i][0] = g[i].value[0];
						before[i][1] = g[i].value[1];
					}
					memcpy(after, before, sizeof(after));
					after[grp][id] = cl;
					expect = hierarchy_valid(after) ? 0 : -EINVAL;

					mutex_lock(&lock);
					ret = cap_clamp_group_write(&g[grp], id, v, &lock);
					mutex_unlock(&lock);
					if (ret != expect)
						fail_msg("config %zu: %s.%s = %llu returned %d, expected %d",
							 c, name[grp], id ? "max" : "min",
							 (unsigned long long)v, ret, expect);
					for (i = 0; i < NG; i++) {
						unsigned int *want = ret ? before[i] : after[i];

						if (g[i].value[0] != want[0] ||
						    g[i].value[1] != want[1])
							fail_msg("config %zu: %s.%s = %llu changed %s",
								 c, name[grp], id ? "max" : "min",
								 (unsigned long long)v, name[i]);
					}
					total++;
					ok += ret == 0;
				}
			}
		}
	}
	print_message("%d writes checked, %d accepted\n", total, ok);
	assert_true(ok > 0 && ok < total);
}

static int wr(int grp, int id, uint64_t v)
{
	int ret;

	mutex_lock(&lock);
	ret = cap_clamp_group_write(&g[grp], id, v, &lock);
	mutex_unlock(&lock);
	return ret;
}

static void rfc_specifics(void **state)
{
	unsigned int clamped = 0;

	(void)state;
	load(configs[0]);
	/* Above the scale clamps to it, including the largest u64. */
	assert_int_equal(wr(B, CAP_CLAMP_MAX, 1025), 0);
	assert_int_equal(g[B].value[CAP_CLAMP_MAX], 1024);
	assert_int_equal(wr(B, CAP_CLAMP_MAX, UINT64_MAX), 0);
	assert_int_equal(g[B].value[CAP_CLAMP_MAX], 1024);
	/* 2^32 is above the scale, not 0 (the RFC's min_t(unsigned int)). */
	assert_int_equal(cap_clamp_group_check(&g[B], CAP_CLAMP_MIN,
					       1ull << 32, &clamped), 0);
	assert_int_equal(clamped, 1024);
	/* The root is tunable: it has no parent to respect. */
	assert_int_equal(wr(R, CAP_CLAMP_MIN, 0), 0);
	assert_int_equal(wr(A1, CAP_CLAMP_MAX, 600), 0);
	assert_int_equal(wr(A2, CAP_CLAMP_MAX, 600), 0);
	assert_int_equal(wr(A, CAP_CLAMP_MAX, 600), 0);
	assert_int_equal(wr(B, CAP_CLAMP_MAX, 600), 0);
	assert_int_equal(wr(R, CAP_CLAMP_MAX, 600), 0);
	/* Children cannot be widened beyond the parent ... */
	assert_int_equal(wr(A1, CAP_CLAMP_MAX, 601), -EINVAL);
	/* ... nor a parent narrowed below a child. */
	assert_int_equal(wr(A, CAP_CLAMP_MAX, 500), -EINVAL);
	/* Writing the current value always succeeds. */
	assert_int_equal(wr(A, CAP_CLAMP_MAX, 600), 0);
	/* Siblings do not constrain each other. */
	assert_int_equal(wr(A1, CAP_CLAMP_MIN, 400), 0);
	assert_int_equal(wr(A2, CAP_CLAMP_MIN, 100), 0);
	assert_int_equal(wr(A, CAP_CLAMP_MIN, 101), -EINVAL); /* A2 at 100 */
	assert_int_equal(wr(A, CAP_CLAMP_MIN, 100), 0);
	/* min above own max, max below own min */
	assert_int_equal(wr(A1, CAP_CLAMP_MIN, 601), -EINVAL);
	assert_int_equal(wr(A1, CAP_CLAMP_MAX, 399), -EINVAL);
	/* Bad index */
	assert_int_equal(cap_clamp_group_check(&g[A], CAP_CLAMP_CNT, 5,
					       &clamped), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matrix),
		cmocka_unit_test(rfc_specifics),
	};

	return cmocka_run_group_tests_name("group_validation", tests, NULL,
					   NULL);
}
