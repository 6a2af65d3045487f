#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An independent reading of a Perfetto protobuf trace's schedule, to set
beside capsim's (src/trace/perfetto_reader.c): its own decoding of
protobuf's wire format (stdlib only, no protobuf package, nothing of
capsim's), the field numbers of Perfetto's schema, and the schedule rebuilt
from sched_switch (full and compact_sched) the plain way:

- a task runs from the switch that puts it on a CPU to the switch that
  takes it off (a compact switch's prev is the task the CPU's previous
  switch put there), or to its next switch-in elsewhere if the trace lost
  that switch-out (a task runs on one CPU at a time); before a CPU's first
  switch nobody is known to run on it;
- the window is the first to the last scheduling event;
- activations are the task's sched_wakeup / sched_wakeup_new, or, in a
  trace with none, its sched_waking (import-check's rule,
  docs/import-check.md);
- a row per name: the last of the distinct comms its pid had (from
  switches and wake-ups, in the order first seen, at most 8, "<...>"
  none), pids of one name added up; pid 0 (idle) left out.

Prints one line per name: NAME busy_ns activations pids, sorted by name;
--json: the same as JSON; --prints: the number of ftrace print events
(trace_marker's) instead. Usage: pftrace_sched.py [--json|--prints] TRACE
"""
import json
import sys


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7f) << s
        s += 7
        if not c & 0x80:
            return r, i


def signed(v, bits=64):
    return v - (1 << 64) if v >= 1 << 63 else v


def fields(b):
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        f, wt = k >> 3, k & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise ValueError('wire type %d' % wt)
        yield f, wt, v


def packed(v):
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def message(b):
    """field -> list of values"""
    m = {}
    for f, wt, v in fields(b):
        m.setdefault(f, []).append((wt, v))
    return m


def one(m, f, default=None):
    return m[f][-1][1] if f in m else default


def ints(m, f):
    out = []
    for wt, v in m.get(f, []):
        out += packed(v) if wt == 2 else [v]
    return out


def events(data):
    """(ts, cpu, kind, fields) of every scheduling event"""
    out = []
    for _, _, pkt in fields(data):
        p = message(pkt)
        if 1 not in p:
            continue
        for _, bundle in p[1]:
            b = message(bundle)
            cpu = one(b, 1, 0)
            for _, ev in b.get(2, []):
                e = message(ev)
                ts = one(e, 1)
                for f, kind in ((4, 'switch'), (17, 'wakeup'),
                                (114, 'wakeup_new'), (20, 'waking')):
                    if f not in e:
                        continue
                    s = message(one(e, f))
                    if kind == 'switch':
                        out.append((ts, cpu, 'switch', {
                            'prev_pid': signed(one(s, 2, 0)),
                            'prev_comm': one(s, 1, b'').decode(),
                            'next_pid': signed(one(s, 6, 0)),
                            'next_comm': one(s, 5, b'').decode()}))
                    else:
                        out.append((ts, cpu, kind, {
                            'pid': signed(one(s, 2, 0)),
                            'comm': one(s, 1, b'').decode()}))
            if 4 in b:
                c = message(one(b, 4))
                table = [v.decode() for _, v in c.get(5, [])]
                ts = 0
                for d, pid, ci in zip(ints(c, 1), ints(c, 3), ints(c, 6)):
                    ts += d
                    out.append((ts, cpu, 'cswitch',
                                {'next_pid': signed(pid),
                                 'next_comm': table[ci]}))
                ts = 0
                for d, pid, ci in zip(ints(c, 7), ints(c, 8), ints(c, 11)):
                    ts += d
                    out.append((ts, cpu, 'waking',
                                {'pid': signed(pid), 'comm': table[ci]}))
    return out


def schedule(data):
    evs = sorted(events(data), key=lambda e: (e[0], e[1]))
    if not evs:
        return {}
    t0, t1 = evs[0][0], evs[-1][0]
    wakeups = any(e[2] in ('wakeup', 'wakeup_new') for e in evs)
    on_cpu = {}                 # cpu -> the pid its last switch put there
    since = {}                  # pid -> when it began to run
    busy, acts, names = {}, {}, {}

    def name(pid, comm):
        n = names.setdefault(pid, [])
        if pid > 0 and comm and comm != '<...>' and comm not in n and len(n) < 8:
            n.append(comm)

    def stop(pid, ts):
        if pid in since:
            busy[pid] = busy.get(pid, 0) + ts - since.pop(pid)

    for ts, cpu, kind, f in evs:
        if kind in ('switch', 'cswitch'):
            prev = f['prev_pid'] if kind == 'switch' else on_cpu.get(cpu, 0)
            if kind == 'switch':
                name(prev, f['prev_comm'])
            if prev > 0:
                stop(prev, ts)
            nxt = on_cpu[cpu] = f['next_pid']
            if nxt > 0:
                name(nxt, f['next_comm'])
                stop(nxt, ts)
                since[nxt] = ts
                busy.setdefault(nxt, 0)
        else:
            if f['pid'] > 0:
                name(f['pid'], f['comm'])
            if (kind == 'waking') != wakeups and f['pid'] > 0:
                acts[f['pid']] = acts.get(f['pid'], 0) + 1
    for pid in list(since):
        stop(pid, t1)
    rows = {}
    for pid in set(busy) | set(acts):
        n = names.get(pid)
        r = rows.setdefault(n[-1] if n else '?', [0, 0, 0])
        r[0] += busy.get(pid, 0)
        r[1] += acts.get(pid, 0)
        r[2] += 1
    return {'window_ns': t1 - t0, 'tasks': rows}


def prints(data):
    n = 0
    for _, _, pkt in fields(data):
        for _, bundle in message(pkt).get(1, []):
            n += sum(1 for _, ev in message(bundle).get(2, [])
                     if 3 in message(ev))
    return n


def main():
    js = sys.argv[1] == '--json'
    with open(sys.argv[-1], 'rb') as f:
        data = f.read()
    if sys.argv[1] == '--prints':
        print(prints(data))
        return
    s = schedule(data)
    if js:
        json.dump(s, sys.stdout, indent=1, sort_keys=True)
        return
    for n in sorted(s['tasks']):
        print(n, *s['tasks'][n])


if __name__ == '__main__':
    main()
