#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A synthetic ftrace text trace of N tasks for `capsim import`'s scale
(bench/bench_import_scale.sh, tests/import/run.sh's `bounded` case).

usage: gen_import_trace.py N OUT [--dup] [--groups G]

Every task runs once on one of sym4's 4 CPUs: woken by an interrupt, it
runs 40 us and sleeps, the next task of that CPU switching in as it
leaves; the CPUs take turns so the trace is in time order. A task's comm
is `w<i>`; with --dup every pair of tasks shares one (`w<i/2>`), which
makes the import name both COMM-PID. With --groups G, the first G tasks
are each enqueued in a group of their own (`cap_clamp_enqueue`) that a
`cap_clamp_write` before them configured (path /g<k>, capacity_max 512).
The window is N x 10 us long (10 s at 10^6): under an hour, the longest
window an import takes.
"""
import sys


def main():
    args = sys.argv[1:]
    dup = "--dup" in args
    groups = 0
    if "--groups" in args:
        groups = int(args[args.index("--groups") + 1])
        del args[args.index("--groups"):args.index("--groups") + 2]
    args = [a for a in args if a != "--dup"]
    if len(args) != 2:
        sys.exit(__doc__)
    n, out = int(args[0]), args[1]
    ncpu = 4
    t = 1_000_000  # us
    prev = ["swapper/%d" % c for c in range(ncpu)]
    prev_pid = [0] * ncpu
    with open(out, "w", buffering=1 << 20) as f:
        w = f.write
        w("# tracer: nop\n#\n")
        for c in range(ncpu):
            w("          <idle>-0     [%03d] d..2. %d.%06d: cpu_frequency: "
              "state=2500000 cpu_id=%d\n" % (c, t // 10**6, t % 10**6, c))
        for k in range(groups):
            w("          <idle>-0     [000] d..2. %d.%06d: cap_clamp_write: "
              "group=%d path=/g%d attr=capacity_max value=512 ret=0 "
              "min=0 max=512\n" % (t // 10**6, t % 10**6, k + 1, k))
        for i in range(n):
            c = i % ncpu
            pid = 1000 + i
            comm = "w%d" % (i // 2 if dup else i)
            ts = "%d.%06d" % (t // 10**6, t % 10**6)
            if i < groups:
                w("          <idle>-0     [%03d] d..2. %s: cap_clamp_enqueue: "
                  "pid=%d group=%d\n" % (c, ts, pid, i + 1))
            w("          <idle>-0     [%03d] d.h2. %s: sched_wakeup: "
              "comm=%s pid=%d prio=120 target_cpu=%03d\n" % (c, ts, comm, pid, c))
            w("%16s-%-5d [%03d] d..2. %s: sched_switch: prev_comm=%s "
              "prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s "
              "next_pid=%d next_prio=120\n"
              % (prev[c][:16], prev_pid[c], c, ts, prev[c], prev_pid[c],
                 "S" if prev_pid[c] else "R", comm, pid))
            prev[c], prev_pid[c] = comm, pid
            t += 10
        # the last task of each CPU leaves 40 us after it came in
        t += 40
        ts = "%d.%06d" % (t // 10**6, t % 10**6)
        for c in range(ncpu):
            w("%16s-%-5d [%03d] d..2. %s: sched_switch: prev_comm=%s "
              "prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d "
              "next_pid=0 next_prio=120\n"
              % (prev[c][:16], prev_pid[c], c, ts, prev[c], prev_pid[c], c))


if __name__ == "__main__":
    main()
