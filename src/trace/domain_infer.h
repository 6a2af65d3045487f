/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Frequency domains a trace shows without a platform: the CPUs that
 * change frequency together. cpufreq sets every CPU of a policy at once
 * and the kernel traces cpu_frequency for each of them, one after the
 * other (devlib's cpu_frequency_devlib markers read each CPU's current
 * frequency the same way); so:
 *
 *  - a burst is a run of frequency events each at most
 *    DOMAIN_BURST_NS after the previous one (a policy's events are
 *    microseconds apart; schedutil changes a policy at most every
 *    rate_limit_us, 500 us and more);
 *  - a CPU's signature is the list of (burst, the frequency it was set
 *    to last in that burst) over the bursts it appears in;
 *  - CPUs with the same signature are one domain; a CPU without any
 *    frequency event is in none (its frequency is unknown).
 *
 * Failure modes (docs/traces.md): two policies that are always set to
 * the same frequency in the same bursts (a trace with one snapshot where
 * both read the same frequency, or both pinned) are one domain; a policy
 * whose events are more than DOMAIN_BURST_NS apart (a loaded tracer) is
 * split; devlib's markers stand in for a CPU only until its first kernel
 * cpu_frequency, as in sched_state.c.
 */
#ifndef CAPSIM_DOMAIN_INFER_H
#define CAPSIM_DOMAIN_INFER_H

#include <stdint.h>

#define DOMAIN_BURST_NS 1000000ull

struct domain_guess {
	int ncpus;		/* CPUs [0, ncpus) seen with a frequency */
	int *dom;		/* per CPU: its domain, -1 none */
	int ndoms;		/* numbered by their lowest CPU */
};

/*
 * Read @path (any format trace_reader.h reads) for its frequency events
 * and infer @g: 0, or with the message printed TRACE_FILE_BAD /
 * TRACE_FILE_IO. A trace without frequency events gives no domain.
 */
int domain_infer(const char *path, struct domain_guess *g);
/* "{0,3-5},{1-2}": each domain's CPUs, ranges joined (caller frees) */
char *domain_guess_str(const struct domain_guess *g);
void domain_guess_free(struct domain_guess *g);

#endif
