#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""uclamp's band in the trace and in freq.png (issue 26 item 4).

Usage: uclamp_band.py CAPSIM SRCDIR OUTDIR

1. A uclamp run (traces/rt-capped.json, 1 s: a FIFO task whose default
   uclamp_min is 1024, restricted by /rt's 512, wakes every 8 ms) prints
   lisa__uclamp_util_cfs at every change of a CPU's rq clamps: the range
   rebuilt from those lines, in line order, is at every capsim_sugov
   line the one schedutil used (the line's min/max are its caller CPU's
   clamp min/max under a per-CPU policy; sym4's scale is 1024).
2. `capsim plot` draws that range as the band: freq-dom0.dat's band
   columns, at each time the plot wrote, are the OPPs of the MAX of the
   mins and of the maxes of the non-idle CPUs, rebuilt here from the
   same lines and cpu_idle; vars.gp names it "uclamp effective range".
3. The same run with the lisa__uclamp_util_cfs lines removed draws no
   band and says why; so does a guest kernel's trace without the event
   (tests/fixtures/guest/sym4-rfc-window.txt).
"""
import os
import re
import shutil
import subprocess
import sys

capsim, src, out = sys.argv[1:4]
EV = re.compile(r'^\s*\S.*?\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+): (\w+): (.*)$')
OPP_KHZ = [500000, 1000000, 1500000, 2000000, 2500000]   # sym4
FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('FAIL: ' + msg)


def fields(text):
    return dict(kv.split('=', 1) for kv in text.split() if '=' in kv)


def opp_mhz(cap):
    """scan_clamp_khz() on sym4: the lowest OPP at or above fmax*cap/1024"""
    if cap >= 1024:
        return OPP_KHZ[-1] / 1000
    raw = OPP_KHZ[-1] * cap / 1024
    return next(k for k in OPP_KHZ if k >= raw) / 1000


def run(args):
    subprocess.run([capsim] + args, check=True, stdout=subprocess.DEVNULL)


def vars_gp(plotdir):
    with open(os.path.join(plotdir, 'data', 'vars.gp')) as f:
        return f.read()


if os.path.exists(out):
    shutil.rmtree(out)
os.makedirs(out)
run_dir = os.path.join(out, 'run')
run(['run', os.path.join(src, 'traces/rt-capped.json'), '--policy', 'uclamp',
     '--duration', '1', '-o', run_dir, '--quiet'])

# 1. the trace's per-CPU range is the one schedutil read
rng = {c: (0, 1024) for c in range(4)}      # uclamp_cpu_init()
idle = {c: False for c in range(4)}
expect = {}        # plot time (rounded, us) -> band (MHz) after that time
band = None
t_first = None
nlisa = nsugov = 0
with open(os.path.join(run_dir, 'trace.txt')) as f:
    for line in f:
        m = EV.match(line)
        if not m:
            continue
        cpu, ts, name, rest = int(m[1]), float(m[2]), m[3], m[4]
        if t_first is None:
            t_first = ts
        fl = fields(rest)
        if name == 'lisa__uclamp_util_cfs':
            nlisa += 1
            rng[int(fl['cpu'])] = (int(fl['uclamp_min']), int(fl['uclamp_max']))
        elif name == 'capsim_sugov':
            nsugov += 1
            c = int(fl['caller'])
            used = (int(fl['min']), int(fl['max']))
            if used != rng[c]:
                fail('%s: CPU %d decided with %s, the trace says %s' %
                     (ts, c, used, rng[c]))
        elif name == 'cpu_idle':
            idle[int(fl['cpu_id'])] = int(fl['state']) != 4294967295
        busy = [c for c in range(4) if not idle[c]]
        if busy:      # a wholly idle domain keeps its band
            band = (opp_mhz(max(rng[c][0] for c in busy)),
                    opp_mhz(max(rng[c][1] for c in busy)))
        expect[round((ts - t_first) * 1e6)] = band
if nlisa < 100 or nsugov < 20:
    fail('%d lisa__uclamp_util_cfs and %d capsim_sugov lines: too few to tell'
         % (nlisa, nsugov))
if not any(r != (0, 1024) for r in rng.values()) and nlisa == 0:
    fail('no CPU range ever left 0..1024')

# 2. the plot's band is that range composed over the domain
plot = os.path.join(out, 'plot')
run(['plot', run_dir, '--to', '0.2', '-o', plot, '--quiet'])
v = vars_gp(plot)
if 'hasband = 1\n' not in v or \
        "bandname = 'uclamp effective range'\n" not in v or \
        'dombin[1] = 0.000000\n' not in v:
    fail('vars.gp: no uclamp band drawn as steps')
last = {}
with open(os.path.join(plot, 'data', 'freq-dom0.dat')) as f:
    for line in f:
        if line.startswith('#'):
            continue
        t, _, _, _, bmin, bmax, has = line.split()
        last[round(float(t) * 1e6)] = (float(bmin), float(bmax), has)
checked = 0
times = sorted(expect)
for t, (bmin, bmax, has) in sorted(last.items()):
    # the band after the trace's last event at or before the row (the
    # window's closing row has no event of its own)
    at = max(x for x in times if x <= t)
    if has != '1':
        fail('freq-dom0.dat at %d us: no band' % t)
    elif (bmin, bmax) != expect[at]:
        fail('freq-dom0.dat at %d us: band %s MHz, the trace gives %s' %
             (t, (bmin, bmax), expect[at]))
    checked += 1
if checked < 20 or len(set(last.values())) < 3:
    fail('only %d band rows, %d distinct: too few to tell' %
         (checked, len(set(last.values()))))

# 3. without the event: no band, and the title says why
bare = os.path.join(out, 'bare')
shutil.copytree(run_dir, bare)
with open(os.path.join(run_dir, 'trace.txt')) as f, \
        open(os.path.join(bare, 'trace.txt'), 'w') as g:
    g.writelines(l for l in f if 'lisa__uclamp_util_cfs' not in l)
run(['plot', bare, '-o', os.path.join(out, 'bare-plot'), '--quiet'])
v = vars_gp(os.path.join(out, 'bare-plot'))
if 'hasband = 0\n' not in v or \
        "bandnote = 'policy uclamp: no lisa__uclamp_util_cfs in the trace" not in v:
    fail('a uclamp run without the event: a band drawn, or no reason given')
run(['plot', os.path.join(src, 'tests/fixtures/guest/sym4-rfc-window.txt'),
     '--platform', 'sym4', '-o', os.path.join(out, 'guest-plot'), '--quiet'])
v = vars_gp(os.path.join(out, 'guest-plot'))
if 'hasband = 0\n' not in v or \
        "bandnote = 'no clamp in the trace (neither cap_clamp_cpu nor lisa__uclamp_util_cfs), no band'" not in v:
    fail('a guest trace without the event: a band drawn, or no reason given')

if FAILS:
    sys.exit(1)
print('ok: %d lisa__uclamp_util_cfs lines, %d decisions with their range, '
      '%d band rows checked' % (nlisa, nsugov, checked))
