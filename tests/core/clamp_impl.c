#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched/cap_clamp.h>
#include "agg_check.h"
#include "clamp_host.h"
#include "clamp_impl.h"
#include "rb_check.h"
#include "seed_model.h"

static enum impl_kind kind;
static int nr_cpus, nr_groups;

/*
 * The core runs through its one user-space host (src/clamphost), as the
 * simulator and capsim-replay drive it; the seed model beside it keeps its
 * own structures.
 */
static struct clamp_host host;
static bool host_live;

static struct {
	struct seed_cpu seed;
} cpus[IMPL_MAX_CPUS];

static struct {
	int parent;
	struct host_group *hg;
	struct seed_group seed;
} groups[IMPL_MAX_GROUPS];

static struct {
	int grp, cpu;		/* cpu: -1 when not RUNNABLE */
	struct host_entity *he;
	struct seed_task seed;
} tasks[IMPL_MAX_TASKS];

/* The host's report of a CPU whose range changed */
static void range_changed(void *ctx, unsigned int cpu,
			  enum clamp_host_cause cause)
{
	(void)ctx;
	(void)cause;
	impl_changed_mask |= 1ul << cpu;
}

static const struct cap_clamp_cpu *core_cpu(int c)
{
	return &host.cpus[c].cc;
}

unsigned long impl_changed_mask;
long impl_validation_disagreements;
int impl_core_backend = -1;

void impl_reset(enum impl_kind k, int n)
{
	int i;

	impl_changed_mask = 0;
	impl_validation_disagreements = 0;
	kind = k;
	nr_cpus = n;
	nr_groups = 1;
	memset(cpus, 0, sizeof(cpus));
	memset(groups, 0, sizeof(groups));
	memset(tasks, 0, sizeof(tasks));
	if (host_live)
		clamp_host_destroy(&host);
	if (clamp_host_init(&host, IMPL_MAX_CPUS))
		abort();
	host_live = true;
	clamp_host_set_callback(&host, range_changed, NULL);
	for (i = 0; i < IMPL_MAX_CPUS; i++) {
		/* nothing is queued yet: the backend may still be chosen */
		if (impl_core_backend >= 0)
			agg_init(&host.cpus[i].cc, impl_core_backend);
		seed_cpu_init(&cpus[i].seed);
	}
	groups[0].parent = -1;
	groups[0].hg = host.root;
	groups[0].seed.cap_clamp[0] = 0;
	groups[0].seed.cap_clamp[1] = 1024;
	for (i = 0; i < IMPL_MAX_TASKS; i++) {
		tasks[i].cpu = -1;
		if (clamp_host_entity_get(&host, (uint64_t)i, &tasks[i].he))
			abort();
		seed_task_init(&tasks[i].seed, &groups[0].seed);
	}
}

int impl_group_new(int parent)
{
	int g = nr_groups++;

	char path[16 * IMPL_MAX_GROUPS];

	groups[g].parent = parent;
	/* a path under the parent's, as the host names groups */
	snprintf(path, sizeof(path), "%s/g%d",
		 parent ? groups[parent].hg->path : "", g);
	if (clamp_host_group_create(&host, path, &groups[g].hg))
		abort();
	groups[g].seed.parent = &groups[parent].seed;
	groups[g].seed.cap_clamp[0] = groups[parent].seed.cap_clamp[0];
	groups[g].seed.cap_clamp[1] = groups[parent].seed.cap_clamp[1];
	return g;
}

int impl_write(int g, int id, uint64_t value)
{
	struct seed_group *children[IMPL_MAX_GROUPS];
	int i, n = 0, ret;

	for (i = 0; i < nr_groups; i++)
		if (groups[i].parent == g)
			children[n++] = &groups[i].seed;
	if (kind == IMPL_CORE) {
		int seed_ret;

		/* the write, then the repositioning of its RUNNABLE tasks */
		ret = clamp_host_write(&host, groups[g].hg, id, value);
		/* The seed's hierarchy shadows the core's, write for write. */
		seed_ret = seed_group_write(&groups[g].seed, id, value,
					    children, n);
		if (value < (1ull << 32) && seed_ret != ret)
			impl_validation_disagreements++;
		groups[g].seed.cap_clamp[id] = groups[g].hg->cg.value[id];
	} else {
		ret = seed_group_write(&groups[g].seed, id, value, children, n);
	}
	if (ret || kind == IMPL_CORE)
		return ret;

	for (i = 0; i < IMPL_MAX_TASKS; i++)
		if (tasks[i].grp == g)
			seed_update_capacity(&tasks[i].seed, id);
	return 0;
}

void impl_enqueue(int t, int c, int g)
{
	tasks[t].grp = g;
	tasks[t].cpu = c;
	if (kind == IMPL_SEED) {
		tasks[t].seed.grp = &groups[g].seed;
		seed_enqueue_task(&cpus[c].seed, &tasks[t].seed);
		return;
	}
	/* the task may have changed group while not RUNNABLE */
	clamp_host_move(&host, tasks[t].he, groups[g].hg);
	clamp_host_enqueue(&host, tasks[t].he, (unsigned int)c, groups[g].hg);
}

void impl_dequeue(int t)
{
	int c = tasks[t].cpu;

	tasks[t].cpu = -1;
	if (kind == IMPL_SEED) {
		seed_dequeue_task(&cpus[c].seed, &tasks[t].seed);
		return;
	}
	clamp_host_dequeue(&host, tasks[t].he);
}

bool impl_queued(int t)
{
	return tasks[t].cpu >= 0;
}

int impl_task_group(int t)
{
	return tasks[t].grp;
}

unsigned int impl_group_value(int g, int id)
{
	return kind == IMPL_CORE ? groups[g].hg->cg.value[id] :
	       groups[g].seed.cap_clamp[id];
}

void impl_range(int c, unsigned int *min, unsigned int *max)
{
	struct cap_clamp_range r;

	if (kind == IMPL_SEED) {
		seed_cpu_range(&cpus[c].seed, min, max);
		return;
	}
	clamp_host_range(&host, (unsigned int)c, &r);
	*min = r.min;
	*max = r.max;
}

/* MAX of the mins, MAX of the maxes; an empty CPU is [0, 1024]. */
/* A CPU is idle here when nothing is RUNNABLE on it. */
void impl_domain_range(int caller, unsigned int *min, unsigned int *max)
{
	const struct seed_cpu *others[IMPL_MAX_CPUS];
	bool idle[IMPL_MAX_CPUS];
	struct cap_clamp_range r;
	int c, n = 0, t;
	bool counted;

	counted = cap_clamp_domain_start(&r, core_cpu(caller));
	for (c = 0; c < nr_cpus; c++) {
		if (c == caller)
			continue;
		idle[n] = true;
		for (t = 0; t < IMPL_MAX_TASKS; t++)
			if (tasks[t].cpu == c)
				idle[n] = false;
		others[n] = &cpus[c].seed;
		counted |= cap_clamp_domain_add(&r, core_cpu(c), idle[n]);
		n++;
	}
	if (kind == IMPL_SEED) {
		seed_domain_range(&cpus[caller].seed, others, idle, n, min,
				  max);
		return;
	}
	*min = counted ? r.min : 0;
	*max = counted ? r.max : 1024;
}

void impl_brute_range(int c, unsigned int *min, unsigned int *max)
{
	bool any = false;
	int t;

	*min = 0;
	*max = 1024;
	for (t = 0; t < IMPL_MAX_TASKS; t++) {
		unsigned int gmin, gmax;

		if (tasks[t].cpu != c)
			continue;
		gmin = impl_group_value(tasks[t].grp, 0);
		gmax = impl_group_value(tasks[t].grp, 1);
		if (!any || gmin > *min)
			*min = gmin;
		if (!any || gmax > *max)
			*max = gmax;
		any = true;
	}
}

static int check_id;

static unsigned long seed_key(const struct rb_node *n)
{
	return rb_entry(n, struct seed_task,
			cap_clamp_node[check_id])->grp->cap_clamp[check_id];
}

const char *impl_check_trees(void)
{
	const char *why;
	int c, id, t;

	for (c = 0; c < nr_cpus; c++) {
		long queued = 0;

		for (t = 0; t < IMPL_MAX_TASKS; t++)
			queued += tasks[t].cpu == c;
		if (kind == IMPL_CORE) {
			why = agg_check(core_cpu(c));
			if (why)
				return why;
			if (core_cpu(c)->nr != queued)
				return "entity count differs from RUNNABLE count";
			continue;
		}
		for (id = 0; id < 2; id++) {
			long n;

			check_id = id;
			n = rb_check(&cpus[c].seed.cap_clamp_cpu[id].tree,
				     seed_key, &why);
			if (n < 0)
				return why;
			if (n != queued)
				return "tree size differs from RUNNABLE count";
		}
	}
	return NULL;
}

bool impl_hierarchy_valid(void)
{
	int g;

	for (g = 0; g < nr_groups; g++) {
		unsigned int mn = impl_group_value(g, 0);
		unsigned int mx = impl_group_value(g, 1);
		int p = groups[g].parent;

		if (mn > mx || mx > 1024)
			return false;
		if (p >= 0 && (mn < impl_group_value(p, 0) ||
			       mx > impl_group_value(p, 1)))
			return false;
	}
	return true;
}
