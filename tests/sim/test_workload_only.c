// SPDX-License-Identifier: GPL-2.0
/* The workload parser links on its own (capsim_workload_dep), as the
 * guest runner will use it: every traces/ workload parses cleanly. */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>

#include "util.h"
#include "workload.h"

START_TEST(traces_parse_without_the_simulator)
{
	static const char *const files[] = {
		"audio.json", "video-playback.json", "bg-batch-capped.json",
		"rt-capped.json", "whatif-bg-cap.json",
	};
	const char *root = getenv("CAPSIM_SRCDIR");
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = xasprintf("%s/traces/%s", root ? root : "../..", files[i]);
		struct diag d;
		struct workload *wl;

		diag_init(&d, true);
		wl = workload_load(p, &d);
		ck_assert_msg(wl != NULL, "%s: %s", p, d.log.buf);
		ck_assert_int_eq(d.warnings, 0);
		ck_assert_int_gt(wl->ntasks, 0);
		workload_free(wl);
		diag_free(&d);
		free(p);
	}
}
END_TEST

int main(void)
{
	return check_main("workload", 0, CHECK_TESTS(
			  traces_parse_without_the_simulator));
}
