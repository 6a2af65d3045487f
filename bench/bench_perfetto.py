#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Perfetto reading speed (issue 38), beside capsim's text reader on the same
capture, in one run: a capsim run of traces/phone-minute.json on sd855 (8
CPUs, its trace.txt: two thirds capsim's own events, generic events in
Perfetto), and the same with the kernel's sched_* and cpu_* events only
(what a phone's capture holds), each written as Perfetto by
tests/trace/to_perfetto.py (full events, and compact_sched), each read
whole by the trace reader (tests/trace/trace_events --count) REPEAT
times. Prints, per form, the best wall time and the CPU time (user +
system) of that run, events per second of each, and the ratio to the
text reader's CPU time; the reads' normalized streams are checked equal
first (sorted). Not a pass/fail test.

Usage: bench_perfetto.py TRACE_EVENTS CAPSIM SRCDIR [REPEAT]
"""
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    """(wall s, cpu s) of one run, its output dropped"""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return t1 - t0, cpu


def digest(ev, path):
    out = subprocess.run([ev, path], stdout=subprocess.PIPE, check=True).stdout
    return hashlib.sha256(b'\n'.join(sorted(out.splitlines()))).hexdigest()[:16]


def main():
    ev, capsim, src = sys.argv[1:4]
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, 'run')
        subprocess.run([capsim, 'run', os.path.join(src, 'traces/phone-minute.json'),
                        '--platform', 'sd855', '-o', run, '--quiet'],
                       check=True, stderr=subprocess.DEVNULL)
        txt = os.path.join(run, 'trace.txt')
        kern = os.path.join(tmp, 'kernel.txt')
        with open(txt) as f, open(kern, 'w') as o:
            o.writelines(l for l in f if ': sched_' in l or ': cpu_' in l)
        conv = os.path.join(src, 'tests/trace/to_perfetto.py')
        print('%-34s %9s %8s %8s %14s %14s %8s' % (
            'form', 'bytes', 'events', 'wall s', 'events/s wall',
            'events/s cpu', 'vs text'))
        for what, t in (('all', txt), ('kernel', kern)):
            forms = [('text, %s events' % what, t)]
            for name, opts in (('Perfetto full, %s events' % what, []),
                               ('Perfetto compact, %s events' % what,
                                ['--compact'])):
                out = os.path.join(tmp, '%s-%d.pftrace' % (what, len(opts)))
                subprocess.run([sys.executable, conv] + opts + [t, out],
                               check=True)
                forms.append((name, out))
            n = int(subprocess.run([ev, '--count', t], stdout=subprocess.PIPE,
                                   check=True).stdout.split()[0])
            ref = digest(ev, t)
            for name, path in forms[1:]:
                if digest(ev, path) != ref:
                    sys.exit('bench_perfetto: %s: not the text\'s events' % name)
            base = None
            for name, path in forms:
                runs = [timed([ev, '--count', path]) for _ in range(repeat)]
                wall, cpu = min(runs)
                cpu = max(cpu, 1e-3)
                if base is None:
                    base = cpu
                print('%-34s %9d %8d %8.3f %14.0f %14.0f %7.2fx' %
                      (name, os.path.getsize(path), n, wall, n / wall,
                       n / cpu, base / cpu))
        print('(sd855, phone-minute; every form gives its text\'s '
              'normalized stream)')
        print('(best of %d runs by wall time; events/s cpu: over that run\'s '
              'user + system time; vs text: the text reader\'s cpu time over '
              'this form\'s)' % repeat)


if __name__ == '__main__':
    main()
