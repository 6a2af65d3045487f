// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat's face of the trace reader, through libtracecmd (the file and
 * its per-CPU buffers) and libtraceevent (each event's format and
 * fields): their public API only. The per-CPU streams are merged here by
 * timestamp, ties to the lower CPU as `trace-cmd report` does, so one
 * record per CPU is held at a time, never the trace.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_reader.h"

#ifdef HAVE_LIBTRACECMD
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

/*
 * Handles left unclosed on purpose (trace_dat_open()), kept reachable so
 * that leak checkers (LeakSanitizer, memcheck) do not report them: a
 * command leaves one at most, a fuzzer's replay a few (volatile: stores
 * that are never read back would otherwise be optimised away)
 */
static struct tracecmd_input *volatile dat_left[16];
static unsigned int dat_nleft;

/* Room for one event's field values: a sched_switch needs ~100 bytes,
 * a marker's text is bounded by the kernel's page (4 KB) */
#define DAT_ARENA 16384

struct trace_dat {
	struct tracecmd_input *in;
	struct tep_handle *tep;
	int ncpus;
	struct tep_record **head;	/* per CPU: its next record */
	struct tep_record *cur;		/* the one handed out */
	long record;
	struct trace_seq seq;
	char arena[DAT_ARENA];
	size_t used;
};

/*
 * The descriptor libtracecmd opened on @path for a handle left unclosed:
 * the first one from @from (the lowest free before the open) on the same
 * file. A fuzzer's long run would otherwise run out of descriptors.
 */
static void close_left_fd(const char *path, int from)
{
	struct stat want, st;
	int fd;

	if (from < 0 || stat(path, &want))
		return;
	for (fd = from; fd < from + 16; fd++) {
		if (fstat(fd, &st) || st.st_dev != want.st_dev ||
		    st.st_ino != want.st_ino)
			continue;
		close(fd);
		return;
	}
}

struct trace_dat *trace_dat_open(const char *path)
{
	struct trace_dat *d;
	int c, free_fd;

	tracecmd_set_loglevel(TEP_LOG_CRITICAL);
	d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	/*
	 * tracecmd_open() in two steps, as `trace-cmd report` takes them:
	 * when a file's headers read but its data does not (a capture cut
	 * short), libtracecmd 3.1.6's tracecmd_open() closes its half-made
	 * handle and tracecmd_close() crashes on it (found by fuzz-trace_dat;
	 * `trace-cmd report` says "failed to init data" and exits without
	 * closing). So a handle whose data fails is left unclosed: a few KB,
	 * on the way to exit status 2 (and kept in dat_left).
	 */
	free_fd = open("/dev/null", O_RDONLY);
	if (free_fd >= 0)
		close(free_fd);
	d->in = tracecmd_open_head(path, 0);
	if (d->in && tracecmd_init_data(d->in) < 0) {
		dat_left[dat_nleft++ % 16] = d->in;
		close_left_fd(path, free_fd);
		fprintf(stderr, "capsim: %s: a trace.dat whose data libtracecmd cannot read (cut short?)\n",
			path);
		free(d);
		return NULL;
	}
	if (!d->in) {
		fprintf(stderr, "capsim: %s: not a trace.dat libtracecmd can read\n",
			path);
		free(d);
		return NULL;
	}
	d->tep = tracecmd_get_tep(d->in);
	d->ncpus = tep_get_cpus(d->tep);
	if (d->ncpus < 0)
		d->ncpus = 0;
	d->head = calloc((size_t)(d->ncpus ? d->ncpus : 1), sizeof(*d->head));
	if (!d->head)
		abort();
	for (c = 0; c < d->ncpus; c++)
		d->head[c] = tracecmd_read_cpu_first(d->in, c);
	trace_seq_init(&d->seq);
	return d;
}

void trace_dat_close(struct trace_dat *d)
{
	int c;

	if (d->cur)
		tracecmd_free_record(d->cur);
	for (c = 0; c < d->ncpus; c++)
		if (d->head[c])
			tracecmd_free_record(d->head[c]);
	free(d->head);
	trace_seq_destroy(&d->seq);
	tracecmd_close(d->in);
	free(d);
}

/* A copy of [s, s + n) in the arena, NUL-terminated; "" when full */
static char *keep(struct trace_dat *d, const char *s, size_t n)
{
	char *p;

	if (d->used + n + 1 > sizeof(d->arena))
		return (char *)"";
	p = d->arena + d->used;
	memcpy(p, s, n);
	p[n] = '\0';
	d->used += n + 1;
	return p;
}

/* A string field: a fixed char array or a __data_loc one */
static char *string_field(struct trace_dat *d, struct tep_format_field *f,
			  struct tep_record *rec)
{
	const char *base = rec->data;
	unsigned int off = (unsigned int)f->offset, len = (unsigned int)f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (tep_read_number_field(f, rec->data, &loc))
			return (char *)"";
		off = (unsigned int)(loc & 0xffff);
		len = (unsigned int)(loc >> 16);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(f->offset + f->size);
	}
	if (off > (unsigned int)rec->size || len > (unsigned int)rec->size - off)
		return (char *)"";
	return keep(d, base + off, strnlen(base + off, len));
}

static char *number_field(struct trace_dat *d, struct tep_format_field *f,
			  struct tep_record *rec)
{
	unsigned long long v;
	char buf[32];
	int n;

	if (tep_read_number_field(f, rec->data, &v))
		return (char *)"";
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 &&
	    (v & (1ull << (f->size * 8 - 1))))
		v |= ~0ull << (f->size * 8);	/* sign-extend */
	n = f->flags & TEP_FIELD_IS_SIGNED ?
	    snprintf(buf, sizeof(buf), "%lld", (long long)v) :
	    snprintf(buf, sizeof(buf), "%llu", v);
	return keep(d, buf, (size_t)n);
}

static bool is_char_array(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char"));
}

/* The CPU whose next record comes first (ties: the lower CPU), or -1 */
static int next_cpu(const struct trace_dat *d)
{
	int c, best = -1;

	for (c = 0; c < d->ncpus; c++)
		if (d->head[c] &&
		    (best < 0 || d->head[c]->ts < d->head[best]->ts))
			best = c;
	return best;
}

/* print and bprint: their text as libtraceevent formats it, parsed as the
 * text face parses a marker */
static void marker_fields(struct trace_dat *d, struct tep_record *rec,
			  struct ftrace_event *ev)
{
	char *body;
	size_t n;

	trace_seq_reset(&d->seq);
	tep_print_event(d->tep, &d->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	n = d->seq.len;
	/* a marker's text ends in the newline echo wrote */
	while (n && (d->seq.buffer[n - 1] == '\n' || d->seq.buffer[n - 1] == ' '))
		n--;
	body = keep(d, d->seq.buffer, n);
	trace_marker_event(&body, ev);
	ftrace_split_fields(body, ev);
}

int trace_dat_next(struct trace_dat *d, struct ftrace_event *ev,
		   long *record, long *lost, const char **err)
{
	struct tep_format_field **fields;
	struct tep_record *rec;
	struct tep_event *e;
	const char *comm;
	int c = next_cpu(d), i;

	if (d->cur)
		tracecmd_free_record(d->cur);
	d->cur = NULL;
	if (c < 0)
		return 0;
	rec = d->cur = d->head[c];
	d->head[c] = tracecmd_read_data(d->in, c);
	*record = ++d->record;
	if (rec->missed_events > 0)
		*lost += (long)rec->missed_events;
	e = tep_find_event_by_record(d->tep, rec);
	if (!e) {
		*err = "a record of no event the file describes";
		return -1;
	}
	d->used = 0;
	memset(ev, 0, sizeof(*ev));
	ev->pid = tep_data_pid(d->tep, rec);
	if (ev->pid < 0 || ev->pid > FTRACE_PID_MAX) {
		*err = "a record's pid is out of [0, 4194304]";
		return -1;
	}
	comm = ev->pid ? tep_data_comm_from_pid(d->tep, ev->pid) : "<idle>";
	ev->comm = keep(d, comm, strlen(comm));
	ev->tgid = -1;
	ev->cpu = rec->cpu;
	ev->ts_ns = rec->ts;
	ev->name = keep(d, e->name, strlen(e->name));
	if (!strcmp(e->name, "print") || !strcmp(e->name, "bprint")) {
		marker_fields(d, rec, ev);
		return 1;
	}
	fields = tep_event_fields(e);
	for (i = 0; fields && fields[i] && ev->nr_fields < FTRACE_MAX_FIELDS; i++) {
		struct tep_format_field *f = fields[i];

		if ((f->flags & TEP_FIELD_IS_ARRAY) && !is_char_array(f))
			continue;
		if (f->flags & TEP_FIELD_IS_POINTER)
			continue;
		ev->fields[ev->nr_fields].key = f->name;
		ev->fields[ev->nr_fields].val = is_char_array(f) ?
			string_field(d, f, rec) : number_field(d, f, rec);
		ev->nr_fields++;
	}
	free(fields);
	return 1;
}

#else /* !HAVE_LIBTRACECMD */

struct trace_dat *trace_dat_open(const char *path)
{
	fprintf(stderr, "capsim: %s is a trace.dat: this capsim was built without libtracecmd (scripts/deps.sh core, then meson setup --reconfigure)\n",
		path);
	return NULL;
}

int trace_dat_next(struct trace_dat *d, struct ftrace_event *ev,
		   long *record, long *lost, const char **err)
{
	(void)d, (void)ev, (void)record, (void)lost, (void)err;
	return 0;
}

void trace_dat_close(struct trace_dat *d)
{
	(void)d;
}

#endif
