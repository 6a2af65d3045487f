/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one host of the clamp core in user space: CPUs, a group hierarchy
 * named by path and entities named by integer id, making the calls the
 * kernel glue makes (enqueue/dequeue under the CPU's lock, group writes
 * under the group mutex, then the group's RUNNABLE entities repositioned
 * one at a time, as cpu_capacity_write() does under task_rq_lock()).
 * The simulator, capsim-replay, the core tests and the guest-trace replay
 * all drive the core through it.
 *
 * Errors are negative errno values: -EINVAL (the core refused a group
 * write; a malformed path), -ENOMEM, -EEXIST (the group exists), -ENOENT
 * (no such group, or no parent for a new one), -EBUSY (the entity is
 * already RUNNABLE), -EALREADY (it is not RUNNABLE), -ERANGE (no such
 * CPU), -EXDEV (an enqueue names another group than the entity's: use
 * move). Each call that changes a CPU's range reports it through the
 * host's range_changed callback, with the cause.
 */
#ifndef CAPSIM_CLAMP_HOST_H
#define CAPSIM_CLAMP_HOST_H

#include <stdint.h>

#include <linux/sched/cap_clamp.h>

struct host_group {
	char *path;
	struct host_group *parent;
	struct cap_clamp_group cg;
	struct list_head queued;	/* its RUNNABLE entities */
	struct list_head node;		/* in the host's groups, by creation */
	struct host_group *hnext;	/* hash chain */
};

struct host_entity {
	uint64_t id;
	int cpu;			/* -1 when not RUNNABLE */
	struct host_group *grp;
	struct cap_clamp_se se;
	struct list_head qnode;		/* in grp->queued while RUNNABLE */
};

struct host_cpu {
	struct cap_clamp_cpu cc;
	raw_spinlock_t lock;
	/*
	 * The entities this host queued here, counted by the host so that
	 * readers need not look inside the core's aggregate (its @nr)
	 */
	unsigned int nr_queued;
};

enum clamp_host_cause {
	CLAMP_HOST_ENQUEUE,
	CLAMP_HOST_DEQUEUE,
	CLAMP_HOST_MOVE,
	CLAMP_HOST_WRITE,
};

typedef void clamp_range_changed_fn(void *ctx, unsigned int cpu,
				    enum clamp_host_cause cause);

struct clamp_host {
	unsigned int nr_cpus;
	struct host_cpu *cpus;
	struct mutex group_lock;
	struct host_group *root;
	struct list_head groups;	/* every group, in creation order */
	struct host_group **gtab;	/* chained hash of groups by path */
	size_t gtab_size, nr_groups;
	struct host_entity **etab;	/* open addressing by id */
	size_t etab_size, nr_entities;
	clamp_range_changed_fn *range_changed;	/* may be NULL */
	void *ctx;
};

int clamp_host_init(struct clamp_host *h, unsigned int nr_cpus);
void clamp_host_set_callback(struct clamp_host *h, clamp_range_changed_fn *fn,
			     void *ctx);
void clamp_host_destroy(struct clamp_host *h);
/*
 * Give every CPU aggregate the core's "rbtree" or "exact" backend (both
 * are built in user space): 0, -EINVAL for another name, -EBUSY once an
 * entity is RUNNABLE. clamp_host_init() gives the build's default.
 */
int clamp_host_set_backend(struct clamp_host *h, const char *name);
/* The backend of the host's CPU aggregates: "rbtree" or "exact" */
const char *clamp_host_backend(const struct clamp_host *h);
/* A message for an error of this host's calls */
const char *clamp_host_strerror(int err);

/* Groups: "/" exists from the start; a new group's parent must exist */
struct host_group *clamp_host_group(struct clamp_host *h, const char *path);
int clamp_host_group_create(struct clamp_host *h, const char *path,
			    struct host_group **out);
/*
 * A group write: the core's rules (-EINVAL, nothing changed), then the
 * group's RUNNABLE entities repositioned. The two halves are callable
 * apart for a host that reports the write before its effects.
 */
int clamp_host_write(struct clamp_host *h, struct host_group *g,
		     enum cap_clamp_id id, uint64_t value);
int clamp_host_group_set(struct clamp_host *h, struct host_group *g,
			 enum cap_clamp_id id, uint64_t value);
void clamp_host_group_reposition(struct clamp_host *h, struct host_group *g);

/*
 * Why the core would refuse writing @value to @g's @id, in words naming
 * the group and the rule broken (RFC patch 1's: min <= max, a group only
 * narrows its parent's range, children stay within it): -EINVAL with the
 * reason in @buf, or 0 when the write is allowed. For error messages;
 * tests/core/test_clamphost.c holds it to the core's own decision.
 */
int clamp_host_explain(const struct clamp_host *h, const struct host_group *g,
		       enum cap_clamp_id id, uint64_t value, char *buf,
		       size_t len);

/* Entities: found by id, created on first use with no group */
struct host_entity *clamp_host_entity(struct clamp_host *h, uint64_t id);
int clamp_host_entity_get(struct clamp_host *h, uint64_t id,
			  struct host_entity **out);

/* 1 if the CPU's range changed, 0 if not, or a negative errno */
int clamp_host_enqueue(struct clamp_host *h, struct host_entity *e,
		       unsigned int cpu, struct host_group *g);
int clamp_host_dequeue(struct clamp_host *h, struct host_entity *e);
/* sched_move_task(): a RUNNABLE entity is dequeued and enqueued again */
int clamp_host_move(struct clamp_host *h, struct host_entity *e,
		    struct host_group *g);

int clamp_host_range(const struct clamp_host *h, unsigned int cpu,
		     struct cap_clamp_range *r);
/* How many entities are RUNNABLE on @cpu (in its aggregate); 0 past the end */
unsigned int clamp_host_nr_queued(const struct clamp_host *h, unsigned int cpu);

#endif
