/*
 * A trace's text where the import writes it (src/base/escape.c)
 * and --tasks compiled without back-references (import_ere.c): the bytes
 * a comm or a path may hold (any but NUL) never make invalid JSON, reach
 * a terminal as a control, or break a Markdown table's row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "import_ere.h"
#include "escape.h"
#include "util.h"

static void utf8_sequences(void **state)
{
	(void)state;
	assert_int_equal(utf8_seq_len("a"), 1);
	assert_int_equal(utf8_seq_len("\xc3\xa9"), 2);	/* é */
	assert_int_equal(utf8_seq_len("\xe2\x82\xac"), 3);	/* € */
	assert_int_equal(utf8_seq_len("\xf0\x9f\x98\x80"), 4);
	assert_int_equal(utf8_seq_len("\xff"), 0);
	assert_int_equal(utf8_seq_len("\x80"), 0);	/* a continuation */
	assert_int_equal(utf8_seq_len("\xc0\xaf"), 0);	/* overlong '/' */
	assert_int_equal(utf8_seq_len("\xed\xa0\x80"), 0);	/* surrogate */
	assert_int_equal(utf8_seq_len("\xf4\x90\x80\x80"), 0);	/* > U+10FFFF */
	assert_int_equal(utf8_seq_len("\xc3"), 0);	/* cut at the end */
	assert_true(utf8_valid("caf\xc3\xa9"));
	assert_false(utf8_valid("/a\xff"));
}

/* What json_put_str() makes of @s, parsed back by jansson */
static char *json_round_trip(const char *s)
{
	struct strbuf sb;
	json_error_t err;
	json_t *j;
	char *out;

	sb_init(&sb);
	json_put_str(&sb, s);
	j = json_loads(sb.buf, JSON_DECODE_ANY, &err);
	sb_free(&sb);
	if (!j)
		return NULL;
	out = xstrdup(json_string_value(j));
	json_decref(j);
	return out;
}

static void json_strings_always_valid(void **state)
{
	char *s;

	(void)state;
	s = json_round_trip("/a\"b\\c\x01\x7f\xc3\xa9");
	assert_non_null(s);
	assert_string_equal(s, "/a\"b\\c\x01\x7f\xc3\xa9");
	free(s);
	/* a byte that is no UTF-8 becomes U+FFFD: jansson refused it */
	s = json_round_trip("/a\xff" "b\xc3");
	assert_non_null(s);
	assert_string_equal(s, "/a\xef\xbf\xbd" "b\xef\xbf\xbd");
	free(s);
}

static char *escaped_for_terminal(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	term_put(f, s);
	fclose(f);
	return buf;
}

static void terminal_sees_no_control(void **state)
{
	char *s;

	(void)state;
	/* an escape sequence, a forged line, a C1 CSI, a stray byte */
	s = escaped_for_terminal("a\x1b[2Jb\nfake: ok\xc2\x9b\xff\\\xc3\xa9");
	assert_string_equal(s, "a\\x1b[2Jb\\x0afake: ok\\xc2\\x9b\\xff\\\\\xc3\xa9");
	free(s);
	s = term_escape_max("abcdef", 3);
	assert_string_equal(s, "abc...");
	free(s);
}

static void markdown_cell_stays_one_cell(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	md_put_cell(f, "a|b\nc*d`e\r");
	fclose(f);
	assert_string_equal(buf, "a\\|b\\x0ac*d`e\\x0d");
	assert_null(strchr(buf, '\n'));
	free(buf);
}

/* 0 when @re compiles, -1 (with why) when refused */
static int ere(const char *re, char *err, size_t n)
{
	regex_t r;

	if (import_ere_compile(&r, re, err, n))
		return -1;
	regfree(&r);
	return 0;
}

static void ere_without_back_references(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(ere("^(a*)*\\1b$", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "back-reference \\1 at offset 6"));
	assert_int_equal(ere("(x)(y)\\9", err, sizeof(err)), -1);
	/* inside a bracket a backslash is itself; an escaped one is too */
	assert_int_equal(ere("[\\1]", err, sizeof(err)), 0);
	assert_int_equal(ere("[]\\1]x", err, sizeof(err)), 0);
	assert_int_equal(ere("[[:alpha:]\\2]", err, sizeof(err)), 0);
	assert_int_equal(ere("a\\\\1", err, sizeof(err)), 0);
	assert_int_equal(ere("^(ui|render)-[0-9]+$", err, sizeof(err)), 0);
	/* ... and after a bracket it is one again */
	assert_int_equal(ere("([a])\\1", err, sizeof(err)), -1);
	/* a pattern the C library refuses says why */
	assert_int_equal(ere("(", err, sizeof(err)), -1);
	assert_true(err[0] != '\0');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(utf8_sequences),
		cmocka_unit_test(json_strings_always_valid),
		cmocka_unit_test(terminal_sees_no_control),
		cmocka_unit_test(markdown_cell_stays_one_cell),
		cmocka_unit_test(ere_without_back_references),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
