/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Platforms: CPUs with a capacity, grouped in frequency domains that share
 * an OPP table (frequency, capacity at that frequency, power), plus idle
 * states. Read from a JSON platform file or from the embedded set.
 */
#ifndef CAPSIM_PLATFORM_H
#define CAPSIM_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "governor_names.h"

#include "diag.h"

struct opp {
	unsigned int khz;
	unsigned int capacity;	/* of one CPU of the domain at this OPP */
	unsigned int power_mw;	/* of one busy CPU at this OPP */
};

struct idle_state {
	char *name;
	unsigned int power_mw;
	unsigned int exit_latency_us;
	unsigned int target_residency_us;
};

struct pdomain {
	int id;
	char *name;		/* "name" (silver, gold, prime...), or NULL */
	int ncpus;
	int *cpus;
	int nopps;
	struct opp *opps;	/* ascending frequency */
	unsigned int transition_latency_us;
	unsigned int rate_limit_us;	/* schedutil rate_limit_us */
	/* Android's up/down_rate_limit_us; rate_limit_us where not given */
	unsigned int up_rate_limit_us, down_rate_limit_us;
	struct governor gov;		/* "governor", default schedutil */
	int nidle;
	struct idle_state *idle;	/* the domain's own, or the platform's */
	bool own_idle;
};

struct pcpu {
	int id;
	unsigned int capacity;	/* at the domain's top OPP */
	int domain;		/* index into platform.domains */
};

struct platform {
	char *name;
	char *origin;		/* "embedded" or the file path */
	char sha256[65];
	int ncpus;
	struct pcpu *cpus;
	int ndomains;
	struct pdomain *domains;
	int nidle;
	struct idle_state *idle;
	bool asym;		/* CPUs of different capacities */
};

/* 6.12 cpufreq_policy_transition_delay_us() when rate_limit_us is unset */
unsigned int platform_default_rate_limit_us(unsigned int latency_us);

struct platform *platform_load(const char *name_or_file, struct diag *d);
/* A platform file's text, named @name in messages */
struct platform *platform_load_buffer(const char *name, const char *text,
				      size_t len, struct diag *d);
void platform_free(struct platform *p);

/* The embedded platforms */
int platform_embedded_count(void);
const char *platform_embedded_name(int i);
const char *platform_embedded_text(int i);
const char *platform_embedded_find(const char *name);
#define PLATFORM_DEFAULT "sym4"

/* platform_arg.c: --platform NAME|FILE (or capsim.platform) as commands
 * take it: neither embedded nor a file, what platform_load() would
 * refuse; a did-you-mean for it (caller frees); the platform it names
 * (a bare name that is a readable file here read as ./NAME) */
bool platform_arg_unknown(const char *arg);
char *platform_arg_hint(const char *arg);
struct platform *platform_load_arg(const char *arg, struct diag *d);

#endif
