/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.dat's writer: records in, the file out. Each CPU's records go
 * into ring-buffer pages as kernel/trace/ring_buffer.c lays them out (a
 * scratch file per CPU), the pids' comms into saved_cmdlines, and at the
 * end the file as trace-cmd's version 6 (trace-cmd.dat.v6(5)): the
 * header pages, the event formats (td_events[], tracedat_events.h), the
 * comms and the CPUs' pages. Its two callers: the model, which writes
 * each record from the typed fields of its event (src/sim/trace_events.c,
 * `capsim run --trace-dat`), and tracedat_convert(), which builds them
 * from ftrace text (`capsim trace-dat`).
 */
#ifndef CAPSIM_TRACEDAT_WRITE_H
#define CAPSIM_TRACEDAT_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracedat_events.h"

/* The most CPUs a trace may have: a scratch file each */
#define TD_CPU_MAX 4096
#define TD_TASK_COMM_LEN 16

struct tdw;

struct tdw *tdw_new(void);
void tdw_free(struct tdw *w);

/* At least @n CPUs (1..TD_CPU_MAX), an empty one writing no page */
void tdw_cpus(struct tdw *w, int n);
int tdw_ncpus(const struct tdw *w);

/*
 * The record of @e being built: its fixed part zeroed, the common type
 * and @pid set. The fields are put by their offset (offsetof() in
 * struct td_rec_*, or td_field_offset()), little-endian as the file
 * says; a string field's bytes go after the fixed part, in the order
 * put, as the kernel's __assign_str() does.
 */
void tdw_begin(struct tdw *w, const struct td_event *e, int pid);
void tdw_put(struct tdw *w, size_t off, uint64_t v, size_t size);
/* char[16]: the first 15 bytes, NUL-padded */
void tdw_put_comm(struct tdw *w, size_t off, const char *s);
void tdw_put_str(struct tdw *w, size_t off, const char *s);
/* @n bytes of @s (no NUL among them) as a string */
void tdw_put_strn(struct tdw *w, size_t off, const char *s, size_t n);
/* "S", "D", "R+", "S|D" ... as TASK_REPORT bits: false if not letters */
bool tdw_task_state(const char *s, uint64_t *out);

/* The record's task: a pid's first comm is the one saved */
void tdw_comm(struct tdw *w, int pid, const char *comm);

enum {
	TDW_IO = -1,		/* a scratch file could not be written */
	TDW_TIME_BACK = -2,	/* @ts before the CPU's last record */
};
/* The record built, at @ts ns on @cpu (< TD_CPU_MAX, grown to): 0 or
 * TDW_* (errno says an I/O error's cause) */
int tdw_commit(struct tdw *w, int cpu, uint64_t ts);

/*
 * The format of @e's name is @e's (a trace.dat holds one layout per
 * event): the row first seen of its name, or the name's first row
 */
const struct td_event *tdw_layout(const struct tdw *w,
				  const struct td_event *e);
void tdw_set_layout(struct tdw *w, const struct td_event *e);

/* The file, at least one CPU: 0, or -1 on an I/O error (errno) */
int tdw_write(struct tdw *w, FILE *out);

#endif
