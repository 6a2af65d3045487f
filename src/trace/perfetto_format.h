/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Perfetto event as the trace reader hands out every form's events
 * (for perfetto_reader.c): a decoded struct pf_ev (perfetto_merge.h),
 * its strings looked up (perfetto_names.h) and its numbers written out,
 * into a struct ftrace_event with the kernel's event and field names in
 * the kernel's order; a print's text read as the text faces read a
 * trace_marker line.
 */
#ifndef CAPSIM_PERFETTO_FORMAT_H
#define CAPSIM_PERFETTO_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftrace.h"
#include "perfetto_merge.h"
#include "perfetto_names.h"

/* The strings of the event handed out, valid until the next */
struct pf_out {
	char *buf;
	size_t used, cap;
};

/* @u (negated if @neg) in @base, written backwards ending at @e: its
 * first character (by hand: snprintf() was a sixth of the reader's time) */
char *pf_utoa(char *e, uint64_t u, unsigned int base, bool neg);
/* @e into *ev; a print's or generic event's blob is written into (the
 * caller's until the next event) */
void pf_format(struct pf_out *o, const struct pf_strings *str,
	       const struct pf_tasks *tasks, struct pf_ev *e,
	       struct ftrace_event *ev);
void pf_out_free(struct pf_out *o);

#endif
