#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The import round trip's figures: a source run and the run of its import,
compared per task from capsim's own summary.json and activations.csv.

  compare_runs.py SOURCE.json SRC_RUN_DIR IMPORTED.json IMP_RUN_DIR [EXPLAIN]

Per task of the source run (by comm): busy time (summary runtime_s) within
5 %, activations within 2 %, the period (median interval between the
activations' starts in activations.csv) within 1 %; every dependency of the
source (a task with "suspend": X, another "resume": X) found in the
imported workload as the same pair. A task that never sleeps (imported as
always running) has no activations a trace shows: its activations and
period are printed, not checked. Tasks busy less than 0.5 % of the run
are not compared (import folds them into the background). Prints a table
and exits 1 when a figure is out of bounds.

With EXPLAIN (`capsim import --explain`'s output), first the import's own
reading of the trace: every task of the source run that sleeps must have
as many activations in --explain as the source run logged (each wake-up
of the trace found, the first one after sched_wakeup_new included), or,
for a task --explain reads as a loop of k steps (each pass of the
source's loop k wake-ups), k times as many, less at most k - 1 (a pass
cut by the run's end); exit 2 when one does not, whatever the bounds
say: that is no simulation noise but the trace misread.
"""
import csv
import json
import re
import statistics
import sys

BUSY_PCT, ACT_PCT, PERIOD_PCT = 5.0, 2.0, 1.0


def load_json(path):
    text = open(path).read()
    # rt-app's comments (capsim's pre-pass blanks them too)
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'(?m)^\s*//.*$', '', text)
    text = re.sub(r',(\s*[}\]])', r'\1', text)    # rt-app's trailing commas
    return json.loads(text)


def events(task):
    """Every (key, value) of a task's events, phases included"""
    out = list(task.items())
    for ph in task.get('phases', {}).values():
        out += list(ph.items())
    return out


def deps(workload):
    """(waker, wakee) pairs: a task resuming X, X suspending on X"""
    res, sus = {}, {}
    for name, t in workload['tasks'].items():
        for k, v in events(t):
            if k.startswith('resume'):
                res.setdefault(v, set()).add(name)
            elif k.startswith('suspend'):
                sus.setdefault(v, set()).add(name)
    return {(w, s) for x in sus for s in sus[x] for w in res.get(x, ())}


def runs(d):
    summ = json.load(open(d + '/summary.json'))
    tasks = {t['comm']: t for t in summ['tasks']}
    starts = {}
    with open(d + '/activations.csv') as f:
        for row in csv.DictReader(f):
            starts.setdefault(row['task'], []).append(float(row['start_ms']))
    return summ, tasks, starts


def period(starts):
    iv = [b - a for a, b in zip(starts, starts[1:])]
    return statistics.median(iv) if len(iv) >= 2 else None


def pct(a, b):
    return 100.0 * abs(b - a) / a if a else (0.0 if not b else 100.0)


def main_table(src_dir, imp_dir, hog_names):
    src_summ, src, src_starts = runs(src_dir)
    _, imp, imp_starts = runs(imp_dir)
    dur = src_summ['simulated_s']
    bad = 0
    print('%-12s %10s %10s %6s %6s %6s %6s %10s %10s %6s' %
          ('task', 'busy_s', 'busy_s\'', 'd%', 'acts', 'acts\'', 'd%',
           'period_ms', 'period\'', 'd%'))
    for comm, t in sorted(src.items()):
        if t['runtime_s'] < 0.005 * dur:
            continue
        i = imp.get(comm)
        if not i:
            print('%-12s missing from the imported run' % comm)
            bad += 1
            continue
        db = pct(t['runtime_s'], i['runtime_s'])
        da = pct(t['activations'], i['activations'])
        sname, iname = t['name'], i['name']
        ps = period(src_starts.get(sname, []))
        pi = period(imp_starts.get(iname, []))
        dp = pct(ps, pi) if ps and pi else 0.0
        if i['name'] in hog_names:
            da = dp = 0.0    # never sleeps: not comparable, shown only
        ok = db <= BUSY_PCT and da <= ACT_PCT and dp <= PERIOD_PCT
        bad += not ok
        print('%-12s %10.4f %10.4f %6.2f %6d %6d %6.2f %10s %10s %6.2f%s' %
              (comm, t['runtime_s'], i['runtime_s'], db, t['activations'],
               i['activations'], da, '%.3f' % ps if ps else '-',
               '%.3f' % pi if pi else '-', dp, '' if ok else '  OUT'))
    return bad


def hogs(workload):
    """Tasks the import made always-running (a trace shows no activations
    of a task that never sleeps: rt-app's loop count is not in it)"""
    return {n for n, t in workload['tasks'].items()
            if t.get('loop') == -1 and 'phases' not in t}


def check(src_json, src_dir, imp_json, imp_dir):
    bad = main_table(src_dir, imp_dir, hogs(load_json(imp_json)))
    want = deps(load_json(src_json))
    got = deps(load_json(imp_json))
    for w, s in sorted(want):
        found = (w, s) in got
        bad += not found
        print('dependency %s -> %s: %s' % (w, s,
                                            'recovered' if found else 'LOST'))
    return 1 if bad else 0


def wakeups_found(explain, src_dir):
    """0 when --explain counts every activation of the source run"""
    found = {m.group(1): (int(m.group(2)), m.group(3)) for m in re.finditer(
        r'^(\S+): pid \d+ comm .*?, (\d+) activations\n((?:  .*\n)*)',
        open(explain).read(), re.M)}
    bad = 0
    for t in json.load(open(src_dir + '/summary.json'))['tasks']:
        n, body = found.get(t['name'], (None, ''))
        if n is None or 'always running' in body:
            continue    # folded, or never sleeps: no wake-ups to count
        loop = re.search(r'^  loop: (\d+) steps per loop', body, re.M)
        k = int(loop.group(1)) if loop else 1
        ok = 0 <= k * t['activations'] - n < k
        bad += not ok
        print('wake-ups of %s: %d in the trace%s, %d found%s' %
              (t['name'], t['activations'],
               ' x %d steps per loop' % k if k > 1 else '', n,
               '' if ok else '  MISREAD'))
    return bad


if __name__ == '__main__':
    if len(sys.argv) > 5 and wakeups_found(sys.argv[5], sys.argv[2]):
        check(*sys.argv[1:5])
        sys.exit(2)
    sys.exit(check(*sys.argv[1:5]))
