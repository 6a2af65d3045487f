#!/bin/sh
# capsim import-check (src/import/import_check.c) end to end:
#   import-check.sh CAPSIM SRCDIR
# identity (a workload's own trace against the workload: every delta 0,
# TVD 0), a perturbed workload (run doubled: busy +100 %, flagged), a
# renamed task (missing and extra), the unknown stretch left out of the
# TVD, the window and --tasks, and the bad-input rows (exit 2, nothing
# written). Each fails with the reason on stderr.
set -eu
capsim=$(readlink -f "$1")
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
cd "$tmp"

fail() { echo "FAIL: $*" >&2; exit 1; }
# json FILE EXPR: EXPR over the parsed FILE (d), printed
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# is FILE EXPR WANT WHAT
is() { got=$(json "$1" "$2"); [ "$got" = "$3" ] || fail "$4: $2 is $got, not $3"; }

# two periodic tasks (timers: a longer run keeps the activations)
cat > w.json <<'W'
{
  "global": { "duration": 2 },
  "tasks": {
    "worker": { "loop": -1, "run": 2000, "timer": { "ref": "tw", "period": 10000 } },
    "helper": { "loop": -1, "run": 1000, "timer": { "ref": "th", "period": 4000 } }
  }
}
W
sed 's/"run": 2000/"run": 4000/' w.json > doubled.json
sed 's/"worker"/"worker2"/' w.json > renamed.json
# sym4 at its top OPP: a run of twice the work takes twice the time
sed 's/"cpus": \[0, 1, 2, 3\],/"cpus": [0, 1, 2, 3], "governor": "performance",/' \
	"$src/traces/platforms/sym4.json" > perf.json
grep -q performance perf.json || fail "perf.json: sym4.json changed"

"$capsim" run w.json -o src --quiet
"$capsim" run w.json --platform perf.json -o src-perf --quiet

# identity: the trace of W against W
"$capsim" import-check src/trace.txt w.json -o id > out.txt
grep -q '^import-check: id/ (.*): 2 tasks, 0 beyond' out.txt || fail "identity: $(cat out.txt)"
for f in import-check.md import-check.json import-check.png import-check.svg sim/trace.txt sim/summary.json; do
	[ -s "id/$f" ] || fail "identity: no $f"
done
is id/import-check.json 'd["within_tolerance"]' True identity
is id/import-check.json 'sorted(t["name"] for t in d["tasks"] if t["status"] == "ok")' "['helper', 'worker']" identity
is id/import-check.json 'set(v for t in d["tasks"] for v in t["delta_pct"].values())' '{0.0}' "identity deltas"
is id/import-check.json 'all(t["source"]["activations"] > 100 for t in d["tasks"])' True "identity activations"
is id/import-check.json 'set(c["source_busy_pct"] - c["sim_busy_pct"] for c in d["cpus"])' '{0.0}' "identity CPU residency"
is id/import-check.json '[x["tvd"] for x in d["domains"]]' '[0.0]' "identity TVD"
is id/import-check.json 'sum(r["source_pct"] for r in d["domains"][0]["residency"]) > 99.9' True "identity residency"
grep -q '^| worker | ok | 1 / 1 |' id/import-check.md || fail "identity: no worker row in the md"
# two lanes lanes_h 120 + 26 * 4, one domain: import-check.gp
python3 "$src/tests/whatif/pngcheck.py" id/import-check.png 1000 $((20 + 2 * (120 + 26 * 4) + 190)) ||
	fail "identity: import-check.png"

# run doubled, at a fixed frequency: busy +100 %, flagged; the rest ok
"$capsim" import-check src-perf/trace.txt doubled.json --platform perf.json -o dbl --quiet --no-plots
is dbl/import-check.json 'd["within_tolerance"]' False doubled
is dbl/import-check.json '[(t["name"], t["status"], t["over_tolerance"]) for t in d["tasks"]]' \
	"[('helper', 'ok', []), ('worker', 'over', ['busy'])]" doubled
is dbl/import-check.json '95 < d["tasks"][1]["delta_pct"]["busy"] < 105' True "doubled busy"
is dbl/import-check.json 'd["tasks"][1]["delta_pct"]["activations"]' 0.0 "doubled activations"
grep -q '^| worker | over | .* | +100.0 % \*\*over\*\* |' dbl/import-check.md || fail "doubled: md row"
[ ! -e dbl/import-check.png ] || fail "--no-plots drew"

# a renamed task: missing from the simulation, and an extra one
"$capsim" import-check src/trace.txt renamed.json -o ren --quiet --no-plots
is ren/import-check.json '[(t["name"], t["status"]) for t in d["tasks"]]' \
	"[('helper', 'ok'), ('worker', 'missing'), ('worker2', 'extra')]" renamed
is ren/import-check.json 'd["within_tolerance"]' False renamed

# a source that does not know its frequency for its first 70 ms (W's
# run: 2 GHz at first, at 1 GHz from 84 ms on): an unknown row of its
# own, and the TVD over the time both know, still 0 (over the whole
# window it would not be: the simulation's 2 GHz stretch)
# (capsim's trace clock starts at 1 s: SIM_TRACE_CLOCK_NS)
awk '/cpu_frequency/ && $3 + 0 < 1.07 { next } { print }' src/trace.txt > late-freq.txt
"$capsim" import-check late-freq.txt w.json -o late --quiet --no-plots
is late/import-check.json '3 < d["domains"][0]["source_unknown_pct"] < 4' True "unknown stretch"
is late/import-check.json 'd["domains"][0]["sim_unknown_pct"]' 0.0 "sim unknown"
is late/import-check.json '[(r["mhz"], r["source_pct"] == 0, r["sim_pct"] > 0) for r in d["domains"][0]["residency"] if r["mhz"] == 2000]' \
	'[(2000, True, True)]' "2 GHz only in the simulation"
is late/import-check.json 'd["domains"][0]["tvd"]' 0.0 "TVD over the known time"
is late/import-check.json '1.9 < d["domains"][0]["tvd_known_s"] < 1.95' True "known time"

# a window and a task filter
"$capsim" import-check src/trace.txt w.json --from 0.5 --to 1.5 --tasks '^help' -o win --quiet --no-plots
is win/import-check.json '(d["window_from_s"], d["length_s"])' '(0.5, 1.0)' window
is win/import-check.json '[t["name"] for t in d["tasks"]]' "['helper']" "--tasks"
is win/import-check.json 'd["tasks"][0]["source"]["activations"]' 250 "window activations"

# one capture in every form capsim reads (tests/fixtures/traces: audio on
# juno-r0, 0.1 s) against the workload that made it: identity in each,
# the same figures from each
fx="$src/tests/fixtures/traces"
for f in capture.txt capture.dat report.txt report-N.txt report-R.txt systrace.txt systrace.html; do
	set +e
	"$capsim" import-check "$fx/$f" "$src/traces/audio.json" --platform juno-r0 \
		-o "form-$f" --quiet --no-plots 2> se.txt
	rc=$?
	set -e
	if [ "$f" = capture.dat ] && [ "$rc" = 2 ] && grep -q libtracecmd se.txt; then
		continue	# a build without libtracecmd reads no trace.dat
	fi
	[ "$rc" = 0 ] || fail "form $f: exit $rc: $(cat se.txt)"
	is "form-$f/import-check.json" 'd["within_tolerance"]' True "form $f"
	json "form-$f/import-check.json" '(d["length_s"], d["tasks"], d["cpus"], d["domains"])' > "form-$f.figs"
	cmp -s form-capture.txt.figs "form-$f.figs" || fail "form $f: other figures than capture.txt's"
done
is form-report.txt/import-check.json '[t["name"] for t in d["tasks"]]' "['audio_ft', 'mixer', 'ui']" "forms: tasks"

# bad input: exit 2, the reason, nothing written
# bad WANT_IN_STDERR ARGS...
bad() {
	want=$1
	shift
	rm -rf out
	set +e
	"$capsim" import-check "$@" -o out > so.txt 2> se.txt
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "import-check $*: exit $rc, not 2: $(cat se.txt)"
	grep -q -- "$want" se.txt || fail "import-check $*: no \"$want\" in: $(cat se.txt)"
	[ ! -e out ] || fail "import-check $*: wrote out/"
}
echo '          <idle>-0     [000] d..2.  0.000100: cpu_frequency: state=500000 cpu_id=0' > no-switch.txt
echo '{ "tasks": ' > broken.json
bad 'cannot read source trace nope.txt' nope.txt w.json
bad 'cannot read workload nope.json' src/trace.txt nope.json
bad 'no sched_switch event' no-switch.txt w.json
bad 'unknown policy "fair"' src/trace.txt w.json --policy fair
bad 'unknown platform\|no platform\|not found' src/trace.txt w.json --platform nope9
bad '--tasks "(" is no POSIX' src/trace.txt w.json --tasks '('
bad '--to 0.500000 is not after --from 1.000000' src/trace.txt w.json --from 1 --to 0.5
bad 'outside the trace' src/trace.txt w.json --from 50
bad 'failed (exit 2)' src/trace.txt broken.json
"$capsim" run w.json --platform sd855 -o src-sd855 --quiet
bad 'not an OPP of its domain in sym4' src-sd855/trace.txt w.json
bad 'needs a SOURCE_TRACE and a WORKLOAD' src/trace.txt
echo "import-check: ok"
