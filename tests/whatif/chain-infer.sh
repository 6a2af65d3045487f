#!/bin/sh
# Chains inferred from rt-app's resume/suspend (src/input/
# workload_chain_infer.c, docs/simulator.md "Chains inferred from
# resume/suspend"), through the capsim binary:
#   chain-infer.sh CAPSIM SRCDIR
# An inferred chain gives the metrics of the same chain declared by hand;
# ambiguous patterns infer nothing and say why; a declared capsim.chains
# (even {}) is the whole list; rt-app's own examples infer nothing, each
# with its reason. Fails with the reason on stderr.
set -eu
capsim=$(readlink -f "$1")
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# wl NAME TASKS [CAPSIM]: a 2 s workload of TASKS (a JSON object's body)
wl() {
	printf '{ "global": { "duration": 2 },\n  "tasks": { %s }%s }\n' \
		"$2" "${3:+,
  \"capsim\": { $3 \}}" > "$tmp/$1.json"
}
ui='"ui": { "loop": -1, "run": 4000, "resume": "render",
            "timer": { "ref": "vsync", "period": 16667 } }'
render='"render": { "loop": -1, "suspend": "render", "run": 7000 }'
hog='"hog": { "instance": 2, "run": 100000 }'
frame="$ui, $render, $hog"

# 1. inferred = declared by hand: the same chain section apart from
# "inferred"/"inferred_from", chains.csv byte for byte
wl inf "$frame"
wl decl "$frame" '"chains": { "ui": { "tasks": ["ui", "render"], "period_us": 16667, "start": "vsync" } }'
"$capsim" run "$tmp/inf.json" -o "$tmp/inf" > "$tmp/out" 2> "$tmp/err"
"$capsim" run "$tmp/decl.json" -o "$tmp/decl" --quiet
grep -q 'note: tasks.ui: chain ui inferred from resume/suspend: ui -> render (start: timer "vsync", period and deadline 16667 us)$' "$tmp/err" ||
	fail "run does not say the chain was inferred: $(cat "$tmp/err")"
grep -q '^ui  *119  *0  *0  *0  *0.00 ' "$tmp/out" || fail "no chain line in the run table: $(grep -A2 '^chain' "$tmp/out")"
grep -qxF "  ui: inferred from resume/suspend (summary.json's inferred_from names the events)" "$tmp/out" ||
	fail "the run table does not mark the chain inferred: $(grep -A3 '^chain' "$tmp/out")"
[ "$(json "$tmp/inf/summary.json" 'd["chains"]["ui"]["inferred"]')" = True ] || fail "no \"inferred\": true"
[ "$(json "$tmp/inf/summary.json" '[(l["task"], l["event"], l["ref"]) for l in d["chains"]["ui"]["inferred_from"]]')" = \
  "[('ui', 'timer', 'vsync'), ('ui', 'resume', 'render'), ('render', 'suspend', 'render')]" ] ||
	fail "inferred_from: $(json "$tmp/inf/summary.json" 'd["chains"]["ui"]["inferred_from"]')"
[ "$(json "$tmp/decl/summary.json" '"inferred" in d["chains"]["ui"] or "inferred_from" in d["chains"]["ui"]')" = False ] ||
	fail "a declared chain says it was inferred"
python3 - "$tmp/inf/summary.json" "$tmp/decl/summary.json" <<'P' || fail "inferred and declared chain sections differ"
import json, sys
a, b = (json.dumps(json.load(open(f))["chains"], indent=1) for f in sys.argv[1:])
a = json.loads(a)
for c in a.values():
    del c["inferred"], c["inferred_from"]
sys.exit(json.dumps(a, indent=1) != b)
P
cmp "$tmp/inf/chains.csv" "$tmp/decl/chains.csv" || fail "chains.csv differs"
# the latency is real: 4 + 7 ms of work at the top OPP, with two idle exits
[ "$(json "$tmp/inf/summary.json" 'd["chains"]["ui"]["latency_us"]["p50"]')" = 11300.0 ] ||
	fail "inferred chain p50: $(json "$tmp/inf/summary.json" 'd["chains"]["ui"]["latency_us"]')"

# 2. down the line: ui resumes render, render resumes comp; a trigger's
# name with a dot becomes a valid chain name
wl three "$(echo "$ui" | sed 's/"ui"/"ui.main"/'), \"render\": { \"loop\": -1, \"suspend\": \"render\", \"run\": 3000, \"resume\": \"comp\" },
  \"comp\": { \"loop\": -1, \"suspend\": \"comp\", \"run\": 2000 }"
"$capsim" run "$tmp/three.json" -o "$tmp/three" --quiet 2> /dev/null
[ "$(json "$tmp/three/summary.json" '(list(d["chains"]), d["chains"]["ui_main"]["tasks"], d["chains"]["ui_main"]["period_us"], d["chains"]["ui_main"]["deadline_us"], d["chains"]["ui_main"]["start"])')" = \
  "(['ui_main'], ['ui.main', 'render', 'comp'], 16667, 16667, 'vsync')" ] ||
	fail "three-task chain: $(json "$tmp/three/summary.json" 'd.get("chains")')"

# 3. a declared chain wins, and "chains": {} switches inference off
wl other "$frame" '"chains": { "frame": { "tasks": ["render"], "period_us": 16667, "start": "period" } }'
"$capsim" run "$tmp/other.json" -o "$tmp/other" --quiet
[ "$(json "$tmp/other/summary.json" 'list(d["chains"])')" = "['frame']" ] || fail "a declared chain does not win"
wl off "$frame" '"chains": {}'
"$capsim" run "$tmp/off.json" -o "$tmp/off" 2> "$tmp/err" > /dev/null
[ "$(json "$tmp/off/summary.json" '"chains" in d')" = False ] || fail "\"chains\": {} still infers"
[ ! -e "$tmp/off/chains.csv" ] || fail "\"chains\": {} wrote chains.csv"
! grep -q 'inferred' "$tmp/err" || fail "\"chains\": {} still notes an inference"

# 4. ambiguous patterns infer nothing and say why
# ambiguous NAME TASKS REASON
ambiguous() {
	wl "$1" "$2"
	"$capsim" run "$tmp/$1.json" -o "$tmp/$1" > /dev/null 2> "$tmp/err"
	[ "$(json "$tmp/$1/summary.json" '"chains" in d')" = False ] || fail "$1: a chain inferred"
	grep -q "note: .*no chain inferred .*$3" "$tmp/err" || fail "$1: reason not said: $(cat "$tmp/err")"
	[ "$(json "$tmp/$1/summary.json" 'any(sys.argv[3] in w for w in d["warnings"])' "$3")" = True ] ||
		fail "$1: reason not in summary.json's warnings"
}
ambiguous two-wakers "$frame, \"ui2\": { \"loop\": -1, \"run\": 1000, \"resume\": \"render\", \"timer\": { \"ref\": \"t2\", \"period\": 20000 } }" \
	'"render" is resumed by "ui" and "ui2"'
ambiguous two-waiters "$frame, \"render2\": { \"loop\": -1, \"suspend\": \"render\", \"run\": 1000 }" \
	'"render" and "render2" both suspend on "render"'
ambiguous timer-in-resumed "$ui, \"render\": { \"loop\": -1, \"suspend\": \"render\", \"run\": 1000, \"timer\": { \"ref\": \"r\", \"period\": 8000 } }" \
	'"render", resumed by "ui", has its own timer'
ambiguous instances "$(echo "$ui" | sed 's/"loop"/"instance": 2, "loop"/'), $render" \
	'"ui" has 2 instances'
ambiguous fork "$(echo "$ui" | sed 's/"resume": "render",/"resume": "render", "resume": "audio",/'), $render, \"audio\": { \"loop\": -1, \"suspend\": \"audio\", \"run\": 500 }" \
	'"ui" resumes 2 times per loop'
ambiguous waits-too "$ui, \"render\": { \"loop\": -1, \"suspend\": \"render\", \"run\": 1000, \"sleep\": 1000, \"run\": 1000 }" \
	'"render" also blocks in "sleep"'
ambiguous no-timer "\"ui\": { \"loop\": -1, \"run\": 4000, \"resume\": \"render\", \"sleep\": 12000 }, $render" \
	'no task that resumes another is paced by a timer without suspending itself ("ui" resumes "render")'

# 5. rt-app's own examples: nothing inferred, each with its reason
# rtapp FILE REASON
rtapp() {
	"$capsim" run "$src/tests/fixtures/rt-app/$1" --duration 0.5 -o "$tmp/rtapp" > /dev/null 2> "$tmp/err" ||
		fail "$1 does not run: $(cat "$tmp/err")"
	[ "$(json "$tmp/rtapp/summary.json" '"chains" in d')" = False ] || fail "$1: a chain inferred"
	grep -q "no chain inferred .*$2" "$tmp/err" || fail "$1: reason not said: $(grep chain "$tmp/err")"
}
# AudioTick resumes AudioOut in one phase of five: not every period
rtapp mp3-short.json '"AudioTick"'"'"'s phases differ ("p2" has other'
rtapp tutorial/example4.json '("thread0" resumes "thread1")'
rtapp tutorial/example5.json '"thread0"'"'"'s phases differ ("p1" has other'
rtapp browser-short.json '("BrowserMain" resumes "Browser")'
# and the inferred chain in compare, as a declared one
"$capsim" compare "$tmp/inf.json" --policies none --duration 1 --no-plots -o "$tmp/c" > "$tmp/out" 2>/dev/null
grep -q '^chain ui (inferred) jank % (late/periods) *0.0% (0/59)' "$tmp/out" || fail "compare: $(grep chain "$tmp/out")"
# and in sweep: --metric checked against the inferred chains before any
# point runs, and without --metric the one chain is the Pareto metric
"$capsim" sweep "$tmp/inf.json" --set 'tasks.ui.run=3000,4000' --policies none --duration 1 \
	--metric chain.ui.jank_pct -o "$tmp/s" --quiet 2> /dev/null || fail "sweep --metric chain.ui.jank_pct refused"
head -1 "$tmp/s/sweep.csv" | grep -q ',chain.ui.jank_pct,chain.ui.lat_p50_ms,chain.ui.lat_p95_ms,chain.ui.lat_p99_ms$' ||
	fail "sweep chain columns: $(head -1 "$tmp/s/sweep.csv")"
"$capsim" sweep "$tmp/inf.json" --set 'tasks.ui.run=3000,4000' --policies none --duration 1 \
	-o "$tmp/s2" --quiet 2> /dev/null || fail "sweep without --metric: the inferred chain is not its one candidate"
grep -q "^ylab = 'chain ui jank (%)'$" "$tmp/s2/pareto-data/vars.gp" || fail "default metric: $(grep ylab "$tmp/s2/pareto-data/vars.gp")"
st=0
"$capsim" sweep "$tmp/off.json" --set 'tasks.ui.run=3000,4000' --policies none --duration 1 \
	--metric chain.ui.jank_pct -o "$tmp/s3" --quiet 2> /dev/null || st=$?
[ $st = 2 ] || fail "sweep --metric of a chain switched off: exit $st, expected 2"
echo "ok: inferred chains"
