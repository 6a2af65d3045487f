#!/bin/sh
# What is unknown stays unknown, the same in every command
# (docs/traces.md; src/trace/freq_residency.h):
#   unknown-agrees.sh CAPSIM SRCDIR
# A trace whose domain has its first cpu_frequency 70 ms in (a capsim
# run's trace with the earlier frequency events and decisions taken out)
# gives the same residency, the `unknown` row and every OPP's share of
# the window, in `capsim plot` (data/residency-dom0.dat), `capsim
# import-check` (the source's column) and `capsim xcheck` level 4 (the
# guest's); and both comparisons say the TVD is over the time both
# traces know. Fails with the reason on stderr.
set -eu
capsim=$(readlink -f "$1")
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
cd "$tmp"

fail() { echo "FAIL: $*" >&2; exit 1; }

cat > w.json <<'W'
{
  "global": { "duration": 2 },
  "tasks": {
    "worker": { "loop": -1, "run": 2000, "timer": { "ref": "tw", "period": 10000 } },
    "helper": { "loop": -1, "run": 1000, "timer": { "ref": "th", "period": 4000 } }
  }
}
W
"$capsim" run w.json -o src --quiet
# capsim's trace clock starts at 1 s; xcheck takes a decision's frequency
# as known too (docs/xcheck.md), so the decisions go with the frequencies
awk '/cpu_frequency|capsim_sugov/ && $3 + 0 < 1.07 { next } { print }' \
	src/trace.txt > late.txt

"$capsim" plot late.txt --platform sym4 -o pl --quiet
"$capsim" import-check late.txt w.json -o ic --quiet --no-plots
rc=0
"$capsim" xcheck w.json --guest-trace late.txt -o xc --no-plots --quiet \
	--no-trace-driven >/dev/null || rc=$?
# levels 1-3 have nothing to check in this trace: exit 1, report written
[ "$rc" -le 1 ] || fail "xcheck exited $rc"

python3 - pl/data/residency-dom0.dat ic/import-check.json xc/xcheck.json <<'PY' || exit 1
import json, sys

def fail(msg):
    sys.stderr.write("FAIL: %s\n" % msg)
    sys.exit(1)

plot = {}
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    row, pct = line.split()
    plot[row] = float(pct)
ic = json.load(open(sys.argv[2]))["domains"][0]
icr = {"unknown": ic["source_unknown_pct"]}
icr.update({str(r["mhz"]): r["source_pct"] for r in ic["residency"]})
l4 = json.load(open(sys.argv[3]))["level4"]
xr = {("unknown" if k == "unknown" else str(int(k) // 1000)): 100 * v
      for k, v in l4["guest"]["residency"][0].items()}

if not 3 < plot.get("unknown", 0) < 4:
    fail("plot: unknown %s, not 70 ms of 2 s" % plot.get("unknown"))
if set(plot) != set(icr) or set(plot) != set(xr):
    fail("rows differ: plot %s, import-check %s, xcheck %s"
         % (sorted(plot), sorted(icr), sorted(xr)))
for row in sorted(plot):
    # the windows end at the last event (plot, import-check) or 2 s after
    # the first of the workload's (xcheck): apart by less than 1 ms
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
        fail("%s: TVD over %.3f s, not the %.3f s both know" % (what, s, known))
PY
grep -q '^| domain 0 frequency unknown | 3\.6 % |' xc/xcheck.md ||
	fail "xcheck.md: no unknown row like the others: $(grep 'domain 0' xc/xcheck.md)"
grep -q '^| domain 0 residency TVD to the guest, over the 1\.9[0-9]* s both know |' xc/xcheck.md ||
	fail "xcheck.md: the TVD's known time not said"
grep -q '^| unknown | 3\.60 | 0\.00 |' ic/import-check.md ||
	fail "import-check.md: no unknown row"
echo "ok: unknown $(grep '^unknown' pl/data/residency-dom0.dat | cut -d' ' -f2) % in plot, import-check and xcheck level 4"
