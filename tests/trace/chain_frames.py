#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A chain's frames read from trace.txt by causality, by a reader of its
own (none of capsim's code): the first task's rt-app loops and timer, the
sched_waking each task of the chain gives the next (the waker is the
line's task, as in a kernel trace), each task's switch-out asleep, the
CPUs' cpu_frequency, rt-app's rtapp_main/rtapp_loop markers. Its jank %,
p95 latency, lost frames and per-frame stages are compared with capsim's
summary.json and chains.csv for the shipped chain workloads over several
seeds, one of which (traces/frame-90hz.json) loses resumes.

The rule (docs/simulator.md, "Chains and frames"), for the chains of
these workloads (a first task looping run ..., resume, timer; the others
suspend, run ..., and resume the next):
- T_k = origin + k * period, origin the first task's sched_wakeup_new.
- The first task passes its timer where its loop ends: its switch-out
  asleep, or the next loop's start marker if it did not sleep. rt-app's
  timer: the expiry it passes is the previous one + period (the first
  is the origin + period); a relative timer passed late restarts from
  the pass. Loop 0 works for frame 0, each later loop for the frame of
  the expiry its timer passed (period containing it), if later than the
  last one.
- A sched_waking of the next task by a task working for frame k hands
  it frame k; that task works for it until it switches out asleep. The
  last task's switch-out finishes the frame. A task that ends its work
  for frame k without waking the next lost frame k (its resume found the
  next task busy).
- Judged: T_k + deadline within the run (rtapp_main's end); late: not
  finished or after the deadline; jank % = late / judged; p95 by
  nearest rank over the finished judged frames.

Usage: chain_frames.py CAPSIM SRCDIR SCRATCH_DIR [SEEDS [WORKLOAD_SUBSTRING]]
"""
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys

LINE = re.compile(r'^\s*(?P<comm>.+)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?P<sec>\d+)\.(?P<usec>\d{6}): (?P<event>\w+): (?P<body>.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')

# (workload, platform, policy, timer mode of its first task)
CASES = [
    ('traces/frame-chain.json', 'sym4', 'uclamp', 'relative'),
    ('traces/frame-jank.json', 'sd855', 'uclamp', 'relative'),
    ('traces/frame-jank.json', 'juno-r0', 'rfc', 'relative'),
    ('traces/frame-chain.json', 'sd855', 'none', 'relative'),
    # render is slower than a period there: every other resume is lost
    ('traces/frame-chain.json', 'juno-r0', 'rfc', 'relative'),
    ('traces/frame-90hz.json', 'sd855', 'none', 'relative'),
    ('traces/frame-90hz.json', 'juno-r0', 'uclamp', 'relative'),
    ('tests/trace/chain-3stage.json', 'sd855', 'none', 'relative'),
]
# the case that must lose resumes (its seeds lose 4-18 frames in 10 s)
LOSES = 'traces/frame-90hz.json'


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def events(path):
    """(ts_ns, cpu, pid, event, fields, body) of each line"""
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            ts = (int(m['sec']) * 1000000 + int(m['usec'])) * 1000
            body = m['body']
            yield (ts, int(m['cpu']), int(m['pid']), m['event'],
                   dict(FIELD.findall(body)), body)


class Task:
    """One task of the chain: its running time and kHz-weighted time,
    the frame it works for"""

    def __init__(self, stage):
        self.stage = stage
        self.cpu = None         # running on, or None
        self.seg = 0            # since
        self.run = 0
        self.khz_ns = 0.0
        self.frame = None       # the frame it works for
        self.snap = None        # (run, khz_ns) when it began
        self.wake = None        # its latest sched_wakeup
        self.wlat_open = False


class Reader:
    def __init__(self, tasks, period_ns, deadline_ns, mode):
        self.names = tasks
        self.P = period_ns
        self.dl = deadline_ns
        self.relative = mode == 'relative'
        self.pid = {}           # pid -> Task
        self.byname = {}
        self.freq = {}          # cpu -> kHz
        self.frames = {}        # k -> frame dict
        self.last_k = None
        self.t0 = None
        self.end = None
        self.origin = None
        self.nxt = None         # the first task's timer: next expiry
        self.pending = None     # frame its next wake-up begins
        self.in_loop = False    # its loop's timer not passed yet

    # running time, split at every frequency change of its CPU
    def account(self, t, ts):
        if t.cpu is not None:
            t.run += ts - t.seg
            t.khz_ns += (ts - t.seg) * self.freq.get(t.cpu, 0)
            t.seg = ts

    def begin(self, t, k, ts, slept):
        f = self.frames[k]
        self.account(t, ts)
        t.frame = k
        t.snap = (t.run, t.khz_ns)
        t.wlat_open = slept
        f['stages'][t.stage] = {'wake': ts, 'wlat': 0, 'done': False}

    def end_stage(self, t, ts, cpu):
        self.account(t, ts)
        f = self.frames[t.frame]
        st = f['stages'][t.stage]
        run = t.run - t.snap[0]
        st.update(done=True, end=ts, cpu=cpu, run=run,
                  khz=(t.khz_ns - t.snap[1]) / run if run else 0)
        nxt = t.stage + 1
        if nxt < len(self.names) and nxt not in f['stages']:
            f['lost'] = True
        if nxt == len(self.names) and f['done'] is None:
            f['done'] = ts
        t.frame = None

    def first_begins(self, t, k, ts, slept):
        if self.last_k is not None and k <= self.last_k:
            return
        self.last_k = k
        self.frames[k] = {'stages': {}, 'done': None, 'lost': False}
        self.begin(t, k, ts, slept)

    def timer_pass(self, t, ts, cpu, slept):
        """the first task passes its timer at @ts"""
        self.in_loop = False
        if t.frame is not None:
            self.end_stage(t, ts, cpu)
        self.nxt += self.P
        k = (self.nxt - self.origin) // self.P
        if self.relative and ts >= self.nxt:
            self.nxt = ts
        if slept:
            self.pending = k
        else:
            self.first_begins(t, k, ts, False)

    def feed(self, ts, cpu, pid, ev, fl, body):
        if ev == 'tracing_mark_write':
            if body.startswith('rtapp_main: event=start'):
                self.t0 = ts
            elif body.startswith('rtapp_main: event=end'):
                self.end = ts - self.t0
            elif body.startswith('rtapp_loop: event=start'):
                t = self.pid.get(pid)
                if t and t.stage == 0:
                    if self.in_loop:        # passed without sleeping
                        self.timer_pass(t, ts - self.t0, cpu, False)
                    self.in_loop = True
            return
        if self.t0 is None:
            return
        ts -= self.t0
        if ev == 'sched_wakeup_new' and fl.get('comm') in self.names:
            name = fl['comm']
            t = Task(self.names.index(name))
            self.pid[int(fl['pid'])] = self.byname[name] = t
            t.wake = ts
            if t.stage == 0:
                self.origin = self.nxt = ts
                self.first_begins(t, 0, ts, True)
        elif ev == 'cpu_frequency':
            c = int(fl['cpu_id'])
            for t in self.pid.values():
                if t.cpu == c:
                    self.account(t, ts)
            self.freq[c] = int(fl['state'])
        elif ev == 'sched_waking':
            w = self.pid.get(int(fl['pid']))
            waker = self.pid.get(pid)
            if (w and waker and waker.frame is not None and
                    w.stage == waker.stage + 1 and w.frame is None and
                    w.stage not in self.frames[waker.frame]['stages']):
                self.begin(w, waker.frame, ts, True)
        elif ev == 'sched_wakeup':
            t = self.pid.get(int(fl['pid']))
            if t:
                t.wake = ts
                if t.stage == 0 and self.pending is not None:
                    k, self.pending = self.pending, None
                    self.first_begins(t, k, ts, True)
        elif ev == 'sched_switch':
            prev = self.pid.get(int(fl['prev_pid']))
            nxt = self.pid.get(int(fl['next_pid']))
            if prev:
                self.account(prev, ts)
                prev.cpu = None
                if fl['prev_state'][0] != 'R':
                    # asleep: the first task at its timer, the others
                    # at the end of their part
                    if prev.stage == 0:
                        self.timer_pass(prev, ts, cpu, True)
                    elif prev.frame is not None:
                        self.end_stage(prev, ts, cpu)
            if nxt:
                nxt.cpu = cpu
                nxt.seg = ts
                if nxt.frame is not None and nxt.wlat_open:
                    nxt.wlat_open = False
                    st = self.frames[nxt.frame]['stages'][nxt.stage]
                    st['wlat'] = ts - st['wake']

    def results(self):
        judged = 0
        if self.origin is not None and self.end >= self.origin + self.dl:
            judged = (self.end - self.origin - self.dl) // self.P + 1
        rows, lat, on_time, lost = {}, [], 0, 0
        for k in range(judged):
            f = self.frames.get(k)
            trig = self.origin + k * self.P
            done = f['done'] if f else None
            late = done is None or done > trig + self.dl
            rows[k] = (done, late, bool(f and f['lost'] and done is None),
                       f['stages'] if f else {})
            if done is not None:
                lat.append(done - trig)
                on_time += not late
            lost += rows[k][2]
        lat.sort()
        p95 = lat[math.ceil(0.95 * len(lat)) - 1] if lat else None
        return {'judged': judged, 'late': judged - on_time, 'lost': lost,
                'jank_pct': 100.0 * (judged - on_time) / judged if judged else 0,
                'p95_ns': p95, 'rows': rows}


def read_chain(trace, chain, mode):
    r = Reader(chain['tasks'], chain['period_us'] * 1000,
               chain['deadline_us'] * 1000, mode)
    for e in events(trace):
        r.feed(*e)
    return r.results()


def ms(s):
    return None if s == '' else round(float(s) * 1e6)


def compare_rows(name, got, dl, csv_path, out):
    """per frame: late, lost, latency, each stage's CPU, wake-up latency,
    run time and kHz; the counts of frames that differ, in @out"""
    with open(csv_path, newline='') as f:
        rows = [r for r in csv.DictReader(f) if r['chain'] == name]
    if len(rows) != got['judged']:
        fail(f'{csv_path}: {len(rows)} rows, the reader judged {got["judged"]}')
    for r in rows:
        done, late, lost, stages = got['rows'][int(r['period'])]
        bad = []
        d = ms(r['done_ms'])
        # the trace has microseconds, chains.csv nanoseconds: a frame
        # done within 1 us after its deadline is on time in the trace
        if int(r['late']) != late and not (
                d is not None and 0 < d - (ms(r['trigger_ms']) + dl) < 1000):
            bad.append('late')
        if int(r['lost']) != lost:
            bad.append('lost')
        if (d is None) != (done is None) or (d is not None and
                                             abs(d - done) >= 1000):
            bad.append('done')
        for s, st in stages.items():
            if not st['done'] or r[f'stage{s}_end_ms'] == '':
                continue
            if int(r[f'stage{s}_cpu']) != st['cpu']:
                bad.append(f'stage{s}_cpu')
            if abs(ms(r[f'stage{s}_run_ms']) - st['run']) > 2000:
                bad.append(f'stage{s}_run')
            if abs(ms(r[f'stage{s}_wlat_ms']) - st['wlat']) > 2000:
                bad.append(f'stage{s}_wlat')
            khz = float(r[f'stage{s}_khz'])
            if st['run'] > 50000 and abs(khz - st['khz']) > 0.01 * khz + 1:
                bad.append(f'stage{s}_khz')
        for b in bad:
            out[b] = out.get(b, 0) + 1
        if bad and out.setdefault('_first', None) is None:
            out['_first'] = f'frame {r["period"]}: {bad}: csv {r} reader {got["rows"][int(r["period"])]}'


def main():
    capsim, src, scratch = sys.argv[1:4]
    nseeds = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    only = sys.argv[5] if len(sys.argv) > 5 else ''
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    lost_seen = 0
    print('workload platform policy seed chain: capsim jank p95 lost | reader jank p95 lost')
    for wl, plat, pol, mode in (c for c in CASES if only in c[0]):
        for seed in range(1, nseeds + 1):
            out = os.path.join(scratch, f'{os.path.basename(wl)}-{plat}-{pol}-{seed}')
            p = subprocess.run([capsim, 'run', os.path.join(src, wl), '--platform', plat,
                                '--policy', pol, '--seed', str(seed), '-o', out, '--quiet'],
                               capture_output=True, text=True)
            if p.returncode:
                fail(f'{wl} seed {seed}: exit {p.returncode}: {p.stderr}')
            summ = json.load(open(os.path.join(out, 'summary.json')))
            if not summ.get('chains'):
                fail(f'{wl}: no chain in summary.json')
            for name, ch in summ['chains'].items():
                got = read_chain(os.path.join(out, 'trace.txt'), ch, mode)
                cj, cp = ch['jank_pct'], ch['latency_us']['p95']
                cl = ch.get('lost_resumes')
                rp = got['p95_ns'] / 1000 if got['p95_ns'] is not None else None
                print(f'{wl} {plat} {pol} {seed} {name}: {cj:.2f} {cp} {cl} | '
                      f'{got["jank_pct"]:.2f} {rp} {got["lost"]}')
                if ch['periods'] != got['judged']:
                    fail(f'{name}: {ch["periods"]} periods judged, the reader {got["judged"]}')
                if abs(cj - got['jank_pct']) > 1:
                    fail(f'{wl} seed {seed}: jank {cj} %, by causality {got["jank_pct"]:.2f} %')
                if (cp is None) != (rp is None) or (rp and abs(cp - rp) > 0.05 * rp):
                    fail(f'{wl} seed {seed}: p95 {cp} us, by causality {rp} us')
                if cl != got['lost']:
                    fail(f'{wl} seed {seed}: lost_resumes {cl}, by causality {got["lost"]}')
                if got['lost']:
                    warn = [w for w in summ['warnings'] if f'chain {name}: {cl} of ' in w]
                    if not warn:
                        fail(f'{wl} seed {seed}: {cl} frames lost and no warning: {summ["warnings"]}')
                if wl == LOSES:
                    lost_seen += got['lost']
                diffs = {}
                compare_rows(name, got, ch['deadline_us'] * 1000,
                             os.path.join(out, 'chains.csv'), diffs)
                first = diffs.pop('_first', None)
                if diffs:
                    fail(f'{wl} seed {seed}: chains.csv rows differ from the reader: {diffs}; {first}')
            shutil.rmtree(out)
    if not lost_seen and only in LOSES:
        fail(f'{LOSES} lost no resume in {nseeds} seeds')
    print(f'ok: every chain agrees with the causal reader; {LOSES}: {lost_seen} frames lost')


if __name__ == '__main__':
    main()
