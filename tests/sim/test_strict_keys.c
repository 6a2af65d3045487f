// SPDX-License-Identifier: GPL-2.0
/*
 * capsim's own keys are checked strictly (a typo there runs another
 * experiment than the one written): unknown or misplaced keys and events
 * the run never reaches are input errors with file:line:col and a
 * suggestion; rt-app's unknown keys warn, and are errors under --strict.
 * Also the command line's usage errors and the edges of the JSON reader.
 */
#include "clitest.h"
#include "spelling.h"

/* validate @text (with @flag if not NULL): its exit status and stderr */
static char *validate(const char *text, const char *flag, int *rc)
{
	put_file("k.json", text);
	return flag ? cli_stderr(rc, "validate", flag, "k.json", NULL) :
		      cli_stderr(rc, "validate", "k.json", NULL);
}

static void expect(const char *text, const char *flag, int want_rc,
		   const char *want)
{
	int rc;
	char *err = validate(text, flag, &rc);

	ck_assert_msg(rc == want_rc, "exit %d, not %d, for:\n%s\n%s", rc,
		      want_rc, text, err);
	ck_assert_msg(strstr(err, want), "expected \"%s\" in:\n%s", want, err);
	free(err);
}

START_TEST(edit_distance)
{
	const char *const keys[] = { "capacity_min", "capacity_max", NULL };
	const char *const plat[] = { "sym4", "juno-r0", "sd855", NULL };

	ck_assert_int_eq(spelling_distance("platfrom", "platform"), 1);
	ck_assert_int_eq(spelling_distance("capacity_mx", "capacity_max"), 1);
	ck_assert_int_eq(spelling_distance("", "abc"), 3);
	ck_assert_int_eq(spelling_distance("kitten", "sitting"), 3);
	ck_assert_str_eq(spelling_suggest("capacity_mx", keys), "capacity_max");
	ck_assert_str_eq(spelling_suggest("sd885", plat), "sd855");
	/* equal is no typo; three edits away is no guess */
	ck_assert_ptr_null(spelling_suggest("capacity_max", keys + 1));
	ck_assert_ptr_null(spelling_suggest("sym4", plat + 1));
	ck_assert_ptr_null(spelling_suggest("abc", plat));
}
END_TEST

#define TASK "\"tasks\": { \"t\": { \"run\": 1000, \"sleep\": 1000, \"taskgroup\": \"/bg\" } }"

START_TEST(capsim_typos_are_errors_with_suggestion)
{
	expect("{ " TASK ",\n  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_mx\": 256 } } } }",
	       NULL, 2, "k.json:2:55: error: capsim.taskgroups[\"/bg\"].capacity_mx: unknown key \"capacity_mx\": did you mean \"capacity_max\"?");
	expect("{ " TASK ",\n  \"capsim\": { \"platfrom\": \"sd855\" } }",
	       NULL, 2, "k.json:2:27: error: capsim.platfrom: unknown key \"platfrom\": did you mean \"platform\"?");
	expect("{ " TASK ",\n  \"capsim\": { \"events\": [ { \"at_ms\": 5, \"group\": \"/bg\", \"capacity_maximum\": 5 } ] } }",
	       NULL, 2, "capsim.events[0].capacity_maximum: unknown key \"capacity_maximum\": allowed at_ms, group, capacity_min, capacity_max");
	/* far from every key: the allowed ones */
	expect("{ " TASK ",\n  \"capsim\": { \"frobnicate\": 1 } }", NULL, 2,
	       "unknown key \"frobnicate\": allowed taskgroups, events, platform");
	/* "capsim" itself mistyped would drop the whole object */
	expect("{ " TASK ",\n  \"capism\": { \"platform\": \"sd855\" } }", NULL, 2,
	       "k.json:2:13: error: capism: unknown key \"capism\": did you mean \"capsim\"?");
	/* an unknown platform name */
	expect("{ " TASK ",\n  \"capsim\": { \"platform\": \"sd885\" } }", NULL, 2,
	       "k.json:2:27: error: capsim.platform: unknown platform \"sd885\": did you mean \"sd855\"?");
}
END_TEST

START_TEST(misplaced_capsim_keys_are_errors)
{
	expect("{ " TASK ",\n  \"global\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 256 } } } }",
	       NULL, 2, "k.json:2:29: error: global.taskgroups: \"taskgroups\" is one of capsim's own keys: it belongs in the top-level \"capsim\" object");
	expect("{ \"tasks\": { \"t\": { \"run\": 1000, \"capacity_max\": 256 } } }",
	       NULL, 2, "tasks.t.capacity_max: \"capacity_max\" is one of capsim's own keys: it belongs in a group of capsim.taskgroups");
	expect("{ \"tasks\": { \"t\": { \"phases\": { \"p\": { \"run\": 1000, \"platform\": \"sd855\" } } } } }",
	       NULL, 2, "tasks.t.phases.p.platform: \"platform\" is one of capsim's own keys");
}
END_TEST

START_TEST(rtapp_unknown_keys_warn_unless_strict)
{
	const char *w = "{ \"global\": { \"duraton\": 1 },\n  \"tasks\": { \"t\": { \"run\": 1000, \"instnce\": 2 } } }";

	expect(w, NULL, 0, "k.json:1:26: warning: global.duraton: unknown key \"duraton\", ignored: did you mean \"duration\"?");
	expect(w, NULL, 0, "tasks.t.instnce: unknown key \"instnce\", ignored: did you mean \"instance\"?");
	expect(w, "--strict", 2, "k.json:1:26: error: global.duraton: unknown key \"duraton\" (rt-app ignores it; --strict): did you mean \"duration\"?");
	/* keys capsim knows but does not model stay warnings */
	expect("{ \"global\": { \"logdir\": \"/tmp\" }, \"tasks\": { \"t\": { \"run\": 1 } } }",
	       "--strict", 0, "no effect in simulation");
}
END_TEST

START_TEST(events_after_the_end)
{
	const char *w = "{ \"global\": { \"duration\": 2 }, " TASK ",\n"
			"  \"capsim\": { \"events\": [ { \"at_ms\": 2000, \"group\": \"/bg\", \"capacity_max\": 5 } ] } }";
	int rc;
	char *err;

	remove_run_dir("out-late");
	expect(w, NULL, 2, "k.json:2:38: error: capsim.events[0].at_ms: 2000 ms is at or after the end of the run (global.duration: 2000 ms): the write would never happen");
	err = cli_stderr(&rc, "run", "k.json", "-o", "out-late", NULL);
	ck_assert_int_eq(rc, 2);
	ck_assert(!exists("out-late"));
	free(err);
	/* --duration cutting the run short is a shorter look: a warning */
	err = cli_stderr(&rc, "run", "k.json", "--duration", "1", "-o",
			 "out-late", "--quiet", NULL);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_msg(strstr(err, "warning: capsim.events[0].at_ms: 2000 ms is at or after the end of the run (--duration: 1000 ms): this write does not happen"),
		      "%s", err);
	free(err);
	/* just before the end is fine */
	put_file("k.json", "{ \"global\": { \"duration\": 2 }, " TASK ",\n"
	    "  \"capsim\": { \"events\": [ { \"at_ms\": 1999, \"group\": \"/bg\", \"capacity_max\": 5 } ] } }");
	ck_assert_int_eq(cli("validate", "k.json", NULL), 0);
}
END_TEST

START_TEST(capsim_repeated_keys_are_errors)
{
	expect("{ " TASK ",\n  \"capsim\": { \"taskgroups\": { \"/bg\": { \"capacity_max\": 256, \"capacity_max\": 128 } } } }",
	       NULL, 2, "\"capacity_max\" is repeated: capsim's own keys must be unique");
}
END_TEST

START_TEST(usage_errors_say_see_help)
{
	char *w = src("traces/audio.json");

	expect_short_usage("capsim: unknown policy \"bogus\": allowed rfc, none, uclamp\n", "run", "run", w, "--policy", "bogus", NULL);
	expect_short_usage("capsim: unknown clamp order \"5\": allowed 6.12, 4.10\n", "run", "run", w, "--clamp-order", "5", NULL);
	expect_short_usage("capsim: unknown domain rule \"x\": allowed rfc, nonidle\n", "run", "run", w, "--domain-rule", "x", NULL);
	expect_short_usage("capsim: unknown platform \"sd885\": did you mean \"sd855\"?\n", "run", "run", w, "--platform", "sd885", NULL);
	expect_short_usage("capsim: unknown platform \"nope\" (see `capsim platforms`", "validate", "validate", "--platform", "nope", w, NULL);
	expect_short_usage("capsim: unknown option: --bogus\n", "validate", "validate", "--bogus", w, NULL);
	expect_short_usage("capsim: unknown platform \"sym5\": did you mean \"sym4\"?\n", "platform", "platform", "show", "sym5", NULL);
	expect_short_usage("capsim: unknown platform \"nope\"", "platform", "platform", "cmdline", "nope", NULL);
	free(w);
}
END_TEST

START_TEST(empty_file_at_column_one)
{
	expect("", NULL, 2, "k.json:1:1: error: '[' or '{' expected near end of file");
}
END_TEST

int main(void)
{
	return check_main("strict_keys", 120, CHECK_TESTS(
		edit_distance,
		capsim_typos_are_errors_with_suggestion,
		misplaced_capsim_keys_are_errors,
		rtapp_unknown_keys_warn_unless_strict,
		events_after_the_end,
		capsim_repeated_keys_are_errors,
		usage_errors_say_see_help,
		empty_file_at_column_one));
}
