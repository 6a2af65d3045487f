#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rt-app's trace markers in capsim's trace, read back the way LISA reads
them: a line's head with the regex of LISA's text parser (lisa/trace.py,
HRTxtTraceParser.HEADER_REGEX), the marker's text as a meta event
("NAME: k=v ...", MetaTxtTraceParser) whose fields are rt-app's format
strings (src/rt-app.c: rtapp_main, rtapp_task, rtapp_loop, rtapp_event,
rtapp_stats). Checks that the loops and phases the markers name are the
workload's, in order, in trace.txt and (with trace-cmd) in trace.dat, that
activations.csv has a row per finished loop with the same phase, and that
"ftrace" in the workload selects the categories as in rt-app.

Usage: rtapp_markers.py CAPSIM SCRATCH_DIR
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# LISA's header regex for the kernel's text format, then its meta event
HEADER = re.compile(r'\s*(?P<comm>.+)-(?P<pid>\d+)[^[]*\[(?P<cpu>\d*)\]'
                    r'[^\d]+(?P<ts>\d+\.\d+): +(?P<event>\w+):\s*(?P<body>.*)')
META = re.compile(r'^(?P<event>[\w@]+):?\s*(?P<fields>.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')

WORKLOAD = {
    "global": {"duration": 2},
    "tasks": {
        "walker": {
            "loop": 2,
            "phases": {
                "warm": {"loop": 3, "run": 2000, "sleep": 3000},
                "busy": {"loop": 2, "run": 5000,
                         "timer": {"ref": "w", "period": 10000}},
            },
        },
        "idler": {"loop": 1, "run": 1000, "sleep": 1000},
    },
}

# what the walker's markers must say: (thread_loop, phase, phase_loop)
EXPECTED_LOOPS = ([(0, 0, pl) for pl in range(3)] + [(0, 1, pl) for pl in range(2)] +
                  [(1, 0, pl) for pl in range(3)] + [(1, 1, pl) for pl in range(2)])
# rt-app's enum resource_t: run 6, sleep 5, timer 10
EXPECTED_EVENTS = {0: [(0, 6, 'run'), (1, 5, 'sleep')],
                   1: [(0, 6, 'run'), (1, 10, 'timer')]}


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def meta_events(lines, marker):
    """(ts, comm, pid, name, fields) of each marker, as LISA's parsers see
    them: @marker picks the text out of the event's body"""
    out = []
    for line in lines:
        m = HEADER.match(line)
        if not m:
            continue
        text = marker(m.group('event'), m.group('body'))
        if text is None:
            continue
        mm = META.match(text)
        if not mm:
            fail('marker text does not parse: ' + text)
        out.append((float(m.group('ts')), m.group('comm').strip(),
                    int(m.group('pid')), mm.group('event'),
                    dict(FIELD.findall(mm.group('fields')))))
    return out


def txt_marker(event, body):
    # the kernel's trace file: "tracing_mark_write: TEXT"
    return body if event == 'tracing_mark_write' else None


def raw_marker(event, body):
    # trace-cmd report -R: "print: ip=0x0 buf=TEXT", LISA's positional buf
    if event != 'print':
        return None
    m = re.match(r'ip=\S+ buf=(.*)$', body)
    return m.group(1) if m else fail('print without buf: ' + body)


def check(evs, where, events_on):
    names = {e[3] for e in evs}
    main = [e[4]['event'] for e in evs if e[3] == 'rtapp_main']
    if main != ['start', 'clock_ref', 'end']:
        fail('%s: rtapp_main %s' % (where, main))
    for comm in ('walker', 'idler'):
        task = [e[4]['event'] for e in evs if e[3] == 'rtapp_task' and e[1] == comm]
        if task != ['start', 'end']:
            fail('%s: %s rtapp_task %s' % (where, comm, task))
    loops = [e[4] for e in evs if e[3] == 'rtapp_loop' and e[1] == 'walker']
    starts = [(int(f['thread_loop']), int(f['phase']), int(f['phase_loop']))
              for f in loops if f['event'] == 'start']
    ends = [(int(f['thread_loop']), int(f['phase']), int(f['phase_loop']))
            for f in loops if f['event'] == 'end']
    if starts != EXPECTED_LOOPS or ends != EXPECTED_LOOPS:
        fail('%s: walker loops\n  start %s\n  end   %s\n  want  %s' %
             (where, starts, ends, EXPECTED_LOOPS))
    # each loop's start comes before its end, and stats right after the end
    seq = [(e[3], e[4].get('event')) for e in evs
           if e[1] == 'walker' and e[3] in ('rtapp_loop', 'rtapp_stats')]
    for i, (name, ev) in enumerate(seq):
        if name == 'rtapp_loop' and ev == 'end' and seq[i + 1][0] != 'rtapp_stats':
            fail('%s: no rtapp_stats after a loop end' % where)
    stats = [e[4] for e in evs if e[3] == 'rtapp_stats' and e[1] == 'walker']
    for f in stats:
        for k in ('period', 'run', 'wu_lat', 'slack', 'c_period', 'c_run'):
            if not re.fullmatch(r'-?\d+', f.get(k, '')):
                fail('%s: rtapp_stats %s=%r' % (where, k, f.get(k)))
    # c_run of the busy phase: 5 ms, c_period its timer's 10 ms
    if [(f['c_run'], f['c_period']) for f in stats][3:5] != [('5000', '10000')] * 2:
        fail('%s: busy phase stats %s' % (where, stats[3:5]))
    evts = [e[4] for e in evs if e[3] == 'rtapp_event' and e[1] == 'walker']
    if not events_on:
        if 'rtapp_event' in names:
            fail('%s: rtapp_event written without "event" in ftrace' % where)
        return len(ends)
    # per loop its events in order: after each loop start, until its end
    k = 0
    for tl, ph, pl in EXPECTED_LOOPS:
        want = EXPECTED_EVENTS[ph]
        got = [(int(f['id']), int(f['type']), f['desc']) for f in evts[k:k + len(want)]]
        if got != want:
            fail('%s: loop %s events %s, want %s' % (where, (tl, ph, pl), got, want))
        k += len(want)
    return len(ends)


def run(capsim, d, wl, extra):
    out = os.path.join(d, 'out')
    path = os.path.join(d, 'w.json')
    with open(path, 'w') as f:
        json.dump(wl, f)
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([capsim, 'run', path, '-o', out, '--quiet'] + extra, check=True)
    return out


def main():
    capsim, scratch = sys.argv[1], sys.argv[2]
    os.makedirs(scratch, exist_ok=True)
    d = tempfile.mkdtemp(prefix='rtapp-markers-', dir=scratch)
    have_tc = shutil.which('trace-cmd') is not None

    # 1. no "ftrace" key: capsim's default categories (no rtapp_event)
    out = run(capsim, d, WORKLOAD, ['--trace-dat'] if have_tc else [])
    with open(os.path.join(out, 'trace.txt')) as f:
        n = check(meta_events(f, txt_marker), 'trace.txt', False)
    with open(os.path.join(out, 'activations.csv')) as f:
        rows = [r for r in csv.DictReader(f) if r['task'] == 'walker']
    if len(rows) != n or [int(r['phase']) for r in rows] != [p for _, p, _ in EXPECTED_LOOPS]:
        fail('activations.csv phases %s' % [r['phase'] for r in rows])
    if [r['phase_name'] for r in rows[:4]] != ['warm'] * 3 + ['busy']:
        fail('activations.csv phase names %s' % [r['phase_name'] for r in rows])
    if have_tc:
        rep = subprocess.run(['trace-cmd', 'report', '-R', os.path.join(out, 'trace.dat')],
                             check=True, capture_output=True, text=True).stdout
        check(meta_events(rep.splitlines(), raw_marker), 'trace.dat', False)
    else:
        print('SKIP trace.dat: trace-cmd is not installed')

    # 2. rt-app's own switch: every category, rtapp_event included
    wl = dict(WORKLOAD, **{"global": {"duration": 2, "ftrace": "main,task,loop,event,stats"}})
    out = run(capsim, d, wl, [])
    with open(os.path.join(out, 'trace.txt')) as f:
        check(meta_events(f, txt_marker), 'trace.txt (ftrace all)', True)

    # 3. "none": no marker at all
    wl = dict(WORKLOAD, **{"global": {"duration": 2, "ftrace": "none"}})
    out = run(capsim, d, wl, [])
    with open(os.path.join(out, 'trace.txt')) as f:
        if 'tracing_mark_write' in f.read():
            fail('markers written under "ftrace": "none"')
    # 4. a category rt-app does not know is an input error naming the key
    path = os.path.join(d, 'bad.json')
    with open(path, 'w') as f:
        json.dump(dict(WORKLOAD, **{"global": {"ftrace": "main,loops"}}), f)
    r = subprocess.run([capsim, 'validate', path], capture_output=True, text=True)
    if r.returncode != 2 or 'global.ftrace' not in r.stderr or '"loops"' not in r.stderr:
        fail('bad ftrace category: exit %d, %s' % (r.returncode, r.stderr))
    # 5. an event key is the workload's text: a newline in it must not
    # start a line of its own, which capsim's readers would take for an
    # event (review finding: a forged sched_switch)
    wl = {"global": {"duration": 0.05, "ftrace": "event"},
          "tasks": {"t": {"run\nFORGED-1 [000] 1.000001: sched_switch: x": 1000,
                          "sleep": 1000}}}
    out = run(capsim, d, wl, [])
    with open(os.path.join(out, 'trace.txt')) as f:
        text = f.read()
    if any(line.startswith('FORGED') for line in text.splitlines()):
        fail('an event key with a newline forged a trace line')
    if 'desc=run?FORGED' not in text:
        fail('the event key with a newline is not in its marker')
    shutil.rmtree(d)
    print('ok: rt-app markers parse back LISA\'s way; loops, phases and events match')


main()
