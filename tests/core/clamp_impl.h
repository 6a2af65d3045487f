/*
 * One small driver over two clamp implementations, the capsim core and the
 * seed model, so the same scenario runs against both. Groups and tasks are
 * small integers; group 0 is the root.
 */
#ifndef CAPSIM_TEST_CLAMP_IMPL_H
#define CAPSIM_TEST_CLAMP_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#define IMPL_MAX_CPUS 8
#define IMPL_MAX_GROUPS 32
#define IMPL_MAX_TASKS 128

enum impl_kind { IMPL_CORE, IMPL_SEED };

void impl_reset(enum impl_kind kind, int nr_cpus);
int impl_group_new(int parent);
/* Validate, apply and reposition the group's RUNNABLE tasks (task order). */
int impl_write(int grp, int clamp_id, uint64_t value);
void impl_enqueue(int task, int cpu, int grp);
void impl_dequeue(int task);
bool impl_queued(int task);
void impl_range(int cpu, unsigned int *min, unsigned int *max);
/* The range a shared domain of all CPUs gets when @caller asks. */
void impl_domain_range(int caller, unsigned int *min, unsigned int *max);
/* The range recomputed from scratch from the group values. */
void impl_brute_range(int cpu, unsigned int *min, unsigned int *max);
/* Invariants of every CPU aggregate (or seed tree); NULL when fine. */
const char *impl_check_trees(void);
unsigned int impl_group_value(int grp, int clamp_id);
int impl_task_group(int task);
bool impl_hierarchy_valid(void);

/*
 * Core only: CPUs for which a core call reported "range changed" since the
 * last reset of this mask, and write decisions on which the core and the
 * seed's patch-1 rules disagreed (values below 2^32, where they must not).
 */
extern unsigned long impl_changed_mask;
extern long impl_validation_disagreements;

/* The core's aggregator: an enum agg_backend, or -1 for the default. */
extern int impl_core_backend;

#endif
