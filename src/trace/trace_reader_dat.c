// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat's face of the trace reader. libtracecmd and libtraceevent
 * crash on malformed files (a corrupt event format kills
 * tep_parse_event(), a corrupt page header kbuffer_load_subbuffer(); so
 * does `trace-cmd report`), and capsim reads users' files: so the file is
 * read through them in a child process (trace_dat_child.c), which hands
 * each event down a pipe (trace_dat_proto.h). Here, in the parent, a
 * child that dies of a signal becomes bad input naming the section it
 * died in, found by walking the file without the libraries
 * (tracedat_layout.c); whatever the caller was writing is then removed
 * as on any bad input.
 *
 * Why a process and not a check of the file before the libraries see it:
 * a check would have to know every input the libraries' parsers choke on
 * (libtraceevent's event-format grammar among them) and would fall
 * behind each release; the process contains what no check foresaw. Its
 * cost, measured on 974 000 events: docs/traces.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_reader.h"

#ifdef HAVE_LIBTRACECMD
#include "trace_dat_proto.h"
#include "tracedat_layout.h"

const struct trace_dat_hooks *trace_dat_hooks;

void trace_dat_set_hooks(const struct trace_dat_hooks *h)
{
	trace_dat_hooks = h;
}

/* Frames read ahead of the caller: several, so that a read() brings many */
#define DAT_BUF (4 * DAT_FRAME_MAX)

struct trace_dat {
	char *path, *name;
	pid_t pid;		/* the child; 0 once reaped */
	int status;		/* its wait status once reaped (-1: unknown) */
	int fd;			/* the pipe's read end */
	struct dat_where *w;	/* shared with the child */
	char *buf;
	size_t start, end;	/* frames not yet handed out */
	char msg[384];
};

static void reap(struct trace_dat *d)
{
	int st;
	pid_t r;

	if (!d->pid)
		return;
	while ((r = waitpid(d->pid, &st, 0)) < 0 && errno == EINTR)
		;
	d->status = r == d->pid ? st : -1;
	d->pid = 0;
	if (trace_dat_hooks && trace_dat_hooks->reaped)
		trace_dat_hooks->reaped();
}

static void dat_free(struct trace_dat *d)
{
	if (d->pid)
		kill(d->pid, SIGKILL);
	reap(d);
	if (d->fd >= 0)
		close(d->fd);
	if (d->w)
		munmap(d->w, sizeof(*d->w));
	free(d->buf);
	free(d->path);
	free(d->name);
	free(d);
}

/*
 * The child: a process group of its own (the terminal's ^C is the
 * parent's to handle, which then removes what it was writing), killed
 * with the parent, no handler of the parent's. Then it reads.
 */
static _Noreturn void start_child(struct trace_dat *d, pid_t parent,
				  int out, const sigset_t *old)
{
	struct sigaction sa, dfl = { .sa_handler = SIG_DFL };
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		if (!sigaction(sig, NULL, &sa) && sa.sa_handler != SIG_IGN &&
		    sa.sa_handler != SIG_DFL)
			sigaction(sig, &dfl, NULL);
	sigaction(SIGPIPE, &dfl, NULL);
	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	close(d->fd);
	sigprocmask(SIG_SETMASK, old, NULL);
	trace_dat_child(d->path, out, d->w);
}

static int spawn(struct trace_dat *d)
{
	sigset_t all, old;
	pid_t parent = getpid();
	int p[2], err;

	d->w = mmap(NULL, sizeof(*d->w), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (d->w == MAP_FAILED) {
		d->w = NULL;
		return -1;
	}
	if (pipe2(p, O_CLOEXEC))
		return -1;
	d->fd = p[0];
	/* no handler of ours runs in the child before it resets them */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	d->pid = fork();
	if (d->pid == 0)
		start_child(d, parent, p[1], &old);
	err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[1]);
	if (d->pid < 0) {
		d->pid = 0;
		errno = err;
		return -1;
	}
	return 0;
}

/*
 * The next frame into *f and *payload (valid until the next call): 1, 0
 * when the pipe ended without one, -1 for a frame no child of ours
 * writes or a read error
 */
static int next_frame(struct trace_dat *d, struct dat_frame *f,
		      const char **payload)
{
	for (;;) {
		size_t have = d->end - d->start;
		ssize_t n;

		if (have >= sizeof(*f)) {
			memcpy(f, d->buf + d->start, sizeof(*f));
			if (f->len > DAT_FRAME_MAX || !f->type ||
			    f->type > DAT_FRAME_END)
				return -1;
			if (have >= sizeof(*f) + f->len) {
				*payload = d->buf + d->start + sizeof(*f);
				d->start += sizeof(*f) + f->len;
				return 1;
			}
		}
		if (d->start) {
			memmove(d->buf, d->buf + d->start, have);
			d->start = 0;
			d->end = have;
		}
		n = read(d->fd, d->buf + d->end, DAT_BUF - d->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		d->end += (size_t)n;
	}
}

static const char *sig_name(int sig)
{
	const char *s = sigabbrev_np(sig);
	static char buf[16];

	if (s) {
		snprintf(buf, sizeof(buf), "SIG%s", s);
		return buf;
	}
	snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

/* The signals a library raises on a malformed file, its own or the
 * kernel's; any other (SIGKILL from the OOM killer, someone's SIGTERM)
 * did not come from the file */
static bool crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
	       sig == SIGILL || sig == SIGABRT || sig == SIGTRAP ||
	       sig == SIGSYS;
}

/* The first bad page of @c among @pages from @from (0: to its end), into
 * @out as "CPU N's data at offset X (why)"; false if none is */
static bool name_page(const struct tracedat_layout *l, int fd,
		      const struct tdl_cpu *c, uint64_t from,
		      unsigned long pages, char *out, size_t n)
{
	char why[128];
	uint64_t page;

	if (!tracedat_layout_bad_page(l, fd, c, from, pages, &page, why,
				      sizeof(why)))
		return false;
	snprintf(out, n, "CPU %d's data at offset %llu (%s)", c->cpu,
		 (unsigned long long)page, why);
	return true;
}

/* The section the child died in, from where it said it was: into @out */
static void name_section(struct trace_dat *d, char *out, size_t n)
{
	const struct dat_where *w = d->w;
	uint64_t off = w->offset > 0 ? (uint64_t)w->offset : 0;
	struct tracedat_layout l;
	const struct tdl_section *s;
	const struct tdl_cpu *c;
	int fd = open(d->path, O_RDONLY | O_CLOEXEC), i;

	if (fd < 0 || !tracedat_layout_read(fd, &l)) {
		snprintf(out, n, "headers");
		if (fd >= 0)
			close(fd);
		return;
	}
	c = tracedat_layout_cpu(&l, w->cpu);
	switch (w->phase) {
	case DAT_PH_HEADERS:
		s = w->fd_offset > 0 ?
		    tracedat_layout_at(&l, (uint64_t)w->fd_offset) : NULL;
		if (s)
			snprintf(out, n, "%s (bytes %llu-%llu)", s->name,
				 (unsigned long long)s->start,
				 (unsigned long long)s->end - 1);
		else
			snprintf(out, n, "headers (before byte %lld)",
				 (long long)w->fd_offset);
		break;
	case DAT_PH_INIT:
		/* each CPU's first page is loaded: the first bad one */
		for (i = 0; i < l.ncpus; i++)
			if (name_page(&l, fd, &l.cpus[i], 0, 1, out, n))
				break;
		if (i == l.ncpus)
			snprintf(out, n, "CPU data (the first page of one of %d CPUs)",
				 l.ncpus);
		break;
	case DAT_PH_FIRST:
		if (!name_page(&l, fd, c, 0, 0, out, n))
			snprintf(out, n, "CPU %d's data at offset %llu", w->cpu,
				 c ? (unsigned long long)c->offset : 0ull);
		break;
	case DAT_PH_READ:
		/* in the page of the last record or one after it */
		if (!name_page(&l, fd, c, off, 0, out, n))
			snprintf(out, n, "CPU %d's data at offset %llu", w->cpu,
				 (unsigned long long)(off - off % (l.page_size ? l.page_size : 4096)));
		break;
	case DAT_PH_EVENT:
		if (!name_page(&l, fd, c, off, 1, out, n))
			snprintf(out, n, "CPU %d's record at offset %llu (event %.96s, or its format)",
				 w->cpu, (unsigned long long)off, w->event);
		break;
	default:
		snprintf(out, n, "file");
	}
	tracedat_layout_free(&l);
	close(fd);
}

/*
 * The pipe ended without its last frame: the child is reaped and its end
 * said in d->msg. -1 when the file is to blame (a library died of it),
 * -2 when not (the message is then printed).
 */
static int child_died(struct trace_dat *d)
{
	char where[256];
	int st;

	reap(d);
	st = d->status;
	if (st != -1 && WIFSIGNALED(st) && crash_signal(WTERMSIG(st))) {
		name_section(d, where, sizeof(where));
		if (d->w->sanitizer)
			snprintf(d->msg, sizeof(d->msg),
				 "trace.dat: corrupt %s: AddressSanitizer stopped libtracecmd reading it",
				 where);
		else
			snprintf(d->msg, sizeof(d->msg),
				 "trace.dat: corrupt %s: libtracecmd died of %s reading it",
				 where, sig_name(WTERMSIG(st)));
		return -1;
	}
	if (st != -1 && WIFSIGNALED(st))
		fprintf(stderr, "capsim: %s: the process reading it was killed by %s\n",
			d->name, sig_name(WTERMSIG(st)));
	else if (st != -1)
		fprintf(stderr, "capsim: %s: the process reading it ended early (exit status %d)\n",
			d->name, WEXITSTATUS(st));
	else
		fprintf(stderr, "capsim: %s: the process reading it is gone\n",
			d->name);
	return -2;
}

int trace_dat_open(const char *path, const char *name, struct trace_dat **out)
{
	struct trace_dat *d = calloc(1, sizeof(*d));
	struct dat_frame f;
	const char *p;
	int k;

	if (!d)
		abort();
	d->fd = -1;
	d->status = -1;
	d->path = strdup(path);
	d->name = strdup(name);
	d->buf = malloc(DAT_BUF);
	if (!d->path || !d->name || !d->buf)
		abort();
	*out = NULL;
	if (spawn(d)) {
		fprintf(stderr, "capsim: %s: cannot start the process to read it: %s\n",
			name, strerror(errno));
		dat_free(d);
		return TRACE_FILE_IO;
	}
	k = next_frame(d, &f, &p);
	if (k > 0 && f.type == DAT_FRAME_OPEN) {
		*out = d;
		return 0;
	}
	if (k > 0 && f.type == DAT_FRAME_ERROR &&
	    f.len > sizeof(struct dat_error_head) && !p[f.len - 1]) {
		fprintf(stderr, "capsim: %s: %s\n", name,
			p + sizeof(struct dat_error_head));
		k = TRACE_FILE_BAD;
	} else if (k == 0 && child_died(d) == -1) {
		fprintf(stderr, "capsim: %s: %s\n", name, d->msg);
		k = TRACE_FILE_BAD;
	} else {
		if (k != 0)
			fprintf(stderr, "capsim: %s: the process reading it sent what it does not write\n",
				name);
		k = TRACE_FILE_IO;
	}
	dat_free(d);
	return k;
}

void trace_dat_close(struct trace_dat *d)
{
	dat_free(d);
}

/* A NUL-terminated string at *p, before @end: advances *p past it */
static const char *take(const char **p, const char *end)
{
	const char *s = *p, *z = s < end ? memchr(s, '\0', (size_t)(end - s)) : NULL;

	if (!z)
		return NULL;
	*p = z + 1;
	return s;
}

static int event(const char *p, uint32_t len, struct ftrace_event *ev,
		 long *record, long *lost)
{
	const char *end = p + len;
	struct dat_event_head h;
	int i;

	if (len < sizeof(h))
		return -1;
	memcpy(&h, p, sizeof(h));
	p += sizeof(h);
	memset(ev, 0, sizeof(*ev));
	ev->tgid = -1;
	ev->ts_ns = h.ts_ns;
	ev->cpu = h.cpu;
	ev->pid = h.pid;
	*record = (long)h.record;
	*lost += (long)h.lost;
	ev->name = take(&p, end);
	ev->comm = take(&p, end);
	if (!ev->name || !ev->comm || h.nr_fields < 0 ||
	    h.nr_fields > FTRACE_MAX_FIELDS)
		return -1;
	for (i = 0; i < h.nr_fields; i++) {
		ev->fields[i].key = take(&p, end);
		ev->fields[i].val = take(&p, end);
		if (!ev->fields[i].key || !ev->fields[i].val)
			return -1;
	}
	ev->nr_fields = h.nr_fields;
	return 1;
}

int trace_dat_next(struct trace_dat *d, struct ftrace_event *ev,
		   long *record, long *lost, const char **err)
{
	struct dat_frame f;
	const char *p;
	int k = d->fd < 0 ? 0 : next_frame(d, &f, &p);

	if (k > 0 && f.type == DAT_FRAME_EVENT &&
	    event(p, f.len, ev, record, lost) > 0)
		return 1;
	if (d->fd >= 0) {
		/* the end, one way or another: later calls return 0 */
		close(d->fd);
		d->fd = -1;
	}
	if (k > 0 && f.type == DAT_FRAME_END) {
		reap(d);
		return 0;
	}
	if (k > 0 && f.type == DAT_FRAME_ERROR &&
	    f.len > sizeof(struct dat_error_head) && !p[f.len - 1]) {
		struct dat_error_head e;

		memcpy(&e, p, sizeof(e));
		*record = (long)e.record;
		*lost += (long)e.lost;
		snprintf(d->msg, sizeof(d->msg), "%s", p + sizeof(e));
		*err = d->msg;
		return -1;
	}
	if (k == 0 && d->pid) {
		/* the record it was reading, or the one it converted */
		*record = (long)d->w->record + (d->w->phase == DAT_PH_READ);
		k = child_died(d);
		*err = d->msg;
		return k;
	}
	if (!k)
		return 0;
	fprintf(stderr, "capsim: %s: the process reading it sent what it does not write\n",
		d->name);
	return -2;
}

#else /* !HAVE_LIBTRACECMD */

void trace_dat_set_hooks(const struct trace_dat_hooks *h)
{
	(void)h;
}

int trace_dat_open(const char *path, const char *name, struct trace_dat **out)
{
	(void)path;
	*out = NULL;
	fprintf(stderr, "capsim: %s is a trace.dat: this capsim was built without libtracecmd (scripts/deps.sh core, then meson setup --reconfigure)\n",
		name);
	return TRACE_FILE_BAD;
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
