/*
 * The clamp op log: one operation on the capacity-clamping core per line.
 * capsim-replay reads it, and the kernel cross-check writes it from guest
 * traces, so both faces share this one parser.
 *
 *   group PATH                  create PATH under its parent
 *   write PATH min|max VALUE    VALUE is any u64; prints ok or EINVAL
 *   enqueue ENTITY CPU PATH     ENTITY becomes RUNNABLE on CPU in PATH
 *   dequeue ENTITY              ENTITY stops being RUNNABLE
 *   move ENTITY PATH            ENTITY changes group, queued or not
 *   range CPU                   prints cpu=N min=V max=V
 *
 * '#' starts a comment; blank lines are ignored.
 */
#ifndef CAPSIM_OPLOG_H
#define CAPSIM_OPLOG_H

#include <stddef.h>
#include <stdint.h>

enum op_kind {
	OP_NONE,	/* blank or comment line */
	OP_GROUP,
	OP_WRITE,
	OP_ENQUEUE,
	OP_DEQUEUE,
	OP_MOVE,
	OP_RANGE,
};

struct op {
	enum op_kind kind;
	uint64_t entity;
	uint64_t value;
	unsigned int cpu;
	int clamp_id;		/* CAP_CLAMP_MIN or CAP_CLAMP_MAX */
	const char *path;	/* points into the parsed line */
	size_t path_len;
};

/*
 * Parse one line (modified in place: the path is NUL-terminated). On error
 * returns -1 and points *err at a static message; the column of the
 * offending token (1-based) goes to *col.
 */
int oplog_parse(char *line, struct op *op, const char **err, int *col);

const char *oplog_kind_name(enum op_kind kind);

#endif
