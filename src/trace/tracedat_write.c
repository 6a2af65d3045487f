// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pid_map.h"
#include "tracedat_write.h"

/* kernel/trace/ring_buffer.c, a 64-bit kernel with 4 KiB pages */
#define PAGE_SIZE 4096
#define PAGE_HDR 16			/* u64 time_stamp, local_t commit */
#define PAGE_DATA (PAGE_SIZE - PAGE_HDR)
#define RB_ALIGN 4
#define TYPE_LEN_MAX 28			/* RINGBUF_TYPE_DATA_TYPE_LEN_MAX */
#define TYPE_TIME_EXTEND 30		/* RINGBUF_TYPE_TIME_EXTEND */
#define TS_SHIFT 27			/* time_delta: 27 bits */
#define TASK_REPORT_MAX 0x100		/* ((TASK_REPORT + 1) << 1) */

/* The text of tracing/events/header_page and header_event */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/* One CPU's ring buffer, filled page by page into a scratch file */
struct cpu_buf {
	FILE *f;
	unsigned char page[PAGE_SIZE];
	size_t used;			/* bytes of data in the page */
	bool open;
	uint64_t page_ts, last_ts;
	uint64_t size;			/* bytes in f */
};

struct tdw {
	struct cpu_buf *cpus;
	int ncpus;
	struct pid_map pids;		/* pid -> index in comm */
	struct saved_comm {
		int pid;
		char *comm;
	} *comm;			/* saved_cmdlines, in order seen */
	size_t ncomm;
	unsigned char *rec;		/* the record being built */
	size_t reclen, reccap;
	/* per row of td_events that is the first of its name: the layout
	 * the trace's events of that name have */
	const struct td_event *layout[TD_NROWS];
};

static void put_le(unsigned char *p, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

struct tdw *tdw_new(void)
{
	struct tdw *w = calloc(1, sizeof(*w));

	if (!w)
		abort();
	return w;
}

void tdw_free(struct tdw *w)
{
	size_t k;
	int i;

	if (!w)
		return;
	for (i = 0; i < w->ncpus; i++)
		if (w->cpus[i].f)
			fclose(w->cpus[i].f);
	free(w->cpus);
	for (k = 0; k < w->ncomm; k++)
		free(w->comm[k].comm);
	free(w->comm);
	pid_map_free(&w->pids);
	free(w->rec);
	free(w);
}

void tdw_cpus(struct tdw *w, int n)
{
	int i;

	if (n <= w->ncpus)
		return;
	w->cpus = realloc(w->cpus, (size_t)n * sizeof(*w->cpus));
	if (!w->cpus)
		abort();
	for (i = w->ncpus; i < n; i++)
		memset(&w->cpus[i], 0, sizeof(w->cpus[i]));
	w->ncpus = n;
}

int tdw_ncpus(const struct tdw *w)
{
	return w->ncpus;
}

static void reserve(struct tdw *w, size_t n)
{
	if (w->reccap < n) {
		w->reccap = n * 2;
		w->rec = realloc(w->rec, w->reccap);
		if (!w->rec)
			abort();
	}
}

void tdw_begin(struct tdw *w, const struct td_event *e, int pid)
{
	size_t fixed = td_fixed_size(e);

	reserve(w, fixed);
	memset(w->rec, 0, fixed);
	put_le(w->rec, (uint64_t)e->id, 2);
	put_le(w->rec + 4, (uint64_t)(uint32_t)pid, 4);
	w->reclen = fixed;
}

void tdw_put(struct tdw *w, size_t off, uint64_t v, size_t size)
{
	put_le(w->rec + off, v, size);
}

void tdw_put_comm(struct tdw *w, size_t off, const char *s)
{
	size_t n = strlen(s);

	memcpy(w->rec + off, s, n < TD_TASK_COMM_LEN ? n : TD_TASK_COMM_LEN - 1);
}

void tdw_put_strn(struct tdw *w, size_t off, const char *s, size_t n)
{
	/* __data_loc: length (with the NUL) << 16 | offset of the bytes */
	size_t at = w->reclen;

	reserve(w, at + n + 1);
	memcpy(w->rec + at, s, n);
	w->rec[at + n] = '\0';
	w->reclen += n + 1;
	put_le(w->rec + off, (uint64_t)((n + 1) << 16 | at), 4);
}

void tdw_put_str(struct tdw *w, size_t off, const char *s)
{
	tdw_put_strn(w, off, s, strlen(s));
}

/* "S", "D", "R", "R+", "S|D" ...: __print_flags reversed */
bool tdw_task_state(const char *s, uint64_t *out)
{
	static const char letters[] = "SDTtXZPI";
	size_t n = strlen(s);

	*out = 0;
	if (n && s[n - 1] == '+') {
		*out |= TASK_REPORT_MAX;
		n--;
	}
	if (n == 1 && s[0] == 'R')
		return true;
	while (n) {
		const char *l = s[0] ? strchr(letters, s[0]) : NULL;

		if (!l)
			return false;
		*out |= 1u << (l - letters);
		s++;
		n--;
		if (n && *s == '|') {
			s++;
			n--;
		}
	}
	return true;
}

/* @pid's comm, kept in a table as long as the pids seen, not as the
 * largest */
void tdw_comm(struct tdw *w, int pid, const char *comm)
{
	if (pid <= 0 || pid_map_get(&w->pids, pid) >= 0)
		return;
	/* doubling: one copy per power of two of pids, not one per pid */
	if (!(w->ncomm & (w->ncomm - 1))) {
		w->comm = realloc(w->comm, (w->ncomm ? 2 * w->ncomm : 1) *
				  sizeof(*w->comm));
		if (!w->comm)
			abort();
	}
	w->comm[w->ncomm].pid = pid;
	w->comm[w->ncomm].comm = strndup(comm, TD_TASK_COMM_LEN - 1);
	if (!w->comm[w->ncomm].comm)
		abort();
	pid_map_put(&w->pids, pid, (int)w->ncomm);
	w->ncomm++;
}

static int flush_page(struct cpu_buf *b)
{
	if (!b->open)
		return 0;
	put_le(b->page, b->page_ts, 8);
	put_le(b->page + 8, b->used, 8);
	memset(b->page + PAGE_HDR + b->used, 0, PAGE_DATA - b->used);
	b->open = false;
	b->size += PAGE_SIZE;
	/* made at a CPU's first page: a header's #P: 4096 opens no file */
	if (!b->f && !(b->f = tmpfile()))
		return -1;
	return fwrite(b->page, PAGE_SIZE, 1, b->f) == 1 ? 0 : -1;
}

static void put_word(struct cpu_buf *b, uint32_t v)
{
	put_le(b->page + PAGE_HDR + b->used, v, 4);
	b->used += 4;
}

/*
 * Append a record at @ts: a 4-byte header (type_len = length / 4 for up
 * to 112 bytes, else 0 and the length in the next word), preceded by a
 * time extend when the delta does not fit its 27 bits.
 */
static int cpu_add(struct cpu_buf *b, uint64_t ts, const unsigned char *rec,
		   size_t len)
{
	size_t body = (len + RB_ALIGN - 1) / RB_ALIGN * RB_ALIGN;
	bool small = body <= TYPE_LEN_MAX * RB_ALIGN;
	size_t need = 4 + (small ? 0 : 4) + body;
	uint64_t delta = b->open ? ts - b->last_ts : 0;

	if (b->open && b->used + need + (delta >> TS_SHIFT ? 8 : 0) >
	    PAGE_DATA && flush_page(b))
		return -1;
	if (!b->open) {
		b->open = true;
		b->used = 0;
		b->page_ts = ts;
		delta = 0;
	}
	if (delta >> TS_SHIFT) {
		put_word(b, TYPE_TIME_EXTEND |
			 (uint32_t)((delta & ((1u << TS_SHIFT) - 1)) << 5));
		put_word(b, (uint32_t)(delta >> TS_SHIFT));
		delta = 0;
	}
	put_word(b, (small ? (uint32_t)(body / RB_ALIGN) : 0) |
		 (uint32_t)(delta << 5));
	if (!small)
		put_word(b, (uint32_t)(4 + body));
	memcpy(b->page + PAGE_HDR + b->used, rec, len);
	memset(b->page + PAGE_HDR + b->used + len, 0, body - len);
	b->used += body;
	b->last_ts = ts;
	return 0;
}

int tdw_commit(struct tdw *w, int cpu, uint64_t ts)
{
	struct cpu_buf *b;

	tdw_cpus(w, cpu + 1);
	b = &w->cpus[cpu];
	if (b->open && ts < b->last_ts)
		return TDW_TIME_BACK;
	return cpu_add(b, ts, w->rec, w->reclen) ? TDW_IO : 0;
}

const struct td_event *tdw_layout(const struct tdw *w,
				  const struct td_event *e)
{
	return w->layout[td_event_find(e->name) - td_events];
}

void tdw_set_layout(struct tdw *w, const struct td_event *e)
{
	w->layout[td_event_find(e->name) - td_events] = e;
}

/* The output, counting bytes for the CPU data offsets */
struct out {
	FILE *f;
	uint64_t pos;
};

static void out_bytes(struct out *o, const void *p, size_t n)
{
	fwrite(p, 1, n, o->f);
	o->pos += n;
}

static void out_num(struct out *o, uint64_t v, size_t n)
{
	unsigned char b[8];

	put_le(b, v, n);
	out_bytes(o, b, n);
}

static void out_sized(struct out *o, const char *text, size_t width)
{
	out_num(o, strlen(text), width);
	out_bytes(o, text, strlen(text));
}

/* Row @e's format is written: the first of its name, in the layout the
 * trace chose (its first row's when it has none of it) */
static const struct td_event *written(const struct tdw *w,
				      const struct td_event *e)
{
	if (td_event_find(e->name) != e)
		return NULL;
	return w->layout[e - td_events] ? w->layout[e - td_events] : e;
}

/* The count of @system's formats, then each (its size, its text) */
static void write_system_formats(const struct tdw *w, struct out *o,
				 const char *system)
{
	const struct td_event *e;
	uint32_t n = 0;

	for (e = td_events; e->name; e++)
		n += !strcmp(e->system, system) && written(w, e);
	out_num(o, n, 4);
	for (e = td_events; e->name; e++) {
		char *fmt;

		if (strcmp(e->system, system) || !written(w, e))
			continue;
		fmt = td_format(written(w, e));
		out_sized(o, fmt, 8);
		free(fmt);
	}
}

static void write_formats(const struct tdw *w, struct out *o)
{
	/* every system td_events names: a record of an event whose
	 * format is missing is one no reader can decode */
	static const char *const systems[] = { "sched", "power", "capsim",
					       "lisa" };
	const size_t nsys = sizeof(systems) / sizeof(systems[0]);
	size_t s;

	/* ftrace's own entries (print) have a section of their own */
	write_system_formats(w, o, "ftrace");
	out_num(o, nsys, 4);
	for (s = 0; s < nsys; s++) {
		out_bytes(o, systems[s], strlen(systems[s]) + 1);
		write_system_formats(w, o, systems[s]);
	}
}

int tdw_write(struct tdw *w, FILE *f)
{
	struct out o = { f, 0 };
	uint64_t off;
	char *cmdlines = NULL;
	size_t cl = 0, i;
	FILE *m;
	int cpu;

	for (cpu = 0; cpu < w->ncpus; cpu++)
		if (flush_page(&w->cpus[cpu]))
			return -1;
	m = open_memstream(&cmdlines, &cl);
	if (!m)
		abort();
	for (i = 0; i < w->ncomm; i++)
		fprintf(m, "%d %s\n", w->comm[i].pid, w->comm[i].comm);
	fclose(m);

	/* 0x17 0x08 0x44, "tracing", the version "6\0" */
	out_bytes(&o, "\027\010\104tracing6", 12);
	out_num(&o, 0, 1);		/* little endian */
	out_num(&o, 8, 1);		/* long */
	out_num(&o, PAGE_SIZE, 4);
	out_bytes(&o, "header_page", 12);
	out_sized(&o, header_page, 8);
	out_bytes(&o, "header_event", 13);
	out_sized(&o, header_event, 8);
	write_formats(w, &o);
	out_num(&o, 0, 4);		/* kallsyms */
	out_num(&o, 0, 4);		/* printk formats */
	out_sized(&o, cmdlines, 8);
	free(cmdlines);
	out_num(&o, (uint64_t)w->ncpus, 4);
	out_bytes(&o, "options  ", 10);
	out_num(&o, 0, 2);		/* no options */
	out_bytes(&o, "flyrecord", 10);
	/* page-aligned CPU data after the offset table */
	off = (o.pos + 16 * (uint64_t)w->ncpus + PAGE_SIZE - 1) /
	      PAGE_SIZE * PAGE_SIZE;
	for (cpu = 0; cpu < w->ncpus; cpu++) {
		out_num(&o, off, 8);
		out_num(&o, w->cpus[cpu].size, 8);
		off += w->cpus[cpu].size;
	}
	while (o.pos % PAGE_SIZE)
		out_num(&o, 0, 1);
	for (cpu = 0; cpu < w->ncpus; cpu++) {
		struct cpu_buf *b = &w->cpus[cpu];
		size_t n;

		if (!b->f)	/* no event on this CPU */
			continue;
		rewind(b->f);
		/* stops at the first write error (a full disk) */
		while (!ferror(f) && (n = fread(b->page, 1, PAGE_SIZE, b->f)) > 0)
			out_bytes(&o, b->page, n);
		if (ferror(b->f))
			return -1;
	}
	return ferror(f) ? -1 : 0;
}
