// SPDX-License-Identifier: GPL-2.0
/*
 * sweep.csv's column names (src/whatif/sweep_columns.c), in process:
 *  - a --set path becomes an identifier a notebook can type: the
 *    containers and [*] left out, [a-z0-9_] only, never empty or led by
 *    a digit, unique (a clash numbered in --set order, the fixed
 *    columns never taken);
 *  - an earlier capsim's microsecond column (TASK.resp_p95_us,
 *    chain.NAME.lat_p50_us) is known as retired, with its ms name, and
 *    the hint for it says so; a plain typo gets the closest name;
 *  - a column on the Pareto axis reads as what it measures, in its unit;
 *  - a parameter's key on the Pareto labels: short, unique, typable.
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/check_main.h"
#include "sweep_columns.h"
#include "whatif.h"

/* The identifiers (@keys: the labels' keys) of @paths (NULL-ended),
 * joined by spaces */
static char *names_of(const char *const *paths, bool keys)
{
	json_t *params = json_array();
	char **ids, buf[1024] = "";
	int i;

	for (i = 0; paths[i]; i++)
		json_array_append_new(params, json_pack("{s:s}", "path",
							paths[i]));
	ids = keys ? sweep_param_keys(params) : sweep_param_columns(params);
	for (i = 0; ids[i]; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, ids[i]);
	}
	strv_free(ids);
	json_decref(params);
	return strdup(buf);
}

#define CK_NAMES(keys, want, ...) do { \
		const char *const p_[] = { __VA_ARGS__, NULL }; \
		char *got_ = names_of(p_, keys); \
		ck_assert_str_eq(got_, want); \
		free(got_); \
	} while (0)
#define CK_IDENTS(want, ...) CK_NAMES(false, want, __VA_ARGS__)
#define CK_KEYS(want, ...) CK_NAMES(true, want, __VA_ARGS__)

START_TEST(param_identifiers)
{
	CK_IDENTS("background_capacity_max",
		  "capsim.taskgroups[\"/background\"].capacity_max");
	CK_IDENTS("bg_batch_uclamp_max",
		  "capsim.taskgroups./bg/batch.uclamp_max");
	CK_IDENTS("domains_rate_limit_us", "platform.domains[*].rate_limit_us");
	CK_IDENTS("domains_1_opps_4_power_mw",
		  "platform.domains[1].opps[4].power_mw");
	CK_IDENTS("fg_run global_duration", "tasks.fg.run", "global.duration");
	CK_IDENTS("ui_thread_period", "tasks[\"UI Thread\"].period");
}
END_TEST

START_TEST(param_identifiers_unique)
{
	/* the same field in two documents, and a path that reads as a
	 * fixed column: numbered, in --set order */
	CK_IDENTS("domains_rate_limit_us domains_rate_limit_us_2",
		  "platform.domains[*].rate_limit_us",
		  "platform.domains[*].rate_limit_us");
	CK_IDENTS("policy_2 seed_2", "capsim.policy", "tasks.seed");
	/* nothing typable: a name still, never led by a digit */
	CK_IDENTS("param p_0_run", "capsim.taskgroups[\"/\"]",
		  "tasks[\"0\"].run");
}
END_TEST

START_TEST(label_keys)
{
	/* the last member, its last word that is not a unit when long */
	CK_KEYS("max min", "capsim.taskgroups[\"/bg\"].capacity_max",
		"capsim.taskgroups[\"/bg\"].capacity_min");
	CK_KEYS("limit", "platform.domains[*].rate_limit_us");
	CK_KEYS("run util_est power_mw", "tasks.fg.run", "capsim.util_est",
		"platform.domains[0].opps[4].power_mw");
	CK_KEYS("headroom", "capsim.dvfs_headroom");
	/* two alike, or an index last: their columns */
	CK_KEYS("bg_capacity_max fg_capacity_max",
		"capsim.taskgroups./bg.capacity_max",
		"capsim.taskgroups./fg.capacity_max");
	CK_KEYS("domains_0_opps_4", "platform.domains[0].opps[4]");
	/* a key that is no identifier keeps to [A-Za-z0-9_-] */
	CK_KEYS("UI_Thread", "tasks[\"UI Thread\"]");
}
END_TEST

START_TEST(retired_microsecond_names)
{
	char *s = sweep_retired_column("ui.resp_p95_us");
	char *known[] = { "energy_mj", "ui.resp_p95_ms", "ui.misses", NULL };

	ck_assert_str_eq(s, "ui.resp_p95_ms");
	free(s);
	s = sweep_retired_column("chain.frame.lat_p50_us");
	ck_assert_str_eq(s, "chain.frame.lat_p50_ms");
	free(s);
	s = sweep_retired_column("bg-2.wlat_p99_us");
	ck_assert_str_eq(s, "bg-2.wlat_p99_ms");
	free(s);
	/* no column had these names: nothing retired */
	ck_assert_ptr_null(sweep_retired_column("ui.misses_us"));
	ck_assert_ptr_null(sweep_retired_column("rate_limit_us"));
	ck_assert_ptr_null(sweep_retired_column("ui.resp_p95_ms"));
	s = sweep_metric_hint("ui.resp_p95_us", known);
	ck_assert_ptr_nonnull(strstr(s, "in ms"));
	ck_assert_ptr_nonnull(strstr(s, "did you mean \"ui.resp_p95_ms\"?"));
	free(s);
	s = sweep_metric_hint("ui.mises", known);
	ck_assert_str_eq(s, ": did you mean \"ui.misses\"?");
	free(s);
}
END_TEST

START_TEST(axis_labels)
{
	static const char *const want[][2] = {
		{ "ui.resp_p95_ms", "ui response p95 (ms)" },
		{ "bg-1.wlat_p99_ms", "bg-1 wake-up latency p99 (ms)" },
		{ "ui.misses", "ui deadline misses" },
		{ "chain.frame.jank_pct", "chain frame jank (%)" },
		{ "chain.frame.lat_p95_ms", "chain frame latency p95 (ms)" },
		{ "energy_mj", "energy (mJ)" },
		{ "dom1.avg_mhz", "dom1 average frequency (MHz)" },
		{ "energy_mj/1000", "energy_mj/1000" },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *s = sweep_axis_label(want[i][0]);

		ck_assert_str_eq(s, want[i][1]);
		free(s);
	}
}
END_TEST

int main(void)
{
	return check_main("sweep_columns", 0, CHECK_TESTS(
		param_identifiers, param_identifiers_unique, label_keys,
		retired_microsecond_names, axis_labels));
}
