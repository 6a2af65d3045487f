// SPDX-License-Identifier: GPL-2.0
/*
 * The --metric expression: a recursive-descent parser over
 *   expr  := term (('+' | '-') term)*
 *   term  := unary (('*' | '/') unary)*
 *   unary := ('-' | '+') unary | primary
 *   primary := NUMBER | NAME | '(' expr ')'
 * emitting postfix operations, and a stack machine that evaluates them.
 * Nothing else: the text names columns and numbers, never code.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric_expr.h"
#include "util.h"

enum op_kind { OP_NUM, OP_NAME, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV };

struct op {
	enum op_kind kind;
	double num;		/* OP_NUM */
	char *name;		/* OP_NAME */
	int at;			/* OP_NAME: its offset in the text */
};

struct metric_expr {
	struct op *ops;
	int nops;
	char *column;		/* the whole text, when it is one column */
};

struct parser {
	const char *text, *c;
	struct metric_expr *e;
	int depth;
	char *err;
	size_t errlen;
	bool failed;
};

static void emit(struct parser *ps, enum op_kind k, double num, char *name)
{
	struct metric_expr *e = ps->e;

	e->ops = xrealloc(e->ops, (size_t)(e->nops + 1) * sizeof(*e->ops));
	e->ops[e->nops++] = (struct op){ .kind = k, .num = num, .name = name,
					 .at = (int)(ps->c - ps->text) };
}

static void fail(struct parser *ps, const char *what)
{
	if (ps->failed)
		return;
	ps->failed = true;
	if (*ps->c)
		snprintf(ps->err, ps->errlen, "%s at column %d (\"%.20s\")",
			 what, (int)(ps->c - ps->text) + 1, ps->c);
	else
		snprintf(ps->err, ps->errlen, "%s at the end", what);
}

static void skip_space(struct parser *ps)
{
	while (*ps->c == ' ' || *ps->c == '\t')
		ps->c++;
}

static bool name_start(char ch)
{
	return isalpha((unsigned char)ch) || ch == '_';
}

static bool name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.';
}

/* The end of the name starting at @s: a '-' stays in it only as a task
 * instance's NAME-K followed by a dot */
static const char *name_end(const char *s)
{
	while (name_char(*s) || *s == '-') {
		if (*s == '-') {
			const char *d = s + 1;

			while (isdigit((unsigned char)*d))
				d++;
			if (d == s + 1 || *d != '.')
				break;
		}
		s++;
	}
	return s;
}

/* Digits [. digits] [e [+-] digits]: no sign, hex, inf or nan here */
static void number(struct parser *ps)
{
	const char *s = ps->c;
	char buf[64];
	double v;

	while (isdigit((unsigned char)*s))
		s++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			;
	if ((*s == 'e' || *s == 'E') &&
	    (isdigit((unsigned char)s[1]) ||
	     ((s[1] == '+' || s[1] == '-') && isdigit((unsigned char)s[2]))))
		for (s += 2; isdigit((unsigned char)*s); s++)
			;
	if ((size_t)(s - ps->c) >= sizeof(buf) || name_start(*s)) {
		fail(ps, "a malformed number");
		return;
	}
	memcpy(buf, ps->c, (size_t)(s - ps->c));
	buf[s - ps->c] = '\0';
	v = strtod(buf, NULL);
	if (!isfinite(v)) {
		fail(ps, "a number out of range");
		return;
	}
	ps->c = s;
	emit(ps, OP_NUM, v, NULL);
}

static void expr(struct parser *ps);

static void primary(struct parser *ps)
{
	skip_space(ps);
	if (*ps->c == '(') {
		if (++ps->depth > METRIC_EXPR_MAX_DEPTH) {
			fail(ps, "parentheses nested too deep");
			return;
		}
		ps->c++;
		expr(ps);
		skip_space(ps);
		if (ps->failed)
			return;
		if (*ps->c != ')') {
			fail(ps, "expected ')'");
			return;
		}
		ps->c++;
		ps->depth--;
	} else if (isdigit((unsigned char)*ps->c) ||
		   (*ps->c == '.' && isdigit((unsigned char)ps->c[1]))) {
		number(ps);
	} else if (name_start(*ps->c)) {
		const char *start = ps->c, *end = name_end(start);
		char *name = xasprintf("%.*s", (int)(end - start), start);

		ps->c = end;
		skip_space(ps);
		if (*ps->c == '(') {
			free(name);
			fail(ps, "no function calls: expected an operator");
			return;
		}
		ps->c = start;	/* emit() notes where the name is */
		emit(ps, OP_NAME, 0, name);
		ps->c = end;
	} else {
		fail(ps, "expected a number, a name or '('");
	}
}

static void unary(struct parser *ps)
{
	int depth = 0;
	bool neg = false;

	skip_space(ps);
	/* a run of signs, counted rather than recursed into */
	while ((*ps->c == '-' || *ps->c == '+') && depth < METRIC_EXPR_MAX_LEN) {
		if (*ps->c == '-')
			neg = !neg;
		ps->c++;
		depth++;
		skip_space(ps);
	}
	primary(ps);
	if (neg && !ps->failed)
		emit(ps, OP_NEG, 0, NULL);
}

/* The binary operators by precedence, lowest first, each with its op */
static const struct {
	char ch[2];
	enum op_kind op[2];
} levels[] = {
	{ { '+', '-' }, { OP_ADD, OP_SUB } },
	{ { '*', '/' }, { OP_MUL, OP_DIV } },
};

/* expr (level 0) and term (level 1): left-associative chains of the
 * level's operators over the next level */
static void binary(struct parser *ps, int level)
{
	if (level == (int)(sizeof(levels) / sizeof(levels[0]))) {
		unary(ps);
		return;
	}
	binary(ps, level + 1);
	for (;;) {
		int k;

		skip_space(ps);
		if (ps->failed)
			return;
		for (k = 0; k < 2 && *ps->c != levels[level].ch[k]; k++)
			;
		if (k == 2)
			return;
		ps->c++;
		binary(ps, level + 1);
		if (ps->failed)
			return;
		emit(ps, levels[level].op[k], 0, NULL);
	}
}

static void expr(struct parser *ps)
{
	binary(ps, 0);
}

/* The first name of @e that @known refuses, or -1 */
static int unknown_name(const struct metric_expr *e, metric_known_fn known,
			void *ctx)
{
	int i;

	for (i = 0; i < e->nops; i++)
		if (e->ops[i].kind == OP_NAME && !known(ctx, e->ops[i].name))
			return i;
	return -1;
}

struct metric_expr *metric_expr_parse(const char *text, metric_known_fn known,
				      void *ctx, char *err, size_t errlen,
				      const char **unknown)
{
	struct metric_expr *e = xcalloc(1, sizeof(*e));
	struct parser ps = { .text = text, .c = text, .e = e, .err = err,
			     .errlen = errlen };
	int bad = -1;

	*unknown = NULL;
	if (strlen(text) > METRIC_EXPR_MAX_LEN) {
		snprintf(err, errlen, "longer than %d characters",
			 METRIC_EXPR_MAX_LEN);
		metric_expr_free(e);
		return NULL;
	}
	expr(&ps);
	skip_space(&ps);
	if (!ps.failed && *ps.c)
		fail(&ps, "expected an operator");
	if (!ps.failed && (bad = unknown_name(e, known, ctx)) < 0)
		return e;
	if (known(ctx, text)) {
		/* one column whose name reads as an expression (a task
		 * named "a-b", "my task") */
		metric_expr_free(e);
		e = xcalloc(1, sizeof(*e));
		e->column = xstrdup(text);
		return e;
	}
	if (bad >= 0) {
		snprintf(err, errlen, "unknown name %.100s", e->ops[bad].name);
		*unknown = text + e->ops[bad].at;
	}
	metric_expr_free(e);
	return NULL;
}

void metric_expr_free(struct metric_expr *e)
{
	int i;

	if (!e)
		return;
	for (i = 0; i < e->nops; i++)
		free(e->ops[i].name);
	free(e->ops);
	free(e->column);
	free(e);
}

const char *metric_expr_column(const struct metric_expr *e)
{
	if (e->column)
		return e->column;
	/* a lone name parsed as an expression is that column too */
	return e->nops == 1 && e->ops[0].kind == OP_NAME ? e->ops[0].name : NULL;
}

double metric_expr_eval(const struct metric_expr *e, metric_value_fn value,
			void *ctx)
{
	double *st, r;
	int sp = 0, i;

	if (e->column)
		return value(ctx, e->column);
	st = xcalloc((size_t)e->nops, sizeof(double));
	for (i = 0; i < e->nops; i++) {
		const struct op *o = &e->ops[i];
		double a, b;

		switch (o->kind) {
		case OP_NUM:
			st[sp++] = o->num;
			continue;
		case OP_NAME:
			st[sp++] = value(ctx, o->name);
			continue;
		case OP_NEG:
			st[sp - 1] = -st[sp - 1];
			continue;
		default:
			break;
		}
		b = st[--sp];
		a = st[sp - 1];
		switch (o->kind) {
		case OP_ADD: r = a + b; break;
		case OP_SUB: r = a - b; break;
		case OP_MUL: r = a * b; break;
		default: r = b == 0 ? NAN : a / b; break;
		}
		st[sp - 1] = r;
	}
	r = sp == 1 && isfinite(st[0]) ? st[0] : NAN;
	free(st);
	return r;
}
