/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where things are in a trace.dat, read without libtracecmd: the file's
 * sections as byte ranges with a name a user can act on ("header page",
 * "event format of sched/sched_switch", "CPU 1's data"), each CPU's data,
 * and whether a data page's header is one the kernel could have written.
 *
 * It exists to name what broke when libtracecmd dies on a corrupt file
 * (trace_reader_dat.c reads through libtracecmd in a child process and
 * knows only where the child was in the file): it is read after a crash,
 * never on the way of a good file. Input is untrusted: the walk stops,
 * without reading past the file, where the file stops making sense, and
 * what it understood until then is kept.
 *
 * Both of trace-cmd's formats: version 6 (trace-cmd.dat.v6(5), what
 * capsim writes) and version 7 (trace-cmd.dat.v7(5), what `trace-cmd
 * record` 3.x writes): its sections by their headers, their contents when
 * not compressed.
 */
#ifndef CAPSIM_TRACEDAT_LAYOUT_H
#define CAPSIM_TRACEDAT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tdl_section {
	uint64_t start, end;	/* [start, end) in the file */
	char name[112];
};

struct tdl_cpu {
	int cpu;
	uint64_t offset, size;	/* its data in the file */
	bool compressed;	/* v7 chunks: its pages are not in the file */
};

struct tracedat_layout {
	int version;		/* 6, 7; 0 before the version was read */
	bool big_endian;
	unsigned int page_size;
	unsigned int commit_size;	/* the header page's commit: 4 or 8 */
	struct tdl_section *sec;
	int nsec, cap;
	struct tdl_cpu *cpus;
	int ncpus;
};

/*
 * Walk the trace.dat open at @fd (read with pread, the offset left
 * alone). Fills @l as far as the file makes sense; false when nothing
 * was (not even the version). tracedat_layout_free() after, either way.
 */
bool tracedat_layout_read(int fd, struct tracedat_layout *l);
void tracedat_layout_free(struct tracedat_layout *l);

/*
 * The innermost section holding the byte before @off: where a reader
 * that reads the file in order stopped, having read that section's last
 * byte. NULL when none does.
 */
const struct tdl_section *tracedat_layout_at(const struct tracedat_layout *l,
					     uint64_t off);

/* The data of CPU @cpu, or NULL */
const struct tdl_cpu *tracedat_layout_cpu(const struct tracedat_layout *l,
					  int cpu);

/*
 * The first of @pages pages (0: all) of @c's data from the one holding
 * @from that no kernel writes (its commit beyond the page, a stored
 * lost-events count outside it, an event past the commit, the page past
 * the end of the file): true with its offset in *page and what is wrong
 * in @why. False when they look sound or are compressed.
 */
bool tracedat_layout_bad_page(const struct tracedat_layout *l, int fd,
			      const struct tdl_cpu *c, uint64_t from,
			      unsigned long pages, uint64_t *page, char *why,
			      size_t n);

#endif
