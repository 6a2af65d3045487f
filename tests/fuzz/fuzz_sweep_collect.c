// SPDX-License-Identifier: GPL-2.0
/*
 * The files `sweep --collect` reads back from a sweep directory, which may
 * be edited by anyone who shares it: the input is sweep.json, point.json
 * and a point's summary.json, separated by form feeds (\f). Each is
 * parsed as --collect parses it (duplicate keys refused), checked
 * (sweep_plan_check, sweep_point_check, sweep_summary_check), and an
 * accepted summary is read into the run's figures
 * (run_metrics_from_summary) as --collect does.
 */
#include <string.h>

#include "fuzz.h"
#include "run_metrics.h"
#include "sweep.h"

static json_t *part(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *ff = memchr(*p, '\f', (size_t)(end - *p));
	const uint8_t *stop = ff ? ff : end;
	json_t *v = json_loadb((const char *)*p, (size_t)(stop - *p),
			       JSON_REJECT_DUPLICATES, NULL);

	*p = ff ? ff + 1 : end;
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	json_t *plan = part(&p, end), *pj = part(&p, end),
	       *sum = part(&p, end);
	json_t *params = NULL;
	char err[512];

	if (plan && !sweep_plan_check(plan, err, sizeof(err))) {
		params = json_object_get(plan, "params");
		if (!json_is_array(params) ||
		    json_integer_value(json_object_get(plan, "points")) < 1)
			abort();
	}
	if (pj && !sweep_point_check(pj, params, 1, err, sizeof(err))) {
		if (!json_is_string(json_object_get(pj, "policy")) ||
		    !json_is_string(json_object_get(pj, "command")))
			abort();
	}
	if (sum && !sweep_summary_check(sum, err, sizeof(err))) {
		struct run_metrics m;
		int i;

		run_metrics_from_summary(&m, sum);
		if (m.ntasks != (int)json_array_size(json_object_get(sum, "tasks")))
			abort();
		for (i = 0; i < m.ntasks; i++)
			if (!m.tasks[i].name)
				abort();
		i = run_metrics_main_task(&m);
		if (i >= m.ntasks)
			abort();
		run_metrics_free(&m);
	}
	json_decref(plan);
	json_decref(pj);
	json_decref(sum);
	return 0;
}
