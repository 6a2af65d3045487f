// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "pid_map.h"
#include "trace_file.h"
#include "tracedat.h"
#include "tracedat_events.h"

/* kernel/trace/ring_buffer.c, a 64-bit kernel with 4 KiB pages */
#define PAGE_SIZE 4096
#define PAGE_HDR 16			/* u64 time_stamp, local_t commit */
#define PAGE_DATA (PAGE_SIZE - PAGE_HDR)
#define RB_ALIGN 4
#define TYPE_LEN_MAX 28			/* RINGBUF_TYPE_DATA_TYPE_LEN_MAX */
#define TYPE_TIME_EXTEND 30		/* RINGBUF_TYPE_TIME_EXTEND */
#define TS_SHIFT 27			/* time_delta: 27 bits */
#define TASK_COMM_LEN 16
#define TASK_REPORT_MAX 0x100		/* ((TASK_REPORT + 1) << 1) */
/* The most CPUs a trace may declare (#P:) or name: a scratch file each */
#define TD_CPU_MAX 4096

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

struct conv {
	const char *name;
	char *err;
	size_t errlen;
	long line;
	struct cpu_buf *cpus;
	int ncpus;
	struct pid_map pids;		/* pid -> index in comm */
	struct saved_comm {
		int pid;
		char *comm;
	} *comm;			/* saved_cmdlines, in order seen */
	size_t ncomm;
	bool io_error;			/* the failure is a write's */
	unsigned char *rec;		/* the record being built */
	size_t reclen, reccap;
	/* per row of td_events that is the first of its name: the layout
	 * the trace's events of that name have (td_event_match), and the
	 * line that chose it */
	const struct td_event **layout;
	long *layout_line;
};

static int fail(struct conv *c, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct conv *c, int col, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->errlen, "%s:%ld:%d: ", c->name, c->line, col);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static void put_le(unsigned char *p, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
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

static void put_word(struct cpu_buf *b, uint32_t w)
{
	put_le(b->page + PAGE_HDR + b->used, w, 4);
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

static void rec_reserve(struct conv *c, size_t n)
{
	if (c->reccap < n) {
		c->reccap = n * 2;
		c->rec = realloc(c->rec, c->reccap);
		if (!c->rec)
			abort();
	}
}

static bool parse_num(const char *s, bool is_signed, uint64_t *out)
{
	char *end;

	errno = 0;
	if (is_signed)
		*out = (uint64_t)strtoll(s, &end, 10);
	else
		*out = strtoull(s, &end, 10);
	return *s && !*end && !errno && (is_signed || *s != '-');
}

/* "S", "D", "R+", "S|D" ...: __print_flags reversed */
static bool parse_task_state(const char *s, uint64_t *out)
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

/* @pid's comm (the parser bounds pids to FTRACE_PID_MAX), kept in a
 * table as long as the pids seen, not as the largest */
static int set_comm(struct conv *c, int pid, const char *comm)
{
	if (pid <= 0 || pid_map_get(&c->pids, pid) >= 0)
		return 0;
	/* doubling: one copy per power of two of pids, not one per pid */
	if (!(c->ncomm & (c->ncomm - 1))) {
		c->comm = realloc(c->comm, (c->ncomm ? 2 * c->ncomm : 1) *
				  sizeof(*c->comm));
		if (!c->comm)
			abort();
	}
	c->comm[c->ncomm].pid = pid;
	c->comm[c->ncomm].comm = strndup(comm, TASK_COMM_LEN - 1);
	if (!c->comm[c->ncomm].comm)
		abort();
	pid_map_put(&c->pids, pid, (int)c->ncomm);
	c->ncomm++;
	return 0;
}

/* The binary record of @ev, as the kernel's TP_fast_assign fills it */
static int build_record(struct conv *c, const struct ftrace_event *ev,
			const struct td_event *e)
{
	size_t fixed = td_fixed_size(e), n, i;
	int f, k;

	rec_reserve(c, fixed);
	memset(c->rec, 0, fixed);
	put_le(c->rec, (uint64_t)e->id, 2);
	put_le(c->rec + 4, (uint64_t)(uint32_t)ev->pid, 4);
	c->reclen = fixed;
	for (k = 0; k < ev->nr_fields; k++) {
		for (f = 0; e->fields[f].name; f++)
			if (!strcmp(e->fields[f].name, ev->fields[k].key))
				break;
		if (!e->fields[f].name)
			return fail(c, 1, "%s: field \"%s\" is not in the event's format (add it to src/trace/tracedat_events.c)",
				    e->name, ev->fields[k].key);
	}
	for (f = 0; e->fields[f].name; f++) {
		const char *v = ftrace_get(ev, e->fields[f].name);
		enum td_type t = e->fields[f].type;
		unsigned char *p = c->rec + td_field_offset(e, f);
		uint64_t x;
		bool ok;

		if (!v)
			return fail(c, 1, "%s: no field \"%s\"", e->name,
				    e->fields[f].name);
		switch (t) {
		case TD_COMM:
			n = strlen(v);
			memcpy(p, v, n < TASK_COMM_LEN ? n : TASK_COMM_LEN - 1);
			continue;
		case TD_STR:
			/* __data_loc: length << 16 | offset of the bytes */
			n = strlen(v) + 1;
			i = c->reclen;
			rec_reserve(c, i + n);
			p = c->rec + td_field_offset(e, f);
			memcpy(c->rec + i, v, n);
			c->reclen += n;
			put_le(p, (uint64_t)(n << 16 | i), 4);
			continue;
		case TD_TASK_STATE:
			ok = parse_task_state(v, &x);
			break;
		default:
			ok = parse_num(v, t == TD_INT || t == TD_PID ||
				       t == TD_LONG, &x);
			break;
		}
		if (!ok)
			return fail(c, 1, "%s: %s=%s is not a valid value",
				    e->name, e->fields[f].name, v);
		put_le(p, x, td_field_size(t));
	}
	return 0;
}

/* One layout per event in a file: the first line of it chooses */
static int take_layout(struct conv *c, const struct td_event *e)
{
	size_t i = (size_t)(td_event_find(e->name) - td_events);

	if (!c->layout[i]) {
		c->layout[i] = e;
		c->layout_line[i] = c->line;
	} else if (c->layout[i] != e) {
		return fail(c, 1, "%s: other fields than at line %ld (a trace.dat holds one layout per event)",
			    e->name, c->layout_line[i]);
	}
	return 0;
}

static int grow_cpus(struct conv *c, int n)
{
	int i;

	if (n <= c->ncpus)
		return 0;
	c->cpus = realloc(c->cpus, (size_t)n * sizeof(*c->cpus));
	if (!c->cpus)
		abort();
	for (i = c->ncpus; i < n; i++)
		memset(&c->cpus[i], 0, sizeof(c->cpus[i]));
	c->ncpus = n;
	return 0;
}

/* "#P:N", the CPU count a trace's header declares: [1, TD_CPU_MAX] */
static int header_cpus(struct conv *c, char *line, const char *p)
{
	const char *num = p + 3;
	char *end;
	long n;

	errno = 0;
	n = strtol(num, &end, 10);
	if (end == num || errno || n < 1 || n > TD_CPU_MAX)
		return fail(c, (int)(num - line) + 1,
			    "#P:%.20s: the CPU count is out of range: allowed [1, %d]",
			    num, TD_CPU_MAX);
	return grow_cpus(c, (int)n);
}

/*
 * The kernel prints a trace_marker write as "tracing_mark_write: TEXT"
 * (the print entry's %ps of its caller, then the text): it becomes that
 * entry again, its whole text the buf. Any other event's text is fields.
 */
static void marker_or_fields(struct ftrace_event *ev, char *body)
{
	if (strcmp(ev->name, "tracing_mark_write")) {
		ftrace_split_fields(body, ev);
		return;
	}
	while (*body == ' ')
		body++;
	ev->name = "print";
	ev->nr_fields = 2;
	ev->fields[0].key = "ip";
	ev->fields[0].val = "0";
	ev->fields[1].key = "buf";
	ev->fields[1].val = body;
}

static int read_events(struct conv *c, FILE *in)
{
	struct trace_lines lines;
	char *line;
	int ret = 0, r;

	trace_lines_init(&lines, in);
	while (!ret && (r = trace_lines_next(&lines, &line)) > 0) {
		struct ftrace_event ev;
		const struct td_event *e;
		const char *msg, *p;
		char *body;
		int col, k;

		c->line = lines.lineno;
		if ((p = strstr(line, "#P:")) && line[0] == '#') {
			ret = header_cpus(c, line, p);
			continue;
		}
		k = ftrace_parse_head(line, &ev, &body, &msg, &col);
		if (k < 0) {
			ret = fail(c, col, "%s", msg);
			break;
		}
		if (!k)
			continue;
		marker_or_fields(&ev, body);
		e = td_event_match(&ev);
		if (!e) {
			ret = fail(c, 1, "event \"%s\" has no format (add it to src/trace/tracedat_events.c)",
				   ev.name);
			break;
		}
		ret = take_layout(c, e);
		if (ret)
			break;
		if (ev.cpu < 0 || ev.cpu >= TD_CPU_MAX) {
			ret = fail(c, ev.cpu_col, "CPU %d is out of range: allowed [0, %d]",
				   ev.cpu, TD_CPU_MAX - 1);
			break;
		}
		ret = grow_cpus(c, ev.cpu + 1);
		if (!ret)
			ret = set_comm(c, ev.pid, ev.comm);
		if (!ret)
			ret = build_record(c, &ev, e);
		if (ret)
			break;
		if (c->cpus[ev.cpu].open && ev.ts_ns < c->cpus[ev.cpu].last_ts) {
			ret = fail(c, 1, "time goes back on CPU %d", ev.cpu);
			break;
		}
		if (cpu_add(&c->cpus[ev.cpu], ev.ts_ns, c->rec, c->reclen)) {
			c->io_error = true;
			ret = fail(c, 1, "cannot write a scratch file: %s",
				   strerror(errno));
		}
	}
	if (!ret && r < 0) {
		c->line = lines.lineno;
		c->io_error = r == TRACE_FILE_IO;
		ret = fail(c, 1, "%s%s", r == TRACE_FILE_IO ?
			   "read error: " : "", lines.err);
	}
	trace_lines_free(&lines);
	return ret;
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
static const struct td_event *written(const struct conv *c,
				      const struct td_event *e)
{
	if (td_event_find(e->name) != e)
		return NULL;
	return c->layout[e - td_events] ? c->layout[e - td_events] : e;
}

/* The count of @system's formats, then each (its size, its text) */
static void write_system_formats(const struct conv *c, struct out *o,
				 const char *system)
{
	const struct td_event *e;
	uint32_t n = 0;

	for (e = td_events; e->name; e++)
		n += !strcmp(e->system, system) && written(c, e);
	out_num(o, n, 4);
	for (e = td_events; e->name; e++) {
		char *fmt;

		if (strcmp(e->system, system) || !written(c, e))
			continue;
		fmt = td_format(written(c, e));
		out_sized(o, fmt, 8);
		free(fmt);
	}
}

static void write_formats(const struct conv *c, struct out *o)
{
	/* every system td_events names: a record of an event whose
	 * format is missing is one no reader can decode */
	static const char *const systems[] = { "sched", "power", "capsim",
					       "lisa" };
	const size_t nsys = sizeof(systems) / sizeof(systems[0]);
	size_t s;

	/* ftrace's own entries (print) have a section of their own */
	write_system_formats(c, o, "ftrace");
	out_num(o, nsys, 4);
	for (s = 0; s < nsys; s++) {
		out_bytes(o, systems[s], strlen(systems[s]) + 1);
		write_system_formats(c, o, systems[s]);
	}
}

static int write_file(struct conv *c, FILE *f)
{
	struct out o = { f, 0 };
	uint64_t off;
	char *cmdlines = NULL;
	size_t cl = 0, i;
	FILE *m = open_memstream(&cmdlines, &cl);
	int cpu;

	if (!m)
		abort();
	for (i = 0; i < c->ncomm; i++)
		fprintf(m, "%d %s\n", c->comm[i].pid, c->comm[i].comm);
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
	write_formats(c, &o);
	out_num(&o, 0, 4);		/* kallsyms */
	out_num(&o, 0, 4);		/* printk formats */
	out_sized(&o, cmdlines, 8);
	free(cmdlines);
	out_num(&o, (uint64_t)c->ncpus, 4);
	out_bytes(&o, "options  ", 10);
	out_num(&o, 0, 2);		/* no options */
	out_bytes(&o, "flyrecord", 10);
	/* page-aligned CPU data after the offset table */
	off = (o.pos + 16 * (uint64_t)c->ncpus + PAGE_SIZE - 1) /
	      PAGE_SIZE * PAGE_SIZE;
	for (cpu = 0; cpu < c->ncpus; cpu++) {
		out_num(&o, off, 8);
		out_num(&o, c->cpus[cpu].size, 8);
		off += c->cpus[cpu].size;
	}
	while (o.pos % PAGE_SIZE)
		out_num(&o, 0, 1);
	for (cpu = 0; cpu < c->ncpus; cpu++) {
		struct cpu_buf *b = &c->cpus[cpu];
		size_t n;

		if (!b->f)	/* no event on this CPU */
			continue;
		rewind(b->f);
		/* stops at the first write error (a full disk) */
		while (!ferror(f) && (n = fread(b->page, 1, PAGE_SIZE, b->f)) > 0)
			out_bytes(&o, b->page, n);
		if (ferror(b->f)) {
			c->io_error = true;
			return fail(c, 1, "cannot read a scratch file: %s",
				    strerror(errno));
		}
	}
	if (ferror(f)) {
		c->io_error = true;
		return fail(c, 1, "write error: %s", strerror(errno));
	}
	return 0;
}

int tracedat_convert(FILE *in, const char *in_name, FILE *out, char *err,
		     size_t errlen)
{
	struct conv c;
	int ret, i;
	size_t k;

	memset(&c, 0, sizeof(c));
	c.name = in_name;
	c.err = err;
	c.errlen = errlen;
	for (k = 0; td_events[k].name; k++)
		;
	c.layout = calloc(k, sizeof(*c.layout));
	c.layout_line = calloc(k, sizeof(*c.layout_line));
	if (!c.layout || !c.layout_line)
		abort();
	ret = read_events(&c, in);
	for (i = 0; !ret && i < c.ncpus; i++)
		if (flush_page(&c.cpus[i])) {
			c.io_error = true;
			ret = fail(&c, 1, "cannot write a scratch file: %s",
				   strerror(errno));
		}
	if (!ret && !c.ncpus)
		ret = fail(&c, 1, "no CPU: neither a #P: header nor an event");
	if (!ret)
		ret = write_file(&c, out);
	for (i = 0; i < c.ncpus; i++)
		if (c.cpus[i].f)
			fclose(c.cpus[i].f);
	free(c.cpus);
	for (k = 0; k < c.ncomm; k++)
		free(c.comm[k].comm);
	free(c.comm);
	pid_map_free(&c.pids);
	free(c.rec);
	free(c.layout);
	free(c.layout_line);
	return ret && c.io_error ? TRACEDAT_IO_ERROR : ret;
}
