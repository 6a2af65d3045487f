// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot, run the one safe way: strings quoted for its code, scripts
 * found once, the program started in the output directory with its
 * messages kept aside, its plots drawn into a directory of capsim's
 * making, checked complete and only then renamed to their names. Shared
 * by the commands that draw (capsim plot, compare, sweep, xcheck).
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
#include "outdir.h"
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

/*
 * gnuplot opens its outputs with fopen("w"), following whatever has the
 * name: it draws into a directory made now (mkdtemp: 0700, empty), so
 * every file it writes is one it creates there, under a name of
 * capsim's (no name of the user's nor a link planted in a shared
 * directory). @dir/.gnuplot-XXXXXX, watched for the signals; NULL (said).
 */
static char *make_draw_dir(const char *dir)
{
	char *path = xasprintf("%s/.gnuplot-XXXXXX", dir);

	if (!mkdtemp(path)) {
		fprintf(stderr, "capsim: cannot create a directory in %s for gnuplot: %s\n",
			dir, strerror(errno));
		free(path);
		return NULL;
	}
	interrupt_watch_dir(path);
	return path;
}

static void remove_draw_dir(char *path)
{
	if (!path)
		return;
	remove_tree(path);
	interrupt_forget_dir(path);
	free(path);
}

/* @draw's last component: how gnuplot, running in its parent, names it */
static const char *draw_rel(const char *draw)
{
	return strrchr(draw, '/') + 1;
}

/*
 * The figures drawn as @drawn[i] (paths) renamed to @dir/@names[i], each
 * checked whole in its format @fmts[i] first: all of them or none. 0 or
 * -1 (said).
 */
static int place_figures(const char *dir, char **drawn, char **names,
			 const char **fmts, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!plot_file_complete(drawn[i], fmts[i])) {
			/* by its name: @dir is the command's temporary
			 * directory, gone by the time the user reads this */
			fprintf(stderr, "capsim: gnuplot could not write %s whole (disk full?)\n",
				names[i]);
			return -1;
		}
	for (i = 0; i < n; i++) {
		char *to = xasprintf("%s/%s", dir, names[i]);
		int bad = rename(drawn[i], to);

		if (bad)
			fprintf(stderr, "capsim: cannot rename a plot to %s: %s\n",
				to, strerror(errno));
		free(to);
		if (bad)
			return -1;
	}
	return 0;
}

int plot_gnuplot(const char *dir, const char *vars, const char *script,
		 const char *fmt, const char *const *outs, bool quiet)
{
	char *draw = make_draw_dir(dir), *all, **drawn, **names;
	const char **fmts;
	int n, i, ret;

	if (!draw)
		return -1;
	for (n = 0; outs[n]; n++)
		;
	all = xasprintf("%s; outdir='%s'", vars, draw_rel(draw));
	{
		char *argv[] = { (char *)"gnuplot", (char *)"-e", all,
				 (char *)script, NULL };

		ret = run_gnuplot(argv, dir, script, quiet);
	}
	drawn = xcalloc((size_t)n + 1, sizeof(char *));
	names = xcalloc((size_t)n + 1, sizeof(char *));
	fmts = xcalloc((size_t)n + 1, sizeof(char *));
	for (i = 0; i < n; i++) {
		drawn[i] = xasprintf("%s/%s", draw, outs[i]);
		names[i] = (char *)outs[i];
		fmts[i] = fmt;
	}
	if (!ret)
		ret = place_figures(dir, drawn, names, fmts, n);
	for (i = 0; i < n; i++)
		free(drawn[i]);
	free(drawn);
	free(names);
	free(fmts);
	free(all);
	remove_draw_dir(draw);
	return ret;
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

	if (!g->draw && !g->draw_failed) {
		g->draw = make_draw_dir(g->dir);
		g->draw_failed = !g->draw;
	}
	if (!g->draw)
		return;		/* gp_figures_start() fails */
	/* gnuplot runs its -e lists and scripts in order: each script once
	 * per format asked, setting its terminal and output from fmt and
	 * out, a name of capsim's in the drawing directory */
	for (k = 0; k < 2; k++) {
		char *q, *rel;

		if (!out[k])
			continue;
		rel = xasprintf("%s/%d.%s", draw_rel(g->draw), g->nfiles,
				fmt[k]);
		q = gp_quote(rel);
		free(rel);
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
	if (g->draw_failed)
		return -1;	/* said by make_draw_dir() */
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
	remove_draw_dir(g->draw);
	free(g->dir);
	free(g->script);
	*g = (struct gp_figures){ 0 };
}

int gp_figures_wait(struct gp_figures *g)
{
	int ret = wait_gnuplot(g->pid, g->log, g->script, g->quiet), i;

	if (!ret) {
		char **drawn = xcalloc((size_t)g->nfiles + 1, sizeof(char *));

		for (i = 0; i < g->nfiles; i++)
			drawn[i] = xasprintf("%s/%d.%s", g->draw, i,
					     g->fmts[i]);
		/* by the format it was drawn in, then under its name */
		ret = place_figures(g->dir, drawn, g->files, g->fmts,
				    g->nfiles);
		for (i = 0; i < g->nfiles; i++)
			free(drawn[i]);
		free(drawn);
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
