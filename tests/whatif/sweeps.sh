#!/bin/sh
# Sweeps that collect what they emitted (issue 37, item 3), through the
# capsim binary:
#   sweeps.sh CAPSIM SRCDIR CASE
# CASE: onepoint, style, plan, paired, bools, stats, trace. Each fails
# with the reason on stderr.
set -eu
capsim=$(readlink -f "$1")
src=$2
case_=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
w="$src/traces/whatif-bg-cap.json"
bg='capsim.taskgroups["/bg"]'

fail() { echo "FAIL: $*" >&2; exit 1; }
pycheck() { python3 "$src/tests/whatif/pngcheck.py" "$@" || fail "png $1"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

case $case_ in
onepoint)
	# a sweep of one point: its row, a plot without a front, exit 0
	# (gnuplot 5.4 crashed on the labels plots of a one-row file: exit 1
	# after every run had succeeded)
	"$capsim" sweep "$w" --set "$bg.capacity_max=128" --policies rfc \
		--duration 1 -o "$tmp/one" > "$tmp/out" 2> "$tmp/err" ||
		fail "one point: exit $?: $(cat "$tmp/err")"
	[ ! -s "$tmp/err" ] || fail "one point: stderr: $(cat "$tmp/err")"
	[ "$(wc -l < "$tmp/one/sweep.csv")" = 2 ] || fail "one point: sweep.csv: $(cat "$tmp/one/sweep.csv")"
	pycheck "$tmp/one/pareto.png" 1000 720
	tail -c 16 "$tmp/one/pareto.svg" | grep -q '</svg>' || fail "one point: pareto.svg not whole"
	grep -qx 'hasfront\[1\] = 0' "$tmp/one/pareto-data/vars.gp" || fail "one point: a front"
	[ "$(cat "$tmp/one/pareto-data/pareto-front.dat")" = "NaN NaN 0" ] ||
		fail "one point: front rows: $(cat "$tmp/one/pareto-data/pareto-front.dat")"
	# its energy axis (one value) given a range, not gnuplot's warning
	grep -qx 'xfix\[1\] = 1' "$tmp/one/pareto-data/vars.gp" || fail "one point: no fixed x range"
	# one point per platform: a panel each, neither with a front; with
	# repeats too (its error bars)
	"$capsim" sweep "$w" --set "$bg.capacity_max=128" --policies rfc --platforms sym4,sd855 \
		--repeat 2 --duration 1 -o "$tmp/two" --quiet 2> "$tmp/err" ||
		fail "a point per platform: $(cat "$tmp/err")"
	[ ! -s "$tmp/err" ] || fail "a point per platform: stderr: $(cat "$tmp/err")"
	[ "$(grep -c '^hasfront\[[12]\] = 0$' "$tmp/two/pareto-data/vars.gp")" = 2 ] ||
		fail "a point per platform: a front"
	pycheck "$tmp/two/pareto.png" 1000 880
	# two points: a front again
	"$capsim" sweep "$w" --set "$bg.capacity_max=128,1024" --policies rfc \
		--duration 1 -o "$tmp/pair" --quiet
	grep -qx 'hasfront\[1\] = 1' "$tmp/pair/pareto-data/vars.gp" || fail "two points: no front"
	;;
style)
	# labels name each parameter by a short key, the title's last line
	# names their columns
	"$capsim" sweep "$w" --set "$bg.capacity_max=256,1024" --set "$bg.capacity_min=0,128" \
		--drop capsim.events --policies none,rfc --duration 1 -o "$tmp/k" --quiet
	grep -q "labels: max = bg_capacity_max, min = bg_capacity_min'$" "$tmp/k/pareto-data/vars.gp" ||
		fail "the keys are not named: $(grep runtitle "$tmp/k/pareto-data/vars.gp")"
	cat "$tmp"/k/pareto-data/labels-1-*.dat > "$tmp/labels"
	# rfc's points of cap 256 on one spot whatever the min: one label,
	# "any" the key that changes nothing, and the count of points
	grep -q '"max=256, any min ×2"$' "$tmp/labels" || fail "labels: $(cat "$tmp/labels")"
	# under none the caps change nothing: its four points on one spot,
	# with rfc's uncapped two
	grep -q '"none: any max, any min; rfc: max=1024, any min ×6"$' "$tmp/labels" ||
		fail "the spot of none's 4 points: $(cat "$tmp/labels")"
	# a key per parameter on a label of parameters that vary together
	"$capsim" sweep "$w" --set "$bg.capacity_max=256,1024" --set "$bg.capacity_min=0,128" --link \
		--drop capsim.events --policies rfc --duration 1 -o "$tmp/kl" --quiet
	cat "$tmp"/kl/pareto-data/labels-1-*.dat > "$tmp/labels"
	grep -q '"max=256, min=0"$' "$tmp/labels" && grep -q '"max=1024, min=128"$' "$tmp/labels" ||
		fail "linked labels: $(cat "$tmp/labels")"
	# one colour per policy, by name: rfc blue and none orange whatever
	# the order of --policies, in the sweep and in compare
	"$capsim" sweep "$w" --set "$bg.capacity_max=256,1024" --drop capsim.events \
		--policies rfc,none --duration 1 -o "$tmp/k2" --quiet
	for d in k k2; do
		python3 - "$tmp/$d/pareto-data/vars.gp" <<'PY' || fail "$d: colours by name: $(grep series "$tmp/$d/pareto-data/vars.gp")"
import re, sys
t = open(sys.argv[1]).read()
lab = dict(re.findall(r"serieslabel\[(\d)\] = '(\w+)'", t))
col = dict(re.findall(r"seriescolour\[(\d)\] = '(#\w+)'", t))
want = {"rfc": "#1f77b4", "none": "#ff7f0e"}
assert {lab[i]: col[i] for i in lab} == want, (lab, col)
PY
	done
	"$capsim" compare "$w" --policies uclamp,rfc --duration 1 -o "$tmp/c" --quiet
	grep -qx "seriescolour\[2\] = '#1f77b4'" "$tmp/c/compare-data/vars.gp" &&
		grep -qx "seriescolour\[1\] = '#2ca02c'" "$tmp/c/compare-data/vars.gp" ||
		fail "compare: colours by name: $(grep colour "$tmp/c/compare-data/vars.gp")"
	grep -q 'lc rgb seriescolour' "$src/plots/compare.gp" || fail "compare.gp: colours by order"
	# points of several policies on one spot: their markers set apart
	# (energy_drawn), one label: their values once (the same for all)
	"$capsim" sweep "$w" --set "$bg.capacity_max=1024" --drop capsim.events \
		--policies rfc,none,uclamp --duration 1 -o "$tmp/same" --quiet
	python3 - "$tmp/same/pareto-data/pareto.dat" <<'PY' || fail "one spot: $(cat "$tmp/same/pareto-data/pareto.dat")"
import shlex, sys
rows = [shlex.split(l) for l in open(sys.argv[1]) if not l.startswith("#")]
assert len(rows) == 3, rows
assert len({r[0] for r in rows}) == 1 and len({r[1] for r in rows}) == 1, rows
drawn = sorted(float(r[6]) for r in rows)
assert drawn[0] < float(rows[0][0]) < drawn[2], drawn
labels = [r[4] for r in rows if r[4]]
assert labels == ["max=1024 ×3"], labels
assert [r[7] for r in rows] == ["3", "0", "0"], rows
PY
	pycheck "$tmp/same/pareto.png" 1000 720
	;;
plan)
	# the metric and every setting are in sweep.json: --emit-jobs with
	# --metric on a workload of several candidates, then --collect DIR
	# as the sweep says (was exit 2 asking for --metric again)
	vp="$src/traces/video-playback.json"
	"$capsim" sweep "$vp" --set 'tasks.decoder.run=8000,9000' --policies rfc,none \
		--duration 1 --metric decoder.resp_p95_ms -o "$tmp/e" --emit-jobs "$tmp/jobs" > "$tmp/out"
	then=$(sed -n 's/^then: *//p' "$tmp/out")
	[ "$then" = "capsim sweep --collect $tmp/e" ] || fail "emit: then: $(cat "$tmp/out")"
	[ "$(json "$tmp/e/sweep.json" 'd["metric"]')" = decoder.resp_p95_ms ] || fail "no metric in the plan"
	while IFS= read -r line; do sh -c "$line" || fail "job: $line"; done < "$tmp/jobs"
	"$capsim" sweep --collect "$tmp/e" > "$tmp/out" 2> "$tmp/err" ||
		fail "--collect without --metric: exit $?: $(cat "$tmp/err")"
	grep -q '(energy vs decoder.resp_p95_ms)$' "$tmp/out" || fail "--collect: $(cat "$tmp/out")"
	[ ! -s "$tmp/err" ] || fail "--collect: stderr: $(cat "$tmp/err")"
	grep -q "^ylab = 'decoder response p95 (ms)'$" "$tmp/e/pareto-data/vars.gp" || fail "--collect: another metric plotted"
	# an explicit --metric overrides it, said
	"$capsim" sweep --collect "$tmp/e" --metric render.resp_p95_ms --quiet 2> "$tmp/err" ||
		fail "--collect --metric: $(cat "$tmp/err")"
	grep -q 'the plot shows it, not the sweep.s decoder.resp_p95_ms' "$tmp/err" || fail "override not said: $(cat "$tmp/err")"
	grep -q "^ylab = 'render response p95 (ms)'$" "$tmp/e/pareto-data/vars.gp" || fail "override not plotted"
	[ "$(json "$tmp/e/sweep.json" 'd["metric"]')" = decoder.resp_p95_ms ] || fail "the override changed the plan"
	# --resume -o DIR alone, from another directory: the plan's workload,
	# parameters, policies, duration, --keep-traces and metric
	"$capsim" sweep "$vp" --set 'tasks.decoder.run=8000,9000' --policies rfc,none \
		--duration 1 --metric decoder.resp_p95_ms --keep-traces -o "$tmp/r" --quiet
	cp "$tmp/r/sweep.csv" "$tmp/r.csv"
	rm -r "$tmp/r/points/0003" "$tmp/r/sweep.csv"
	(cd / && "$capsim" sweep --resume -o "$tmp/r" > "$tmp/out" 2> "$tmp/err") ||
		fail "--resume -o DIR alone: exit $?: $(cat "$tmp/err")"
	grep -q 'resumed: 3 points were finished already, 1 run now' "$tmp/out" || fail "--resume: $(cat "$tmp/out")"
	cmp -s "$tmp/r.csv" "$tmp/r/sweep.csv" || fail "--resume -o DIR alone: other rows"
	[ -s "$tmp/r/points/0003/run/trace.txt" ] || fail "--resume -o DIR alone: no trace kept"
	# with arguments and no --metric: the sweep's metric (was exit 2:
	# several candidates)
	rm -r "$tmp/r/points/0004"
	"$capsim" sweep "$vp" --set 'tasks.decoder.run=8000,9000' --policies rfc,none \
		--duration 1 --keep-traces --resume -o "$tmp/r" --quiet 2> "$tmp/err" ||
		fail "--resume without --metric: $(cat "$tmp/err")"
	cmp -s "$tmp/r.csv" "$tmp/r/sweep.csv" || fail "--resume without --metric: other rows"
	# arguments that differ from the plan: refused, naming the setting
	st=0
	"$capsim" sweep "$vp" --set 'tasks.decoder.run=8000,9000' --policies rfc,none \
		--duration 1 --resume -o "$tmp/r" --quiet 2> "$tmp/err" || st=$?
	[ $st = 2 ] && grep -q "this command's keep_traces (none) is not the sweep's" "$tmp/err" ||
		fail "--resume without --keep-traces: exit $st: $(cat "$tmp/err")"
	# a plan edited by hand: its values checked as --set values are
	python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
d['params'][0]['values'][1] = -5
json.dump(d, open(sys.argv[1], 'w'))" "$tmp/r/sweep.json"
	st=0
	"$capsim" sweep --resume -o "$tmp/r" --quiet 2> "$tmp/err" || st=$?
	[ $st = 2 ] && grep -q '^capsim: --set tasks.decoder.run: the value -5: tasks.decoder.run: -5 is out of range: allowed \[0, ' "$tmp/err" ||
		fail "--resume of a plan with a value out of range: exit $st: $(cat "$tmp/err")"
	# the workload changed since: refused (its points would differ)
	cp "$vp" "$tmp/vp.json"
	"$capsim" sweep "$tmp/vp.json" --set 'tasks.decoder.run=8000,9000' --policies rfc \
		--duration 1 --metric decoder.resp_p95_ms -o "$tmp/c" --quiet
	sed -i 's/"decoder"/"decoder" /' "$tmp/vp.json"
	st=0
	"$capsim" sweep --resume -o "$tmp/c" --quiet 2> "$tmp/err" || st=$?
	[ $st = 2 ] && grep -q "this command's workload_sha256 " "$tmp/err" ||
		fail "--resume of a changed workload: exit $st: $(cat "$tmp/err")"
	;;
paired)
	# common random numbers: under none the cap changes nothing, so with
	# paired seeds every cap gives the same runs to the digit (the
	# frames' jitter drawn alike); --unpaired draws each cap its own
	fj="$src/traces/frame-jank.json"
	for mode in paired unpaired; do
		flag=; [ $mode = unpaired ] && flag=--unpaired
		# shellcheck disable=SC2086
		"$capsim" sweep "$fj" --set 'capsim.taskgroups["/background"].capacity_max=307,1024' \
			--policies none --platforms sd855 --repeat 2 --duration 2 $flag -o "$tmp/$mode" --quiet
	done
	python3 - "$tmp/paired/sweep.csv" "$tmp/unpaired/sweep.csv" <<'PY' || fail "paired seeds"
import csv, sys
def runs(f):
    rows = list(csv.DictReader(open(f)))
    return {(r["background_capacity_max"], r["repeat"]): r for r in rows}
p, u = runs(sys.argv[1]), runs(sys.argv[2])
cols = ("seed", "energy_mj", "chain.frame.jank_pct", "chain.frame.lat_p95_ms")
for k in ("1", "2"):
    assert [p[("307", k)][c] for c in cols] == [p[("1024", k)][c] for c in cols], (k, p)
    assert u[("307", k)]["seed"] != u[("1024", k)]["seed"], u
assert p[("307", "1")]["seed"] != p[("307", "2")]["seed"], p
# unpaired, the caps' runs differ by their draws alone
assert any(u[("307", k)]["chain.frame.lat_p95_ms"] != u[("1024", k)]["chain.frame.lat_p95_ms"]
           or u[("307", k)]["energy_mj"] != u[("1024", k)]["energy_mj"] for k in ("1", "2")), u
PY
	;;
bools)
	# a switch as docs/knobs.md writes it ("util_est": true) swept as
	# false,true and as 0,1 (was: "not a number, a range or a JSON
	# value"; "the workload has true there, not a number")
	# (docs/knobs.md's periodic task: 3 ms run, 7 ms sleep, on sym4)
	cat > "$tmp/ue.json" <<'EOF'
{
  "global": { "duration": 2 },
  "capsim": { "util_est": true, "iowait_boost": false },
  "tasks": { "p": { "run": 3000, "sleep": 7000 } }
}
EOF
	for spec in false,true 0,1; do
		"$capsim" sweep "$tmp/ue.json" --set "capsim.util_est=$spec" \
			--policies rfc -o "$tmp/b-$spec" --quiet 2> "$tmp/err" ||
			fail "util_est=$spec: exit $?: $(cat "$tmp/err")"
		[ "$(cut -d, -f2 "$tmp/b-$spec/sweep.csv" | tr '\n' ' ')" = "util_est false true " ] ||
			fail "util_est=$spec: sweep.csv: $(cat "$tmp/b-$spec/sweep.csv")"
		[ "$(json "$tmp/b-$spec/points/0001/ue.json" 'd["capsim"]["util_est"]')" = False ] &&
			[ "$(json "$tmp/b-$spec/points/0002/ue.json" 'd["capsim"]["util_est"]')" = True ] ||
			fail "util_est=$spec: the points' workloads"
		grep -q '"util_est=false"' "$tmp"/b-$spec/pareto-data/labels-1-*.dat || fail "util_est=$spec: labels"
	done
	cmp -s "$tmp/b-false,true/sweep.csv" "$tmp/b-0,1/sweep.csv" || fail "0,1 and false,true differ"
	# the knob makes a difference (util_est off: a lower frequency)
	[ "$(cut -d, -f7 "$tmp/b-0,1/sweep.csv" | sed 1d | sort -u | wc -l)" = 2 ] ||
		fail "util_est: the same energy on and off"
	# and beside another parameter
	"$capsim" sweep "$tmp/ue.json" --set 'capsim.hz=100,250' \
		--set 'capsim.iowait_boost=true,false' --policies rfc --duration 1 -o "$tmp/b2" --quiet
	# another number over a boolean, a boolean twice, a boolean where a
	# number is: exit 2 before any point
	for bad in 'capsim.util_est=0,2:allowed false,true or 0,1, not 2' \
		   'capsim.util_est=true,false,true:the value true is listed twice' \
		   'tasks.p.run=false,true:the value false: tasks.p.run: false is not an integer'; do
		st=0
		"$capsim" sweep "$tmp/ue.json" --set "${bad%%:*}" --policies rfc -o "$tmp/bbad" \
			--quiet 2> "$tmp/err" || st=$?
		[ $st = 2 ] && grep -q "${bad#*:}" "$tmp/err" && [ ! -e "$tmp/bbad" ] ||
			fail "--set ${bad%%:*}: exit $st: $(cat "$tmp/err")"
	done
	;;
stats)
	# a bounded metric (jank %) with repeats: beside mean +- t, the
	# median, the t-interval clipped to 0..100 and a bootstrap interval
	# (a fixed seed: the same at every collect), in sweep-summary.csv,
	# its sidecar and the plot's bars
	fj="$src/traces/frame-jank.json"
	# (uclamp at 30 % on juno-r0: one late frame in 3 000, 0.03 +- 0.09 %
	# over five runs: its t-interval goes below 0)
	"$capsim" sweep "$fj" --set 'capsim.taskgroups["/background"].capacity_max=307,1024' \
		--policies rfc,uclamp --platforms sd855,juno-r0 --repeat 5 -o "$tmp/s" --quiet
	cp "$tmp/s/sweep-summary.csv" "$tmp/summary1.csv"
	"$capsim" sweep --collect "$tmp/s" --quiet
	cmp -s "$tmp/summary1.csv" "$tmp/s/sweep-summary.csv" || fail "the bootstrap differs from collect to collect"
	python3 - "$tmp/s" <<'PY' || fail "sweep-summary.csv's robust columns"
import csv, json, statistics, sys
d = sys.argv[1]
runs = list(csv.DictReader(open(d + "/sweep.csv")))
summ = list(csv.DictReader(open(d + "/sweep-summary.csv")))
head = next(csv.reader(open(d + "/sweep-summary.csv")))
j = "chain.frame.jank_pct"
for sfx in ("_mean", "_sd", "_ci95", "_median", "_ci_lo", "_ci_hi", "_boot_lo", "_boot_hi"):
    assert j + sfx in head and "metric" + sfx in head, sfx
# a figure that is not a share keeps the three
assert "energy_mj_ci95" in head and "energy_mj_median" not in head, head
side = json.load(open(d + "/sweep.columns.json"))["sweep-summary.csv"]
assert [c["name"] for c in side] == head
assert "bootstrap" in {c["name"]: c["meaning"] for c in side}["metric_boot_lo"]
clipped = 0
for g, s in enumerate(summ):
    v = [float(r[j]) for r in runs[5 * g:5 * g + 5]]
    f = lambda k: float(s[k])
    assert abs(f(j + "_median") - statistics.median(v)) < 1e-4, (s, v)
    assert min(v) - 1e-6 <= f(j + "_boot_lo") <= f(j + "_boot_hi") <= max(v) + 1e-6, (s, v)
    assert 0 <= f(j + "_ci_lo") <= f(j + "_mean") <= f(j + "_ci_hi") <= 100, s
    lo, hi = f(j + "_mean") - f(j + "_ci95"), f(j + "_mean") + f(j + "_ci95")
    clipped += lo < 0 or hi > 100
    assert abs(f(j + "_ci_lo") - max(0, lo)) < 1e-3 and abs(f(j + "_ci_hi") - min(100, hi)) < 1e-3, s
    for sfx in ("_median", "_ci_lo", "_ci_hi", "_boot_lo", "_boot_hi"):
        assert s["metric" + sfx] == s[j + sfx], sfx
# some point's t-interval leaves 0..100 (the case this is for)
assert clipped, "no interval needed clipping: not the case tested"
# the plot's bars are the clipped interval
for l in open(d + "/pareto-data/pareto.dat"):
    if l.startswith("#"):
        continue
    x = l.rsplit(None, 4)
    assert 0 <= float(x[3]) <= float(x[4]) <= 100, l
PY
	grep -q '^ynonneg = 1$' "$tmp/s/pareto-data/vars.gp" || fail "the jank axis does not start at 0"
	pycheck "$tmp/s/pareto.png" 1000 880
	;;
trace)
	# a point of a sweep without --keep-traces: plot says how to get its
	# trace (was: "cannot read .../trace.txt"), sweep --trace DIR N runs
	# it again with it, into points/NNNN/traced, the point's own run
	# untouched and its figures the same
	# (frame-jank draws its frames' work from the seed: the same
	# summary is the same seed)
	"$capsim" sweep "$src/traces/frame-jank.json" --set 'capsim.taskgroups["/background"].capacity_max=307,1024' \
		--set 'platform.domains[*].rate_limit_us=500,2000' --policies rfc,uclamp \
		--platforms juno-r0 --duration 1 --repeat 2 -o "$tmp/s" --quiet
	st=0
	"$capsim" plot "$tmp/s/points/0006/run" 2> "$tmp/err" || st=$?
	[ $st = 2 ] && grep -qF "has no trace.txt: the sweep ran its points without --keep-traces. \`capsim sweep --trace $tmp/s 6\` runs this point again with its trace, into $tmp/s/points/0006/traced" "$tmp/err" ||
		fail "plot of a point without its trace: exit $st: $(cat "$tmp/err")"
	cp "$tmp/s/points/0006/run/summary.json" "$tmp/sum6"
	"$capsim" sweep --trace "$tmp/s" 6 > "$tmp/out" 2> "$tmp/err" || fail "--trace: exit $?: $(cat "$tmp/err")"
	[ ! -s "$tmp/err" ] || fail "--trace: stderr: $(cat "$tmp/err")"
	grep -qx "plot it: capsim plot $tmp/s/points/0006/traced" "$tmp/out" || fail "--trace: $(cat "$tmp/out")"
	[ -s "$tmp/s/points/0006/traced/trace.txt" ] || fail "--trace: no trace"
	cmp -s "$tmp/sum6" "$tmp/s/points/0006/run/summary.json" || fail "--trace changed the point's run"
	[ ! -e "$tmp/s/points/0006/run/trace.txt" ] || fail "--trace wrote into the point's run"
	# the same run (its edited platform, policy, seed: point 6 is a
	# second repeat): the same summary
	python3 - "$tmp/sum6" "$tmp/s/points/0006/traced/summary.json" <<'PY' || fail "--trace: another run"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a == b, [k for k in a if a[k] != b.get(k)]
PY
	"$capsim" plot "$tmp/s/points/0006/traced" --quiet || fail "plot of the traced run"
	[ -s "$tmp/s/points/0006/traced/plots/activity.png" ] || fail "no plot of the traced run"
	# again: the traced run replaces its own
	"$capsim" sweep --trace "$tmp/s" 6 --quiet || fail "--trace again"
	# a sweep run by another capsim: its figures differ, said
	python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
d['energy_mj'] += 1
json.dump(d, open(sys.argv[1], 'w'))" "$tmp/s/points/0006/run/summary.json"
	"$capsim" sweep --trace "$tmp/s" 6 --quiet 2> "$tmp/err" || fail "--trace of a changed point"
	grep -q 'the sweep.s run had .* mJ: another capsim ran the sweep' "$tmp/err" || fail "a different run not said: $(cat "$tmp/err")"
	# refused: a point that is not one, other options, a link planted
	# where the traced run goes (its target untouched)
	for bad in "0:a point number in \[1, 16\]" "17:a point number in \[1, 16\]" "x:a point number" "6 --metric energy_mj:takes only --quiet"; do
		st=0
		# shellcheck disable=SC2086
		"$capsim" sweep --trace "$tmp/s" ${bad%%:*} 2> "$tmp/err" || st=$?
		[ $st = 2 ] && grep -q "${bad#*:}" "$tmp/err" || fail "--trace ${bad%%:*}: exit $st: $(cat "$tmp/err")"
	done
	mkdir "$tmp/victim"
	echo mine > "$tmp/victim/keep"
	ln -s "$tmp/victim" "$tmp/s/points/0003/traced"
	st=0
	"$capsim" sweep --trace "$tmp/s" 3 2> "$tmp/err" || st=$?
	[ $st = 2 ] && grep -q 'traced is a symbolic link or not a directory' "$tmp/err" ||
		fail "--trace over a link: exit $st: $(cat "$tmp/err")"
	[ "$(ls "$tmp/victim")" = keep ] && [ "$(cat "$tmp/victim/keep")" = mine ] || fail "--trace wrote through a link"
	# a run of its own made with --no-trace: plot says so
	"$capsim" run "$w" --duration 0.2 --no-trace --quiet -o "$tmp/nt"
	st=0
	"$capsim" plot "$tmp/nt" 2> "$tmp/err" || st=$?
	[ $st = 2 ] && grep -q "has no trace.txt: the run was made with --no-trace" "$tmp/err" ||
		fail "plot of a run without a trace: exit $st: $(cat "$tmp/err")"
	# a point directory that is not the sweep's own: refused
	rm "$tmp/s/points/0003/traced"
	rm "$tmp/s/points/0003/.capsim-output"
	st=0
	"$capsim" sweep --trace "$tmp/s" 3 2> "$tmp/err" || st=$?
	[ $st = 2 ] && grep -q 'not a point directory this sweep made' "$tmp/err" ||
		fail "--trace of a point without its marker: exit $st: $(cat "$tmp/err")"
	;;
*)
	fail "unknown case $case_"
	;;
esac
echo "ok: $case_"
