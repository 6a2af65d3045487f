/*
 * Reader of ftrace text, as the kernel writes /sys/kernel/tracing/trace and
 * as capsim writes trace.txt:
 *
 *   COMM-PID [(TGID)] [CPU] [FLAGS] SECS.USECS: EVENT: FIELDS
 *
 * with or without the irq-info FLAGS column and systrace's TGID column
 * ("( 1200)" or "(-----)"), COMM possibly holding spaces and dashes. One parser serves both faces: the simulator's tests, the
 * plots and the kernel cross-check all read traces through it.
 */
#ifndef CAPSIM_FTRACE_H
#define CAPSIM_FTRACE_H

#include <stdbool.h>
#include <stdint.h>

#define FTRACE_MAX_FIELDS 32

/* The largest pid a trace may name: the kernel's PID_MAX_LIMIT on 64-bit
 * (include/linux/threads.h, 4 M); above it is no trace's */
#define FTRACE_PID_MAX (4 * 1024 * 1024)

struct ftrace_field {
	const char *key;
	const char *val;
};

struct ftrace_event {
	const char *comm;
	int pid;
	int tgid;			/* -1: the trace does not say */
	int cpu;
	int cpu_col;			/* 1-based column of the CPU number */
	int ts_col;			/* ... of the timestamp */
	uint64_t ts_ns;
	const char *name;		/* without the trailing ':' */
	int nr_fields;
	struct ftrace_field fields[FTRACE_MAX_FIELDS];
};

/*
 * Parse one line in place. Returns 1 for an event, 0 for a comment or
 * blank line, -1 for a malformed line (message in *err, 1-based column in
 * *col). Field values that run over spaces (prev_comm=a b) are kept whole;
 * the "==>" of sched_switch is skipped.
 */
int ftrace_parse_line(char *line, struct ftrace_event *ev, const char **err,
		      int *col);

/*
 * The two halves of ftrace_parse_line(), for a reader that must look at
 * an event's text before splitting it (trace-cmd's plugin forms):
 * ftrace_parse_head() parses up to the event name and sets *body to the
 * text after "EVENT:" (nr_fields 0); ftrace_split_fields() splits such a
 * text into key=value fields in place.
 */
int ftrace_parse_head(char *line, struct ftrace_event *ev, char **body,
		      const char **err, int *col);
void ftrace_split_fields(char *body, struct ftrace_event *ev);

/* Value of field @key, or NULL. */
const char *ftrace_get(const struct ftrace_event *ev, const char *key);
/* Field as an integer; false if missing or not a (signed) decimal. */
bool ftrace_get_i64(const struct ftrace_event *ev, const char *key,
		    int64_t *out);

#endif
