// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/sched.h>

#include "clamp_host.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static uint64_t hash_id(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static struct host_group *group_new(const char *path, struct host_group *parent)
{
	struct host_group *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->path = strdup(path);
	if (!g->path) {
		free(g);
		return NULL;
	}
	g->parent = parent;
	INIT_LIST_HEAD(&g->queued);
	return g;
}

static int gtab_insert(struct clamp_host *h, struct host_group *g)
{
	size_t i;

	if (h->nr_groups + 1 > h->gtab_size) {
		size_t n = h->gtab_size ? h->gtab_size * 2 : 64;
		struct host_group **t = calloc(n, sizeof(*t));

		if (!t)
			return -ENOMEM;
		for (i = 0; i < h->gtab_size; i++) {
			struct host_group *e = h->gtab[i], *next;

			for (; e; e = next) {
				size_t j = hash_str(e->path) & (n - 1);

				next = e->hnext;
				e->hnext = t[j];
				t[j] = e;
			}
		}
		free(h->gtab);
		h->gtab = t;
		h->gtab_size = n;
	}
	i = hash_str(g->path) & (h->gtab_size - 1);
	g->hnext = h->gtab[i];
	h->gtab[i] = g;
	list_add_tail(&g->node, &h->groups);
	h->nr_groups++;
	return 0;
}

struct host_group *clamp_host_group(struct clamp_host *h, const char *path)
{
	struct host_group *g;

	if (!h->gtab_size)
		return NULL;
	g = h->gtab[hash_str(path) & (h->gtab_size - 1)];
	while (g && strcmp(g->path, path))
		g = g->hnext;
	return g;
}

static struct host_entity **etab_slot(struct clamp_host *h, uint64_t id)
{
	size_t mask = h->etab_size - 1;
	size_t i = hash_id(id) & mask;

	while (h->etab[i] && h->etab[i]->id != id)
		i = (i + 1) & mask;
	return &h->etab[i];
}

static int etab_grow(struct clamp_host *h)
{
	struct host_entity **old = h->etab;
	size_t i, old_size = h->etab_size;

	h->etab_size = old_size ? old_size * 2 : 256;
	h->etab = calloc(h->etab_size, sizeof(*h->etab));
	if (!h->etab) {
		h->etab = old;
		h->etab_size = old_size;
		return -ENOMEM;
	}
	for (i = 0; i < old_size; i++)
		if (old[i])
			*etab_slot(h, old[i]->id) = old[i];
	free(old);
	return 0;
}

struct host_entity *clamp_host_entity(struct clamp_host *h, uint64_t id)
{
	return h->etab_size ? *etab_slot(h, id) : NULL;
}

/* Find or create; a new entity is not RUNNABLE and has no group yet. */
int clamp_host_entity_get(struct clamp_host *h, uint64_t id,
			  struct host_entity **out)
{
	struct host_entity **slot, *e = clamp_host_entity(h, id);

	*out = e;
	if (e)
		return 0;
	if ((h->nr_entities + 1) * 2 > h->etab_size && etab_grow(h))
		return -ENOMEM;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->id = id;
	e->cpu = -1;
	cap_clamp_se_init(&e->se);
	INIT_LIST_HEAD(&e->qnode);
	slot = etab_slot(h, id);
	*slot = e;
	h->nr_entities++;
	*out = e;
	return 0;
}

int clamp_host_init(struct clamp_host *h, unsigned int nr_cpus)
{
	unsigned int i;

	memset(h, 0, sizeof(*h));
	h->nr_cpus = nr_cpus;
	h->cpus = calloc(nr_cpus ? nr_cpus : 1, sizeof(*h->cpus));
	if (!h->cpus)
		return -ENOMEM;
	for (i = 0; i < nr_cpus; i++) {
		cap_clamp_cpu_init(&h->cpus[i].cc);
		raw_spin_lock_init(&h->cpus[i].lock);
	}
	mutex_init(&h->group_lock);
	INIT_LIST_HEAD(&h->groups);
	h->root = group_new("/", NULL);
	if (!h->root || gtab_insert(h, h->root))
		return -ENOMEM;
	cap_clamp_group_init_root(&h->root->cg);
	return 0;
}

int clamp_host_set_backend(struct clamp_host *h, const char *name)
{
	bool exact;
	unsigned int i;

	if (!strcmp(name, "exact"))
		exact = true;
	else if (!strcmp(name, "rbtree"))
		exact = false;
	else
		return -EINVAL;
	for (i = 0; i < h->nr_cpus; i++)
		if (!cap_clamp_cpu_empty(&h->cpus[i].cc))
			return -EBUSY;
	for (i = 0; i < h->nr_cpus; i++) {
		if (exact)
			cap_clamp_exact_cpu_init(&h->cpus[i].cc);
		else
			cap_clamp_rbtree_cpu_init(&h->cpus[i].cc);
	}
	return 0;
}

const char *clamp_host_backend(const struct clamp_host *h)
{
	return cap_clamp_cpu_exact(&h->cpus[0].cc) ? "exact" : "rbtree";
}

void clamp_host_set_callback(struct clamp_host *h, clamp_range_changed_fn *fn,
			     void *ctx)
{
	h->range_changed = fn;
	h->ctx = ctx;
}

static int report(struct clamp_host *h, unsigned int cpu, bool changed,
		  enum clamp_host_cause cause)
{
	if (changed && h->range_changed)
		h->range_changed(h->ctx, cpu, cause);
	return changed;
}

void clamp_host_destroy(struct clamp_host *h)
{
	size_t i;

	for (i = 0; i < h->gtab_size; i++) {
		struct host_group *g = h->gtab[i], *next;

		for (; g; g = next) {
			next = g->hnext;
			free(g->path);
			free(g);
		}
	}
	for (i = 0; i < h->etab_size; i++)
		free(h->etab[i]);
	free(h->gtab);
	free(h->etab);
	free(h->cpus);
	memset(h, 0, sizeof(*h));
}

int clamp_host_group_create(struct clamp_host *h, const char *path,
			    struct host_group **out)
{
	const char *slash = strrchr(path, '/');
	struct host_group *parent, *g;
	char *ppath;
	int err;

	if (out)
		*out = NULL;
	if (path[0] != '/' || !slash || slash[1] == '\0')
		return -EINVAL;
	if (clamp_host_group(h, path))
		return -EEXIST;
	ppath = slash == path ? strdup("/") : strndup(path, slash - path);
	if (!ppath)
		return -ENOMEM;
	parent = clamp_host_group(h, ppath);
	free(ppath);
	if (!parent)
		return -ENOENT;

	g = group_new(path, parent);
	if (!g)
		return -ENOMEM;
	err = gtab_insert(h, g);
	if (err) {
		free(g->path);
		free(g);
		return err;
	}
	mutex_lock(&h->group_lock);
	cap_clamp_group_link(&g->cg, &parent->cg, &h->group_lock);
	mutex_unlock(&h->group_lock);
	if (out)
		*out = g;
	return 0;
}

int clamp_host_group_set(struct clamp_host *h, struct host_group *g,
			 enum cap_clamp_id id, uint64_t value)
{
	int ret;

	mutex_lock(&h->group_lock);
	ret = cap_clamp_group_write(&g->cg, id, value, &h->group_lock);
	mutex_unlock(&h->group_lock);
	return ret;
}

/* As the kernel does under task_rq_lock(), one entity at a time. */
void clamp_host_group_reposition(struct clamp_host *h, struct host_group *g)
{
	struct host_entity *e;

	list_for_each_entry(e, &g->queued, qnode) {
		struct host_cpu *c = &h->cpus[e->cpu];
		bool changed;

		raw_spin_lock(&c->lock);
		changed = cap_clamp_update(&c->cc, &e->se, &g->cg, &c->lock);
		raw_spin_unlock(&c->lock);
		report(h, (unsigned int)e->cpu, changed, CLAMP_HOST_WRITE);
	}
}

int clamp_host_explain(const struct clamp_host *h, const struct host_group *g,
		       enum cap_clamp_id id, uint64_t value, char *buf,
		       size_t len)
{
	unsigned int v = value > SCHED_CAPACITY_SCALE ? SCHED_CAPACITY_SCALE :
			 (unsigned int)value;
	const unsigned int *mine = g->cg.value;
	const struct host_group *c;

	if (id == CAP_CLAMP_MIN && v > mine[CAP_CLAMP_MAX]) {
		snprintf(buf, len, "capacity_min %u is above the group's capacity_max %u",
			 v, mine[CAP_CLAMP_MAX]);
		return -EINVAL;
	}
	if (id == CAP_CLAMP_MAX && v < mine[CAP_CLAMP_MIN]) {
		snprintf(buf, len, "capacity_max %u is below the group's capacity_min %u",
			 v, mine[CAP_CLAMP_MIN]);
		return -EINVAL;
	}
	if (g->parent && id == CAP_CLAMP_MIN &&
	    v < g->parent->cg.value[CAP_CLAMP_MIN]) {
		snprintf(buf, len, "capacity_min %u is below the parent %s's capacity_min %u (a group may only narrow its parent's range)",
			 v, g->parent->path, g->parent->cg.value[CAP_CLAMP_MIN]);
		return -EINVAL;
	}
	if (g->parent && id == CAP_CLAMP_MAX &&
	    v > g->parent->cg.value[CAP_CLAMP_MAX]) {
		snprintf(buf, len, "capacity_max %u is above the parent %s's capacity_max %u (a group may only narrow its parent's range)",
			 v, g->parent->path, g->parent->cg.value[CAP_CLAMP_MAX]);
		return -EINVAL;
	}
	list_for_each_entry(c, &h->groups, node) {
		if (c->parent != g)
			continue;
		if (id == CAP_CLAMP_MIN && c->cg.value[CAP_CLAMP_MIN] < v) {
			snprintf(buf, len, "child %s has capacity_min %u below %u (children must stay within their parent)",
				 c->path, c->cg.value[CAP_CLAMP_MIN], v);
			return -EINVAL;
		}
		if (id == CAP_CLAMP_MAX && c->cg.value[CAP_CLAMP_MAX] > v) {
			snprintf(buf, len, "child %s has capacity_max %u above %u (children must stay within their parent)",
				 c->path, c->cg.value[CAP_CLAMP_MAX], v);
			return -EINVAL;
		}
	}
	if (len)
		buf[0] = '\0';
	return 0;
}

int clamp_host_write(struct clamp_host *h, struct host_group *g,
		     enum cap_clamp_id id, uint64_t value)
{
	int ret = clamp_host_group_set(h, g, id, value);

	if (!ret)
		clamp_host_group_reposition(h, g);
	return ret;
}

static bool entity_enqueue(struct clamp_host *h, struct host_entity *e,
			   unsigned int cpu)
{
	struct host_cpu *c = &h->cpus[cpu];
	bool changed;

	raw_spin_lock(&c->lock);
	changed = cap_clamp_enqueue(&c->cc, &e->se, &e->grp->cg, &c->lock);
	raw_spin_unlock(&c->lock);
	c->nr_queued++;
	e->cpu = (int)cpu;
	list_add_tail(&e->qnode, &e->grp->queued);
	return changed;
}

static bool entity_dequeue(struct clamp_host *h, struct host_entity *e)
{
	struct host_cpu *c = &h->cpus[e->cpu];
	bool changed;

	raw_spin_lock(&c->lock);
	changed = cap_clamp_dequeue(&c->cc, &e->se, &c->lock);
	raw_spin_unlock(&c->lock);
	c->nr_queued--;
	e->cpu = -1;
	list_del_init(&e->qnode);
	return changed;
}

/* An entity's group is set by its first enqueue and changed only by move. */
int clamp_host_enqueue(struct clamp_host *h, struct host_entity *e,
		       unsigned int cpu, struct host_group *g)
{
	if (cpu >= h->nr_cpus)
		return -ERANGE;
	if (e->cpu >= 0)
		return -EBUSY;
	if (e->grp && e->grp != g)
		return -EXDEV;
	e->grp = g;
	return report(h, cpu, entity_enqueue(h, e, cpu), CLAMP_HOST_ENQUEUE);
}

int clamp_host_dequeue(struct clamp_host *h, struct host_entity *e)
{
	unsigned int cpu = (unsigned int)e->cpu;

	if (e->cpu < 0)
		return -EALREADY;
	return report(h, cpu, entity_dequeue(h, e), CLAMP_HOST_DEQUEUE);
}

int clamp_host_move(struct clamp_host *h, struct host_entity *e,
		    struct host_group *g)
{
	int cpu = e->cpu;
	bool changed = false;

	if (cpu >= 0)
		changed = entity_dequeue(h, e);
	e->grp = g;
	if (cpu >= 0)
		changed |= entity_enqueue(h, e, (unsigned int)cpu);
	return cpu >= 0 ? report(h, (unsigned int)cpu, changed,
				 CLAMP_HOST_MOVE) : 0;
}

int clamp_host_range(const struct clamp_host *h, unsigned int cpu,
		     struct cap_clamp_range *r)
{
	if (cpu >= h->nr_cpus)
		return -ERANGE;
	cap_clamp_cpu_range(&h->cpus[cpu].cc, r);
	return 0;
}

const char *clamp_host_strerror(int err)
{
	switch (err) {
	case 0: return "ok";
	case -EINVAL: return "EINVAL";
	case -ENOMEM: return "out of memory";
	case -EEXIST: return "group already exists";
	case -ENOENT: return "no such group";
	case -EBUSY: return "entity is already RUNNABLE";
	case -EALREADY: return "entity is not RUNNABLE";
	case -ERANGE: return "CPU out of range";
	case -EXDEV:
		return "entity belongs to another group (use move)";
	}
	return "unknown error";
}

unsigned int clamp_host_nr_queued(const struct clamp_host *h, unsigned int cpu)
{
	return cpu < h->nr_cpus ? h->cpus[cpu].nr_queued : 0;
}
