// SPDX-License-Identifier: GPL-2.0
/*
 * replay-levels TRACE PLATFORM: xcheck's levels 1-3 on one trace (any
 * format src/trace reads), every figure printed, their problems too, as
 * the guest's side is replayed (delayed dequeue searched, ticks unknown):
 * for tests/xcheck/guest-forms.sh to compare the forms of one trace.
 * Exit 0, or 2 when a level could not read the trace.
 */
#include <stdio.h>

#include "clamp_replay.h"
#include "decision_replay.h"
#include "pelt_replay.h"
#include "platform.h"

static void print_interval(const struct pelt_replay_interval *iv, void *arg)
{
	pelt_replay_print_interval(arg, iv);
}

int main(int argc, char **argv)
{
	struct clamp_replay_result l1;
	struct decision_replay_result l2;
	struct pelt_replay_result l3;
	struct decision_replay_opts dro = { .domain_clamp = true };
	struct pelt_replay_opts po = { .split_search = true,
				       .delay_dequeue = true,
				       .on_interval = print_interval };
	struct platform *p;
	struct diag d;
	int ret = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s TRACE PLATFORM\n", argv[0]);
		return 2;
	}
	diag_init(&d, false);
	p = platform_load(argv[2], &d);
	diag_free(&d);
	if (!p)
		return 2;
	dro.pl = po.platform = p;
	po.arg = stdout;
	if (clamp_replay_trace(argv[1], stdout, &l1))
		ret = 2;
	clamp_replay_print(stdout, &l1);
	if (decision_replay_trace(argv[1], &dro, stdout, &l2))
		ret = 2;
	printf("decisions %ld recomputed %ld matched %ld range/perf/khz mismatches %ld/%ld/%ld remote races %ld incomplete %ld seeded %ld changed %ld\n",
	       l2.decisions, l2.recomputed, l2.matched, l2.range_mismatch,
	       l2.perf_mismatch, l2.khz_mismatch, l2.remote_race,
	       l2.incomplete, l2.seeded, l2.changed);
	if (pelt_replay_trace(argv[1], &po, &l3))
		ret = 2;
	pelt_replay_print(stdout, &l3);
	platform_free(p);
	return ret;
}
