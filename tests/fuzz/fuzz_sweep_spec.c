// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's --set PATH=SPEC as `capsim sweep` takes it: the path parsed
 * (dpath_parse), the SPEC turned into values (sweep_spec_parse), and the
 * first value set into a small fixed workload at that path, as the
 * sweep's trial edit does. The first byte says whether the value replaces
 * an integer. Checked: an accepted SPEC gives 1 to SWEEP_MAX_POINTS
 * values, and no two of its numbers are equal (no duplicate points).
 */
#include <string.h>

#include "docpath.h"
#include "fuzz.h"
#include "sweep.h"

static const char workload[] =
	"{ \"global\": { \"duration\": 1 },"
	"  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 300 } },"
	"              \"events\": [ { \"at_ms\": 5, \"group\": \"/bg\", \"capacity_max\": 10 } ] },"
	"  \"tasks\": { \"fg\": { \"run\": 3000, \"timer\": { \"ref\": \"t\", \"period\": 8000 } },"
	"             \"bg\": { \"instance\": 3, \"taskgroup\": \"/bg\", \"run\": 20000, \"sleep\": 1000 } } }";

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void check_values(const struct sweep_values *sv)
{
	double *nums;
	int k, n = 0;

	if (sv->n < 1 || sv->n > SWEEP_MAX_POINTS)
		abort();
	nums = calloc((size_t)sv->n, sizeof(double));
	if (!nums)
		abort();
	for (k = 0; k < sv->n; k++) {
		if (!sv->v[k])
			abort();
		if (json_is_number(sv->v[k]))
			nums[n++] = json_number_value(sv->v[k]);
	}
	if (n > 1) {
		qsort(nums, (size_t)n, sizeof(double), cmp_double);
		for (k = 1; k < n; k++)
			if (nums[k] == nums[k - 1])
				abort();	/* duplicate points */
	}
	free(nums);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweep_values sv;
	struct dpath path;
	char err[512], *text, *eq;
	bool want_int;
	json_t *root;

	if (!size)
		return 0;
	want_int = data[0] & 1;
	text = fuzz_text(data + 1, size - 1);
	eq = strchr(text, '=');
	if (!eq) {
		/* a bare SPEC */
		if (!sweep_spec_parse(text, want_int, &sv, err, sizeof(err))) {
			check_values(&sv);
			sweep_values_free(&sv);
		}
		free(text);
		return 0;
	}
	*eq = '\0';
	if (dpath_parse(text, &path, err, sizeof(err))) {
		free(text);
		return 0;
	}
	if (!sweep_spec_parse(eq + 1, want_int, &sv, err, sizeof(err))) {
		check_values(&sv);
		root = json_loads(workload, 0, NULL);
		if (!root)
			abort();	/* the fixed workload is valid JSON */
		(void)dpath_get(root, &path);
		(void)dpath_set(root, &path, json_deep_copy(sv.v[0]), err,
				sizeof(err));
		(void)dpath_drop(root, &path, err, sizeof(err));
		json_decref(root);
		sweep_values_free(&sv);
	}
	dpath_free(&path);
	free(text);
	return 0;
}
