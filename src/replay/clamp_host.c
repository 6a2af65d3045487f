#include <stdlib.h>
#include <string.h>

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
			return HOST_ENOMEM;
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
	h->nr_groups++;
	return HOST_OK;
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
		return HOST_ENOMEM;
	}
	for (i = 0; i < old_size; i++)
		if (old[i])
			*etab_slot(h, old[i]->id) = old[i];
	free(old);
	return HOST_OK;
}

static struct host_entity *entity_find(struct clamp_host *h, uint64_t id)
{
	return h->etab_size ? *etab_slot(h, id) : NULL;
}

/* Find or create; a new entity is not RUNNABLE and has no group yet. */
static struct host_entity *entity_get(struct clamp_host *h, uint64_t id)
{
	struct host_entity **slot, *e = entity_find(h, id);

	if (e)
		return e;
	if ((h->nr_entities + 1) * 2 > h->etab_size && etab_grow(h))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->id = id;
	e->cpu = -1;
	cap_clamp_se_init(&e->se);
	INIT_LIST_HEAD(&e->qnode);
	slot = etab_slot(h, id);
	*slot = e;
	h->nr_entities++;
	return e;
}

int clamp_host_init(struct clamp_host *h, unsigned int nr_cpus)
{
	unsigned int i;

	memset(h, 0, sizeof(*h));
	h->nr_cpus = nr_cpus;
	h->cpus = calloc(nr_cpus, sizeof(*h->cpus));
	if (!h->cpus)
		return HOST_ENOMEM;
	for (i = 0; i < nr_cpus; i++) {
		cap_clamp_cpu_init(&h->cpus[i].cc);
		raw_spin_lock_init(&h->cpus[i].lock);
	}
	mutex_init(&h->group_lock);
	h->root = group_new("/", NULL);
	if (!h->root || gtab_insert(h, h->root))
		return HOST_ENOMEM;
	cap_clamp_group_init_root(&h->root->cg);
	return HOST_OK;
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

int clamp_host_group_create(struct clamp_host *h, const char *path)
{
	const char *slash = strrchr(path, '/');
	struct host_group *parent, *g;
	char *ppath;
	int err;

	if (clamp_host_group(h, path))
		return HOST_EXISTS;
	if (!slash)
		return HOST_NO_PARENT;
	ppath = slash == path ? strdup("/") : strndup(path, slash - path);
	if (!ppath)
		return HOST_ENOMEM;
	parent = clamp_host_group(h, ppath);
	free(ppath);
	if (!parent)
		return HOST_NO_PARENT;

	g = group_new(path, parent);
	if (!g)
		return HOST_ENOMEM;
	err = gtab_insert(h, g);
	if (err) {
		free(g->path);
		free(g);
		return err;
	}
	mutex_lock(&h->group_lock);
	cap_clamp_group_link(&g->cg, &parent->cg, &h->group_lock);
	mutex_unlock(&h->group_lock);
	return HOST_OK;
}

int clamp_host_write(struct clamp_host *h, const char *path, int clamp_id,
		     uint64_t value)
{
	struct host_group *g = clamp_host_group(h, path);
	struct host_entity *e;
	int ret;

	if (!g)
		return HOST_NO_GROUP;

	mutex_lock(&h->group_lock);
	ret = cap_clamp_group_write(&g->cg, clamp_id, value, &h->group_lock);
	mutex_unlock(&h->group_lock);
	if (ret)
		return HOST_EINVAL;

	/* As the kernel does under task_rq_lock(), one entity at a time. */
	list_for_each_entry(e, &g->queued, qnode) {
		struct host_cpu *c = &h->cpus[e->cpu];

		raw_spin_lock(&c->lock);
		cap_clamp_update(&c->cc, &e->se, &g->cg, &c->lock);
		raw_spin_unlock(&c->lock);
	}
	return HOST_OK;
}

static void entity_enqueue(struct clamp_host *h, struct host_entity *e,
			   unsigned int cpu)
{
	struct host_cpu *c = &h->cpus[cpu];

	raw_spin_lock(&c->lock);
	cap_clamp_enqueue(&c->cc, &e->se, &e->grp->cg, &c->lock);
	raw_spin_unlock(&c->lock);
	e->cpu = (int)cpu;
	list_add_tail(&e->qnode, &e->grp->queued);
}

static void entity_dequeue(struct clamp_host *h, struct host_entity *e)
{
	struct host_cpu *c = &h->cpus[e->cpu];

	raw_spin_lock(&c->lock);
	cap_clamp_dequeue(&c->cc, &e->se, &c->lock);
	raw_spin_unlock(&c->lock);
	e->cpu = -1;
	list_del_init(&e->qnode);
}

/* An entity's group is set by its first enqueue and changed only by move. */
int clamp_host_enqueue(struct clamp_host *h, uint64_t id, unsigned int cpu,
		       const char *path)
{
	struct host_group *g = clamp_host_group(h, path);
	struct host_entity *e;

	if (!g)
		return HOST_NO_GROUP;
	if (cpu >= h->nr_cpus)
		return HOST_BAD_CPU;
	e = entity_get(h, id);
	if (!e)
		return HOST_ENOMEM;
	if (e->cpu >= 0)
		return HOST_QUEUED;
	if (e->grp && e->grp != g)
		return HOST_WRONG_GROUP;
	e->grp = g;
	entity_enqueue(h, e, cpu);
	return HOST_OK;
}

int clamp_host_dequeue(struct clamp_host *h, uint64_t id)
{
	struct host_entity *e = entity_find(h, id);

	if (!e)
		return HOST_NO_ENTITY;
	if (e->cpu < 0)
		return HOST_NOT_QUEUED;
	entity_dequeue(h, e);
	return HOST_OK;
}

/* sched_move_task(): a queued entity is dequeued and enqueued again. */
int clamp_host_move(struct clamp_host *h, uint64_t id, const char *path)
{
	struct host_group *g = clamp_host_group(h, path);
	struct host_entity *e;
	int cpu;

	if (!g)
		return HOST_NO_GROUP;
	e = entity_get(h, id);
	if (!e)
		return HOST_ENOMEM;
	cpu = e->cpu;
	if (cpu >= 0)
		entity_dequeue(h, e);
	e->grp = g;
	if (cpu >= 0)
		entity_enqueue(h, e, (unsigned int)cpu);
	return HOST_OK;
}

int clamp_host_range(struct clamp_host *h, unsigned int cpu,
		     struct cap_clamp_range *r)
{
	if (cpu >= h->nr_cpus)
		return HOST_BAD_CPU;
	cap_clamp_cpu_range(&h->cpus[cpu].cc, r);
	return HOST_OK;
}

const char *clamp_host_strerror(int err)
{
	switch (err) {
	case HOST_OK: return "ok";
	case HOST_EINVAL: return "EINVAL";
	case HOST_ENOMEM: return "out of memory";
	case HOST_EXISTS: return "group already exists";
	case HOST_NO_PARENT: return "parent group does not exist";
	case HOST_NO_GROUP: return "no such group";
	case HOST_NO_ENTITY: return "no such entity";
	case HOST_QUEUED: return "entity is already RUNNABLE";
	case HOST_NOT_QUEUED: return "entity is not RUNNABLE";
	case HOST_BAD_CPU: return "CPU out of range";
	case HOST_WRONG_GROUP:
		return "entity belongs to another group (use move)";
	}
	return "unknown error";
}
