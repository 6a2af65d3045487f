// SPDX-License-Identifier: GPL-2.0
/*
 * The child of the trace.dat reader (trace_dat_proto.h): the only code
 * that calls libtracecmd (the file and its per-CPU buffers) and
 * libtraceevent (each event's format and fields), through their public
 * API. The per-CPU streams are merged here by timestamp, ties to the
 * lower CPU as `trace-cmd report` does, so one record per CPU is held at
 * a time, never the trace; each record becomes the event every consumer
 * reads and goes down the pipe as a frame.
 *
 * It runs after fork() in a copy of the parent: it writes nothing but
 * its pipe and leaves with _exit(), so no buffer or handler of the
 * parent's runs twice.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "trace_dat_proto.h"
#include "trace_reader.h"

#if defined(__SANITIZE_ADDRESS__)
#define DAT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DAT_ASAN 1
#endif
#endif
#ifdef DAT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

/* Room for one event's field values: a sched_switch needs ~100 bytes,
 * a marker's text is bounded by the kernel's page (4 KB) */
#define DAT_ARENA 16384

struct child {
	struct tracecmd_input *in;
	struct tep_handle *tep;
	int ncpus;
	struct tep_record **head;	/* per CPU: its next record */
	long record;
	struct trace_seq seq;
	char arena[DAT_ARENA];
	size_t used;
	int out;
	char buf[DAT_FRAME_MAX];	/* frames not yet written */
	size_t len;
};

/* For the crash handler: where to say where libtracecmd's descriptor
 * was, and which file it is (the first descriptor open on it) */
static struct dat_where *where;
static const struct tep_event *volatile converting;
/* Inside a call into libtracecmd or libtraceevent (lib_in(), lib_out()) */
static volatile sig_atomic_t in_lib;
static dev_t file_dev;
static ino_t file_ino;
static int first_fd;

/* @s at where->event + *at, NUL-terminated (async-signal-safe) */
static void note(const char *s, size_t *at)
{
	for (; s && *s && *at + 1 < sizeof(where->event); s++)
		where->event[(*at)++] = *s;
	where->event[*at] = '\0';
}

/*
 * A library died: note the signal, the event being converted and how far
 * libtracecmd had read its descriptor (the section the parent names; a
 * sequential reader stopped at the end of what it was parsing), then die
 * of it. Async-signal-safe: fstat(), lseek(), sigaction(), raise(); the
 * event's names are copied by hand (a fault there is a death by SIGSEGV
 * all the same, the signal being blocked in its handler).
 */
static void crashed(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	const struct tep_event *e = converting;
	struct stat st;
	size_t at = 0;
	int fd;

	where->sig = sig;
	if (e && where->phase == DAT_PH_EVENT) {
		note(e->system, &at);
		note("/", &at);
		note(e->name, &at);
	}
	for (fd = first_fd; fd < first_fd + 64; fd++) {
		if (fstat(fd, &st) || st.st_dev != file_dev ||
		    st.st_ino != file_ino)
			continue;
		where->fd_offset = lseek(fd, 0, SEEK_CUR);
		break;
	}
	if (trace_dat_hooks && trace_dat_hooks->child_end)
		trace_dat_hooks->child_end();
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

static _Noreturn void end(int status)
{
	if (trace_dat_hooks && trace_dat_hooks->child_end)
		trace_dat_hooks->child_end();
	_exit(status);
}

static void lib_in(void)
{
	in_lib = 1;
}

static void lib_out(void)
{
	in_lib = 0;
}

#ifdef DAT_ASAN
/*
 * An AddressSanitizer report is about to end the child. The libraries
 * are not instrumented, but ASan's interceptors of the C library check
 * their calls (tep_parse_printk_formats() strdup()s past its buffer on a
 * corrupt printk section): such a report inside a library call is the
 * library failing on the file, contained as a crash is (death by
 * SIGABRT, the section named); one in capsim's own code is a bug of
 * capsim's, left to end the child as ASan ends it (the parent: an I/O
 * error, exit 1; the fuzzer: a finding).
 */
static void sanitizer_death(void)
{
	if (!in_lib)
		return;
	where->sanitizer = 1;
	raise(SIGABRT);
}
#endif

static void catch_crashes(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
				    SIGTRAP, SIGSYS };
	/* a parser recursing without end overflows the stack: the handler
	 * runs on one of its own */
	static char altstack[64 * 1024];
	struct sigaction sa = { .sa_handler = crashed,
				.sa_flags = SA_ONSTACK };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	unsigned int i;

	sigaltstack(&ss, NULL);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
#ifdef DAT_ASAN
	__sanitizer_set_death_callback(sanitizer_death);
#endif
}

static void flush(struct child *d)
{
	size_t off = 0;

	while (off < d->len) {
		ssize_t n = write(d->out, d->buf + off, d->len - off);

		if (n <= 0)
			_exit(1);	/* the parent is gone */
		off += (size_t)n;
	}
	d->len = 0;
}

/* Room for a frame of @len bytes after its header, at d->buf + d->len */
static char *frame(struct child *d, uint32_t type, size_t len)
{
	struct dat_frame h = { .len = (uint32_t)len, .type = type };

	if (d->len + sizeof(h) + len > sizeof(d->buf))
		flush(d);
	memcpy(d->buf + d->len, &h, sizeof(h));
	d->len += sizeof(h) + len;
	return d->buf + d->len - len;
}

static _Noreturn void fail(struct child *d, int kind, const char *msg,
			   long lost)
{
	lib_out();
	size_t n = strlen(msg) + 1;
	struct dat_error_head e = { .record = d->record, .lost = lost,
				    .kind = kind };
	char *p = frame(d, DAT_FRAME_ERROR, sizeof(e) + n);

	memcpy(p, &e, sizeof(e));
	memcpy(p + sizeof(e), msg, n);
	flush(d);
	where->phase = DAT_PH_DONE;
	end(2);
}

/* A copy of [s, s + n) in the arena, NUL-terminated; "" when full */
static char *keep(struct child *d, const char *s, size_t n)
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
static char *string_field(struct child *d, struct tep_format_field *f,
			  struct tep_record *rec)
{
	const char *base = rec->data;
	unsigned int off = (unsigned int)f->offset, len = (unsigned int)f->size;
	int k;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		lib_in();
		k = tep_read_number_field(f, rec->data, &loc);
		lib_out();
		if (k)
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

/* A number field in decimal (by hand: snprintf() was a sixth of the
 * child's time) */
static char *number_field(struct child *d, struct tep_format_field *f,
			  struct tep_record *rec)
{
	unsigned long long v;
	char buf[24], *p = buf + sizeof(buf);
	bool neg = false;
	int k;

	lib_in();
	k = tep_read_number_field(f, rec->data, &v);
	lib_out();
	if (k)
		return (char *)"";
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 &&
	    (v & (1ull << (f->size * 8 - 1))))
		v |= ~0ull << (f->size * 8);	/* sign-extend */
	if ((f->flags & TEP_FIELD_IS_SIGNED) && (long long)v < 0) {
		neg = true;
		v = -v;		/* unsigned: LLONG_MIN too */
	}
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		*--p = '-';
	return keep(d, p, (size_t)(buf + sizeof(buf) - p));
}

static bool is_char_array(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char"));
}

/* The CPU whose next record comes first (ties: the lower CPU), or -1 */
static int next_cpu(const struct child *d)
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
static void marker_fields(struct child *d, struct tep_record *rec,
			  struct ftrace_event *ev)
{
	char *body;
	size_t n;

	lib_in();
	trace_seq_reset(&d->seq);
	tep_print_event(d->tep, &d->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	lib_out();
	n = d->seq.len;
	/* a marker's text ends in the newline echo wrote */
	while (n && (d->seq.buffer[n - 1] == '\n' || d->seq.buffer[n - 1] == ' '))
		n--;
	body = keep(d, d->seq.buffer, n);
	trace_marker_event(&body, ev);
	ftrace_split_fields(body, ev);
}

/* @rec as an event in @ev; NULL, or why capsim refuses it */
static const char *convert(struct child *d, struct tep_record *rec,
			   struct ftrace_event *ev)
{
	struct tep_format_field **fields;
	struct tep_event *e;
	const char *comm;
	int i;

	lib_in();
	e = tep_find_event_by_record(d->tep, rec);
	lib_out();
	if (!e)
		return "a record of no event the file describes";
	converting = e;
	d->used = 0;
	memset(ev, 0, sizeof(*ev));
	lib_in();
	ev->pid = tep_data_pid(d->tep, rec);
	lib_out();
	if (ev->pid < 0 || ev->pid > FTRACE_PID_MAX)
		return "a record's pid is out of [0, 4194304]";
	lib_in();
	comm = ev->pid ? tep_data_comm_from_pid(d->tep, ev->pid) : "<idle>";
	lib_out();
	ev->comm = keep(d, comm, strlen(comm));
	ev->cpu = rec->cpu;
	ev->ts_ns = rec->ts;
	ev->name = keep(d, e->name, strlen(e->name));
	if (!strcmp(e->name, "print") || !strcmp(e->name, "bprint")) {
		marker_fields(d, rec, ev);
		return NULL;
	}
	lib_in();
	fields = tep_event_fields(e);
	lib_out();
	for (i = 0; fields && fields[i] && ev->nr_fields < FTRACE_MAX_FIELDS; i++) {
		struct tep_format_field *f = fields[i];

		if ((f->flags & TEP_FIELD_IS_ARRAY) && !is_char_array(f))
			continue;
		if (f->flags & TEP_FIELD_IS_POINTER)
			continue;
		ev->fields[ev->nr_fields].key = keep(d, f->name, strlen(f->name));
		ev->fields[ev->nr_fields].val = is_char_array(f) ?
			string_field(d, f, rec) : number_field(d, f, rec);
		ev->nr_fields++;
	}
	free(fields);
	return NULL;
}

/* @ev down the pipe: its head, then its strings */
static void send_event(struct child *d, const struct ftrace_event *ev,
		       long lost)
{
	struct dat_event_head h = {
		.ts_ns = ev->ts_ns, .record = d->record, .lost = lost,
		.cpu = ev->cpu, .pid = ev->pid, .nr_fields = ev->nr_fields,
	};
	const char *s[2 + 2 * FTRACE_MAX_FIELDS];
	size_t len[2 + 2 * FTRACE_MAX_FIELDS], n = sizeof(h);
	int i, ns = 0;
	char *p;

	s[ns++] = ev->name;
	s[ns++] = ev->comm;
	for (i = 0; i < ev->nr_fields; i++) {
		s[ns++] = ev->fields[i].key;
		s[ns++] = ev->fields[i].val;
	}
	for (i = 0; i < ns; i++)
		n += (len[i] = strlen(s[i]) + 1);
	p = frame(d, DAT_FRAME_EVENT, n);
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	for (i = 0; i < ns; i++) {
		memcpy(p, s[i], len[i]);
		p += len[i];
	}
}

static void open_file(struct child *d, const char *path)
{
	struct stat st;
	int c;

	/* the crash handler finds libtracecmd's descriptor on the file
	 * from the lowest free one up */
	first_fd = dup(0);
	if (first_fd >= 0)
		close(first_fd);
	if (stat(path, &st) == 0) {
		file_dev = st.st_dev;
		file_ino = st.st_ino;
	}
	lib_in();
	tracecmd_set_loglevel(TEP_LOG_CRITICAL);
	/*
	 * tracecmd_open() in two steps, as `trace-cmd report` takes them:
	 * when a file's headers read but its data does not (a capture cut
	 * short), libtracecmd 3.1.6's tracecmd_open() closes its half-made
	 * handle and tracecmd_close() crashes on it (found by fuzz-trace_dat;
	 * `trace-cmd report` says "failed to init data" and exits without
	 * closing). This process ends there and leaves it be.
	 */
	where->phase = DAT_PH_HEADERS;
	d->in = tracecmd_open_head(path, 0);
	if (!d->in)
		fail(d, DAT_ERR_OPEN, "not a trace.dat libtracecmd can read", 0);
	where->phase = DAT_PH_INIT;
	if (tracecmd_init_data(d->in) < 0)
		fail(d, DAT_ERR_DATA, "a trace.dat whose data libtracecmd cannot read (cut short?)",
		     0);
	d->tep = tracecmd_get_tep(d->in);
	d->ncpus = tep_get_cpus(d->tep);
	if (d->ncpus < 0)
		d->ncpus = 0;
	lib_out();
	d->head = calloc((size_t)(d->ncpus ? d->ncpus : 1), sizeof(*d->head));
	if (!d->head)
		abort();
	lib_in();
	where->phase = DAT_PH_FIRST;
	for (c = 0; c < d->ncpus; c++) {
		where->cpu = c;
		d->head[c] = tracecmd_read_cpu_first(d->in, c);
	}
	trace_seq_init(&d->seq);
	lib_out();
}

_Noreturn void trace_dat_child(const char *path, int out, struct dat_where *w)
{
	static struct child d;
	struct ftrace_event ev;
	int c;

	where = w;
	d.out = out;
	catch_crashes();
	open_file(&d, path);
	frame(&d, DAT_FRAME_OPEN, 0);
	flush(&d);
	while ((c = next_cpu(&d)) >= 0) {
		struct tep_record *rec = d.head[c];
		long lost = rec->missed_events > 0 ? (long)rec->missed_events : 0;
		const char *why;

		where->phase = DAT_PH_READ;
		where->cpu = c;
		where->offset = (int64_t)rec->offset;
		lib_in();
		d.head[c] = tracecmd_read_data(d.in, c);
		lib_out();
		where->record = ++d.record;
		where->phase = DAT_PH_EVENT;
		why = convert(&d, rec, &ev);
		if (why)
			fail(&d, DAT_ERR_RECORD, why, lost);
		send_event(&d, &ev, lost);
		lib_in();
		tracecmd_free_record(rec);
		lib_out();
	}
	where->phase = DAT_PH_DONE;
	frame(&d, DAT_FRAME_END, 0);
	flush(&d);
	/* a good file leaves nothing behind, for memcheck's count */
	free(d.head);
	lib_in();
	trace_seq_destroy(&d.seq);
	tracecmd_close(d.in);
	end(0);
}
