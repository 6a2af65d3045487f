// SPDX-License-Identifier: GPL-2.0
/* The ftrace text reader (src/trace) on arbitrary lines. */
#include <string.h>

#include "fuzz.h"
#include "ftrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *line = text, *next;

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
