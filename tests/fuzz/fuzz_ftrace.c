// SPDX-License-Identifier: GPL-2.0
/* The ftrace text reader (src/trace) on arbitrary lines, and the bounded
 * line reader the commands read traces with. */
#include <string.h>

#include "fuzz.h"
#include "ftrace.h"
#include "trace_file.h"

/* trace_lines_next() hands out every line: as many as the newlines, one
 * more for a last line without its newline */
static void check_lines(const uint8_t *data, size_t size)
{
	FILE *f = size ? fmemopen((void *)data, size, "r") : NULL;
	struct trace_lines r;
	size_t newlines = 0, i;
	long want;
	char *line;
	int k;

	if (!f)
		return;
	for (i = 0; i < size; i++)
		newlines += data[i] == '\n';
	want = (long)newlines + (data[size - 1] != '\n');
	trace_lines_init(&r, f);
	while ((k = trace_lines_next(&r, &line)) > 0)
		if (strlen(line) > TRACE_LINE_MAX)
			abort();
	/* inputs stay far below TRACE_LINE_MAX: no refusal, no error */
	if (k != 0 || r.lineno != want)
		abort();
	trace_lines_free(&r);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *line = text, *next;

	if (size < TRACE_LINE_MAX)
		check_lines(data, size);

	for (; line; line = next) {
		struct ftrace_event ev;
		const char *err;
		size_t len;
		int64_t v;
		int col, i, ret;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		len = strlen(line);	/* the parser cuts the line in place */
		ret = ftrace_parse_line(line, &ev, &err, &col);
		if (ret < 0) {
			/* the column points into the line */
			if (col < 1 || (size_t)col > len + 1)
				abort();
			continue;
		}
		if (ret == 0)	/* a comment or a blank line */
			continue;
		/* the CPU number's column is in the line */
		if (ev.cpu_col < 1 || (size_t)ev.cpu_col > len)
			abort();
		/* every string the event hands out must be readable */
		for (i = 0; i < ev.nr_fields; i++)
			if (strlen(ev.fields[i].key) + strlen(ev.fields[i].val) >
			    size)
				abort();
		(void)ftrace_get_i64(&ev, "cpu_id", &v);
		(void)ftrace_get(&ev, "prev_comm");
	}
	free(text);
	return 0;
}
