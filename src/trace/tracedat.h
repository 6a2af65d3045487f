/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.dat from ftrace text: the trace capsim wrote (trace.txt) as the
 * binary file trace-cmd records, so that `trace-cmd report` and KernelShark
 * open a simulated run like a captured one.
 *
 * The file is trace-cmd's version 6 (trace-cmd.dat.v6(5)), written by
 * tracedat_write.c: libtracecmd 3.1 only exports its reader in its public
 * header (its writer reads a live tracefs). Each line's record is built
 * from its fields by the event table's layout of it (trace_events.def,
 * td_events[]); `capsim run --trace-dat` writes the same records from the
 * model's typed fields without this text step.
 */
#ifndef CAPSIM_TRACEDAT_H
#define CAPSIM_TRACEDAT_H

#include <stddef.h>
#include <stdio.h>

/* tracedat_convert's failure to read its input or write (exit 1) */
#define TRACEDAT_IO_ERROR (-2)

/*
 * Convert the ftrace text read from @in (named @in_name in messages) and
 * write trace.dat to @out. Returns 0, or with "NAME:LINE:COL: message" in
 * @err -1 for bad input (an event or a field the format table does not
 * know, a value that is not a number, time going back on a CPU, a line
 * over 64 KiB, a #P: header or a CPU beyond 4096 CPUs) or
 * TRACEDAT_IO_ERROR.
 */
int tracedat_convert(FILE *in, const char *in_name, FILE *out, char *err,
		     size_t errlen);

#endif
