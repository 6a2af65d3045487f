/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jansson's json_dumps(JSON_INDENT(2) | JSON_REAL_PRECISION(9)), by hand,
 * for summary.json's per-task objects: the same bytes, without printf
 * for the reals that are short decimals. A 100 000-task summary printed
 * each task's dozens of reals through snprintf("%.9g") (~3 000
 * instructions a number: most of a short run's time); a real that is
 * the double nearest a decimal of at most 9 digits between 1e-4 and 1e9
 * (a latency in microseconds from nanoseconds, a runtime in seconds) is
 * written from that decimal's digits, which is what "%.9g" prints
 * (jdump_real() says why). Every other real goes through snprintf.
 * summary.json's tasks are written with the object writer below, with
 * no tree at all (tests/sim/test_summary_task.c checks it against
 * json_dumps() of the tree summary.c used to build).
 */
#ifndef CAPSIM_JDUMP_H
#define CAPSIM_JDUMP_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/* The longest real jdump_real() writes, with its NUL */
#define JDUMP_REAL_MAX 40

/*
 * @v as jansson dumps a real at JSON_REAL_PRECISION(9): "%.9g", ".0"
 * appended when that has neither '.' nor 'e', the exponent without '+'
 * or leading zeros. Writes a NUL-terminated string at @buf (at least
 * JDUMP_REAL_MAX bytes); returns its length. Not finite: -1 (jansson
 * refuses those too).
 */
int jdump_real(char *buf, double v);

/*
 * An object written member by member, without a jansson tree: the bytes
 * json_dumps(JSON_INDENT(2) | JSON_REAL_PRECISION(9)) would write, at
 * nesting @depth of a larger document, for the object that
 * json_object_set_new() calls in the same order would have built. Keys
 * are capsim's literals and numbers: printable ASCII without '"' or
 * '\\' (written as they are; jansson refuses no such key), distinct
 * (set_new would replace a repeated key in place).
 * A member whose value set_new would refuse, json_string() of invalid
 * UTF-8 or json_real() of a value that is not finite (both give NULL, and
 * set_new(NULL) adds nothing), is left out the same way: whatever the
 * member had written is taken back.
 */
struct jdump_obj {
	struct strbuf *sb;
	int depth;		/* the object's own nesting in the document */
	bool empty;		/* no member yet: "{}" */
};

/* Write '{' of an object at nesting @depth */
void jdump_obj_open(struct jdump_obj *o, struct strbuf *sb, int depth);
/* Its closing line (or "}" right after '{' when it has no member) */
void jdump_obj_close(struct jdump_obj *o);
void jdump_obj_int(struct jdump_obj *o, const char *key, int64_t v);
void jdump_obj_real(struct jdump_obj *o, const char *key, double v);
void jdump_obj_null(struct jdump_obj *o, const char *key);
/* json_string(@s): left out when @s is NULL or not valid UTF-8 */
void jdump_obj_string(struct jdump_obj *o, const char *key, const char *s);
/* A member whose value is an object: @inner, to be closed by the caller */
void jdump_obj_object(struct jdump_obj *o, const char *key,
		      struct jdump_obj *inner);

#endif
