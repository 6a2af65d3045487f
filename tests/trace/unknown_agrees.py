#!/usr/bin/env python3
"""What is unknown stays unknown, the same in every command
(docs/traces.md; src/trace/freq_residency.h):
    unknown_agrees.py CAPSIM SRCDIR
A trace whose domain has its first cpu_frequency 70 ms in (a capsim run's
trace with the earlier frequency events and decisions taken out) gives
the same residency, the `unknown` row and every OPP's share of the
window, in `capsim plot` (data/residency-dom0.dat), `capsim import-check`
(the source's column) and `capsim xcheck` level 4 (the guest's); and
both comparisons say the TVD is over the time both traces know. Fails
with the reason on stderr."""
import json
import os
import re
import subprocess
import sys
import tempfile

WORKLOAD = """{
  "global": { "duration": 2 },
  "tasks": {
    "worker": { "loop": -1, "run": 2000, "timer": { "ref": "tw", "period": 10000 } },
    "helper": { "loop": -1, "run": 1000, "timer": { "ref": "th", "period": 4000 } }
  }
}
"""


def fail(msg):
    sys.stderr.write("FAIL: %s\n" % msg)
    sys.exit(1)


def capsim(*args, ok=(0,)):
    r = subprocess.run([CAPSIM] + list(args), stdout=subprocess.DEVNULL)
    if r.returncode not in ok:
        fail("capsim %s: exit %d" % (" ".join(args), r.returncode))


def late_trace(src, dst):
    """capsim's trace clock starts at 1 s; xcheck takes a decision's
    frequency as known too (docs/xcheck.md), so the decisions go with the
    frequencies"""
    with open(src) as f, open(dst, "w") as out:
        for line in f:
            m = re.search(r"\s(\d+\.\d+): (cpu_frequency|capsim_sugov)", line)
            if m and float(m.group(1)) < 1.07:
                continue
            out.write(line)


CAPSIM = os.path.realpath(sys.argv[1])
os.environ["CAPSIM_PLOTS"] = os.path.join(sys.argv[2], "plots")
with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    with open("w.json", "w") as f:
        f.write(WORKLOAD)
    capsim("run", "w.json", "-o", "src", "--quiet")
    late_trace("src/trace.txt", "late.txt")
    capsim("plot", "late.txt", "--platform", "sym4", "-o", "pl", "--quiet")
    capsim("import-check", "late.txt", "w.json", "-o", "ic", "--quiet",
           "--no-plots")
    # levels 1-3 have nothing to check in this trace: exit 1, report written
    capsim("xcheck", "w.json", "--guest-trace", "late.txt", "-o", "xc",
           "--no-plots", "--quiet", "--no-trace-driven", ok=(0, 1))

    plot = {}
    for line in open("pl/data/residency-dom0.dat"):
        if not line.startswith("#"):
            row, pct = line.split()
            plot[row] = float(pct)
    ic = json.load(open("ic/import-check.json"))["domains"][0]
    icr = {"unknown": ic["source_unknown_pct"]}
    icr.update({str(r["mhz"]): r["source_pct"] for r in ic["residency"]})
    l4 = json.load(open("xc/xcheck.json"))["level4"]
    xr = {(k if k == "unknown" else str(int(k) // 1000)): 100 * v
          for k, v in l4["guest"]["residency"][0].items()}

    if not 3 < plot.get("unknown", 0) < 4:
        fail("plot: unknown %s, not 70 ms of 2 s" % plot.get("unknown"))
    if set(plot) != set(icr) or set(plot) != set(xr):
        fail("rows differ: plot %s, import-check %s, xcheck %s"
             % (sorted(plot), sorted(icr), sorted(xr)))
    for row in sorted(plot):
        # the windows end at the last event (plot, import-check) or 2 s
        # after the first of the workload's (xcheck): apart by < 1 ms
        if abs(icr[row] - plot[row]) > 0.05 or abs(xr[row] - plot[row]) > 0.05:
            fail("%s: plot %.3f %%, import-check %.3f %%, xcheck %.3f %%"
                 % (row, plot[row], icr[row], xr[row]))
    if abs(sum(xr.values()) - 100) > 1e-6:
        fail("xcheck: shares of the window sum to %.6f %%" % sum(xr.values()))
    # the TVD over the time both know: from the end of the unknown stretch
    known = 2.0 * (1 - plot["unknown"] / 100)
    for what, s in (("import-check", ic["tvd_known_s"]),
                    ("xcheck", l4["residency_tvd_known_s"][0])):
        if abs(s - known) > 0.002:
            fail("%s: TVD over %.3f s, not the %.3f s both know"
                 % (what, s, known))
    md = open("xc/xcheck.md").read()
    if not re.search(r"^\| domain 0 frequency unknown \| 3\.6 % \|", md, re.M):
        fail("xcheck.md: no unknown row like the others")
    if not re.search(r"^\| domain 0 residency TVD to the guest, over the 1\.9\d* s both know \|",
                     md, re.M):
        fail("xcheck.md: the TVD's known time not said")
    if not re.search(r"^\| unknown \| 3\.60 \| 0\.00 \|",
                     open("ic/import-check.md").read(), re.M):
        fail("import-check.md: no unknown row")
    print("ok: unknown %.3f %% in plot, import-check and xcheck level 4"
          % plot["unknown"])
