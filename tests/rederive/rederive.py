#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Recompute summary.json's figures from a run's trace.txt and
activations.csv, with rules taken from docs/simulator.md ("Outputs") and
docs/outputs.md, never from capsim's code: a figure whose code applies a
wrong rule fails here even when capsim agrees with itself.

Usage: rederive.py RUN_DIR PLATFORM.json   (capsim platform show NAME)
Prints one line per figure that disagrees and exits 1 if any does.

What each figure is, as the docs define it:
- a CPU is busy while a task other than the idle task (pid 0) runs on
  it, from the sched_switch that switches it in to the one that
  switches it out; idle the rest of the run;
- a CPU's idle residency per state: time between cpu_idle state=K and
  the next cpu_idle on that CPU (state=4294967295 is the exit);
- a domain's residency per kHz: the time its CPUs spend at each
  cpu_frequency state (one line per CPU at each change); average kHz
  is the time-weighted mean; transitions count the changes;
- energy: busy time at each OPP x that OPP's power, idle time in each
  state x the state's power (mW x s = mJ), per CPU, summed per domain
  and over the system;
- a task's runtime and per-CPU residency: its switched-in time;
  preemptions: its switch-outs with prev_state R or R+; migrations:
  its sched_migrate_task events;
- wake-up latency: sched_wakeup (or sched_wakeup_new) to running;
  response: sched_waking (or the sched_wakeup_new of a new task) to the
  next switch-out asleep; at the trace's microseconds;
- activations.csv: completed is its rows, timer latency its wu_lat_ms,
  slack its slack_ms over the rows with a timer (rt-app logs slack per
  loop), deadline misses the rows with negative slack;
- percentiles p50/p95/p99 by the nearest rank, and max/min.
Figures left out (not recomputable from these two files): the energy
model's estimate (em_energy_mj) and overutilized_s (the PELT signals),
sched_latency's columns (perf sched latency's own rules), and the
chains (tests/rederive has their causal reader).
"""
import csv
import json
import math
import re
import sys

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+): ([\w:]+): (.*)$')
FIELD = re.compile(r'(\w+)=(\S*)')
IDLE_EXIT = 4294967295
CLOCK_US = 1000000          # the trace starts at 1.000000 s


def fields(text):
    return dict(FIELD.findall(text))


def nearest_rank(values, p):
    s = sorted(values)
    if not s:
        return None
    k = max(1, math.ceil(p / 100.0 * len(s)))
    return s[k - 1]


class Reader:
    def __init__(self, platform, duration_us):
        self.end = duration_us
        self.dom_of = {c['id']: c['domain'] for c in platform['cpus']}
        self.opp_power = {d['id']: {o['khz']: o['power_mw'] for o in d['opps']}
                          for d in platform['domains']}
        # idle states: the platform's, or each domain's own
        top = platform.get('idle', [])
        self.idle_states = {d['id']: d.get('idle', top)
                            for d in platform['domains']}
        self.cur = {}            # cpu -> pid running
        self.since = {}          # cpu -> when it started
        self.freq = {}           # cpu -> kHz
        self.freq_since = {}
        self.idle = {}           # cpu -> idle state or None
        self.idle_since = {}
        self.busy = {}           # cpu -> us
        self.busy_at = {}        # cpu -> {khz: us}
        self.idle_res = {}       # cpu -> {state: us}
        self.dom_res = {}        # dom -> {khz: us}, on its first CPU
        self.dom_changes = {}
        self.dom_first = {}
        for c, d in sorted(self.dom_of.items()):
            self.dom_first.setdefault(d, c)
        self.task_run = {}       # pid -> us
        self.task_cpu = {}       # pid -> {cpu: us}
        self.preempt = {}
        self.migr = {}
        self.woken = {}          # pid -> sched_wakeup time, waiting to run
        self.waking = {}         # pid -> sched_waking time, to sleep
        self.wu_lat = {}         # pid -> [us]
        self.resp = {}
        self.names = {}
        # boundaries counted per figure: each is a timestamp truncated
        # to the trace's microsecond, so a sum of n intervals may be up
        # to n us off the summary's nanoseconds
        self.slices = {}         # cpu -> switch-ins of a task
        self.task_slices = {}    # pid -> its switch-ins
        self.freq_marks = {}     # cpu -> cpu_frequency lines
        self.idle_marks = {}     # cpu -> cpu_idle lines

    def _account_run(self, cpu, t):
        pid = self.cur.get(cpu, 0)
        start = self.since.get(cpu, 0)
        if pid and t > start:
            d = t - start
            self.busy[cpu] = self.busy.get(cpu, 0) + d
            self.task_run[pid] = self.task_run.get(pid, 0) + d
            per = self.task_cpu.setdefault(pid, {})
            per[cpu] = per.get(cpu, 0) + d
        self.since[cpu] = t

    def _account_busy_freq(self, cpu, t0, t1):
        """busy time of @cpu in [t0, t1) at its current frequency"""
        if self.cur.get(cpu, 0) and t1 > t0:
            at = self.busy_at.setdefault(cpu, {})
            k = self.freq.get(cpu)
            at[k] = at.get(k, 0) + t1 - t0

    def _freq_mark(self, cpu, t):
        t0 = self.freq_since.get(cpu, 0)
        self._account_busy_freq(cpu, max(t0, self.since.get(cpu, 0)), t)
        if self.dom_first[self.dom_of[cpu]] == cpu and cpu in self.freq:
            res = self.dom_res.setdefault(self.dom_of[cpu], {})
            k = self.freq[cpu]
            res[k] = res.get(k, 0) + t - t0
        self.freq_since[cpu] = t

    def _switch_mark(self, cpu, t):
        # busy time at the current frequency up to a switch
        t0 = max(self.freq_since.get(cpu, 0), self.since.get(cpu, 0))
        self._account_busy_freq(cpu, t0, t)

    def _idle_mark(self, cpu, t):
        st = self.idle.get(cpu)
        if st is not None:
            res = self.idle_res.setdefault(cpu, {})
            res[st] = res.get(st, 0) + t - self.idle_since[cpu]
        self.idle_since[cpu] = t

    def event(self, comm, cpu, t, name, f):
        if name == 'sched_switch':
            prev, nxt = int(f['prev_pid']), int(f['next_pid'])
            self._switch_mark(cpu, t)
            self._account_run(cpu, t)
            if prev:
                st = f['prev_state']
                if st.startswith('R'):
                    self.preempt[prev] = self.preempt.get(prev, 0) + 1
                elif prev in self.waking:
                    self.resp.setdefault(prev, []).append(
                        t - self.waking.pop(prev))
            if nxt:
                self.slices[cpu] = self.slices.get(cpu, 0) + 1
                self.task_slices[nxt] = self.task_slices.get(nxt, 0) + 1
                self.names[nxt] = f['next_comm']
                if nxt in self.woken:
                    self.wu_lat.setdefault(nxt, []).append(
                        t - self.woken.pop(nxt))
            self.cur[cpu] = nxt
        elif name in ('sched_wakeup', 'sched_wakeup_new'):
            pid = int(f['pid'])
            self.woken[pid] = t
            if name == 'sched_wakeup_new':
                self.waking[pid] = t
        elif name == 'sched_waking':
            self.waking[int(f['pid'])] = t
        elif name == 'sched_migrate_task':
            pid = int(f['pid'])
            self.migr[pid] = self.migr.get(pid, 0) + 1
        elif name == 'cpu_frequency':
            c = int(f['cpu_id'])
            self.freq_marks[c] = self.freq_marks.get(c, 0) + 1
            self._freq_mark(c, t)
            if (c in self.freq and self.freq[c] != int(f['state']) and
                    self.dom_first[self.dom_of[c]] == c):
                d = self.dom_of[c]
                self.dom_changes[d] = self.dom_changes.get(d, 0) + 1
            self.freq[c] = int(f['state'])
        elif name == 'cpu_idle':
            c = int(f['cpu_id'])
            self.idle_marks[c] = self.idle_marks.get(c, 0) + 1
            self._idle_mark(c, t)
            st = int(f['state'])
            self.idle[c] = None if st == IDLE_EXIT else st

    def finish(self):
        for cpu in self.dom_of:
            self._switch_mark(cpu, self.end)
            self._account_run(cpu, self.end)
            self._freq_mark(cpu, self.end)
            self._idle_mark(cpu, self.end)


def read_trace(path, r):
    with open(path, errors='replace') as fh:
        for line in fh:
            if line.startswith('#'):
                continue
            m = LINE.match(line)
            if not m:
                continue
            comm, _pid, cpu, sec, frac, name, rest = m.groups()
            t = int(sec) * 1000000 + int(frac.ljust(6, '0')[:6]) - CLOCK_US
            r.event(comm, int(cpu), t, name, fields(rest))


class Checker:
    def __init__(self, where):
        self.where = where
        self.bad = 0
        self.checked = 0

    def close(self, what, got, want, tol=0.0):
        """@got from summary.json, @want recomputed, @tol the error the
        trace's resolution allows (plus the summary's 9 digits)"""
        self.checked += 1
        if got is None and want is None:
            return
        if got is None or want is None or \
                abs(got - want) > tol + 1e-8 * max(1.0, abs(want)):
            self.bad += 1
            print('%s: %s: summary.json %r, recomputed %r' %
                  (self.where, what, got, want))


def pct_check(ck, what, summ, samples_us, tol=0.0):
    """@tol: 0 for figures the docs define at the trace's microseconds,
    the CSV's nanoseconds (1e-3 us) for activations.csv's columns"""
    if not samples_us:
        ck.close(what + '.count', summ.get('count', 0) if summ else 0, 0)
        return
    ck.close(what + '.count', summ['count'], len(samples_us))
    for p in (50, 95, 99):
        ck.close('%s.p%d' % (what, p), summ['p%d' % p],
                 nearest_rank(samples_us, p), tol)
    ck.close(what + '.max', summ['max'], max(samples_us), tol)
    ck.close(what + '.min', summ['min'], min(samples_us), tol)


def check_run(run_dir, platform):
    summ = json.load(open(run_dir + '/summary.json'))
    end = round(summ['simulated_s'] * 1e6)
    r = Reader(platform, end)
    read_trace(run_dir + '/trace.txt', r)
    r.finish()
    ck = Checker(run_dir)
    US = 1e-6

    # CPUs: busy, idle, idle residency, energy
    total_energy = total_tol = 0.0
    dom_energy, dom_tol = {}, {}
    for c in summ['cpus']:
        cpu = c['id']
        d = r.dom_of[cpu]
        states = r.idle_states[d]
        busy = r.busy.get(cpu, 0)
        tol_busy = 2 * r.slices.get(cpu, 0) * US
        ck.close('cpu%d.busy_s' % cpu, c['busy_s'], busy / 1e6, tol_busy)
        ck.close('cpu%d.idle_s' % cpu, c['idle_s'], (end - busy) / 1e6,
                 tol_busy)
        res = r.idle_res.get(cpu, {})
        tol_idle = r.idle_marks.get(cpu, 0) * US
        for k, st in enumerate(states):
            ck.close('cpu%d.idle_residency_s.%s' % (cpu, st['name']),
                     c['idle_residency_s'].get(st['name'], 0.0),
                     res.get(k, 0) / 1e6, tol_idle)
        top = max(o['power_mw'] for o in platform['domains'][d]['opps'])
        e = sum(us / 1e6 * r.opp_power[d][k]
                for k, us in r.busy_at.get(cpu, {}).items())
        e += sum(us / 1e6 * states[k]['power_mw'] for k, us in res.items())
        tol_e = top * (tol_busy + tol_idle +
                       r.freq_marks.get(cpu, 0) * US)
        ck.close('cpu%d.energy_mj' % cpu, c['energy_mj'], e, tol_e)
        dom_energy[d] = dom_energy.get(d, 0.0) + e
        dom_tol[d] = dom_tol.get(d, 0.0) + tol_e
        total_energy += e
        total_tol += tol_e
    ck.close('energy_mj', summ['energy_mj'], total_energy, total_tol)

    # domains: residency per kHz, average, transitions, energy
    for dm in summ['domains']:
        d = dm['id']
        res = r.dom_res.get(d, {})
        tol = r.freq_marks.get(r.dom_first[d], 0) * US
        for k, s in dm['residency_s'].items():
            ck.close('dom%d.residency_s.%s' % (d, k), s,
                     res.get(int(k), 0) / 1e6, tol)
        extra = set(res) - {int(k) for k in dm['residency_s']}
        if any(res[k] for k in extra):
            ck.close('dom%d.residency at kHz not in the summary' % d,
                     0, 1)
        tot = sum(res.values())
        avg = sum(k * us for k, us in res.items()) / tot if tot else None
        fmax = max(o['khz'] for o in platform['domains'][d]['opps'])
        ck.close('dom%d.avg_khz' % d, dm['avg_khz'], avg,
                 fmax * tol / (tot / 1e6) if tot else 0)
        ck.close('dom%d.transitions' % d, dm['transitions'],
                 r.dom_changes.get(d, 0))
        ck.close('dom%d.energy_mj' % d, dm['energy_mj'],
                 dom_energy.get(d, 0.0), dom_tol.get(d, 0.0))

    # tasks: run time, residency, preemptions, migrations, latencies
    acts = {}
    with open(run_dir + '/activations.csv', newline='') as fh:
        for row in csv.DictReader(fh):
            acts.setdefault(int(row['pid']), []).append(row)
    for t in summ['tasks']:
        pid = t['pid']
        nm = 'task %s' % t['name']
        tol = 2 * r.task_slices.get(pid, 0) * US
        ck.close(nm + '.runtime_s', t['runtime_s'],
                 r.task_run.get(pid, 0) / 1e6, tol)
        for cpu, s in t['cpu_residency_s'].items():
            ck.close('%s.cpu_residency_s.%s' % (nm, cpu), s,
                     r.task_cpu.get(pid, {}).get(int(cpu), 0) / 1e6, tol)
        per_dom = {}
        for cpu, us in r.task_cpu.get(pid, {}).items():
            d = r.dom_of[cpu]
            per_dom[d] = per_dom.get(d, 0) + us
        for d, s in t['domain_residency_s'].items():
            ck.close('%s.domain_residency_s.%s' % (nm, d), s,
                     per_dom.get(int(d), 0) / 1e6, tol)
        ck.close(nm + '.preemptions', t['preemptions'],
                 r.preempt.get(pid, 0))
        ck.close(nm + '.migrations', t['migrations'], r.migr.get(pid, 0))
        # at the model's nanoseconds (the docs state microseconds for
        # response only): within the trace's 1 us
        pct_check(ck, nm + '.wakeup_latency_us', t['wakeup_latency_us'],
                  r.wu_lat.get(pid, []), 1.0)
        pct_check(ck, nm + '.response_us', t['response_us'],
                  r.resp.get(pid, []))
        rows = acts.get(pid, [])
        ck.close(nm + '.completed', t['completed'], len(rows))
        # the CSV's ms with 6 decimals: 1 ns
        pct_check(ck, nm + '.timer_latency_us', t.get('timer_latency_us'),
                  [float(x['wu_lat_ms']) * 1e3 for x in rows
                   if x['wu_lat_ms'] != ''], 1.5e-3)
        pct_check(ck, nm + '.slack_us', t.get('slack_us'),
                  [float(x['slack_ms']) * 1e3 for x in rows
                   if float(x['period_ms']) > 0], 1.5e-3)
        if t['deadline_misses'] is not None:
            ck.close(nm + '.deadline_misses', t['deadline_misses'],
                     sum(1 for x in rows if float(x['period_ms']) > 0 and
                         float(x['slack_ms']) < 0))
    return ck


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: rederive.py RUN_DIR PLATFORM.json')
    platform = json.load(open(sys.argv[2]))
    ck = check_run(sys.argv[1], platform)
    print('%s: %d figures, %d disagree' % (sys.argv[1], ck.checked, ck.bad))
    sys.exit(1 if ck.bad else 0)


if __name__ == '__main__':
    main()
