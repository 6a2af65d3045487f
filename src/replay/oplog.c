/* Parser for the clamp op log (see oplog.h). No allocation, no locale. */
#include <string.h>

#include "oplog.h"

struct cursor {
	char *p;
	char *line;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Next whitespace-separated token, NUL-terminated in place; NULL at end. */
static char *next_token(struct cursor *c, int *col)
{
	char *start;

	while (is_blank(*c->p))
		c->p++;
	if (*c->p == '\0' || *c->p == '#')
		return NULL;
	start = c->p;
	*col = (int)(start - c->line) + 1;
	while (*c->p && !is_blank(*c->p) && *c->p != '#')
		c->p++;
	if (*c->p == '#') {
		/* A comment right after a token ends the line. */
		*c->p = '\0';
	} else if (*c->p) {
		*c->p = '\0';
		c->p++;
	}
	return start;
}

/* Decimal u64 with overflow detection; no sign, no spaces, no base prefix. */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		unsigned int d;

		if (*s < '0' || *s > '9')
			return -1;
		d = (unsigned int)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* The kernel's PATH_MAX (with the NUL) and NAME_MAX bound a cgroup path */
#define OPLOG_PATH_MAX 4096
#define OPLOG_NAME_MAX 255

/* NULL if @s is a group path a cgroup hierarchy can have, else why not */
static const char *path_problem(const char *s)
{
	const char *name;

	if (s[0] != '/')
		return "group path must be absolute, without empty components";
	if (strlen(s) >= OPLOG_PATH_MAX)
		return "group path longer than the kernel's PATH_MAX (4096)";
	if (!s[1])
		return NULL;
	for (name = ++s; ; s++) {
		size_t n;

		if (*s && *s != '/')
			continue;
		n = (size_t)(s - name);
		if (!n)
			return "group path must be absolute, without empty components";
		if (n > OPLOG_NAME_MAX)
			return "group name longer than the kernel's NAME_MAX (255)";
		if (name[0] == '.' && (n == 1 || (n == 2 && name[1] == '.')))
			return "\".\" and \"..\" are not group names";
		if (!*s)
			return NULL;
		name = s + 1;
	}
}

#define FAIL(msg) do { *err = (msg); return -1; } while (0)

static int want_path(struct cursor *c, struct op *op, const char **err,
		     int *col)
{
	char *t = next_token(c, col);

	if (!t)
		FAIL("missing group path");
	*err = path_problem(t);
	if (*err)
		return -1;
	op->path = t;
	op->path_len = strlen(t);
	return 0;
}

static int want_u64(struct cursor *c, uint64_t *v, const char *what,
		    const char **err, int *col)
{
	char *t = next_token(c, col);

	if (!t || parse_u64(t, v))
		FAIL(what);
	return 0;
}

static int want_cpu(struct cursor *c, struct op *op, const char **err,
		    int *col)
{
	uint64_t v;

	if (want_u64(c, &v, "CPU must be a non-negative integer", err, col))
		return -1;
	if (v > 1u << 20)
		FAIL("CPU number out of range");
	op->cpu = (unsigned int)v;
	return 0;
}

int oplog_parse(char *line, struct op *op, const char **err, int *col)
{
	struct cursor c = { line, line };
	char *verb, *t;

	memset(op, 0, sizeof(*op));
	*col = 1;
	verb = next_token(&c, col);
	if (!verb) {
		op->kind = OP_NONE;
		return 0;
	}

	if (!strcmp(verb, "group")) {
		op->kind = OP_GROUP;
		if (want_path(&c, op, err, col))
			return -1;
	} else if (!strcmp(verb, "write")) {
		op->kind = OP_WRITE;
		if (want_path(&c, op, err, col))
			return -1;
		t = next_token(&c, col);
		if (t && !strcmp(t, "min"))
			op->clamp_id = 0;
		else if (t && !strcmp(t, "max"))
			op->clamp_id = 1;
		else
			FAIL("expected min or max");
		if (want_u64(&c, &op->value,
			     "VALUE must be an unsigned 64-bit integer",
			     err, col))
			return -1;
	} else if (!strcmp(verb, "enqueue")) {
		op->kind = OP_ENQUEUE;
		if (want_u64(&c, &op->entity,
			     "ENTITY must be a non-negative integer", err, col))
			return -1;
		if (want_cpu(&c, op, err, col) ||
		    want_path(&c, op, err, col))
			return -1;
	} else if (!strcmp(verb, "dequeue")) {
		op->kind = OP_DEQUEUE;
		if (want_u64(&c, &op->entity,
			     "ENTITY must be a non-negative integer", err, col))
			return -1;
	} else if (!strcmp(verb, "move")) {
		op->kind = OP_MOVE;
		if (want_u64(&c, &op->entity,
			     "ENTITY must be a non-negative integer", err, col))
			return -1;
		if (want_path(&c, op, err, col))
			return -1;
	} else if (!strcmp(verb, "range")) {
		op->kind = OP_RANGE;
		if (want_cpu(&c, op, err, col))
			return -1;
	} else {
		FAIL("unknown operation (group, write, enqueue, dequeue, move, range)");
	}

	if (next_token(&c, col))
		FAIL("unexpected extra field");
	return 0;
}

const char *oplog_kind_name(enum op_kind kind)
{
	static const char *const names[] = {
		[OP_NONE] = "none", [OP_GROUP] = "group",
		[OP_WRITE] = "write", [OP_ENQUEUE] = "enqueue",
		[OP_DEQUEUE] = "dequeue", [OP_MOVE] = "move",
		[OP_RANGE] = "range",
	};

	return names[kind];
}
