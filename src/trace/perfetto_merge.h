/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Perfetto trace's events back in time order, for its reader
 * (perfetto_reader.c). traced drains each CPU's ftrace buffer into
 * bundles of its own, CPU after CPU, so a CPU's events come in order but
 * the CPUs' interleave across packets (other writers put a CPU's whole
 * capture in one bundle): each CPU has a queue here, and the event
 * handed out next is the earliest head (ties to the lower CPU, as
 * trace.dat's face and `trace-cmd report` do) once no CPU can still bring
 * an earlier one: every CPU the file names (pf_scan_cpus(), read ahead)
 * has an event queued or has been read past it. The window is bounded:
 * at PF_WINDOW events held the earliest goes out whatever (a CPU silent
 * for long, offline or idle, holds the others back until then); an
 * event that would then come before one handed out is refused, never
 * reordered.
 */
#ifndef CAPSIM_PERFETTO_MERGE_H
#define CAPSIM_PERFETTO_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ~90 MB of events held at most (a busy phone traces ~100 k a second) */
#define PF_WINDOW (1u << 20)
/* CPUs a bundle may name (NR_CPUS tops out at 8192) */
#define PF_CPU_MAX 8191

enum pf_kind {
	PF_SWITCH, PF_WAKEUP, PF_WAKEUP_NEW, PF_WAKING, PF_MIGRATE,
	PF_FREQ, PF_IDLE, PF_NEWTASK, PF_RENAME, PF_PRINT, PF_GENERIC,
};

/* One event as decoded, held until its turn: its numbers and strings
 * (ids of perfetto_names.h) in the order of the kernel's format */
struct pf_ev {
	uint64_t ts;
	uint64_t off;		/* the byte offset of its packet */
	int64_t v[5];
	uint32_t s[2];
	uint32_t comm;		/* the name its own task had then */
	int32_t cpu, pid;	/* the bundle's CPU, its own task */
	uint16_t has;		/* bit i: v[i] said (a proto2 field set) */
	uint8_t kind;
	char *blob;		/* print: the text; generic: its fields */
};

struct pf_queue {
	struct pf_ev *e;	/* a ring of cap (a power of two) */
	uint32_t head, n, cap;
	uint64_t hw;		/* the latest timestamp it was given */
	bool expected;		/* the file names it (it may hold others back) */
};

struct pf_merge {
	struct pf_queue *q;
	int ncpus;
	size_t total;
	uint64_t last_out;	/* the last timestamp handed out */
	bool out_any;
};

/* CPU @cpu is named by the file: no event goes out before it has been
 * read past it (or the window is full) */
void pf_merge_expect(struct pf_merge *m, int cpu);
/*
 * Queue @ev (its blob now the merge's): 0, or -1 when it comes before an
 * event already handed out (*err says so; @ev's blob freed)
 */
int pf_merge_push(struct pf_merge *m, struct pf_ev *ev, char *err,
		  size_t errlen);
/* The CPU whose head goes out next, or -1: read more first (or, at
 * @eof, nothing is left) */
int pf_merge_ready(const struct pf_merge *m, bool eof);
/* Take @cpu's head into *ev (its blob the caller's to free) */
void pf_merge_pop(struct pf_merge *m, int cpu, struct pf_ev *ev);
void pf_merge_free(struct pf_merge *m);

#endif
