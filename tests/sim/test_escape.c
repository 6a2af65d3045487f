// SPDX-License-Identifier: GPL-2.0
/* Names from inputs written into a CSV field, a terminal, a Markdown
 * cell (src/base/escape.c): what each destination gets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "escape.h"

/* What @put writes for @s, in @out (of @n bytes) */
static void written(void (*put)(FILE *, const char *), const char *s,
		    char *out, size_t n)
{
	FILE *f = tmpfile();
	size_t len;

	ck_assert_ptr_nonnull(f);
	put(f, s);
	rewind(f);
	len = fread(out, 1, n - 1, f);
	out[len] = '\0';
	fclose(f);
}

#define ck_writes(put, in, want) do { \
	char got_[256]; \
	written(put, in, got_, sizeof(got_)); \
	ck_assert_str_eq(got_, want); \
} while (0)

START_TEST(csv_plain_and_quoted)
{
	ck_writes(csv_put_field, "render", "render");
	ck_writes(csv_put_field, "a,b", "\"a,b\"");
	ck_writes(csv_put_field, "say \"hi\"", "\"say \"\"hi\"\"\"");
	ck_writes(csv_put_field, "two\nlines", "\"two\nlines\"");
	ck_writes(csv_put_field, "", "");
}
END_TEST

START_TEST(csv_formulas_get_an_apostrophe)
{
	ck_writes(csv_put_field, "=2+5", "'=2+5");
	ck_writes(csv_put_field, "+cmd", "'+cmd");
	ck_writes(csv_put_field, "-x", "'-x");
	ck_writes(csv_put_field, "@SUM(A1)", "'@SUM(A1)");
	ck_writes(csv_put_field, "\tx", "'\tx");
	/* quoted and guarded: the apostrophe inside the quotes */
	ck_writes(csv_put_field, "=HYPERLINK(\"h\",\"x\")",
		  "\"'=HYPERLINK(\"\"h\"\",\"\"x\"\")\"");
	ck_writes(csv_put_field, "=1,2", "\"'=1,2\"");
}
END_TEST

START_TEST(csv_numbers_stay_numbers)
{
	ck_writes(csv_put_field, "-1", "-1");
	ck_writes(csv_put_field, "-1.5e3", "-1.5e3");
	ck_writes(csv_put_field, "+7", "+7");
	ck_assert(!csv_field_is_formula("-0.25"));
	ck_assert(csv_field_is_formula("- 1"));
	ck_assert(csv_field_is_formula("-1x"));
	ck_assert(!csv_field_is_formula("a=b"));
}
END_TEST

START_TEST(terminal_control_bytes_escaped)
{
	char *e = term_escape("a\033[2Jb\nc\\d\x7f");

	ck_assert_str_eq(e, "a\\x1b[2Jb\\x0ac\\\\d\\x7f");
	free(e);
	ck_writes(term_put, "plain-name_1", "plain-name_1");
	/* UTF-8 passes: a terminal shows it as text; a stray byte and a
	 * C1 control (U+009B, CSI) do not */
	ck_writes(term_put, "caf\xc3\xa9", "caf\xc3\xa9");
	ck_writes(term_put, "a\xff" "b\xc2\x9b", "a\\xffb\\xc2\\x9b");
}
END_TEST

START_TEST(markdown_cell_keeps_its_columns)
{
	ck_writes(md_put_cell, "a|b", "a\\|b");
	ck_writes(md_put_cell, "two\nlines\r", "two\\x0alines\\x0d");
	ck_writes(md_put_cell, "back\\slash", "back\\\\slash");
	ck_writes(md_put_cell, "ui_thread", "ui_thread");
}
END_TEST

int main(void)
{
	return check_main("escape", 0, CHECK_TESTS(csv_plain_and_quoted,
			  csv_formulas_get_an_apostrophe,
			  csv_numbers_stay_numbers,
			  terminal_control_bytes_escaped,
			  markdown_cell_keeps_its_columns));
}
