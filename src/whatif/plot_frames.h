/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame view of a run with chains: read back from its chains.csv and
 * summary.json, a lane per chain under activity.png's task lanes (vsync
 * marks, each frame from its vsync to its last task's completion, late
 * ones red, lost ones a red cross) and frames.png (each frame's latency
 * against the chain's deadline).
 */
#ifndef CAPSIM_PLOT_FRAMES_H
#define CAPSIM_PLOT_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run_metrics.h"

/* A frame's state as drawn */
enum plot_frame_state {
	PF_ON_TIME,
	PF_LATE,
	PF_LOST,	/* a resume found the next task busy */
	PF_UNFINISHED,	/* never begun, or still in work at the end */
};

struct plot_frame {
	int chain;		/* index into plot_frames.name */
	double t_s;		/* its vsync */
	double done_s;		/* its last task's completion (finished) */
	double lat_ms;
	enum plot_frame_state state;
};

struct plot_frames {
	int nchains;
	char **name;
	double *deadline_ms, *period_ms;
	long *judged, *late, *lost;	/* in the window */
	double *ymax_ms;		/* frames.png's latency axis */
	struct plot_frame *v;		/* in the window, chain by chain */
	size_t n, cap;
};

/*
 * The frames of @csv (a run's chains.csv; @m its summary's chains) whose
 * vsync is in [@from, @to] s (@to < 0: to the end). 0 (no chains.csv: no
 * frames), or -1 with the file and line said (a row that is not
 * chains.csv's, a chain the summary does not have)
 */
int plot_frames_load(struct plot_frames *pf, const char *csv,
		     const struct run_metrics *m, double from, double to);
/* The frame lanes' rows of activity.dat, chain i in lane @first + i */
void plot_frames_lanes(const struct plot_frames *pf, FILE *f, int first);
/* frames.dat in @datadir: 0 or -1 (said) */
int plot_frames_data(const struct plot_frames *pf, const char *datadir);
/* The frame lanes' and panels' variables of vars.gp (every string
 * through gp_quote()) */
void plot_frames_vars(const struct plot_frames *pf, FILE *v);
void plot_frames_free(struct plot_frames *pf);

#endif
