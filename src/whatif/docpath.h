/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paths into a parsed JSON document, written the way capsim's error
 * messages print them (jdoc_path()): tasks.t.priority, cpus[1].capacity,
 * capsim.taskgroups["/bg/batch"].capacity_max. A key without dots may
 * also be written plain after a dot (capsim.taskgroups./bg.capacity_max).
 * A leading "platform." addresses the platform document instead of the
 * workload. An index may be [*], every element of the array there
 * (platform.domains[*].rate_limit_us): a set or a drop applies to each,
 * and an array it finds empty or missing is an error. Sweeps edit the
 * parsed document through these, so comments and trailing commas in the
 * input never get in the way.
 */
#ifndef CAPSIM_DOCPATH_H
#define CAPSIM_DOCPATH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct dpath_seg {
	char *key;		/* NULL for an index */
	size_t idx;
	bool all;		/* [*]: every index */
};

struct dpath {
	char *text;		/* as given, for messages */
	bool platform;		/* "platform." prefix */
	struct dpath_seg *seg;
	int n;
};

/* 0, or -1 with a message in @err */
int dpath_parse(const char *s, struct dpath *p, char *err, size_t errlen);
void dpath_free(struct dpath *p);

/* The value at @p (under a [*], its first element's), or NULL */
json_t *dpath_get(json_t *root, const struct dpath *p);
/*
 * Set the value at @p (stealing @v; a copy of it at each place a [*]
 * reaches): the parent must exist; an object member may be new, an
 * array element must exist. 0 or -1 with @err (the document may then be
 * half edited: callers edit copies).
 */
int dpath_set(json_t *root, const struct dpath *p, json_t *v, char *err,
	      size_t errlen);
/* Remove the member or element at @p (under every [*]; a [*] last is
 * refused: set the array to [] instead); 0 or -1 with @err */
int dpath_drop(json_t *root, const struct dpath *p, char *err, size_t errlen);

#endif
