/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Busy work in the guest. QEMU runs at the same speed whatever the virtual
 * frequency and whatever the virtual CPU's capacity, so fixed work ("run")
 * is stretched here: the caller spins in slices of its own CPU time and
 * credits each slice with slice * capacity * cur_freq / (1024 * max_freq)
 * of the CPU it ran on, i.e. work as measured on a capacity-1024 CPU at its
 * top OPP (the simulator's definition of "run").
 */
#ifndef CAPSIM_GUEST_WORK_H
#define CAPSIM_GUEST_WORK_H

#include <stdint.h>
#include <time.h>

#define WORK_MAX_CPUS 64

long long now_ns(clockid_t clk);
void sleep_until_ns(long long t);

/* Open the per-CPU frequency files and read capacities and top OPPs */
void work_init(void);
/* Work rate of @cpu now, in 1/1024ths of a capacity-1024 CPU at fmax */
unsigned int work_rate(int cpu);
/* "run": @us of work; returns the CPU time it took, in ns */
long long work_run(uint64_t us);
/* "runtime": busy for @us of wall time; returns the CPU time, in ns */
long long work_runtime(uint64_t us);

#endif
