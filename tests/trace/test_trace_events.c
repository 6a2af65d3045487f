/*
 * The event table (src/trace/trace_events.def) against what it claims:
 *  - each row's record struct (struct td_rec_*, laid out by the compiler
 *    as the kernel lays out TP_STRUCT__entry) has the offsets and fixed
 *    size the format files say (td_field_offset(), td_fixed_size()), so
 *    the records the model puts by offsetof() decode by the formats;
 *  - every guest-kernel event of kernel/glue's patches has a row of its
 *    name whose text format (the fields' literals and conversions) is
 *    its TP_printk's format string, character for character: the model
 *    prints what the guest prints, and a trace.dat of either decodes.
 * Usage: test_trace_events SOURCE_ROOT
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tracedat_events.h"

static const char *root;

/* Each row's members checked against the format's layout */
#define TF(kind, n) \
	assert_int_equal(offsetof(te_rec, n), td_field_offset(e, i)); \
	last = offsetof(te_rec, n) + sizeof(((te_rec *)0)->n); \
	i++;
#define TFL(kind, n, lit) TF(kind, n)
#define CHECK_ROW(tag, flds) do { \
	typedef struct td_rec_##tag te_rec; \
	const struct td_event *e = &td_events[TD_ROW_##tag]; \
	size_t last = 0; \
	int i = 0; \
	flds \
	assert_null(e->fields[i].name); \
	assert_int_equal(last, td_fixed_size(e)); \
	rows++; \
} while (0);

static void records_have_the_formats_layout(void **state)
{
	int rows = 0;

	(void)state;
#define TE_EVENT(name, system, id, fmt, fields) CHECK_ROW(name, fields)
#define TE_LAYOUT(tag, name, system, id, fmt, fields) CHECK_ROW(tag, fields)
#include "trace_events.def"
	assert_int_equal(rows, TD_NROWS);
}
#undef TF
#undef TFL

/* Each row's text format, as a printf format */
#define TE_CONV_INT "%d"
#define TE_CONV_INT03 "%03d"
#define TE_CONV_PID "%d"
#define TE_CONV_UINT "%u"
#define TE_CONV_U32 "%u"
#define TE_CONV_ULONG "%lu"
#define TE_CONV_U64 "%llu"
#define TE_CONV_S64 "%lld"
#define TE_CONV_UL_U "%lu"
#define TE_CONV_U_UL "%u"
#define TE_CONV_COMM "%s"
#define TE_CONV_STR "%s"
#define TE_CONV_STATE "%s"
#define TF(kind, n) " " #n "=" TE_CONV_##kind
#define TFL(kind, n, lit) lit TE_CONV_##kind
static const struct {
	const char *name;
	const char *text;	/* with the first field's space */
} texts[] = {
#define TE_EVENT(name, system, id, fmt, fields) { #name, fields },
#define TE_LAYOUT(tag, name, system, id, fmt, fields) { #name, fields },
#include "trace_events.def"
};
#undef TF
#undef TFL

/* A row of @name prints @fmt */
static int has_text(const char *name, const char *fmt, int *named)
{
	size_t k;

	for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		if (strcmp(texts[k].name, name))
			continue;
		(*named)++;
		if (!strcmp(texts[k].text + 1, fmt))
			return 1;
	}
	return 0;
}

static void table_knows_a_format(void **state)
{
	int named = 0;

	(void)state;
	assert_true(has_text("sched_wakeup",
			     "comm=%s pid=%d prio=%d target_cpu=%03d", &named));
	/* and says when it does not: a conversion or a field changed */
	assert_false(has_text("sched_wakeup",
			      "comm=%s pid=%d prio=%d target_cpu=%d", &named));
	assert_false(has_text("capsim_sugov_cpu", "dom=%d", &named));
}

/* The text between TP_printk(" and the next unescaped quote */
static char *printk_fmt(const char *p)
{
	const char *q = strstr(p, "TP_printk(\"");
	const char *end;

	if (!q)
		return NULL;
	q += strlen("TP_printk(\"");
	for (end = q; *end && (*end != '"' || end[-1] == '\\'); end++)
		;
	return strndup(q, (size_t)(end - q));
}

/* "MACRO(a, b," at @p: the @k-th name (0 or 1), into @out */
static int macro_arg(const char *p, const char *macro, int k, char *out,
		     size_t n)
{
	const char *q = strstr(p, macro);
	size_t len;

	if (!q || q != p)
		return 0;
	q += strlen(macro);
	while (k-- > 0) {
		q = strchr(q, ',');
		if (!q)
			return 0;
		q++;
	}
	while (*q == ' ' || *q == '\t')
		q++;
	len = strcspn(q, ", )\t\n");
	if (!len || len >= n)
		return 0;
	memcpy(out, q, len);
	out[len] = '\0';
	return 1;
}

struct kevent {
	char name[64], cls[64];
	char *fmt;
};

/* The patch's events: TRACE_EVENT*, DECLARE_EVENT_CLASS, DEFINE_EVENT* */
static int read_patch(const char *path, struct kevent *ev, int nev, int max)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int cur = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;
		char *fmt;

		if (*p++ != '+')
			continue;
		assert_true(nev < max);
		memset(&ev[nev], 0, sizeof(ev[nev]));
		if (macro_arg(p, "TRACE_EVENT(", 0, ev[nev].name, 64) ||
		    macro_arg(p, "TRACE_EVENT_FN(", 0, ev[nev].name, 64) ||
		    macro_arg(p, "DECLARE_EVENT_CLASS(", 0, ev[nev].name, 64)) {
			cur = nev++;
		} else if ((macro_arg(p, "DEFINE_EVENT(", 1, ev[nev].name, 64) &&
			    macro_arg(p, "DEFINE_EVENT(", 0, ev[nev].cls, 64)) ||
			   (macro_arg(p, "DEFINE_EVENT_FN(", 1, ev[nev].name, 64) &&
			    macro_arg(p, "DEFINE_EVENT_FN(", 0, ev[nev].cls, 64))) {
			nev++;
			cur = -1;
		} else if (cur >= 0 && (fmt = printk_fmt(p))) {
			ev[cur].fmt = fmt;
			cur = -1;
		}
	}
	fclose(f);
	return nev;
}

static void guest_tp_printk_match_the_table(void **state)
{
	static struct kevent ev[256];
	char dir[4096], path[8192];
	struct dirent *d;
	DIR *dp;
	int nev = 0, i, j, checked = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/kernel/glue", root);
	dp = opendir(dir);
	assert_non_null(dp);
	while ((d = readdir(dp))) {
		size_t n = strlen(d->d_name);

		if (n < 6 || strcmp(d->d_name + n - 6, ".patch"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		nev = read_patch(path, ev, nev, 256);
	}
	closedir(dp);
	for (i = 0; i < nev; i++) {
		const char *fmt = ev[i].fmt;
		int named = 0;

		for (j = 0; !fmt && ev[i].cls[0] && j < nev; j++)
			if (!strcmp(ev[j].name, ev[i].cls))
				fmt = ev[j].fmt;
		if (!fmt) {
			fail_msg("%s: no TP_printk found", ev[i].name);
		}
		/* a class alone is no event */
		if (!ev[i].cls[0] && strstr(ev[i].name, "template"))
			continue;
		if (!strcmp(ev[i].name, "cap_clamp_task"))
			continue;
		if (!has_text(ev[i].name, fmt, &named))
			fail_msg("%s: the guest prints \"%s\"; %s", ev[i].name,
				 fmt, named ? "no row of trace_events.def of that name prints it" :
				 "trace_events.def has no row of that name");
		checked++;
	}
	/* 0006's five, 0011's two, 0012's seven */
	assert_int_equal(checked, 14);
	for (i = 0; i < nev; i++)
		free(ev[i].fmt);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_have_the_formats_layout),
		cmocka_unit_test(table_knows_a_format),
		cmocka_unit_test(guest_tp_printk_match_the_table),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_trace_events SOURCE_ROOT\n");
		return 2;
	}
	root = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
