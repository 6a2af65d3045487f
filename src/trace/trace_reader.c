// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_reader.h"
#include "trace_reader.h"
#include "trace_sniff.h"

/* trace.dat's first bytes (trace-cmd's Documentation/trace-cmd.dat.v7.5) */
static const char dat_magic[] = "\x17\x08\x44tracing";

const char *trace_format_name(enum trace_format f)
{
	switch (f) {
	case TRACE_FMT_HTML:
		return "systrace HTML";
	case TRACE_FMT_DAT:
		return "trace.dat";
	case TRACE_FMT_PERFETTO:
		return "Perfetto protobuf";
	default:
		return "ftrace text";
	}
}

bool trace_reader_is_dat(FILE *f)
{
	char head[sizeof(dat_magic) - 1];
	size_t n = fread(head, 1, sizeof(head), f);

	rewind(f);
	return n == sizeof(head) && !memcmp(head, dat_magic, sizeof(head));
}

bool trace_reader_is_perfetto(FILE *f)
{
	unsigned char head[TRACE_SNIFF_BYTES];
	size_t n = fread(head, 1, sizeof(head), f);

	rewind(f);
	return trace_sniff_perfetto(head, n);
}

/* Zero @r but for its inputs (sched_only, only) */
static void reset(struct trace_reader *r, const char *name)
{
	bool sched_only = r->sched_only;
	const char *only = r->only;

	memset(r, 0, sizeof(*r));
	r->sched_only = sched_only;
	r->only = only ? only : sched_only ? ": sched_" : NULL;
	r->path = name;
}

int trace_reader_open_as(struct trace_reader *r, const char *path,
			 const char *name)
{
	enum trace_file_err err;
	FILE *f = trace_file_open(path, &err);

	reset(r, name);
	if (!f)
		return err;
	if (trace_reader_is_dat(f)) {
		fclose(f);
		r->format = TRACE_FMT_DAT;
		return trace_dat_open(path, name, &r->dat);
	}
	r->f = f;
	r->format = TRACE_FMT_TEXT;
	if (trace_reader_is_perfetto(f)) {
		r->format = TRACE_FMT_PERFETTO;
		r->pf = trace_pf_open(f, name);
		if (r->pf)
			return 0;
		fclose(f);
		r->f = NULL;
		return TRACE_FILE_BAD;
	}
	{
		unsigned char head[TRACE_SNIFF_BYTES];
		size_t n = fread(head, 1, sizeof(head), f);
		const char *what;

		rewind(f);
		if ((what = trace_sniff_other(head, n)) != NULL) {
			fprintf(stderr, "capsim: %s is %s: not a trace capsim reads (it reads %s)\n",
				name, what, TRACE_FORMS_READ);
			fclose(f);
			r->f = NULL;
			return TRACE_FILE_BAD;
		}
	}
	trace_lines_init(&r->lines, f);
	return 0;
}

int trace_reader_open(struct trace_reader *r, const char *path)
{
	return trace_reader_open_as(r, path, path);
}

int trace_reader_open_stream(struct trace_reader *r, FILE *f,
			     const char *name)
{
	reset(r, name);
	r->f = f;
	r->borrowed = true;
	r->format = TRACE_FMT_TEXT;
	trace_lines_init(&r->lines, f);
	return 0;
}

void trace_reader_close(struct trace_reader *r)
{
	if (r->dat)
		trace_dat_close(r->dat);
	if (r->pf) {
		trace_pf_close(r->pf);
		r->pf = NULL;
	}
	if (r->f) {
		trace_lines_free(&r->lines);
		if (!r->borrowed)
			fclose(r->f);
	}
	r->dat = NULL;
	r->f = NULL;
}

int trace_reader_col(const struct trace_reader *r, const char *at)
{
	if (!r->line || !at || at < r->line || at > r->line + r->line_len)
		return 1;
	return (int)(at - r->line) + 1;
}

static int bad(struct trace_reader *r, const char *at, const char *msg)
{
	fprintf(stderr, "%s:%ld:%d: error: %s\n", r->path, r->lineno,
		trace_reader_col(r, at), msg);
	return TRACE_FILE_BAD;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * trace-cmd report's lines that are no event: "version = 6", "cpus=6",
 * "CPU 3 is empty", and the "CPU:3 [LOST 12 EVENTS]" that it and the
 * kernel print where a buffer overflowed (counted in r->lost), the
 * kernel's "##### CPU 2 buffer started ####", atrace's "TRACE:" before
 * the text it dumps.
 */
static bool header_line(struct trace_reader *r, const char *s)
{
	const char *lost;

	while (*s == ' ')
		s++;
	if (starts(s, "version = ") || starts(s, "cpus=") ||
	    starts(s, "##### CPU ") || !strcmp(s, "TRACE:"))
		return true;
	if (starts(s, "CPU ") && strstr(s, " is empty"))
		return true;
	if (starts(s, "CPU:") && (lost = strstr(s, "[LOST ")) != NULL) {
		r->lost += strtol(lost + 6, NULL, 10);
		return true;
	}
	return false;
}

/* @s is @tag alone, blanks (and a CR) around it */
static bool only_tag(const char *s, const char *tag)
{
	size_t n = strlen(tag);

	s += strspn(s, " \t");
	return !strncmp(s, tag, n) && !s[n + strspn(s + n, " \t\r")];
}

/* Whether @s is a trace line: its head parses (on a copy) */
static bool trace_line(const char *s)
{
	static char copy[TRACE_LINE_MAX + 1];
	struct ftrace_event ev;
	const char *err;
	char *body;
	int col;

	snprintf(copy, sizeof(copy), "%s", s);
	return ftrace_parse_head(copy, &ev, &body, &err, &col) > 0;
}

/*
 * systrace's HTML: the trace is the text of a <script class="trace-data"
 * type="application/text"> block; other blocks (the viewer, a JSON
 * trace) are skipped. 1 for a line that is no trace text, 0 for one that
 * is, TRACE_FILE_BAD (said) for a trace the HTML cuts.
 *
 * systrace.py writes the trace text as it is, unescaped, then the block's
 * end on a line of its own ("  </script>", then "<!-- END TRACE -->"). So
 * only such a line ends a block: a comm "</script>" is trace text (the
 * line holds more than the tag). A </script> alone on a line inside the
 * data (a marker's text with newlines) cannot be told from the real end;
 * the trace lines after it can: a trace line, or another </script>, after
 * a block ended and before the next began is refused, never skipped.
 */
static int html_line(struct trace_reader *r, const char *s)
{
	if (strstr(s, "<!-- BEGIN TRACE -->"))
		r->html_begun = true;
	if (strstr(s, "<!-- END TRACE -->")) {
		r->html_done = true;
		r->html_after = false;
	}
	if (!r->html_block) {
		if (strstr(s, "<script class=\"trace-data\"")) {
			r->html_block = true;
			r->html_skip = false;
			r->html_started = false;
			r->html_after = false;
			r->html_open = r->lineno;
			return 1;
		}
		if (r->html_after && (only_tag(s, "</script>") || trace_line(s))) {
			char msg[200];

			snprintf(msg, sizeof(msg),
				 "%s after the trace data ended at line %ld's </script>: a </script> inside the trace ended its block early (systrace writes the text unescaped)",
				 only_tag(s, "</script>") ? "another </script>" :
				 "a trace line", r->html_close);
			return bad(r, s, msg);
		}
		return 1;
	}
	if (only_tag(s, "</script>")) {
		r->html_block = false;
		r->html_after = true;
		r->html_close = r->lineno;
		return 1;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (!r->html_started && *s) {
		r->html_started = true;
		r->html_skip = *s == '{' || *s == '[';
	}
	return r->html_skip;
}

/* At the end of an HTML file: its trace data must have ended as systrace
 * ends it, else the file was cut (TRACE_FILE_BAD, said) */
static int html_end(struct trace_reader *r)
{
	char msg[160];

	if (r->html_block)
		snprintf(msg, sizeof(msg),
			 "the trace data's <script> at line %ld has no </script>: the file is cut short",
			 r->html_open);
	else if (r->html_begun && !r->html_done)
		snprintf(msg, sizeof(msg),
			 "no <!-- END TRACE --> after <!-- BEGIN TRACE -->: the file is cut short");
	else
		return 0;
	return bad(r, NULL, msg);
}

/* The last blank-separated token of [s, end): *t its start; returns its
 * end, or NULL when there is none. Nothing is written. */
static char *last_token(char *s, char *end, char **t)
{
	while (end > s && end[-1] == ' ')
		end--;
	if (end == s)
		return NULL;
	*t = end;
	while (*t > s && (*t)[-1] != ' ')
		(*t)--;
	return end;
}

static void put(struct ftrace_event *ev, const char *key, const char *val)
{
	if (ev->nr_fields < FTRACE_MAX_FIELDS) {
		ev->fields[ev->nr_fields].key = key;
		ev->fields[ev->nr_fields].val = val;
		ev->nr_fields++;
	}
}

/*
 * "COMM:PID" in [s, end) with an optional "prev="/"next=" in front: COMM
 * may hold ':' and spaces, PID is after the last ':'. False if no PID.
 */
static bool comm_pid(char *s, char *end, const char *kcomm, const char *kpid,
		     struct ftrace_event *ev)
{
	char *colon;

	while (s < end && *s == ' ')
		s++;
	while (end > s && end[-1] == ' ')
		end--;
	*end = '\0';
	if (starts(s, "prev=") || starts(s, "next="))
		s += 5;
	colon = strrchr(s, ':');
	if (!colon || colon[1] == '\0' ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return false;
	*colon = '\0';
	put(ev, kcomm, s);
	put(ev, kpid, colon + 1);
	return true;
}

/* "[PRIO]" as the last token before *end, taken if there */
static void bracket_prio(char *s, char **end, const char *key,
			 struct ftrace_event *ev)
{
	char *t, *te = last_token(s, *end, &t);

	if (te && te - t >= 3 && t[0] == '[' && te[-1] == ']') {
		te[-1] = '\0';
		put(ev, key, t + 1);
		*end = t;
	}
}

static const char *const switch_keys[] = {
	"prev_comm", "prev_pid", "prev_prio", "prev_state",
	"next_comm", "next_pid", "next_prio", NULL
};
static const char *const wakeup_keys[] = {
	"comm", "pid", "prio", "target_cpu", NULL
};

/* The fields in the order of the kernel's format (@keys, NULL-ended):
 * a plugin's text puts PRIO after COMM:PID but is parsed from its end */
static void kernel_order(struct ftrace_event *ev, const char *const *keys)
{
	struct ftrace_field out[FTRACE_MAX_FIELDS];
	int n = 0, i;

	for (; *keys; keys++)
		for (i = 0; i < ev->nr_fields; i++)
			if (!strcmp(ev->fields[i].key, *keys))
				out[n++] = ev->fields[i];
	memcpy(ev->fields, out, (size_t)n * sizeof(out[0]));
	ev->nr_fields = n;
}

/*
 * libtraceevent's sched_switch plugin:
 *   COMM:PID [PRIO] STATE ==> COMM:PID [PRIO]
 */
static int plugin_switch(struct trace_reader *r, char *body,
			 struct ftrace_event *ev)
{
	char *arrow = strstr(body, " ==> "), *end, *st;

	if (!arrow)
		return bad(r, body, "sched_switch without prev_pid= nor \" ==> \"");
	*arrow = '\0';
	end = last_token(body, arrow, &st);
	if (!end)
		return bad(r, body, "sched_switch: expected COMM:PID [PRIO] STATE before ==>");
	*end = '\0';
	end = st;
	bracket_prio(body, &end, "prev_prio", ev);
	if (!comm_pid(body, end, "prev_comm", "prev_pid", ev))
		return bad(r, body, "sched_switch: expected COMM:PID before ==>");
	put(ev, "prev_state", st);
	body = arrow + 5;
	end = body + strlen(body);
	bracket_prio(body, &end, "next_prio", ev);
	if (!comm_pid(body, end, "next_comm", "next_pid", ev))
		return bad(r, body, "sched_switch: expected COMM:PID after ==>");
	kernel_order(ev, switch_keys);
	return 1;
}

/* ... and its sched_wakeup plugin: COMM:PID [PRIO] [success=1] CPU:NNN */
static int plugin_wakeup(struct trace_reader *r, char *body,
			 struct ftrace_event *ev)
{
	char *end = body + strlen(body), *t, *te, *cpu = NULL;

	while ((te = last_token(body, end, &t)) != NULL) {
		if (starts(t, "CPU:")) {
			*te = '\0';
			cpu = t + 4;
		} else if (!starts(t, "success=")) {
			break;
		}
		end = t;
	}
	bracket_prio(body, &end, "prio", ev);
	if (!comm_pid(body, end, "comm", "pid", ev))
		return bad(r, body, "sched_wakeup: expected COMM:PID [PRIO] CPU:NNN");
	if (cpu)
		put(ev, "target_cpu", cpu);
	kernel_order(ev, wakeup_keys);
	return 1;
}

/* The kernel's prev_state letters (sched_switch's print fmt on 6.x:
 * TASK_REPORT bits S D T t X Z P I, R when none, "+" for preempted) */
void trace_normalize_state(struct trace_reader *r, struct ftrace_event *ev)
{
	static const char letters[] = "SDTtXZPI";
	unsigned long v;
	char *end;
	int i, k = 0;

	for (i = 0; i < ev->nr_fields; i++) {
		const char *s = ev->fields[i].val;

		if (strcmp(ev->fields[i].key, "prev_state") || !isdigit((unsigned char)*s))
			continue;
		v = strtoul(s, &end, 10);
		if (*end)
			return;
		for (int b = 0; b < 8; b++) {
			if (!(v & (1ul << b)))
				continue;
			if (k)
				r->state[k++] = '|';
			r->state[k++] = letters[b];
		}
		if (!k)
			r->state[k++] = 'R';
		if (v & 0x100)
			r->state[k++] = '+';
		r->state[k] = '\0';
		ev->fields[i].val = r->state;
		return;
	}
}

static bool is_ident(const char *s, const char *end)
{
	if (s >= end || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; s < end; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/*
 * A trace_marker write: the kernel's "tracing_mark_write: TEXT",
 * trace-cmd's "print: tracing_mark_write: TEXT" (or an address for the
 * symbol), a bprint's "FUNCTION: TEXT". When TEXT is "NAME: k=v ..." the
 * event becomes NAME and *body its fields. True if it did.
 */
bool trace_marker_event(char **body, struct ftrace_event *ev)
{
	char *s = *body, *colon;
	bool print = !strcmp(ev->name, "print") || !strcmp(ev->name, "bprint");

	if (!print && strcmp(ev->name, "tracing_mark_write"))
		return false;
	while (*s == ' ')
		s++;
	if (print) {
		colon = strchr(s, ':');
		if (colon && colon[1] == ' ' && !memchr(s, ' ', (size_t)(colon - s)))
			s = colon + 1;
		while (*s == ' ')
			s++;
		if (starts(s, "tracing_mark_write: "))
			s += 20;
	}
	colon = strchr(s, ':');
	if (!colon || !is_ident(s, colon) || (colon[1] != ' ' && colon[1]) ||
	    !strchr(colon, '='))
		return false;
	*colon = '\0';
	ev->name = s;
	*body = colon + 1;
	return true;
}

static bool named(const struct ftrace_event *ev, const char *a)
{
	return !strcmp(ev->name, a);
}

/* A text line's event: the head, then the body as its face wrote it */
static int text_event(struct trace_reader *r, char *line,
		      struct ftrace_event *ev)
{
	const char *err;
	char *body;
	int col, k;

	k = ftrace_parse_head(line, ev, &body, &err, &col);
	if (k < 0) {
		fprintf(stderr, "%s:%ld:%d: error: %s\n", r->path, r->lineno,
			col, err);
		return TRACE_FILE_BAD;
	}
	if (!k)
		return 0;
	trace_marker_event(&body, ev);
	if (named(ev, "sched_switch") && !strstr(body, "prev_pid="))
		k = plugin_switch(r, body, ev);
	else if ((named(ev, "sched_wakeup") || named(ev, "sched_wakeup_new") ||
		  named(ev, "sched_waking")) && !strstr(body, "pid="))
		k = plugin_wakeup(r, body, ev);
	else
		ftrace_split_fields(body, ev);
	return k;
}

static int next_text(struct trace_reader *r, struct ftrace_event *ev)
{
	char *line;
	int k;

	while ((k = trace_lines_next(&r->lines, &line)) > 0) {
		r->lineno = r->lines.lineno;
		r->line = line;
		r->line_len = strlen(line);
		if (!r->started && line[strspn(line, " \t")] == '<' &&
		    !strstr(line, "]")) {
			/* the first line an HTML tag, not "<idle>-0 [000]" */
			r->format = TRACE_FMT_HTML;
		}
		if (line[strspn(line, " \t\r")])
			r->started = true;
		if (r->format == TRACE_FMT_HTML) {
			k = html_line(r, line);
			if (k < 0)
				return k;
			if (k)
				continue;
		}
		if (r->only && !strstr(line, r->only))
			continue;
		if (header_line(r, line))
			continue;
		k = text_event(r, line, ev);
		if (k)
			return k;
	}
	r->lineno = r->lines.lineno;
	r->line = NULL;
	if (!k && r->format == TRACE_FMT_HTML)
		return html_end(r);
	if (k == TRACE_FILE_BAD)
		return bad(r, NULL, r->lines.err);
	if (k < 0)
		fprintf(stderr, "capsim: error reading %s: %s\n", r->path,
			r->lines.err);
	return k;
}

int trace_reader_next(struct trace_reader *r, struct ftrace_event *ev)
{
	const char *err = NULL;
	int k;

	if (r->pf) {
		r->line = NULL;
		k = trace_pf_next(r->pf, ev, &r->lineno, &r->lost);
	} else if (r->dat) {
		r->line = NULL;
		k = trace_dat_next(r->dat, ev, &r->lineno, &r->lost, &err);
		if (k == -2)
			return TRACE_FILE_IO;
		if (k < 0) {
			fprintf(stderr, "%s:%ld:1: error: %s\n", r->path,
				r->lineno, err);
			return TRACE_FILE_BAD;
		}
	} else {
		k = next_text(r, ev);
	}
	if (k <= 0)
		return k;
	trace_normalize_state(r, ev);
	if (r->events && ev->ts_ns < r->last_ts) {
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "timestamp %llu.%09llu is before the previous event's %llu.%09llu: a trace is read in time order (trace-cmd report sorts one)",
			 (unsigned long long)(ev->ts_ns / 1000000000ull),
			 (unsigned long long)(ev->ts_ns % 1000000000ull),
			 (unsigned long long)(r->last_ts / 1000000000ull),
			 (unsigned long long)(r->last_ts % 1000000000ull));
		return bad(r, r->line ? r->line + ev->ts_col - 1 : NULL, msg);
	}
	r->last_ts = ev->ts_ns;
	r->events++;
	return 1;
}
