#include <string.h>

#include <linux/sched/cap_clamp.h>
#include "agg_check.h"
#include "clamp_impl.h"
#include "rb_check.h"
#include "seed_model.h"

static enum impl_kind kind;
static int nr_cpus, nr_groups;

static struct {
	struct cap_clamp_cpu cc;
	struct seed_cpu seed;
	raw_spinlock_t lock;
} cpus[IMPL_MAX_CPUS];

static struct {
	int parent;
	struct cap_clamp_group cg;
	struct seed_group seed;
} groups[IMPL_MAX_GROUPS];

static struct {
	int grp, cpu;		/* cpu: -1 when not RUNNABLE */
	struct cap_clamp_se se;
	struct seed_task seed;
} tasks[IMPL_MAX_TASKS];

static struct mutex group_lock;

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
	mutex_init(&group_lock);
	for (i = 0; i < IMPL_MAX_CPUS; i++) {
		if (impl_core_backend < 0)
			cap_clamp_cpu_init(&cpus[i].cc);
		else
			agg_init(&cpus[i].cc, impl_core_backend);
		seed_cpu_init(&cpus[i].seed);
		raw_spin_lock_init(&cpus[i].lock);
	}
	groups[0].parent = -1;
	cap_clamp_group_init_root(&groups[0].cg);
	groups[0].seed.cap_clamp[0] = 0;
	groups[0].seed.cap_clamp[1] = 1024;
	for (i = 0; i < IMPL_MAX_TASKS; i++) {
		tasks[i].cpu = -1;
		cap_clamp_se_init(&tasks[i].se);
		seed_task_init(&tasks[i].seed, &groups[0].seed);
	}
}

int impl_group_new(int parent)
{
	int g = nr_groups++;

	groups[g].parent = parent;
	mutex_lock(&group_lock);
	cap_clamp_group_link(&groups[g].cg, &groups[parent].cg, &group_lock);
	mutex_unlock(&group_lock);
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

		mutex_lock(&group_lock);
		ret = cap_clamp_group_write(&groups[g].cg, id, value,
					    &group_lock);
		mutex_unlock(&group_lock);
		/* The seed's hierarchy shadows the core's, write for write. */
		seed_ret = seed_group_write(&groups[g].seed, id, value,
					    children, n);
		if (value < (1ull << 32) && seed_ret != ret)
			impl_validation_disagreements++;
		groups[g].seed.cap_clamp[id] = groups[g].cg.value[id];
	} else {
		ret = seed_group_write(&groups[g].seed, id, value, children, n);
	}
	if (ret)
		return ret;

	for (i = 0; i < IMPL_MAX_TASKS; i++) {
		if (tasks[i].grp != g)
			continue;
		if (kind == IMPL_SEED) {
			seed_update_capacity(&tasks[i].seed, id);
		} else if (tasks[i].cpu >= 0) {
			int c = tasks[i].cpu;

			raw_spin_lock(&cpus[c].lock);
			if (cap_clamp_update(&cpus[c].cc, &tasks[i].se,
					     &groups[g].cg, &cpus[c].lock))
				impl_changed_mask |= 1ul << c;
			raw_spin_unlock(&cpus[c].lock);
		}
	}
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
	raw_spin_lock(&cpus[c].lock);
	if (cap_clamp_enqueue(&cpus[c].cc, &tasks[t].se, &groups[g].cg,
			      &cpus[c].lock))
		impl_changed_mask |= 1ul << c;
	raw_spin_unlock(&cpus[c].lock);
}

void impl_dequeue(int t)
{
	int c = tasks[t].cpu;

	tasks[t].cpu = -1;
	if (kind == IMPL_SEED) {
		seed_dequeue_task(&cpus[c].seed, &tasks[t].seed);
		return;
	}
	raw_spin_lock(&cpus[c].lock);
	if (cap_clamp_dequeue(&cpus[c].cc, &tasks[t].se, &cpus[c].lock))
		impl_changed_mask |= 1ul << c;
	raw_spin_unlock(&cpus[c].lock);
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
	return kind == IMPL_CORE ? groups[g].cg.value[id] :
	       groups[g].seed.cap_clamp[id];
}

void impl_range(int c, unsigned int *min, unsigned int *max)
{
	struct cap_clamp_range r;

	if (kind == IMPL_SEED) {
		seed_cpu_range(&cpus[c].seed, min, max);
		return;
	}
	cap_clamp_cpu_range(&cpus[c].cc, &r);
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

	counted = cap_clamp_domain_start(&r, &cpus[caller].cc);
	for (c = 0; c < nr_cpus; c++) {
		if (c == caller)
			continue;
		idle[n] = true;
		for (t = 0; t < IMPL_MAX_TASKS; t++)
			if (tasks[t].cpu == c)
				idle[n] = false;
		others[n] = &cpus[c].seed;
		counted |= cap_clamp_domain_add(&r, &cpus[c].cc, idle[n]);
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
			why = agg_check(&cpus[c].cc);
			if (why)
				return why;
			if (cpus[c].cc.nr != queued)
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
