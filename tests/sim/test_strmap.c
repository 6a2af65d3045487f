// SPDX-License-Identifier: GPL-2.0
/*
 * strmap, the inputs' one hash table: a key is found in its own namespace
 * only, through every growth; a key mapped again maps to the later entry
 * (jsondoc's rule for a member written twice); a missing key is -1.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

#define N 100000

struct entry {
	uint64_t ns;
	char name[16];
};

static struct entry *entries;

static bool same_entry(const void *ctx, int idx, uint64_t ns,
		       const char *key, size_t len)
{
	const struct entry *e = &((const struct entry *)ctx)[idx];

	return e->ns == ns && strlen(e->name) == len &&
	       !memcmp(e->name, key, len);
}

static int get(const struct strmap *m, uint64_t ns, const char *key)
{
	return strmap_get(m, ns, key, strlen(key), same_entry, entries);
}

/* Entry @i: the name "k<i/2>" in namespace i % 2 */
static void put(struct strmap *m, int i)
{
	entries[i].ns = (uint64_t)(i % 2);
	snprintf(entries[i].name, sizeof(entries[i].name), "k%d", i / 2);
	strmap_put(m, entries[i].ns, entries[i].name,
		   strlen(entries[i].name), i, same_entry, entries);
}

START_TEST(empty_map_finds_nothing)
{
	struct strmap m = { 0 };

	ck_assert_int_eq(get(&m, 0, "a"), -1);
	strmap_free(&m);
}
END_TEST

START_TEST(each_key_in_its_namespace_through_growth)
{
	struct strmap m = { 0 };
	char key[16];
	int i;

	for (i = 0; i < N; i++)
		put(&m, i);
	ck_assert_uint_eq(m.n, N);
	ck_assert_uint_ge(m.cap, 2 * m.n);	/* at most half full */
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "k%d", i / 2);
		ck_assert_int_eq(get(&m, (uint64_t)(i % 2), key), i);
	}
	/* same names, a namespace never used; a name never put */
	ck_assert_int_eq(get(&m, 2, "k0"), -1);
	ck_assert_int_eq(get(&m, 0, "k50000"), -1);
	/* the length is the key's: "k1" is not "k12"'s prefix */
	ck_assert_int_eq(strmap_get(&m, 0, "k12", 2, same_entry, entries), 2);
	strmap_free(&m);
	ck_assert_uint_eq(m.cap, 0);
}
END_TEST

START_TEST(later_entry_wins)
{
	struct strmap m = { 0 };

	put(&m, 0);		/* "k0" in namespace 0 */
	put(&m, 1);		/* "k0" in namespace 1 */
	entries[2] = entries[0];
	strmap_put(&m, 0, "k0", 2, 2, same_entry, entries);
	ck_assert_int_eq(get(&m, 0, "k0"), 2);
	ck_assert_int_eq(get(&m, 1, "k0"), 1);
	ck_assert_uint_eq(m.n, 2);
	strmap_free(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("strmap");
	TCase *tc = tcase_create("strmap");
	SRunner *sr;
	int failed;

	entries = calloc(N, sizeof(*entries));
	tcase_add_test(tc, empty_map_finds_nothing);
	tcase_add_test(tc, each_key_in_its_namespace_through_growth);
	tcase_add_test(tc, later_entry_wins);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(entries);
	return failed ? 1 : 0;
}
