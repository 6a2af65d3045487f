// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot, run the one safe way: strings quoted for its code, scripts
 * found once, the program started in the output directory with its
 * messages kept aside, its plots checked complete. Shared by the commands
 * that draw (capsim plot, compare, sweep, xcheck).
 *
 * _GNU_SOURCE (the project's default) for posix_spawn_file_actions_addchdir_np
 * (glibc 2.29, musl 1.1.24): gnuplot starts in the output directory
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"
#include "interrupt.h"
#include "util.h"

extern char **environ;

/*
 * The one way a string reaches gnuplot code (a -e list, vars.gp): in
 * single quotes, where gnuplot substitutes nothing (no backtick command,
 * no escape, no @macro). A ' inside is not doubled, the documented
 * escape: gnuplot 5.4's scanner ends the string at a '' that follows the
 * opening quote or another '' ('''a' and 'a''''b' are syntax errors), so
 * each ' is a "'" of its own, joined by gnuplot's string concatenation:
 * it's -> 'it'."'".'s'. A quoted string cannot span lines, and a newline
 * would end the command and start another: control characters become
 * '?'. The result is a string expression, for the right of an '='.
 */
char *gp_quote(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_putc(&sb, '\'');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			sb_putc(&sb, '?');
		else if (c == '\'')
			sb_puts(&sb, "'.\"'\".'");
		else
			sb_putc(&sb, *s);
	}
	sb_putc(&sb, '\'');
	return sb.buf;
}

/*
 * A label column of a gnuplot data file ("label" 1.5 ...): data is never
 * run, but the label's own double quote or newline would end its column
 * or its row, shifting every figure after it. gnuplot's data files have
 * no escape: " becomes ' and control characters spaces.
 */
char *gp_data_label(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_putc(&sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		sb_putc(&sb, c < 0x20 || c == 0x7f ? ' ' : c == '"' ? '\'' : *s);
	}
	sb_putc(&sb, '"');
	return sb.buf;
}

const char *plot_scripts_dir(void)
{
	static char buf[PATH_MAX];
	const char *env = getenv("CAPSIM_PLOTS");
	const char *cand[] = { env, CAPSIM_PLOTS_SRCDIR, CAPSIM_PLOTS_DATADIR };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cand); i++) {
		char *script;
		bool found;

		if (!cand[i] || !*cand[i])
			continue;
		script = xasprintf("%s/freq.gp", cand[i]);
		found = !access(script, R_OK);
		free(script);
		/* absolute: gnuplot runs in the output directory, and a
		 * name starting with '<' would be a command to gnuplot */
		if (found && realpath(cand[i], buf))
			return buf;
	}
	fprintf(stderr, "capsim: the gnuplot scripts (plots/*.gp) are not in %s nor %s; set CAPSIM_PLOTS\n",
		CAPSIM_PLOTS_SRCDIR, CAPSIM_PLOTS_DATADIR);
	return NULL;
}

/* gnuplot's messages, kept aside: a warning is printed only when the
 * command is not quiet, everything when gnuplot fails */
static void print_log(FILE *log)
{
	char buf[4096];
	size_t n;

	rewind(log);
	while ((n = fread(buf, 1, sizeof(buf), log)))
		fwrite(buf, 1, n, stderr);
}

/*
 * gnuplot with these arguments, started in @dir: every file a script reads
 * or writes is named relative to it, so no path of the user's is ever in
 * gnuplot code (where a name starting with '<' or '|' is a command). Its
 * messages go to *@log. 0 or -1 (reported).
 */
static int spawn_gnuplot(char **argv, const char *dir, pid_t *pid, FILE **log)
{
	posix_spawn_file_actions_t fa;
	int err;

	*log = tmpfile();
	if (!*log) {
		fprintf(stderr, "capsim: cannot create a temporary file for gnuplot's messages: %s\n",
			strerror(errno));
		return -1;
	}
	fflush(NULL);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fileno(*log), 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(*log), 2);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	err = posix_spawnp(pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fprintf(stderr, "capsim: cannot run gnuplot (apt-get install gnuplot-nox): %s\n",
			strerror(err));
		fclose(*log);
		*log = NULL;
		return -1;
	}
	/* a signal to capsim stops gnuplot too (interrupt.h) */
	interrupt_child_add(*pid);
	return 0;
}

/* The gnuplot spawn_gnuplot() started, waited for; its log closed. 0 or
 * -1 (reported, naming @script) */
static int wait_gnuplot(pid_t pid, FILE *log, const char *script, bool quiet)
{
	int status = -1;	/* not WIFEXITED: a failed wait fails */

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	interrupt_child_del(pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		print_log(log);
		fprintf(stderr, "capsim: gnuplot failed on %s\n", script);
		fclose(log);
		return -1;
	}
	if (!quiet)
		print_log(log);
	fclose(log);
	return 0;
}

static int run_gnuplot(char **argv, const char *dir, const char *script,
		       bool quiet)
{
	FILE *log;
	pid_t pid;

	if (spawn_gnuplot(argv, dir, &pid, &log))
		return -1;
	return wait_gnuplot(pid, log, script, quiet);
}

int plot_gnuplot(const char *dir, const char *vars, const char *script,
		 bool quiet)
{
	char *argv[] = { (char *)"gnuplot", (char *)"-e", (char *)vars,
			 (char *)script, NULL };

	return run_gnuplot(argv, dir, script, quiet);
}

/*
 * gnuplot exits 0 when its output could not be written whole (a full
 * disk leaves a 4 KiB PNG or an empty SVG): a plot counts as written
 * once its file ends as its format ends, PNG with the IEND chunk, SVG
 * with its closing tag.
 */
static bool plot_file_complete(const char *path, const char *fmt)
{
	static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N',
						'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[64];
	bool ok = false;
	FILE *f = fopen(path, "rb");
	long size;
	size_t n;

	if (!f)
		return false;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0)
		goto out;
	n = size < (long)sizeof(tail) ? (size_t)size : sizeof(tail);
	if (fseek(f, -(long)n, SEEK_END) || fread(tail, 1, n, f) != n)
		goto out;
	if (!strcmp(fmt, "png")) {
		ok = n >= sizeof(iend) &&
		     !memcmp(tail + n - sizeof(iend), iend, sizeof(iend));
	} else {
		while (n && (tail[n - 1] == '\n' || tail[n - 1] == ' '))
			n--;
		ok = n >= 6 && !memcmp(tail + n - 6, "</svg>", 6);
	}
out:
	fclose(f);
	return ok;
}

static void argv_push(struct gp_figures *g, char *arg)
{
	g->argv = xrealloc(g->argv, (size_t)(g->argc + 2) * sizeof(char *));
	g->argv[g->argc++] = arg;
	g->argv[g->argc] = NULL;
}

void gp_figures_init(struct gp_figures *g, const char *dir, const char *vars,
		     bool quiet)
{
	*g = (struct gp_figures){ .dir = xstrdup(dir), .quiet = quiet };
	argv_push(g, xstrdup("gnuplot"));
	if (vars)
		gp_figures_set(g, vars);
}

/*
 * Every user variable removed, then @vars: the figures after this start
 * from none of the values an earlier one's scripts set (compare.gp's
 * nseries = 3 made a policy's energy.png, drawn after it in the same
 * process, draw three bars a domain). `undefine *` alone does nothing;
 * a prefix per first character a name may have (a letter or '_') removes
 * them all and leaves the built-in pi, NaN and GPVAL_* in place.
 */
void gp_figures_set(struct gp_figures *g, const char *vars)
{
	struct strbuf sb;
	char c;

	sb_init(&sb);
	sb_puts(&sb, "undefine _*");
	for (c = 'a'; c <= 'z'; c++)
		sb_printf(&sb, " %c* %c*", c, c - 'a' + 'A');
	sb_printf(&sb, "; %s", vars);
	argv_push(g, xstrdup("-e"));
	argv_push(g, sb.buf);
}

void gp_figures_add(struct gp_figures *g, const char *script, const char *png,
		    const char *svg)
{
	const char *out[2] = { png, svg }, *fmt[2] = { "png", "svg" };
	int k;

	/* gnuplot runs its -e lists and scripts in order: each script once
	 * per format asked, setting its terminal and output from fmt and out */
	for (k = 0; k < 2; k++) {
		char *q;

		if (!out[k])
			continue;
		q = gp_quote(out[k]);
		argv_push(g, xstrdup("-e"));
		argv_push(g, xasprintf("out=%s; fmt='%s'", q, fmt[k]));
		argv_push(g, xstrdup(script));
		free(q);
		g->files = xrealloc(g->files, (size_t)(g->nfiles + 1) *
				    sizeof(*g->files));
		g->fmts = xrealloc(g->fmts, (size_t)(g->nfiles + 1) *
				   sizeof(*g->fmts));
		g->files[g->nfiles] = xstrdup(out[k]);
		g->fmts[g->nfiles++] = fmt[k];
	}
	free(g->script);
	g->script = xstrdup(script);
}

int gp_figures_start(struct gp_figures *g)
{
	return spawn_gnuplot(g->argv, g->dir, &g->pid, &g->log);
}

void gp_figures_free(struct gp_figures *g)
{
	int i;

	for (i = 0; i < g->argc; i++)
		free(g->argv[i]);
	for (i = 0; i < g->nfiles; i++)
		free(g->files[i]);
	free(g->argv);
	free(g->files);
	free(g->fmts);
	free(g->dir);
	free(g->script);
	*g = (struct gp_figures){ 0 };
}

int gp_figures_wait(struct gp_figures *g)
{
	int ret = wait_gnuplot(g->pid, g->log, g->script, g->quiet), i;

	for (i = 0; !ret && i < g->nfiles; i++) {
		char *path = xasprintf("%s/%s", g->dir, g->files[i]);

		/* by the format it was drawn in: the names may end
		 * otherwise (sweep's are temporaries) */
		if (!plot_file_complete(path, g->fmts[i])) {
			/* by its name: @dir is the command's temporary
			 * directory, gone by the time the user reads this */
			fprintf(stderr, "capsim: gnuplot could not write %s whole (disk full?)\n",
				g->files[i]);
			ret = -1;
		}
		free(path);
	}
	gp_figures_free(g);
	return ret;
}

int plot_gnuplot_png_svg(const char *dir, const char *vars,
			 const char *script, const char *png, const char *svg,
			 bool quiet)
{
	struct gp_figures g;

	gp_figures_init(&g, dir, vars, quiet);
	gp_figures_add(&g, script, png, svg);
	if (gp_figures_start(&g)) {
		gp_figures_free(&g);
		return -1;
	}
	return gp_figures_wait(&g);
}
