#!/usr/bin/env python3
"""freq-tvd.py A.txt B.txt: per-CPU frequency residencies of two ftrace text
traces (cpu_frequency events, each CPU from its first event to the trace's
last timestamp) and their total-variation distance (half the L1 distance
of the two distributions); the last line is the max over the CPUs."""
import re, sys, collections
ev = re.compile(r'\[(\d+)\]\s+\S+\s+([\d.]+): (\S+): (.*)')
def residency(path):
    cur = {}; since = {}; res = collections.defaultdict(lambda: collections.Counter())
    last = 0.0
    for line in open(path, errors='replace'):
        m = ev.search(line)
        if not m: continue
        t = float(m.group(2)); last = max(last, t)
        if m.group(3) != 'cpu_frequency': continue
        f = dict(kv.split('=') for kv in m.group(4).split())
        c = int(f['cpu_id']); khz = int(f['state'])
        if c in cur: res[c][cur[c]] += t - since[c]
        cur[c] = khz; since[c] = t
    for c in cur: res[c][cur[c]] += last - since[c]
    return res
a, b = residency(sys.argv[1]), residency(sys.argv[2])
worst = 0
for c in sorted(set(a) | set(b)):
    ta, tb = sum(a[c].values()), sum(b[c].values())
    fs = sorted(set(a[c]) | set(b[c]))
    tvd = 0.5 * sum(abs(a[c][f] / ta - b[c][f] / tb) for f in fs)
    worst = max(worst, tvd)
    da = ' '.join('%d:%.4f' % (f // 1000, a[c][f] / ta) for f in fs)
    db = ' '.join('%d:%.4f' % (f // 1000, b[c][f] / tb) for f in fs)
    print('cpu %d  A %.3fs [%s]\n       B %.3fs [%s]\n       TVD %.5f' % (c, ta, da, tb, db, tvd))
print('max TVD %.5f' % worst)
