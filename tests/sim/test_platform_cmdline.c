// SPDX-License-Identifier: GPL-2.0
/* capsim platform cmdline: a platform as the guest driver's parameters. */
#include "simtest.h"
#include "platform_cmdline.h"

static char *cmdline_of(const char *name_or_file, char *err, size_t errlen)
{
	struct strbuf sb;
	struct diag d;
	struct platform *p;
	char *out = NULL;

	diag_init(&d, true);
	p = platform_load(name_or_file, &d);
	ck_assert_msg(p != NULL, "%s: %s", name_or_file, d.log.buf);
	sb_init(&sb);
	if (!platform_kernel_cmdline(p, &sb, err, errlen))
		out = strdup(sb.buf);
	sb_free(&sb);
	platform_free(p);
	diag_free(&d);
	return out;
}

static char *cmdline_of_text(const char *text, char *err, size_t errlen)
{
	FILE *f = fopen("cmdline-platform.json", "w");
	char *out;

	fputs(text, f);
	fclose(f);
	out = cmdline_of("./cmdline-platform.json", err, errlen);
	remove("cmdline-platform.json");
	return out;
}

/* juno-r0: LITTLE CPUs 0,3-5 and big 1-2, in the platform file's order */
START_TEST(juno_domains_tables_capacities_power)
{
	char err[256];
	char *s = cmdline_of("juno-r0", err, sizeof(err));

	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s,
		"capsim_cpufreq.domains=0,3-5:1-2"
		" capsim_cpufreq.freqs=450000,575000,700000,775000,850000:450000,625000,800000,950000,1100000"
		" capsim_cpufreq.capacity=447:1024"
		" capsim_cpufreq.power=33,46,61,76,93:168,251,359,479,616"
		" capsim_cpufreq.latency_us=500:500"
		" capsim_cpufreq.rate_limit_us=750:750");
	free(s);
}
END_TEST

/* sym4 is the driver's default table: the same numbers, one domain */
START_TEST(sym4_is_the_driver_default)
{
	char err[256];
	char *s = cmdline_of("sym4", err, sizeof(err));

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(strstr(s, "capsim_cpufreq.domains=0-3 "));
	ck_assert_ptr_nonnull(strstr(s, " capsim_cpufreq.freqs=500000,1000000,1500000,2000000,2500000 "));
	ck_assert_ptr_nonnull(strstr(s, " capsim_cpufreq.capacity=1024 "));
	ck_assert_ptr_nonnull(strstr(s, " capsim_cpufreq.rate_limit_us=1000"));
	free(s);
}
END_TEST

/* CPU lists are sorted and ranges compressed, whatever the file's order */
START_TEST(cpulists_sorted_and_compressed)
{
	char err[256];
	char *s = cmdline_of_text(
		"{ \"name\": \"x\", \"cpus\": [\n"
		"  { \"id\": 0, \"capacity\": 1024, \"domain\": 1 },\n"
		"  { \"id\": 1, \"capacity\": 512, \"domain\": 0 },\n"
		"  { \"id\": 2, \"capacity\": 1024, \"domain\": 1 },\n"
		"  { \"id\": 3, \"capacity\": 1024, \"domain\": 1 } ],\n"
		"  \"domains\": [\n"
		"   { \"id\": 0, \"cpus\": [1], \"opps\": [ { \"khz\": 1000, \"capacity\": 512, \"power_mw\": 5 } ] },\n"
		"   { \"id\": 1, \"cpus\": [3, 0, 2], \"transition_latency_us\": 100,\n"
		"     \"opps\": [ { \"khz\": 1000, \"capacity\": 512, \"power_mw\": 7 },\n"
		"               { \"khz\": 2000, \"capacity\": 1024, \"power_mw\": 20 } ] } ] }",
		err, sizeof(err));

	ck_assert_msg(s != NULL, "%s", err);
	ck_assert_str_eq(s,
		"capsim_cpufreq.domains=1:0,2-3"
		" capsim_cpufreq.freqs=1000:1000,2000"
		" capsim_cpufreq.capacity=512:1024"
		" capsim_cpufreq.power=5:7,20"
		" capsim_cpufreq.latency_us=0:100"
		" capsim_cpufreq.rate_limit_us=1000:150");
	free(s);
}
END_TEST

START_TEST(rejects_what_the_guest_cannot_run)
{
	char err[256];
	char *s = cmdline_of("sd855", err, sizeof(err));

	/* sd855 has 8 CPUs: fits; 9 would not */
	ck_assert_ptr_nonnull(s);
	free(s);
	ck_assert_ptr_null(cmdline_of_text(
		"{ \"name\": \"x\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [0], \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 0 } ] } ] }",
		err, sizeof(err)));
	ck_assert_str_eq(err, "domain 0, OPP 1 kHz: power_mw 0 cannot go into an energy model (allowed: 1 to 1000000)");
	ck_assert_ptr_null(cmdline_of_text(
		"{ \"name\": \"x\", \"cpus\": [ { \"id\": 0, \"capacity\": 1024, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [0], \"rate_limit_us\": 0, \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] } ] }",
		err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "domain 0: rate_limit_us 0"));
	ck_assert_ptr_null(cmdline_of_text(
		"{ \"name\": \"x\", \"cpus\": [\n"
		"  { \"id\": 0, \"capacity\": 1024, \"domain\": 0 }, { \"id\": 1, \"capacity\": 1024, \"domain\": 0 },\n"
		"  { \"id\": 2, \"capacity\": 1024, \"domain\": 0 }, { \"id\": 3, \"capacity\": 1024, \"domain\": 0 },\n"
		"  { \"id\": 4, \"capacity\": 1024, \"domain\": 0 }, { \"id\": 5, \"capacity\": 1024, \"domain\": 0 },\n"
		"  { \"id\": 6, \"capacity\": 1024, \"domain\": 0 }, { \"id\": 7, \"capacity\": 1024, \"domain\": 0 },\n"
		"  { \"id\": 8, \"capacity\": 1024, \"domain\": 0 } ],\n"
		"  \"domains\": [ { \"id\": 0, \"cpus\": [0, 1, 2, 3, 4, 5, 6, 7, 8],\n"
		"     \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] } ] }",
		err, sizeof(err)));
	ck_assert_str_eq(err, "9 CPUs: the guest kernel has at most 8 (CONFIG_NR_CPUS)");
}
END_TEST

int main(void)
{
	return check_main("platform-cmdline", 0, CHECK_TESTS(
			  juno_domains_tables_capacities_power,
			  sym4_is_the_driver_default,
			  cpulists_sorted_and_compressed,
			  rejects_what_the_guest_cannot_run));
}
