/*
 * A minimal host for the clamp core: CPUs, a group hierarchy named by path
 * and entities named by integer id, with the same calls the kernel glue
 * makes (enqueue/dequeue under the CPU's lock, group writes under the group
 * mutex followed by repositioning of the group's queued entities).
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
};

struct clamp_host {
	unsigned int nr_cpus;
	struct host_cpu *cpus;
	struct mutex group_lock;
	struct host_group *root;
	struct host_group **gtab;	/* chained hash of groups by path */
	size_t gtab_size, nr_groups;
	struct host_entity **etab;	/* open addressing by id */
	size_t etab_size, nr_entities;
};

enum host_err {
	HOST_OK = 0,
	HOST_EINVAL = 1,	/* the core refused a group write */
	HOST_ENOMEM,
	HOST_EXISTS,
	HOST_NO_PARENT,
	HOST_NO_GROUP,
	HOST_NO_ENTITY,
	HOST_QUEUED,
	HOST_NOT_QUEUED,
	HOST_BAD_CPU,
	HOST_WRONG_GROUP,
};

int clamp_host_init(struct clamp_host *h, unsigned int nr_cpus);
void clamp_host_destroy(struct clamp_host *h);
const char *clamp_host_strerror(int err);

struct host_group *clamp_host_group(struct clamp_host *h, const char *path);
int clamp_host_group_create(struct clamp_host *h, const char *path);
int clamp_host_write(struct clamp_host *h, const char *path, int clamp_id,
		     uint64_t value);
int clamp_host_enqueue(struct clamp_host *h, uint64_t id, unsigned int cpu,
		       const char *path);
int clamp_host_dequeue(struct clamp_host *h, uint64_t id);
int clamp_host_move(struct clamp_host *h, uint64_t id, const char *path);
int clamp_host_range(struct clamp_host *h, unsigned int cpu,
		     struct cap_clamp_range *r);

#endif
