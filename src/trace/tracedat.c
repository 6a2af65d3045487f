// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "trace_file.h"
#include "tracedat.h"
#include "tracedat_events.h"
#include "tracedat_write.h"

struct conv {
	const char *name;
	char *err;
	size_t errlen;
	long line;
	struct tdw *w;
	bool io_error;			/* the failure is a write's */
	/* per row of td_events that is the first of its name: the line
	 * that chose the layout its events have (td_event_match) */
	long layout_line[TD_NROWS];
};

static int fail(struct conv *c, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct conv *c, int col, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->errlen, "%s:%ld:%d: ", c->name, c->line, col);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool parse_num(const char *s, bool is_signed, uint64_t *out)
{
	char *end;

	errno = 0;
	if (is_signed)
		*out = (uint64_t)strtoll(s, &end, 10);
	else
		*out = strtoull(s, &end, 10);
	return *s && !*end && !errno && (is_signed || *s != '-');
}

/* The binary record of @ev, as the kernel's TP_fast_assign fills it */
static int build_record(struct conv *c, const struct ftrace_event *ev,
			const struct td_event *e)
{
	int f, k;

	tdw_begin(c->w, e, ev->pid);
	for (k = 0; k < ev->nr_fields; k++) {
		for (f = 0; e->fields[f].name; f++)
			if (!strcmp(e->fields[f].name, ev->fields[k].key))
				break;
		if (!e->fields[f].name)
			return fail(c, 1, "%s: field \"%s\" is not in the event's format (add it to src/trace/trace_events.def)",
				    e->name, ev->fields[k].key);
	}
	for (f = 0; e->fields[f].name; f++) {
		const char *v = ftrace_get(ev, e->fields[f].name);
		enum td_type t = e->fields[f].type;
		size_t off = td_field_offset(e, f);
		uint64_t x;
		bool ok;

		if (!v)
			return fail(c, 1, "%s: no field \"%s\"", e->name,
				    e->fields[f].name);
		switch (t) {
		case TD_COMM:
			tdw_put_comm(c->w, off, v);
			continue;
		case TD_STR:
			tdw_put_str(c->w, off, v);
			continue;
		case TD_TASK_STATE:
			ok = tdw_task_state(v, &x);
			break;
		default:
			ok = parse_num(v, t == TD_INT || t == TD_PID ||
				       t == TD_LONG, &x);
			break;
		}
		if (!ok)
			return fail(c, 1, "%s: %s=%s is not a valid value",
				    e->name, e->fields[f].name, v);
		tdw_put(c->w, off, x, td_field_size(t));
	}
	return 0;
}

/* One layout per event in a file: the first line of it chooses */
static int take_layout(struct conv *c, const struct td_event *e)
{
	size_t i = (size_t)(td_event_find(e->name) - td_events);
	const struct td_event *had = tdw_layout(c->w, e);

	if (!had) {
		tdw_set_layout(c->w, e);
		c->layout_line[i] = c->line;
	} else if (had != e) {
		return fail(c, 1, "%s: other fields than at line %ld (a trace.dat holds one layout per event)",
			    e->name, c->layout_line[i]);
	}
	return 0;
}

/* "#P:N", the CPU count a trace's header declares: [1, TD_CPU_MAX] */
static int header_cpus(struct conv *c, char *line, const char *p)
{
	const char *num = p + 3;
	char *end;
	long n;

	errno = 0;
	n = strtol(num, &end, 10);
	if (end == num || errno || n < 1 || n > TD_CPU_MAX)
		return fail(c, (int)(num - line) + 1,
			    "#P:%.20s: the CPU count is out of range: allowed [1, %d]",
			    num, TD_CPU_MAX);
	tdw_cpus(c->w, (int)n);
	return 0;
}

/*
 * The kernel prints a trace_marker write as "tracing_mark_write: TEXT"
 * (the print entry's %ps of its caller, then the text): it becomes that
 * entry again, its whole text the buf. Any other event's text is fields.
 */
static void marker_or_fields(struct ftrace_event *ev, char *body)
{
	if (strcmp(ev->name, "tracing_mark_write")) {
		ftrace_split_fields(body, ev);
		return;
	}
	while (*body == ' ')
		body++;
	ev->name = "print";
	ev->nr_fields = 2;
	ev->fields[0].key = "ip";
	ev->fields[0].val = "0";
	ev->fields[1].key = "buf";
	ev->fields[1].val = body;
}

static int read_events(struct conv *c, FILE *in)
{
	struct trace_lines lines;
	char *line;
	int ret = 0, r;

	trace_lines_init(&lines, in);
	while (!ret && (r = trace_lines_next(&lines, &line)) > 0) {
		struct ftrace_event ev;
		const struct td_event *e;
		const char *msg, *p;
		char *body;
		int col, k, rc;

		c->line = lines.lineno;
		if ((p = strstr(line, "#P:")) && line[0] == '#') {
			ret = header_cpus(c, line, p);
			continue;
		}
		k = ftrace_parse_head(line, &ev, &body, &msg, &col);
		if (k < 0) {
			ret = fail(c, col, "%s", msg);
			break;
		}
		if (!k)
			continue;
		marker_or_fields(&ev, body);
		e = td_event_match(&ev);
		if (!e) {
			ret = fail(c, 1, "event \"%s\" has no format (add it to src/trace/trace_events.def)",
				   ev.name);
			break;
		}
		ret = take_layout(c, e);
		if (ret)
			break;
		if (ev.cpu < 0 || ev.cpu >= TD_CPU_MAX) {
			ret = fail(c, ev.cpu_col, "CPU %d is out of range: allowed [0, %d]",
				   ev.cpu, TD_CPU_MAX - 1);
			break;
		}
		tdw_cpus(c->w, ev.cpu + 1);
		tdw_comm(c->w, ev.pid, ev.comm);
		ret = build_record(c, &ev, e);
		if (ret)
			break;
		rc = tdw_commit(c->w, ev.cpu, ev.ts_ns);
		if (rc == TDW_TIME_BACK) {
			ret = fail(c, 1, "time goes back on CPU %d", ev.cpu);
		} else if (rc) {
			c->io_error = true;
			ret = fail(c, 1, "cannot write a scratch file: %s",
				   strerror(errno));
		}
	}
	if (!ret && r < 0) {
		c->line = lines.lineno;
		c->io_error = r == TRACE_FILE_IO;
		ret = fail(c, 1, "%s%s", r == TRACE_FILE_IO ?
			   "read error: " : "", lines.err);
	}
	trace_lines_free(&lines);
	return ret;
}

int tracedat_convert(FILE *in, const char *in_name, FILE *out, char *err,
		     size_t errlen)
{
	struct conv c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.name = in_name;
	c.err = err;
	c.errlen = errlen;
	c.w = tdw_new();
	ret = read_events(&c, in);
	if (!ret && !tdw_ncpus(c.w))
		ret = fail(&c, 1, "no CPU: neither a #P: header nor an event");
	if (!ret && tdw_write(c.w, out)) {
		c.io_error = true;
		ret = fail(&c, 1, "write error: %s", strerror(errno));
	}
	tdw_free(c.w);
	return ret && c.io_error ? TRACEDAT_IO_ERROR : ret;
}
