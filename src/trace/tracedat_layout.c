// SPDX-License-Identifier: GPL-2.0
/*
 * A trace.dat's layout from trace-cmd's format descriptions
 * (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)) and the kernel's ring-buffer
 * page (kernel/trace/ring_buffer.c: a u64 timestamp, a long commit whose
 * top bits flag lost events, then the events). See tracedat_layout.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat_layout.h"

/* A real file has a few thousand event formats at most; the walk stops
 * there (a count of 4 * 10^9 formats of size 0 would otherwise read a
 * big file 8 bytes at a time) */
#define TDL_MAX_SECTIONS (1 << 16)

/* A cursor over the file: reads past its end set @bad and return 0 */
struct cur {
	int fd;
	uint64_t pos, size;
	bool be, bad;
};

static bool get(struct cur *c, void *buf, size_t n)
{
	if (c->bad || n > c->size || c->pos > c->size - n ||
	    pread(c->fd, buf, n, (off_t)c->pos) != (ssize_t)n) {
		c->bad = true;
		memset(buf, 0, n);
		return false;
	}
	c->pos += n;
	return true;
}

static uint64_t num(const struct cur *c, const unsigned char *b, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)b[c->be ? n - 1 - i : i] << (8 * i);
	return v;
}

static uint64_t u(struct cur *c, int n)
{
	unsigned char b[8];

	get(c, b, (size_t)n);
	return num(c, b, n);
}

static void skip(struct cur *c, uint64_t n)
{
	if (c->bad || n > c->size - c->pos)
		c->bad = true;
	else
		c->pos += n;
}

/* A NUL-terminated string of at most @n - 1 bytes */
static bool str(struct cur *c, char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		if (!get(c, s + i, 1))
			return false;
		if (!s[i])
			return true;
	}
	c->bad = true;
	s[0] = '\0';
	return false;
}

/* @s as printable ASCII: a name from the file goes into a message */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			*s = '?';
}

static struct tdl_section *add(struct tracedat_layout *l, uint64_t start,
			       uint64_t end, const char *fmt, const char *a,
			       long b)
{
	struct tdl_section *s;

	if (l->nsec == TDL_MAX_SECTIONS)
		return NULL;
	if (l->nsec == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->sec = realloc(l->sec, (size_t)l->cap * sizeof(*l->sec));
		if (!l->sec)
			abort();
	}
	s = &l->sec[l->nsec++];
	s->start = start;
	s->end = end;
	snprintf(s->name, sizeof(s->name), fmt, a ? a : "", b);
	printable(s->name);
	return s;
}

/* The "name: NAME" an event format starts with, read from @at */
static void format_name(struct cur *c, uint64_t at, uint64_t size, char *name,
			size_t n)
{
	char buf[80], *e;
	struct cur r = *c;

	snprintf(name, n, "?");
	r.pos = at;
	if (size < 7 || !get(&r, buf, size < sizeof(buf) - 1 ? size : sizeof(buf) - 1))
		return;
	buf[size < sizeof(buf) - 1 ? size : sizeof(buf) - 1] = '\0';
	if (strncmp(buf, "name: ", 6))
		return;
	e = strchr(buf + 6, '\n');
	if (e)
		*e = '\0';
	snprintf(name, n, "%s", buf + 6);
}

/* @count event formats, each a u64 size and the text, of @system */
static void formats(struct cur *c, struct tracedat_layout *l,
		    const char *system, uint64_t count)
{
	char name[80], what[160];
	uint64_t i;

	for (i = 0; i < count && !c->bad && l->nsec < TDL_MAX_SECTIONS; i++) {
		uint64_t start = c->pos, size = u(c, 8), end;

		if (c->bad)
			return;
		end = size > c->size - c->pos ? c->size : c->pos + size;
		format_name(c, c->pos, end - c->pos, name, sizeof(name));
		skip(c, size);
		snprintf(what, sizeof(what), "%s/%s", system, name);
		add(l, start, end, "event format of %s", what, 0);
	}
}

/* The size of the header page's commit field ("field: local_t commit;
 * offset:8; size:8;"), the long the kernel's pages are written with */
static void commit_size(struct cur *c, struct tracedat_layout *l,
			uint64_t at, uint64_t size)
{
	char buf[512], *p;
	struct cur r = *c;
	size_t n = size < sizeof(buf) - 1 ? (size_t)size : sizeof(buf) - 1;

	r.pos = at;
	if (!get(&r, buf, n))
		return;
	buf[n] = '\0';
	p = strstr(buf, "commit;");
	p = p ? strstr(p, "size:") : NULL;
	if (p && (p[5] == '4' || p[5] == '8'))
		l->commit_size = (unsigned int)(p[5] - '0');
}

/* "header_page" and "header_event", each a tag, a u64 size, the text */
static void header_info(struct cur *c, struct tracedat_layout *l)
{
	static const char *const tags[] = { "header_page", "header_event" };
	static const char *const names[] = { "header page", "header event" };
	char tag[16];
	int i;

	for (i = 0; i < 2 && !c->bad; i++) {
		uint64_t start = c->pos, size;

		if (!str(c, tag, sizeof(tag)) || strcmp(tag, tags[i])) {
			c->bad = true;
			return;
		}
		size = u(c, 8);
		if (i == 0)
			commit_size(c, l, c->pos, size);
		skip(c, size);
		add(l, start, c->bad ? c->size : c->pos, "%s", names[i], 0);
	}
}

static void ftrace_formats(struct cur *c, struct tracedat_layout *l)
{
	formats(c, l, "ftrace", u(c, 4));
}

static void event_formats(struct cur *c, struct tracedat_layout *l)
{
	uint64_t systems = u(c, 4), i;
	char system[64];

	for (i = 0; i < systems && !c->bad && l->nsec < TDL_MAX_SECTIONS; i++) {
		uint64_t start = c->pos;

		if (!str(c, system, sizeof(system)))
			break;
		printable(system);
		add(l, start, c->pos + 4, "event formats of system %s",
		    system, 0);
		formats(c, l, system, u(c, 4));
	}
}

/* A u32 or u64 size and that many bytes, named @name */
static void blob(struct cur *c, struct tracedat_layout *l, int width,
		 const char *name)
{
	uint64_t start = c->pos, size = u(c, width);

	skip(c, size);
	add(l, start, c->bad ? c->size : c->pos, "%s", name, 0);
}

static const char *option_name(unsigned int id)
{
	static const char *const names[] = {
		"done", "date", "cpustat", "buffer", "trace clock", "uname",
		"hook", "offset", "cpu count", "version", "procmaps",
		"trace id", "time shift", "guest", "tsc2nsec", "strings",
		"header info", "ftrace events", "event formats", "kallsyms",
		"printk", "cmdlines", "buffer text",
	};

	return id < sizeof(names) / sizeof(names[0]) ? names[id] : "unknown";
}

static void add_cpu(struct tracedat_layout *l, int cpu, uint64_t off,
		    uint64_t size, bool compressed)
{
	struct tdl_cpu *p;

	if (l->ncpus == 8192)
		return;
	l->cpus = realloc(l->cpus, (size_t)(l->ncpus + 1) * sizeof(*l->cpus));
	if (!l->cpus)
		abort();
	p = &l->cpus[l->ncpus++];
	p->cpu = cpu;
	p->offset = off;
	p->size = size;
	p->compressed = compressed;
	if (!compressed && off <= (uint64_t)-1 - size)
		add(l, off, off + size, "CPU %s%ld's data", NULL, cpu);
}

/* v7's BUFFER option: where its flyrecord section is, each CPU's data */
static void buffer_option(struct cur *c, struct tracedat_layout *l,
			  uint64_t end)
{
	uint64_t section = u(c, 8), i, n;
	char name[64];
	bool compressed;
	struct cur r = *c;

	if (!str(c, name, sizeof(name)) || !str(c, name, sizeof(name)))
		return;
	u(c, 4);		/* its page size */
	n = u(c, 4);
	r.pos = section + 2;	/* the section's flags */
	compressed = u(&r, 2) & 1;
	for (i = 0; i < n && !c->bad && c->pos + 20 <= end && l->ncpus < 8192;
	     i++) {
		int cpu = (int)u(c, 4);
		uint64_t off = u(c, 8);

		add_cpu(l, cpu, off, u(c, 8), compressed);
	}
}

/* Options, each a u16 id, a u32 size and its data, to id 0 (done) */
static void options(struct cur *c, struct tracedat_layout *l, bool v7)
{
	while (!c->bad && l->nsec < TDL_MAX_SECTIONS) {
		uint64_t start = c->pos, size;
		unsigned int id = (unsigned int)u(c, 2);

		if (!id && !v7) {
			add(l, start, c->pos, "the end of the options", NULL, 0);
			return;
		}
		size = u(c, 4);
		if (c->bad || size > c->size - c->pos) {
			add(l, start, c->size, "option %s", option_name(id), 0);
			c->bad = true;
			return;
		}
		if (v7 && id == 3)
			buffer_option(&(struct cur){ .fd = c->fd, .pos = c->pos,
				      .size = c->size, .be = c->be },
				      l, c->pos + size);
		skip(c, size);
		add(l, start, c->pos, "option %s", option_name(id), 0);
		if (!id)
			return;
	}
}

/* v6 after the cmdlines: the CPU count, options, the CPUs' data */
static void v6_tail(struct cur *c, struct tracedat_layout *l)
{
	uint64_t start = c->pos, cpus = u(c, 4), i;
	char tag[10];

	add(l, start, c->pos, "the CPU count", NULL, 0);
	for (;;) {
		start = c->pos;
		if (!get(c, tag, sizeof(tag)))
			return;
		if (!memcmp(tag, "options  ", 10)) {
			options(c, l, false);
			continue;
		}
		if (!memcmp(tag, "latency  ", 10)) {
			add(l, start, c->size, "the latency data", NULL, 0);
			return;
		}
		if (memcmp(tag, "flyrecord", 10)) {
			c->bad = true;
			return;
		}
		break;
	}
	for (i = 0; i < cpus && !c->bad && l->ncpus < 8192; i++) {
		uint64_t off = u(c, 8), size = u(c, 8);

		if (!c->bad)
			add_cpu(l, (int)i, off, size, false);
	}
	add(l, start, c->pos, "the CPU data table", NULL, 0);
}

static const char *section_name(unsigned int id)
{
	switch (id) {
	case 0:
		return "options";
	case 3:
		return "flyrecord data";
	case 15:
		return "strings";
	case 16:
		return "header info";
	case 17:
		return "ftrace event formats";
	case 18:
		return "event formats";
	case 19:
		return "kallsyms";
	case 20:
		return "printk formats";
	case 21:
		return "saved cmdlines";
	case 22:
		return "latency data";
	default:
		return NULL;
	}
}

/* v7's sections, in the order trace-cmd writes them: each a 16-byte
 * header (id, flags, string id, size) and its data */
static void v7_sections(struct cur *c, struct tracedat_layout *l)
{
	while (!c->bad && c->pos < c->size && l->nsec < TDL_MAX_SECTIONS) {
		uint64_t start = c->pos, size, end;
		unsigned int id = (unsigned int)u(c, 2);
		unsigned int flags = (unsigned int)u(c, 2);
		const char *name = section_name(id);
		struct cur in;

		u(c, 4);
		size = u(c, 8);
		if (c->bad || !name)
			return;
		end = size > c->size - c->pos ? c->size : c->pos + size;
		add(l, start, end, flags & 1 ? "the %s section (compressed)" :
		    "the %s section", name, 0);
		in = *c;
		in.size = end;
		if (!(flags & 1)) {
			if (id == 16)
				header_info(&in, l);
			else if (id == 17)
				ftrace_formats(&in, l);
			else if (id == 18)
				event_formats(&in, l);
			else if (id == 0)
				options(&in, l, true);
		}
		c->pos = end;
	}
}

bool tracedat_layout_read(int fd, struct tracedat_layout *l)
{
	struct cur c = { .fd = fd };
	unsigned char magic[10], b[2];
	char version[16];
	struct stat st;

	memset(l, 0, sizeof(*l));
	if (fstat(fd, &st) || st.st_size < 0)
		return false;
	c.size = (uint64_t)st.st_size;
	if (!get(&c, magic, sizeof(magic)) ||
	    memcmp(magic, "\x17\x08\x44tracing", 10) ||
	    !str(&c, version, sizeof(version)) || !get(&c, b, 2))
		return false;
	l->version = atoi(version);
	c.be = b[0] == 1;
	l->big_endian = c.be;
	l->commit_size = b[1] == 4 ? 4 : 8;
	l->page_size = (unsigned int)u(&c, 4);
	if (l->version >= 7) {
		char comp[64];

		str(&c, comp, sizeof(comp));
		str(&c, comp, sizeof(comp));
		u(&c, 8);	/* the first options section: the next */
		add(l, 0, c.pos, "the file header", NULL, 0);
		v7_sections(&c, l);
		return true;
	}
	add(l, 0, c.pos, "the file header", NULL, 0);
	header_info(&c, l);
	ftrace_formats(&c, l);
	event_formats(&c, l);
	blob(&c, l, 4, "kallsyms");
	blob(&c, l, 4, "printk formats");
	blob(&c, l, 8, "saved cmdlines");
	if (!c.bad)
		v6_tail(&c, l);
	return true;
}

void tracedat_layout_free(struct tracedat_layout *l)
{
	free(l->sec);
	free(l->cpus);
	memset(l, 0, sizeof(*l));
}

const struct tdl_section *tracedat_layout_at(const struct tracedat_layout *l,
					     uint64_t off)
{
	const struct tdl_section *best = NULL;
	int i;

	if (!off)
		return NULL;
	for (i = 0; i < l->nsec; i++) {
		const struct tdl_section *s = &l->sec[i];

		if (s->start < off && off <= s->end &&
		    (!best || s->end - s->start < best->end - best->start))
			best = s;
	}
	return best;
}

const struct tdl_cpu *tracedat_layout_cpu(const struct tracedat_layout *l,
					  int cpu)
{
	int i;

	for (i = 0; i < l->ncpus; i++)
		if (l->cpus[i].cpu == cpu)
			return &l->cpus[i];
	return NULL;
}

/*
 * The events of one page as kbuffer walks them (libtraceevent's
 * kbuffer-parse.c follows ring_buffer.c): each a 4-byte header, type_len
 * in its low 5 bits (high on big-endian), then 29 padding (the walk stops
 * there), 30/31 a time extend or stamp of 4 more bytes, 0 a length word
 * counting itself and the payload, 1-28 that many words of payload. An
 * event past the commit, or a length word under 4 (kbuffer then steps
 * back into the event it read), is what no kernel writes.
 */
static bool bad_events(const struct cur *c, const unsigned char *data,
		       unsigned int size, char *why, size_t n)
{
	unsigned int idx = 0;

	while (size - idx >= 4) {
		uint64_t w = num(c, data + idx, 4), len;
		unsigned int type = c->be ? (unsigned int)(w >> 27) :
				    (unsigned int)(w & 31);

		if (type == 29)
			return false;
		if (type == 0 || type >= 30) {
			if (size - idx < 8) {
				snprintf(why, n, "the event header at byte %u runs past the page's %u bytes",
					 idx, size);
				return true;
			}
			len = type ? 0 : num(c, data + idx + 4, 4);
			if (!type && len < 4) {
				snprintf(why, n, "the event at byte %u says its length is %llu",
					 idx, (unsigned long long)len);
				return true;
			}
			len = type ? 0 : (len - 4 + 3) & ~3ull;
			idx += 8;
		} else {
			len = type * 4;
			idx += 4;
		}
		if (len > size - idx) {
			snprintf(why, n, "an event of %llu bytes at byte %u runs past the page's %u bytes",
				 (unsigned long long)len, idx, size);
			return true;
		}
		idx += (unsigned int)len;
	}
	return false;
}

bool tracedat_layout_bad_page(const struct tracedat_layout *l, int fd,
			      const struct tdl_cpu *cpu, uint64_t from,
			      unsigned long pages, uint64_t *page, char *why,
			      size_t n)
{
	unsigned int ps = l->page_size, hdr = l->commit_size == 4 ? 12 : 16;
	struct cur c = { .fd = fd, .be = l->big_endian };
	unsigned char *buf;
	struct stat st;
	uint64_t p, end;
	unsigned long seen = 0;
	bool bad = false;

	if (!cpu || cpu->compressed || ps <= hdr || ps > (1u << 20) ||
	    fstat(fd, &st))
		return false;
	c.size = (uint64_t)st.st_size;
	buf = malloc(ps);
	if (!buf)
		return false;
	end = cpu->size > UINT64_MAX - cpu->offset ? UINT64_MAX :
	      cpu->offset + cpu->size;
	p = from < cpu->offset ? cpu->offset :
	    cpu->offset + (from - cpu->offset) / ps * ps;
	for (; p < end && p >= cpu->offset; p += ps, seen++) {
		uint64_t flags, size;

		if (pages && seen == pages)
			break;
		c.pos = p;
		if (!get(&c, buf, hdr)) {
			snprintf(why, n, "the page runs past the end of the file");
			bad = true;
			break;
		}
		flags = num(&c, buf + 8, (int)l->commit_size);
		size = flags & ((1u << 27) - 1);
		if (size > ps - hdr) {
			snprintf(why, n, "its header says %llu bytes of events in a page of %u",
				 (unsigned long long)size, ps - hdr);
			bad = true;
		} else if ((flags & (1ull << 31)) && (flags & (1ull << 30)) &&
			   size + l->commit_size > ps - hdr) {
			snprintf(why, n, "its count of lost events is past the page");
			bad = true;
		} else if (get(&c, buf + hdr, (size_t)size)) {
			bad = bad_events(&c, buf + hdr, (unsigned int)size, why, n);
		} else {
			snprintf(why, n, "the page runs past the end of the file");
			bad = true;
		}
		if (bad)
			break;
	}
	free(buf);
	if (bad)
		*page = p;
	return bad;
}
