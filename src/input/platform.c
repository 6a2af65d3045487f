// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "platform.h"
#include "spelling.h"
#include "util.h"

/*
 * drivers/cpufreq/cpufreq.c, 6.12: with no driver transition_delay_us the
 * delay is the transition latency plus 50 % (1 ms when the latency is 0).
 */
unsigned int platform_default_rate_limit_us(unsigned int latency_us)
{
	if (latency_us)
		return latency_us + (latency_us >> 1);
	return 1000;
}

/*
 * An unknown key: a warning, as it always was; but a near miss of a
 * known key (up_rate_limt_us) is an error with the key meant, since
 * ignoring it would run another experiment than the one asked.
 */
static int warn_unknown(struct jdoc *doc, json_t *obj, const char *ptr,
			const char *const *known)
{
	const char *key, *meant;
	json_t *v;
	int err = 0;

	json_object_foreach(obj, key, v) {
		const char *const *k;
		char *p;

		for (k = known; *k; k++)
			if (!strcmp(*k, key))
				break;
		if (*k)
			continue;
		p = jptr_key(ptr, key);
		meant = spelling_suggest(key, known);
		if (meant) {
			jdoc_error(doc, p, "unknown key \"%s\": did you mean \"%s\"?",
				   key, meant);
			err = -1;
		} else {
			jdoc_warn(doc, p, "unknown key, ignored");
		}
		free(p);
	}
	return err;
}

/* Read an integer member in [lo, hi]; absent -> *out = def (if !required) */
static int get_uint(struct jdoc *doc, json_t *obj, const char *ptr,
		    const char *key, bool required, long long lo, long long hi,
		    unsigned int def, unsigned int *out)
{
	json_t *v = json_object_get(obj, key);
	char *p = jptr_key(ptr, key);
	int ret = 0;

	if (!v) {
		if (required) {
			jdoc_error(doc, ptr, "missing \"%s\"", key);
			ret = -1;
		}
		*out = def;
	} else if (!json_is_integer(v)) {
		char *b = jdoc_brief(v);

		jdoc_error(doc, p, "%s is not an integer: allowed [%lld, %lld]",
			   b, lo, hi);
		free(b);
		ret = -1;
	} else if (json_integer_value(v) < lo || json_integer_value(v) > hi) {
		jdoc_error(doc, p, "%lld is out of range: allowed [%lld, %lld]",
			   (long long)json_integer_value(v), lo, hi);
		ret = -1;
	} else {
		*out = (unsigned int)json_integer_value(v);
	}
	free(p);
	return ret;
}

static int parse_idle(struct jdoc *doc, json_t *arr, const char *ptr,
		      struct idle_state **out, int *nout)
{
	static const char *const known[] = { "name", "power_mw",
		"exit_latency_us", "target_residency_us", NULL };
	size_t i, n;
	int err = 0;

	if (!json_is_array(arr) || !json_array_size(arr)) {
		jdoc_error(doc, ptr, "must be a non-empty array of idle states");
		return -1;
	}
	n = json_array_size(arr);
	*out = xcalloc(n, sizeof(**out));
	*nout = (int)n;
	for (i = 0; i < n; i++) {
		json_t *o = json_array_get(arr, i);
		char *p = jptr_idx(ptr, i);
		struct idle_state *s = &(*out)[i];
		json_t *name;

		if (!json_is_object(o)) {
			jdoc_error(doc, p, "an idle state must be an object");
			free(p);
			err = -1;
			continue;
		}
		err |= warn_unknown(doc, o, p, known);
		name = json_object_get(o, "name");
		s->name = xstrdup(json_is_string(name) ?
				  json_string_value(name) : "state");
		if (!json_is_string(name)) {
			jdoc_error(doc, p, "missing \"name\" (a string)");
			err = -1;
		}
		err |= get_uint(doc, o, p, "power_mw", true, 0, 1000000, 0,
				&s->power_mw);
		err |= get_uint(doc, o, p, "exit_latency_us", false, 0,
				10000000, 0, &s->exit_latency_us);
		err |= get_uint(doc, o, p, "target_residency_us", false, 0,
				100000000, 2 * s->exit_latency_us,
				&s->target_residency_us);
		if (i > 0 && s->exit_latency_us < (*out)[i - 1].exit_latency_us) {
			jdoc_error(doc, p, "idle states must be listed shallowest first (exit_latency_us not decreasing)");
			err = -1;
		}
		free(p);
	}
	return err;
}

static void free_idle(struct idle_state *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

void platform_free(struct platform *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < p->ndomains; i++) {
		free(p->domains[i].name);
		free(p->domains[i].cpus);
		free(p->domains[i].opps);
		if (p->domains[i].own_idle)
			free_idle(p->domains[i].idle, p->domains[i].nidle);
	}
	free(p->domains);
	free(p->cpus);
	free_idle(p->idle, p->nidle);
	free(p->name);
	free(p->origin);
	free(p);
}

static int parse_domain(struct jdoc *doc, json_t *o, const char *ptr,
			struct pdomain *dom)
{
	static const char *const known[] = { "id", "cpus", "opps",
		"transition_latency_us", "rate_limit_us", "up_rate_limit_us",
		"down_rate_limit_us", "idle", "name", "governor", NULL };
	static const char *const oknown[] = { "khz", "capacity", "power_mw",
		NULL };
	json_t *cpus, *opps, *idle;
	unsigned int id, rl;
	int err = 0;
	size_t i;
	char *p;

	err |= warn_unknown(doc, o, ptr, known);
	err |= get_uint(doc, o, ptr, "id", true, 0, 1023, 0, &id);
	dom->id = (int)id;
	if (json_object_get(o, "name")) {
		/* what people call it (silver, gold, prime): the plots' name */
		json_t *n = json_object_get(o, "name");

		if (json_is_string(n)) {
			dom->name = xstrdup(json_string_value(n));
		} else {
			char *b = jdoc_brief(n);

			p = jptr_key(ptr, "name");
			jdoc_error(doc, p, "%s: a string is expected (as silver, gold)", b);
			free(p);
			free(b);
			err = -1;
		}
	}
	err |= get_uint(doc, o, ptr, "transition_latency_us", false, 0,
			1000000, 0, &dom->transition_latency_us);
	if (json_object_get(o, "rate_limit_us")) {
		err |= get_uint(doc, o, ptr, "rate_limit_us", false, 0,
				10000000, 0, &rl);
		dom->rate_limit_us = rl;
	} else {
		dom->rate_limit_us = platform_default_rate_limit_us(
					dom->transition_latency_us);
	}
	/* Android's separate limits; each is rate_limit_us where not given */
	err |= get_uint(doc, o, ptr, "up_rate_limit_us", false, 0, 10000000,
			dom->rate_limit_us, &dom->up_rate_limit_us);
	err |= get_uint(doc, o, ptr, "down_rate_limit_us", false, 0, 10000000,
			dom->rate_limit_us, &dom->down_rate_limit_us);

	dom->gov.kind = GOV_SCHEDUTIL;
	if (json_object_get(o, "governor")) {
		json_t *g = json_object_get(o, "governor");
		const char *why = "a string is expected";

		p = jptr_key(ptr, "governor");
		if (!json_is_string(g) ||
		    governor_parse(json_string_value(g), &dom->gov, &why)) {
			char *b = jdoc_brief(g);

			jdoc_error(doc, p, "governor %s: %s", b, why);
			free(b);
			err = -1;
		}
		free(p);
	}

	cpus = json_object_get(o, "cpus");
	p = jptr_key(ptr, "cpus");
	if (!json_is_array(cpus) || !json_array_size(cpus)) {
		jdoc_error(doc, json_is_array(cpus) ? p : ptr,
			   "\"cpus\" must be a non-empty array of CPU ids");
		err = -1;
	} else {
		dom->ncpus = (int)json_array_size(cpus);
		dom->cpus = xcalloc((size_t)dom->ncpus, sizeof(int));
		for (i = 0; i < json_array_size(cpus); i++) {
			json_t *c = json_array_get(cpus, i);
			char *cp = jptr_idx(p, i);

			if (!json_is_integer(c) || json_integer_value(c) < 0 ||
			    json_integer_value(c) > 1023) {
				char *b = jdoc_brief(c);

				jdoc_error(doc, cp, "%s is not a CPU id: allowed [0, 1023]",
					   b);
				free(b);
				err = -1;
			} else {
				dom->cpus[i] = (int)json_integer_value(c);
			}
			free(cp);
		}
	}
	free(p);

	opps = json_object_get(o, "opps");
	p = jptr_key(ptr, "opps");
	if (!json_is_array(opps) || !json_array_size(opps)) {
		jdoc_error(doc, json_is_array(opps) ? p : ptr,
			   "\"opps\" must be a non-empty array of {khz, capacity, power_mw}");
		err = -1;
	} else {
		dom->nopps = (int)json_array_size(opps);
		dom->opps = xcalloc((size_t)dom->nopps, sizeof(struct opp));
		for (i = 0; i < json_array_size(opps); i++) {
			json_t *op = json_array_get(opps, i);
			char *opp_ptr = jptr_idx(p, i);
			struct opp *x = &dom->opps[i];

			if (!json_is_object(op)) {
				jdoc_error(doc, opp_ptr, "an OPP must be an object");
				err = -1;
				free(opp_ptr);
				continue;
			}
			err |= warn_unknown(doc, op, opp_ptr, oknown);
			err |= get_uint(doc, op, opp_ptr, "khz", true, 1,
					100000000, 0, &x->khz);
			err |= get_uint(doc, op, opp_ptr, "capacity", true, 1,
					1024, 0, &x->capacity);
			err |= get_uint(doc, op, opp_ptr, "power_mw", true, 0,
					1000000, 0, &x->power_mw);
			if (i > 0 && !err) {
				struct opp *prev = &dom->opps[i - 1];

				if (x->khz <= prev->khz) {
					jdoc_error(doc, opp_ptr, "OPPs must be sorted by strictly increasing khz (%u after %u)",
						   x->khz, prev->khz);
					err = -1;
				} else if (x->capacity < prev->capacity) {
					jdoc_error(doc, opp_ptr, "capacity %u is below the previous OPP's %u",
						   x->capacity, prev->capacity);
					err = -1;
				}
			}
			free(opp_ptr);
		}
	}
	free(p);

	idle = json_object_get(o, "idle");
	if (idle) {
		p = jptr_key(ptr, "idle");
		err |= parse_idle(doc, idle, p, &dom->idle, &dom->nidle);
		dom->own_idle = true;
		free(p);
	}
	return err;
}

static struct platform *platform_parse(struct jdoc *doc)
{
	static const char *const known[] = { "name", "cpus", "domains",
		"idle", "description", "source", NULL };
	static const char *const cknown[] = { "id", "capacity", "domain",
		NULL };
	struct platform *pl = xcalloc(1, sizeof(*pl));
	json_t *root = doc->root, *name, *cpus, *doms, *idle;
	int *first_dom, *in_domain, *count;
	unsigned int maxcap = 0;
	int err = 0;
	size_t i;
	int c, d, k;

	err |= warn_unknown(doc, root, "", known);
	name = json_object_get(root, "name");
	if (!json_is_string(name) || !*json_string_value(name)) {
		jdoc_error(doc, "", "missing \"name\" (a non-empty string)");
		err = -1;
	}
	pl->name = xstrdup(json_is_string(name) ? json_string_value(name) :
			   "unnamed");

	idle = json_object_get(root, "idle");
	if (idle) {
		err |= parse_idle(doc, idle, "/idle", &pl->idle, &pl->nidle);
	} else {
		pl->idle = xcalloc(1, sizeof(*pl->idle));
		pl->idle[0].name = xstrdup("WFI");
		pl->nidle = 1;
	}

	cpus = json_object_get(root, "cpus");
	if (!json_is_array(cpus) || !json_array_size(cpus) ||
	    json_array_size(cpus) > 1024) {
		jdoc_error(doc, json_is_array(cpus) ? "/cpus" : "",
			   "\"cpus\" must be an array of 1 to 1024 CPUs");
		platform_free(pl);
		return NULL;
	}
	pl->ncpus = (int)json_array_size(cpus);
	pl->cpus = xcalloc((size_t)pl->ncpus, sizeof(*pl->cpus));
	for (i = 0; i < json_array_size(cpus); i++) {
		json_t *o = json_array_get(cpus, i);
		char *p = jptr_idx("/cpus", i);
		unsigned int id, cap, dom;

		if (!json_is_object(o)) {
			jdoc_error(doc, p, "a CPU must be an object {id, capacity, domain}");
			err = -1;
			free(p);
			continue;
		}
		err |= warn_unknown(doc, o, p, cknown);
		err |= get_uint(doc, o, p, "id", true, 0, 1023, 0, &id);
		err |= get_uint(doc, o, p, "capacity", true, 1, 1024, 0, &cap);
		err |= get_uint(doc, o, p, "domain", true, 0, 1023, 0, &dom);
		if (!err && id != i) {
			jdoc_error(doc, p, "CPU ids must be 0..%d in order (found %u at index %zu)",
				   pl->ncpus - 1, id, i);
			err = -1;
		}
		pl->cpus[i].id = (int)i;
		pl->cpus[i].capacity = cap;
		pl->cpus[i].domain = (int)dom;	/* an id until resolved */
		if (cap > maxcap)
			maxcap = cap;
		free(p);
	}

	doms = json_object_get(root, "domains");
	if (!json_is_array(doms) || !json_array_size(doms)) {
		jdoc_error(doc, json_is_array(doms) ? "/domains" : "",
			   "\"domains\" must be a non-empty array");
		platform_free(pl);
		return NULL;
	}
	pl->ndomains = (int)json_array_size(doms);
	pl->domains = xcalloc((size_t)pl->ndomains, sizeof(*pl->domains));
	for (i = 0; i < json_array_size(doms); i++) {
		json_t *o = json_array_get(doms, i);
		char *p = jptr_idx("/domains", i);

		if (!json_is_object(o)) {
			jdoc_error(doc, p, "a domain must be an object");
			err = -1;
		} else {
			err |= parse_domain(doc, o, p, &pl->domains[i]);
		}
		if (!pl->domains[i].own_idle) {
			pl->domains[i].idle = pl->idle;
			pl->domains[i].nidle = pl->nidle;
		}
		free(p);
	}
	if (err) {
		platform_free(pl);
		return NULL;
	}

	/* Cross-checks: ids, membership, capacities. Ids are at most 1023,
	 * so tables indexed by id keep them linear in the input. */
	first_dom = xmalloc(1024 * sizeof(int));
	in_domain = xmalloc(1024 * sizeof(int));
	count = xcalloc(1024, sizeof(int));
	for (k = 0; k < 1024; k++)
		first_dom[k] = in_domain[k] = -1;
	for (d = 0; d < pl->ndomains; d++) {
		int id = pl->domains[d].id;

		if (first_dom[id] < 0) {
			first_dom[id] = d;
		} else {
			char *p = jptr_idx("/domains", (size_t)d);

			jdoc_error(doc, p, "duplicate domain id %d (also domains[%d])",
				   id, first_dom[id]);
			free(p);
			err = -1;
		}
		for (k = 0; k < pl->domains[d].ncpus; k++) {
			int c = pl->domains[d].cpus[k];

			count[c]++;
			in_domain[c] = d;
		}
	}
	for (c = 0; c < pl->ncpus && !err; c++) {
		int found = in_domain[c];
		char *p = jptr_idx("/cpus", (size_t)c);

		if (count[c] != 1) {
			jdoc_error(doc, p, "CPU %d is listed in %d domains' \"cpus\" (must be exactly 1)",
				   c, count[c]);
			err = -1;
		} else if (pl->domains[found].id != pl->cpus[c].domain) {
			jdoc_error(doc, p, "\"domain\" is %d but CPU %d is listed in domain %d",
				   pl->cpus[c].domain, c, pl->domains[found].id);
			err = -1;
		} else {
			struct pdomain *dom = &pl->domains[found];
			unsigned int top = dom->opps[dom->nopps - 1].capacity;

			pl->cpus[c].domain = found;
			if (top != pl->cpus[c].capacity) {
				jdoc_error(doc, p, "capacity %u differs from its domain's top OPP capacity %u",
					   pl->cpus[c].capacity, top);
				err = -1;
			}
		}
		free(p);
	}
	free(first_dom);
	free(in_domain);
	free(count);
	for (d = 0; d < pl->ndomains && !err; d++) {
		for (k = 0; k < pl->domains[d].ncpus; k++) {
			if (pl->domains[d].cpus[k] >= pl->ncpus) {
				char *p = jptr_idx("/domains", (size_t)d);

				jdoc_error(doc, p, "CPU %d does not exist",
					   pl->domains[d].cpus[k]);
				free(p);
				err = -1;
			}
		}
	}
	if (!err && maxcap != 1024) {
		jdoc_error(doc, "/cpus", "the largest CPU capacity must be 1024 (SCHED_CAPACITY_SCALE), found %u",
			   maxcap);
		err = -1;
	}
	if (err) {
		platform_free(pl);
		return NULL;
	}
	for (c = 1; c < pl->ncpus; c++)
		if (pl->cpus[c].capacity != pl->cpus[0].capacity)
			pl->asym = true;
	jdoc_sha256(doc, pl->sha256);
	return pl;
}

static struct platform *parse_loaded(struct jdoc *doc, int ret,
				     const char *origin)
{
	struct platform *pl = NULL;

	if (!ret) {
		pl = platform_parse(doc);
		if (pl)
			pl->origin = xstrdup(origin);
	}
	jdoc_free(doc);
	return pl;
}

struct platform *platform_load(const char *name_or_file, struct diag *d)
{
	const char *text = platform_embedded_find(name_or_file);
	struct jdoc doc;
	int ret;

	if (text)
		ret = jdoc_load_buffer(&doc, name_or_file, text, strlen(text), d);
	else if (!strchr(name_or_file, '/') && !strstr(name_or_file, ".json")) {
		diag_report(d, true, NULL, 0, 0,
			    "unknown platform \"%.64s%s\" (not embedded: see `capsim platforms`; a file path needs a '/' or .json)",
			    name_or_file,
			    strlen(name_or_file) > 64 ? "..." : "");
		return NULL;
	} else
		ret = jdoc_load_file(&doc, name_or_file, d);
	return parse_loaded(&doc, ret, text ? "embedded" : name_or_file);
}

struct platform *platform_load_buffer(const char *name, const char *text,
				      size_t len, struct diag *d)
{
	struct jdoc doc;
	int ret = jdoc_load_buffer(&doc, name, text, len, d);

	return parse_loaded(&doc, ret, name);
}
