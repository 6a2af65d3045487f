/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A platform file from a trace, for a capture without one
 * (`capsim platform infer`; import and plot without --platform):
 *
 *  - CPUs: every CPU an event names (its CPU column, a cpu_id= or cpu=);
 *  - frequency domains: the CPUs that change frequency together
 *    (domain_infer.h); CPUs without any frequency event share one
 *    domain of their own, at one OPP, said in "source";
 *  - OPPs: every frequency the trace shows a domain at;
 *  - capacities: a capacity event's capacity_orig (LISA's
 *    lisa__sched_cpu_capacity, 6.12's sched_cpu_capacity_tp) when every
 *    domain has a CPU with one (the largest of its CPUs', for all of
 *    them), else each domain's top frequency over the system's
 *    (an ASSUMPTION: the same work per cycle on every CPU), largest
 *    1024; each OPP's as the kernel's energy model computes performance,
 *    the CPU's capacity x kHz / top kHz, rounded down, at least 1;
 *  - power: SYNTHETIC, P = C x f x V^2 with V from 0.6 V at a domain's
 *    lowest OPP to 1.0 V at its top and C giving the system's top OPP
 *    1000 mW x its capacity / 1024: for trends between OPPs, not energy;
 *  - idle states: one per index cpu_idle shows (names state0, state1...;
 *    exit latency and target residency ASSUMED: 1 us for state 0, then
 *    100 us x index and 4 x that), a single WFI-like state without any.
 *
 * Every assumption made is listed in the file's "source", so a reader
 * of the file knows which numbers came from the trace.
 */
#ifndef CAPSIM_PLATFORM_INFER_H
#define CAPSIM_PLATFORM_INFER_H

#include "util.h"

/* More frequencies than this in one domain is not a cpufreq table */
#define PLATFORM_INFER_MAX_OPPS 256

/*
 * Read @path (any format trace_reader.h reads) and write the platform
 * file, named @name (a platform name: letters, digits, '-', '_', '.'),
 * into @out. 0; or TRACE_FILE_BAD / TRACE_FILE_IO with the message
 * printed (a trace with no event names no CPU: bad input).
 */
int platform_infer(const char *path, const char *name, struct strbuf *out);

#endif
