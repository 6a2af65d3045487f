// SPDX-License-Identifier: GPL-2.0
/*
 * pelt-replay TRACE [PLATFORM [HZ]]: the signal replay of one trace,
 * printed, for measuring by hand until capsim xcheck wires it (not
 * installed). HZ: the ticks are known (a capsim trace: its --hz, 250).
 * PELT_REPLAY_ALL=1 in the environment lists every inexact interval;
 * PELT_REPLAY_DELAY=1 searches delayed dequeues (a 6.12 kernel's trace).
 * Exit 0 when every uniform interval is exact or explained by one
 * unlogged update, 1 if not, 2 on an error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pelt_replay.h"
#include "platform.h"

static void list_inexact(const struct pelt_replay_interval *iv, void *arg)
{
	if (!iv->exact)
		pelt_replay_print_interval(arg, iv);
}

int main(int argc, char **argv)
{
	struct pelt_replay_opts o = { .split_search = true };
	struct pelt_replay_result r;
	const struct pelt_replay_stats *a = &r.cls[PELT_REPLAY_UNIFORM];
	struct diag d;
	struct platform *p;
	int ret;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: %s TRACE [PLATFORM [HZ]]\n", argv[0]);
		return 2;
	}
	diag_init(&d, false);
	if (argc == 4 && atoi(argv[3]) > 0)
		o.tick_ns = 1000000000u / (unsigned int)atoi(argv[3]);
	p = platform_load(argc >= 3 ? argv[2] : PLATFORM_DEFAULT, &d);
	diag_free(&d);
	if (!p)
		return 2;
	o.platform = p;
	o.delay_dequeue = getenv("PELT_REPLAY_DELAY") != NULL;
	if (getenv("PELT_REPLAY_ALL")) {
		o.on_interval = list_inexact;
		o.arg = stdout;
	}
	ret = pelt_replay_trace(argv[1], &o, &r);
	pelt_replay_print(stdout, &r);
	platform_free(p);
	if (ret)
		return 2;
	return a->exact + a->split_at_tick == a->n ? 0 : 1;
}
