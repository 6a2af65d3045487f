// SPDX-License-Identifier: GPL-2.0
/*
 * The platforms compiled into capsim. Each is the exact text
 * `capsim platform show NAME` prints, and goes through the same parser as a
 * platform file. Sources:
 *
 * sym4: the QEMU guest's virtual cpufreq driver table (kHz 500000..2500000,
 *   capacities 205..1024). The power_mw values are SYNTHETIC (roughly
 *   f * V^2 with V rising linearly); the idle states too.
 *
 * juno-r0: Arm Juno r0 energy model as published in LISA
 *   (libs/utils/platforms/juno_energy.py, itself from the EAS
 *   juno-sched-energy data): per-CPU busy power for A53 (CPUs 0,3,4,5) and
 *   A57 (CPUs 1,2); the A57 top capacity 1023 is normalized to 1024. Idle
 *   states: WFI power from the same model, cpu-sleep-0 latencies from the
 *   mainline arch/arm64/boot/dts/arm/juno.dts idle-states node. Cluster
 *   power is not modelled.
 *
 * sd855: a phone-like 4+3+1 tri-cluster (Snapdragon 855 / sm8150 class, as
 *   in Pixel 4): OPP frequencies from the sm8150 cpufreq tables, capacities
 *   from capacity-dmips-mhz (488 / 1024 / 1024) x frequency, power from the
 *   mainline sm8150.dtsi dynamic-power-coefficient (232 / 369 / 421) with
 *   the kernel EM formula P = dpc * MHz * V^2 and an ASSUMED linear voltage
 *   ramp (0.55 V up to 0.85 / 0.95 / 1.05 V); idle latencies from the
 *   sm8150.dtsi idle-states. Good for trends, not for absolute numbers.
 */
#include <stddef.h>
#include <string.h>

#include "platform.h"

static const char sym4[] =
"{\n"
"  \"name\": \"sym4\",\n"
"  \"description\": \"4 equal CPUs, one frequency domain: the QEMU guest's virtual cpufreq table\",\n"
"  \"source\": \"OPPs: capsim virtual cpufreq driver; power_mw: synthetic\",\n"
"  \"cpus\": [\n"
"    { \"id\": 0, \"capacity\": 1024, \"domain\": 0 },\n"
"    { \"id\": 1, \"capacity\": 1024, \"domain\": 0 },\n"
"    { \"id\": 2, \"capacity\": 1024, \"domain\": 0 },\n"
"    { \"id\": 3, \"capacity\": 1024, \"domain\": 0 }\n"
"  ],\n"
"  \"domains\": [\n"
"    { \"id\": 0, \"cpus\": [0, 1, 2, 3],\n"
"      \"transition_latency_us\": 0, \"rate_limit_us\": 1000,\n"
"      \"opps\": [\n"
"        { \"khz\": 500000, \"capacity\": 205, \"power_mw\": 60 },\n"
"        { \"khz\": 1000000, \"capacity\": 410, \"power_mw\": 160 },\n"
"        { \"khz\": 1500000, \"capacity\": 614, \"power_mw\": 320 },\n"
"        { \"khz\": 2000000, \"capacity\": 819, \"power_mw\": 560 },\n"
"        { \"khz\": 2500000, \"capacity\": 1024, \"power_mw\": 900 }\n"
"      ] }\n"
"  ],\n"
"  \"idle\": [\n"
"    { \"name\": \"WFI\", \"power_mw\": 12, \"exit_latency_us\": 1, \"target_residency_us\": 1 },\n"
"    { \"name\": \"cpu-sleep\", \"power_mw\": 1, \"exit_latency_us\": 150, \"target_residency_us\": 600 }\n"
"  ]\n"
"}\n";

static const char juno_r0[] =
"{\n"
"  \"name\": \"juno-r0\",\n"
"  \"description\": \"Arm Juno r0: 2 big (A57, CPUs 1-2) + 4 LITTLE (A53, CPUs 0,3-5)\",\n"
"  \"source\": \"LISA juno_energy.py (EAS energy model), juno.dts idle-states\",\n"
"  \"cpus\": [\n"
"    { \"id\": 0, \"capacity\": 447, \"domain\": 0 },\n"
"    { \"id\": 1, \"capacity\": 1024, \"domain\": 1 },\n"
"    { \"id\": 2, \"capacity\": 1024, \"domain\": 1 },\n"
"    { \"id\": 3, \"capacity\": 447, \"domain\": 0 },\n"
"    { \"id\": 4, \"capacity\": 447, \"domain\": 0 },\n"
"    { \"id\": 5, \"capacity\": 447, \"domain\": 0 }\n"
"  ],\n"
"  \"domains\": [\n"
"    { \"id\": 0, \"name\": \"little\", \"cpus\": [0, 3, 4, 5],\n"
"      \"transition_latency_us\": 500,\n"
"      \"opps\": [\n"
"        { \"khz\": 450000, \"capacity\": 235, \"power_mw\": 33 },\n"
"        { \"khz\": 575000, \"capacity\": 302, \"power_mw\": 46 },\n"
"        { \"khz\": 700000, \"capacity\": 368, \"power_mw\": 61 },\n"
"        { \"khz\": 775000, \"capacity\": 406, \"power_mw\": 76 },\n"
"        { \"khz\": 850000, \"capacity\": 447, \"power_mw\": 93 }\n"
"      ],\n"
"      \"idle\": [\n"
"        { \"name\": \"WFI\", \"power_mw\": 6, \"exit_latency_us\": 1, \"target_residency_us\": 1 },\n"
"        { \"name\": \"cpu-sleep-0\", \"power_mw\": 0, \"exit_latency_us\": 1200, \"target_residency_us\": 2000 }\n"
"      ] },\n"
"    { \"id\": 1, \"name\": \"big\", \"cpus\": [1, 2],\n"
"      \"transition_latency_us\": 500,\n"
"      \"opps\": [\n"
"        { \"khz\": 450000, \"capacity\": 417, \"power_mw\": 168 },\n"
"        { \"khz\": 625000, \"capacity\": 579, \"power_mw\": 251 },\n"
"        { \"khz\": 800000, \"capacity\": 744, \"power_mw\": 359 },\n"
"        { \"khz\": 950000, \"capacity\": 883, \"power_mw\": 479 },\n"
"        { \"khz\": 1100000, \"capacity\": 1024, \"power_mw\": 616 }\n"
"      ],\n"
"      \"idle\": [\n"
"        { \"name\": \"WFI\", \"power_mw\": 15, \"exit_latency_us\": 1, \"target_residency_us\": 1 },\n"
"        { \"name\": \"cpu-sleep-0\", \"power_mw\": 0, \"exit_latency_us\": 1200, \"target_residency_us\": 2000 }\n"
"      ] }\n"
"  ]\n"
"}\n";

static const char sd855[] =
"{\n"
"  \"name\": \"sd855\",\n"
"  \"description\": \"phone-like 4+3+1 tri-cluster (Snapdragon 855 class): 4 A55 + 3 A76 + 1 A76 prime\",\n"
"  \"source\": \"sm8150.dtsi capacity-dmips-mhz and dynamic-power-coefficient, assumed V/f ramp\",\n"
"  \"cpus\": [\n"
"    { \"id\": 0, \"capacity\": 307, \"domain\": 0 },\n"
"    { \"id\": 1, \"capacity\": 307, \"domain\": 0 },\n"
"    { \"id\": 2, \"capacity\": 307, \"domain\": 0 },\n"
"    { \"id\": 3, \"capacity\": 307, \"domain\": 0 },\n"
"    { \"id\": 4, \"capacity\": 872, \"domain\": 1 },\n"
"    { \"id\": 5, \"capacity\": 872, \"domain\": 1 },\n"
"    { \"id\": 6, \"capacity\": 872, \"domain\": 1 },\n"
"    { \"id\": 7, \"capacity\": 1024, \"domain\": 2 }\n"
"  ],\n"
"  \"domains\": [\n"
"    { \"id\": 0, \"name\": \"silver\", \"cpus\": [0, 1, 2, 3],\n"
"      \"transition_latency_us\": 0, \"rate_limit_us\": 500,\n"
"      \"opps\": [\n"
"        { \"khz\": 300000, \"capacity\": 52, \"power_mw\": 21 },\n"
"        { \"khz\": 576000, \"capacity\": 99, \"power_mw\": 49 },\n"
"        { \"khz\": 768000, \"capacity\": 132, \"power_mw\": 74 },\n"
"        { \"khz\": 1017600, \"capacity\": 175, \"power_mw\": 114 },\n"
"        { \"khz\": 1248000, \"capacity\": 214, \"power_mw\": 159 },\n"
"        { \"khz\": 1516800, \"capacity\": 260, \"power_mw\": 223 },\n"
"        { \"khz\": 1785600, \"capacity\": 307, \"power_mw\": 299 }\n"
"      ],\n"
"      \"idle\": [\n"
"        { \"name\": \"WFI\", \"power_mw\": 4, \"exit_latency_us\": 1, \"target_residency_us\": 1 },\n"
"        { \"name\": \"cpu-sleep-0\", \"power_mw\": 0, \"exit_latency_us\": 909, \"target_residency_us\": 3934 }\n"
"      ] },\n"
"    { \"id\": 1, \"name\": \"gold\", \"cpus\": [4, 5, 6],\n"
"      \"transition_latency_us\": 0, \"rate_limit_us\": 500,\n"
"      \"opps\": [\n"
"        { \"khz\": 710400, \"capacity\": 256, \"power_mw\": 79 },\n"
"        { \"khz\": 1056000, \"capacity\": 381, \"power_mw\": 155 },\n"
"        { \"khz\": 1401600, \"capacity\": 505, \"power_mw\": 262 },\n"
"        { \"khz\": 1766400, \"capacity\": 637, \"power_mw\": 414 },\n"
"        { \"khz\": 2016000, \"capacity\": 726, \"power_mw\": 545 },\n"
"        { \"khz\": 2419200, \"capacity\": 872, \"power_mw\": 806 }\n"
"      ],\n"
"      \"idle\": [\n"
"        { \"name\": \"WFI\", \"power_mw\": 10, \"exit_latency_us\": 1, \"target_residency_us\": 1 },\n"
"        { \"name\": \"cpu-sleep-0\", \"power_mw\": 0, \"exit_latency_us\": 1461, \"target_residency_us\": 4488 }\n"
"      ] },\n"
"    { \"id\": 2, \"name\": \"prime\", \"cpus\": [7],\n"
"      \"transition_latency_us\": 0, \"rate_limit_us\": 500,\n"
"      \"opps\": [\n"
"        { \"khz\": 825600, \"capacity\": 298, \"power_mw\": 105 },\n"
"        { \"khz\": 1286400, \"capacity\": 464, \"power_mw\": 239 },\n"
"        { \"khz\": 1708800, \"capacity\": 616, \"power_mw\": 425 },\n"
"        { \"khz\": 2131200, \"capacity\": 768, \"power_mw\": 685 },\n"
"        { \"khz\": 2419200, \"capacity\": 872, \"power_mw\": 910 },\n"
"        { \"khz\": 2841600, \"capacity\": 1024, \"power_mw\": 1319 }\n"
"      ],\n"
"      \"idle\": [\n"
"        { \"name\": \"WFI\", \"power_mw\": 12, \"exit_latency_us\": 1, \"target_residency_us\": 1 },\n"
"        { \"name\": \"cpu-sleep-0\", \"power_mw\": 0, \"exit_latency_us\": 1461, \"target_residency_us\": 4488 }\n"
"      ] }\n"
"  ]\n"
"}\n";

static const struct {
	const char *name;
	const char *text;
} embedded[] = {
	{ "sym4", sym4 },
	{ "juno-r0", juno_r0 },
	{ "sd855", sd855 },
};

int platform_embedded_count(void)
{
	return (int)(sizeof(embedded) / sizeof(embedded[0]));
}

const char *platform_embedded_name(int i)
{
	return embedded[i].name;
}

const char *platform_embedded_text(int i)
{
	return embedded[i].text;
}

const char *platform_embedded_find(const char *name)
{
	int i;

	for (i = 0; i < platform_embedded_count(); i++)
		if (!strcmp(embedded[i].name, name))
			return embedded[i].text;
	return NULL;
}
