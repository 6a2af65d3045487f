/* SPDX-License-Identifier: GPL-2.0 */
/* The what-if commands, dispatched by cli.c */
#ifndef CAPSIM_WHATIF_H
#define CAPSIM_WHATIF_H

#include <stdbool.h>

#include "plot.h"
#include "progress.h"

/* capsim compare WORKLOAD.json ...; exit status */
int cmd_compare(int argc, char **argv);
/* capsim sweep WORKLOAD.json ... | sweep --collect DIR; exit status */
int cmd_sweep(int argc, char **argv);

/*
 * The policies a comparison or a sweep runs when none are named: every
 * policy this build simulates, in the registry's order (a new policy is
 * a row of src/input/clamp_names.c and its ops in src/sim/policy.c;
 * compare's and sweep's --help list it from there). NULL-terminated,
 * the caller frees it with strv_free().
 */
char **whatif_all_policies(void);
/* The same as "rfc,none,...", for the usage texts (caller frees) */
char *whatif_policy_list(void);

/*
 * Each item of @v appears once (twice would give duplicate runs) and,
 * when @policies, names a policy of the registry. 0, or -1 with the
 * usage error of @cmd said.
 */
int whatif_check_list(char *const *v, const char *opt, const char *cmd,
		      bool policies);

/* A workload file's name as capsim run names it: the basename without
 * .json (caller frees) */
char *whatif_workload_name(const char *path);

/* Split "a,b,c" into a NULL-terminated list (caller frees with
 * strv_free); NULL and a message if an item is empty */
char **strv_split(const char *s, const char *what);
void strv_free(char **v);
int strv_len(char *const *v);

#endif
