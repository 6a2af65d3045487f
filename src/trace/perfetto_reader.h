/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Perfetto face of the trace reader (trace_reader.h): a protobuf
 * trace (`.perfetto-trace`, `.pftrace`: Android's default since systrace
 * was deprecated, what sched_ext's tools write) read packet by packet
 * (perfetto_wire.h), each decoded with protobuf-c against capsim's subset
 * of Perfetto's schema (perfetto/capsim_perfetto.proto), its ftrace
 * events turned into the normalized events every other form gives:
 *
 *  - sched_switch, sched_wakeup, sched_wakeup_new, sched_waking,
 *    sched_migrate_task, cpu_frequency, cpu_idle, task_newtask,
 *    task_rename with the kernel's field names and order;
 *  - traced's compact_sched (switch and waking arrays with delta-encoded
 *    timestamps and a per-bundle intern table of comms): a switch's prev
 *    task is the one the CPU's previous switch put on it (before the
 *    CPU's first switch it is unknown: pid 0, "<...>"), a waking's own
 *    task the one running on the CPU (unknown: pid 0);
 *  - print (trace_marker's text) as the text faces read a marker;
 *  - generic events (those traced has no proto for) by their fields;
 *  - each event's own comm from the names the trace gave its pid, its
 *    tgid from the ProcessTree, the thread/process descriptors and
 *    task_newtask's CLONE_THREAD.
 *
 * The CPUs' events are merged by timestamp (perfetto_merge.h). An event's
 * "line" (trace_reader.lineno) is the byte offset of its packet. Errors
 * are printed "FILE: byte N: error: WHAT", N the first byte that is
 * wrong and WHAT what was expected there.
 */
#ifndef CAPSIM_PERFETTO_READER_H
#define CAPSIM_PERFETTO_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ftrace.h"

struct trace_pf;

/* Read the Perfetto trace open at @f (at its start; the caller's to
 * close after trace_pf_close), named @name in messages; NULL (said) in a
 * build without protobuf-c (the guest's static runner) */
struct trace_pf *trace_pf_open(FILE *f, const char *name);
/*
 * The next event in *ev (its strings valid until the next call), *where
 * the byte offset of its packet, *lost counting the bundles that follow a
 * loss of events: 1, 0 at the end, or with the message printed
 * TRACE_FILE_BAD or TRACE_FILE_IO
 */
int trace_pf_next(struct trace_pf *p, struct ftrace_event *ev, long *where,
		  long *lost);
void trace_pf_close(struct trace_pf *p);

#endif
