#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write an ftrace text trace (capsim's trace.txt, the kernel's trace) as a
Perfetto protobuf trace, the way traced lays one out, with nothing but
protobuf's wire format (protobuf.dev, "Encoding") and the field numbers of
Perfetto's schema (src/trace/perfetto/capsim_perfetto.proto says where each
comes from): no protobuf package, no Perfetto.

The events are written as traced writes them: one FtraceEventBundle per
CPU per drain (every --drain-ms of trace time, CPU after CPU, so the CPUs'
events interleave across packets and the reader has to merge them back),
sched_switch / sched_wakeup* / sched_migrate_task / cpu_frequency /
cpu_idle / task_newtask / task_rename as their own protos, a
tracing_mark_write as ftrace's print, every other event as a generic one
with its fields. With --compact, sched_switch and sched_waking go into the
bundle's compact_sched arrays wherever the reader can rebuild them exactly
(a switch out of the task the CPU's previous switch put on it, a waking by
the task running on the CPU), the others stay full events; a bundle is
closed early where the reader's order at one timestamp (full events,
wakings, switches) would differ from the text's. --process-tree writes a
ProcessTree first with each pid's first comm. --compress writes each
drain's packets deflate-compressed in one packet's compressed_packets,
as traced does with compression_type DEFLATE.

Usage: to_perfetto.py [--compact] [--process-tree] [--compress]
                      [--drain-ms N] IN.txt OUT
"""
import argparse
import re
import sys
import zlib

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+'
                  r'(?:\S+\s+)?(\d+)\.(\d+):\s+([^:\s]+):\s?(.*)$')

STATE_BITS = {'S': 1, 'D': 2, 'T': 4, 't': 8, 'X': 16, 'Z': 32, 'P': 64,
              'I': 128}


def varint(v):
    v &= (1 << 64) - 1          # negative int32/int64: ten bytes
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wt):
    return varint(field << 3 | wt)


def f_varint(field, v):
    return key(field, 0) + varint(v)


def f_bytes(field, b):
    if isinstance(b, str):
        b = b.encode()
    return key(field, 2) + varint(len(b)) + b


def f_packed(field, values):
    return f_bytes(field, b''.join(varint(v) for v in values))


def split_fields(body):
    """key=value pairs as capsim's reader splits them (ftrace.c)"""
    out = []
    for tok in body.split():
        if tok == '==>':
            continue
        k, eq, v = tok.partition('=')
        if not eq or not k:
            if out:
                out[-1][1] += ' ' + tok
            continue
        out.append([k, v])
    return out


def state_number(s):
    n = 0
    for c in s.rstrip('+'):
        if c == 'R':
            continue
        if c == '|':
            continue
        n |= STATE_BITS[c]
    return n | (0x100 if s.endswith('+') else 0)


def num(v):
    return int(v, 0) if v.startswith('0x') else int(v)


def wakeup(f):
    return (f_bytes(1, f['comm']) + f_varint(2, num(f['pid'])) +
            f_varint(3, num(f['prio'])) + f_varint(5, num(f['target_cpu'])))


def generic(name, fields):
    out = f_bytes(1, name)
    for k, v in fields:
        fb = f_bytes(1, k)
        if re.fullmatch(r'-?\d+', v) and -2**63 <= int(v) < 2**63:
            fb += f_varint(4, int(v))
        elif re.fullmatch(r'\d+', v) and int(v) < 2**64:
            fb += f_varint(5, int(v))
        else:
            fb += f_bytes(3, v)
        out += f_bytes(2, fb)
    return out


def full_event(ts, pid, name, body):
    """an FtraceEvent's bytes"""
    f = dict(split_fields(body))
    head = f_varint(1, ts) + f_varint(2, pid)
    if name == 'sched_switch':
        sw = (f_bytes(1, f['prev_comm']) + f_varint(2, num(f['prev_pid'])) +
              f_varint(3, num(f['prev_prio'])) +
              f_varint(4, state_number(f['prev_state'])) +
              f_bytes(5, f['next_comm']) + f_varint(6, num(f['next_pid'])) +
              f_varint(7, num(f['next_prio'])))
        return head + f_bytes(4, sw)
    if name in ('sched_wakeup', 'sched_waking', 'sched_wakeup_new'):
        return head + f_bytes({'sched_wakeup': 17, 'sched_waking': 20,
                               'sched_wakeup_new': 114}[name], wakeup(f))
    if name == 'sched_migrate_task':
        m = (f_bytes(1, f['comm']) + f_varint(2, num(f['pid'])) +
             f_varint(3, num(f['prio'])) + f_varint(4, num(f['orig_cpu'])) +
             f_varint(5, num(f['dest_cpu'])))
        return head + f_bytes(491, m)
    if name in ('cpu_frequency', 'cpu_idle'):
        e = f_varint(1, num(f['state'])) + f_varint(2, num(f['cpu_id']))
        return head + f_bytes(11 if name == 'cpu_frequency' else 13, e)
    if name == 'task_newtask':
        t = (f_varint(1, num(f['pid'])) + f_bytes(2, f['comm']) +
             f_varint(3, int(f['clone_flags'], 16)) +
             f_varint(4, num(f['oom_score_adj'])))
        return head + f_bytes(235, t)
    if name == 'task_rename':
        t = (f_varint(1, num(f['pid'])) + f_bytes(2, f['oldcomm']) +
             f_bytes(3, f['newcomm']) + f_varint(4, num(f['oom_score_adj'])))
        return head + f_bytes(236, t)
    if name == 'tracing_mark_write':
        return head + f_bytes(3, f_varint(1, 0) + f_bytes(2, body + '\n'))
    return head + f_bytes(327, generic(name, split_fields(body)))


class Bundle:
    """One CPU's bundle being filled"""
    # the reader's order at one timestamp: full events, wakings, switches
    RANK = {'full': 0, 'waking': 1, 'switch': 2}

    def __init__(self, cpu):
        self.cpu = cpu
        self.events = []
        self.sw = []            # (ts, prev_state, next_pid, prio, comm)
        self.wk = []            # (ts, pid, target_cpu, prio, comm)
        self.last = None        # (ts, rank) of the last event put

    def fits(self, ts, kind):
        return (self.last is None or ts > self.last[0] or
                self.RANK[kind] >= self.last[1])

    def put(self, ts, kind, item):
        {'full': self.events, 'waking': self.wk, 'switch': self.sw}[kind].append(item)
        self.last = (ts, self.RANK[kind])

    def empty(self):
        return not (self.events or self.sw or self.wk)

    def packet(self):
        b = f_varint(1, self.cpu)
        for e in self.events:
            b += f_bytes(2, e)
        if self.sw or self.wk:
            table, index = [], {}

            def intern(s):
                if s not in index:
                    index[s] = len(table)
                    table.append(s)
                return index[s]

            def deltas(ts):
                return [t - (ts[i - 1] if i else 0) for i, t in enumerate(ts)]
            c = b''
            if self.sw:
                c += f_packed(1, deltas([s[0] for s in self.sw]))
                c += f_packed(2, [s[1] for s in self.sw])
                c += f_packed(3, [s[2] for s in self.sw])
                c += f_packed(4, [s[3] for s in self.sw])
                c += f_packed(6, [intern(s[4]) for s in self.sw])
            if self.wk:
                c += f_packed(7, deltas([w[0] for w in self.wk]))
                c += f_packed(8, [w[1] for w in self.wk])
                c += f_packed(9, [w[2] for w in self.wk])
                c += f_packed(10, [w[3] for w in self.wk])
                c += f_packed(11, [intern(w[4]) for w in self.wk])
            c += b''.join(f_bytes(5, s) for s in table)
            b += f_bytes(4, c)
        return f_bytes(1, f_bytes(1, b) + f_varint(10, 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--compact', action='store_true')
    ap.add_argument('--process-tree', action='store_true')
    ap.add_argument('--compress', action='store_true')
    ap.add_argument('--drain-ms', type=float, default=20.0)
    ap.add_argument('input')
    ap.add_argument('output')
    a = ap.parse_args()
    drain = int(a.drain_ms * 1e6)
    out = bytearray()
    bundles = {}                # cpu -> Bundle
    order = []                  # packets of this drain, in order
    cur = {}                    # cpu -> (pid, comm, prio) switched in
    names = {}
    next_drain = None

    def flush():
        for cpu in sorted(bundles):
            if not bundles[cpu].empty():
                order.append(bundles[cpu].packet())
        bundles.clear()
        if a.compress and order:
            out.extend(f_bytes(1, f_bytes(50, zlib.compress(b''.join(order)))))
        else:
            out.extend(b''.join(order))
        order.clear()

    with open(a.input) as f:
        for line in f:
            if line.lstrip().startswith('#') or not line.strip():
                continue
            m = LINE.match(line.rstrip('\n'))
            if not m:
                sys.exit('to_perfetto.py: %s: not an ftrace line: %s' %
                         (a.input, line.strip()))
            comm, pid, cpu = m.group(1).strip(), int(m.group(2)), int(m.group(3))
            ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, '0')[:9])
            name, body = m.group(6), m.group(7)
            if next_drain is None:
                next_drain = ts + drain
            while ts >= next_drain:
                flush()
                next_drain += drain
            names.setdefault(pid, comm)
            b = bundles.setdefault(cpu, Bundle(cpu))
            kind, item = 'full', None
            fd = dict(split_fields(body))
            if a.compact and name == 'sched_switch':
                prev = (num(fd['prev_pid']), fd['prev_comm'], num(fd['prev_prio']))
                if cur.get(cpu) == prev and pid == prev[0]:
                    kind = 'switch'
                    item = (ts, state_number(fd['prev_state']),
                            num(fd['next_pid']), num(fd['next_prio']),
                            fd['next_comm'])
            elif a.compact and name == 'sched_waking':
                if cpu in cur and cur[cpu][0] == pid:
                    kind = 'waking'
                    item = (ts, num(fd['pid']), num(fd['target_cpu']),
                            num(fd['prio']), fd['comm'])
            if name == 'sched_switch':
                cur[cpu] = (num(fd['next_pid']), fd['next_comm'],
                            num(fd['next_prio']))
            if kind == 'full':
                item = full_event(ts, pid, name, body)
            if not b.fits(ts, kind):
                order.append(b.packet())
                b = bundles[cpu] = Bundle(cpu)
            b.put(ts, kind, item)
    flush()
    head = b''
    if a.process_tree:
        tree = b''.join(f_bytes(2, f_varint(1, p) + f_bytes(2, c))
                        for p, c in sorted(names.items()) if p > 0)
        head = f_bytes(1, f_bytes(2, tree) + f_varint(10, 2))
    with open(a.output, 'wb') as f:
        f.write(head + bytes(out))


if __name__ == '__main__':
    main()
