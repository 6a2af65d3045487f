#include <stdlib.h>
#include <string.h>

#include "ftrace.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The "[CPU]" column is the anchor: COMM may contain anything, but " [ddd]"
 * followed by a space only appears once before the timestamp.
 */
static char *find_cpu_column(char *line)
{
	char *p = line;

	while ((p = strchr(p, '[')) != NULL) {
		char *q = p + 1;

		while (is_digit(*q))
			q++;
		if (q > p + 1 && *q == ']' && (q[1] == ' ' || q[1] == '\0'))
			return p;
		p++;
	}
	return NULL;
}

static int fail(const char **err, int *col, const char *msg, const char *line,
		const char *at)
{
	*err = msg;
	*col = (int)(at - line) + 1;
	return -1;
}

/* "SECS.USECS:" (or nanoseconds with more digits) -> ns */
static bool parse_ts(const char *s, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (s >= end || !is_digit(*s))
		return false;
	while (s < end && is_digit(*s)) {
		/* ns overflow 64 bits past 18 446 744 073 s */
		if (sec > UINT64_MAX / 1000000000ull)
			return false;
		sec = sec * 10 + (uint64_t)(*s++ - '0');
	}
	if (s < end && *s == '.') {
		s++;
		while (s < end && is_digit(*s) && digits < 9) {
			frac = frac * 10 + (uint64_t)(*s++ - '0');
			digits++;
		}
		while (s < end && is_digit(*s))
			s++;
	}
	if (s != end)
		return false;
	while (digits++ < 9)
		frac *= 10;
	if (sec > UINT64_MAX / 1000000000ull ||
	    sec * 1000000000ull > UINT64_MAX - frac)
		return false;
	*ns = sec * 1000000000ull + frac;
	return true;
}

void ftrace_split_fields(char *p, struct ftrace_event *ev)
{
	struct ftrace_field *last = NULL;

	ev->nr_fields = 0;
	while (*p) {
		char *tok, *eq;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
		if (!strcmp(tok, "==>"))
			continue;
		eq = strchr(tok, '=');
		if (!eq || eq == tok) {
			/* Continuation of a value with spaces: rejoin it. */
			if (last)
				tok[-1] = ' ';
			continue;
		}
		if (ev->nr_fields == FTRACE_MAX_FIELDS)
			break;
		*eq = '\0';
		last = &ev->fields[ev->nr_fields++];
		last->key = tok;
		last->val = eq + 1;
	}
}

/* A decimal in [0, max] ending at @end (no sign); false otherwise */
static bool parse_bounded(const char *s, const char *end, long max, long *out)
{
	long v = 0;

	if (s >= end)
		return false;
	for (; s < end; s++) {
		if (!is_digit(*s) || v > (max - (*s - '0')) / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return true;
}

/* The largest CPU number (NR_CPUS tops out at 8192): anything above is
 * not a trace. The readers bound it further (trace_scan.c). */
#define FTRACE_CPU_MAX 8191L

/*
 * systrace's TGID column between COMM-PID and [CPU], ending at @end:
 * "( 1200)", or "(-----)" where the thread group is unknown. Sets
 * ev->tgid and returns where COMM-PID ends; @end itself without one.
 */
static char *strip_tgid(char *start, char *end, struct ftrace_event *ev)
{
	char *open, *p;
	long v = 0;

	ev->tgid = -1;
	if (end == start || end[-1] != ')')
		return end;
	for (open = end - 1; open > start && *open != '('; open--)
		;
	if (*open != '(')
		return end;
	for (p = open + 1; *p == ' '; p++)
		;
	if (*p == '-') {
		while (*p == '-')
			p++;
	} else if (!parse_bounded(p, end - 1, FTRACE_PID_MAX, &v)) {
		return end;
	} else {
		p = end - 1;
	}
	if (p != end - 1)
		return end;
	if (open[1] != '-')
		ev->tgid = (int)v;
	while (open > start && open[-1] == ' ')
		open--;
	return open;
}

int ftrace_parse_line(char *line, struct ftrace_event *ev, const char **err,
		      int *col)
{
	char *body;
	int k = ftrace_parse_head(line, ev, &body, err, col);

	if (k == 1)
		ftrace_split_fields(body, ev);
	return k;
}

int ftrace_parse_head(char *line, struct ftrace_event *ev, char **body,
		      const char **err, int *col)
{
	char *p = line, *cpu, *cpu_end, *dash, *colon, *ts, *name, *q;
	long v, c;

	line[strcspn(line, "\r\n")] = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '#')
		return 0;

	cpu = find_cpu_column(p);
	if (!cpu)
		return fail(err, col, "no [CPU] column", line, p);
	/* Read the column before COMM-PID is cut off in front of it: with
	 * no space between them (a 7-digit PID) the cut lands on the '['. */
	cpu_end = strchr(cpu, ']');
	if (!parse_bounded(cpu + 1, cpu_end, FTRACE_CPU_MAX, &c))
		return fail(err, col, "CPU number out of range", line, cpu + 1);
	/* COMM-PID ends just before the spaces in front of [CPU]. */
	q = cpu;
	while (q > p && q[-1] == ' ')
		q--;
	q = strip_tgid(p, q, ev);
	*q = '\0';
	dash = strrchr(p, '-');
	if (!dash || dash == p || !is_digit(dash[1]))
		return fail(err, col, "expected COMM-PID", line, p);
	if (!parse_bounded(dash + 1, q, FTRACE_PID_MAX, &v))
		return fail(err, col, "PID is not a number in [0, 4194304]",
			    line, dash + 1);
	*dash = '\0';
	ev->comm = p;
	ev->pid = (int)v;
	ev->cpu = (int)c;
	ev->cpu_col = (int)(cpu + 1 - line) + 1;

	/* Optional flags column, then the timestamp ending in ':' */
	p = cpu_end + 1;
	while (*p == ' ')
		p++;
	ts = p;
	while (*p && *p != ' ')
		p++;
	if (ts < p && p[-1] != ':') {		/* that was the flags */
		while (*p == ' ')
			p++;
		ts = p;
		while (*p && *p != ' ')
			p++;
	}
	if (ts >= p || p[-1] != ':' ||
	    !parse_ts(ts, p - 1, &ev->ts_ns))
		return fail(err, col, "expected SECS.USECS: timestamp", line,
			    ts);
	ev->ts_col = (int)(ts - line) + 1;

	while (*p == ' ')
		p++;
	name = p;
	colon = strchr(name, ':');
	if (!colon || colon == name)
		return fail(err, col, "expected EVENT: after the timestamp",
			    line, name);
	*colon = '\0';
	ev->name = name;
	ev->nr_fields = 0;
	*body = colon + 1;
	return 1;
}

const char *ftrace_get(const struct ftrace_event *ev, const char *key)
{
	int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].key, key))
			return ev->fields[i].val;
	return NULL;
}

bool ftrace_get_i64(const struct ftrace_event *ev, const char *key,
		    int64_t *out)
{
	const char *s = ftrace_get(ev, key);
	char *end;

	if (!s || !*s)
		return false;
	*out = strtoll(s, &end, 10);
	return *end == '\0';
}
