/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A platform as kernel command line parameters of the capsim guest's
 * virtual cpufreq driver (kernel/glue, drivers/cpufreq/capsim-cpufreq.c):
 * the same platform file drives the simulator and the guest.
 */
#ifndef CAPSIM_PLATFORM_CMDLINE_H
#define CAPSIM_PLATFORM_CMDLINE_H

#include "platform.h"
#include "util.h"

/* kernel/config/capsim.config: CONFIG_NR_CPUS */
#define GUEST_MAX_CPUS 8

/*
 * Append "capsim_cpufreq.domains=... freqs=... capacity=... power=...
 * latency_us=... rate_limit_us=..." to @out. Returns 0, or -1 with the
 * reason in @err when the guest cannot run @p.
 */
int platform_kernel_cmdline(const struct platform *p, struct strbuf *out,
			    char *err, size_t errlen);

#endif
