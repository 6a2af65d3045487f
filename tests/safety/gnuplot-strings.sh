#!/bin/sh
# Issue 23: no string from an input becomes gnuplot (or shell) code. Every
# string that reaches a plot -- task and kernel comm names, group paths,
# platform names, workload file names, -o paths, the summary fields
# `sweep --collect` reads back, xcheck's report -- is fed with backticks,
# quotes, newlines, system(...) and @macros, each of which creates a file
# named "pwned" if gnuplot (or a shell it starts) runs it. Checks: no
# "pwned" anywhere, and the plots are still written.
#   sh gnuplot-strings.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"
mkdir "$tmp/cwd"
cd "$tmp/cwd" || exit 1

# The marker: wherever it appears (gnuplot runs in the output directory,
# a shell in the current one), some string was run.
pwned() {
	found=$(find "$tmp" -name pwned 2>/dev/null)
	[ -z "$found" ] && return 1
	find "$tmp" -name pwned -exec rm -f {} + 2>/dev/null
	return 0
}

# check NAME STATUS FILES... : the last command's status was STATUS, no
# marker appeared, each FILE exists and is not empty
check() {
	name=$1 want=$2
	shift 2
	why=
	if pwned; then
		why="a command ran (a pwned file appeared: $found)"
	elif [ "$rc" -ne "$want" ]; then
		why="exit status $rc, expected $want; stderr: $(head -c 400 "$tmp/err")"
	else
		for f in "$@"; do
			[ -s "$f" ] || { why="no $f; stderr: $(head -c 400 "$tmp/err")"; break; }
		done
	fi
	if [ -z "$why" ]; then ok "$name"; else bad "$name: $why"; fi
}

# Hostile strings, without spaces (task names have none): each runs
# `touch pwned` if pasted into gnuplot code in its own way.
NL='
'
BT='a`touch${IFS}pwned`b'
SQ="a'.system('touch\${IFS}pwned').'b"
DQ='a".system("touch${IFS}pwned")."b'
LF="a${NL}system('touch\${IFS}pwned')${NL}b"
MAC='a@runtitle@b\'
PIPE='<touch${IFS}pwned;:'
OPIPE='|touch${IFS}pwned;:'

# json FILE PYTHON-EXPR: write the JSON of the expression (strings passed
# in the environment, so no quoting of them here)
json() {
	out=$1
	shift
	BT="$BT" SQ="$SQ" DQ="$DQ" LF="$LF" MAC="$MAC" \
		python3 -c 'import json, os, sys
e = os.environ
json.dump(eval(sys.argv[2]), open(sys.argv[1], "w"))' "$out" "$1"
}

# A workload whose tasks are named with the hostile strings
json w.json '{"global": {"duration": 0.3}, "tasks": {
	e["BT"]: {"run": 1000, "sleep": 3000},
	e["SQ"]: {"run": 2000, "sleep": 3000},
	e["DQ"]: {"run": 1000, "sleep": 5000},
	e["MAC"]: {"run": 700, "sleep": 2000}}}'
"$W" validate w.json >/dev/null 2>"$tmp/err"
rc=$?
check "hostile task names pass validate" 0

"$W" run w.json --plot --quiet -o r >/dev/null 2>"$tmp/err"
rc=$?
check "run --plot: hostile task names" 0 r/plots/activity.png r/plots/freq.svg

# chains named with the hostile strings (a chain's name refuses quotes and
# newlines, not backticks or @): the frame lanes' labels and frames.png's
# titles (issue 37)
json wc.json '{"global": {"duration": 0.3}, "capsim": {"chains": {
	e["BT"]: {"tasks": [e["BT"], e["MAC"]], "period_us": 16667, "start": "v"},
	e["MAC"]: {"tasks": [e["BT"], e["MAC"]], "period_us": 16667, "start": "v"}}},
	"tasks": {e["BT"]: {"run": 1000, "resume": "r", "timer": {"ref": "v", "period": 16667}},
		  e["MAC"]: {"suspend": "r", "run": 2000}}}'
"$W" run wc.json --plot --quiet -o rc >/dev/null 2>"$tmp/err"
rc=$?
check "run --plot: hostile chain names" 0 rc/plots/activity.png rc/plots/frames.png rc/plots/frames.svg

# import-check: the trace's comms are its lane labels, the trace's and the
# workload's names are in its titles, -o is where gnuplot runs
cp r/trace.txt "t$BT.txt"
cp w.json "w$SQ.json"
"$W" import-check "t$BT.txt" "w$SQ.json" --quiet -o "ic$DQ" >/dev/null 2>"$tmp/err"
rc=$?
check "import-check: hostile task, trace, workload and -o names" 0 \
	"ic$DQ/import-check.png" "ic$DQ/import-check.svg" "ic$DQ/import-check.md"

# a newline in a task name: refused, or plotted without running anything
json wl.json '{"global": {"duration": 0.2}, "tasks": {e["LF"]: {"run": 1000, "sleep": 3000}}}'
"$W" run wl.json --plot --quiet -o rl >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ]; then
	check "run --plot: a task name with a newline is refused" 2
else
	check "run --plot: a task name with a newline" 0 rl/plots/activity.png
fi

# group paths are refused before they reach a plot
json g.json '{"global": {"duration": 0.1}, "tasks": {"t": {"run": 1000,
	"sleep": 1000, "taskgroup": "/" + e["BT"]}}}'
"$W" run g.json --plot --quiet -o g >/dev/null 2>"$tmp/err"
rc=$?
check "run --plot: a hostile group path is refused" 2
[ ! -e g ] || bad "a refused group path left g/"

# a platform file whose name is hostile (and its idle states')
python3 - "$SRC/traces/platforms/sym4.json" plat.json <<'EOF'
import json, os, sys
p = json.load(open(sys.argv[1]))
p["name"] = 'p`touch${IFS}pwned`\'.system(\'touch${IFS}pwned\').\'\nsystem "touch pwned"'
for s in p["idle"]:
    s["name"] = '`touch${IFS}pwned`"\''
# a domain's name names its panels and bars (issue 26)
for d in p["domains"]:
    d["name"] = 'd`touch${IFS}pwned`"\'.system(\'touch${IFS}pwned\').\''
json.dump(p, open(sys.argv[2], "w"))
EOF
"$W" run w.json --platform plat.json --plot --quiet -o rp >/dev/null 2>"$tmp/err"
rc=$?
check "run --plot: hostile platform and domain names" 0 rp/plots/freq.png rp/plots/energy.svg rp/plots/residency.svg

# workload file names
for n in "$BT" "$SQ" "$DQ" "$LF"; do
	cp w.json "w$n.json"
	"$W" run "w$n.json" --plot --quiet -o rw >/dev/null 2>"$tmp/err"
	rc=$?
	check "run --plot: workload file named $(printf %s "$n" | head -n 1)..." 0 rw/plots/freq.png
	rm -rf rw "w$n.json"
done

# -o paths: quotes and backticks inside, and names gnuplot would take as
# pipes ('<cmd' to read from, '|cmd' to write to) if they were used as
# file names as given
for o in "o$BT" "o$SQ" "o$DQ" "o$LF" "$PIPE" "$OPIPE" "$tmp/cwd/a$BT"; do
	"$W" run w.json --plot --quiet -o "$o" >/dev/null 2>"$tmp/err"
	rc=$?
	check "run --plot -o $(printf %s "$o" | head -n 1)..." 0 "$o/plots/freq.png" "$o/plots/activity.svg"
	"$W" plot "$o" --quiet -o "$o-p" >/dev/null 2>"$tmp/err"
	rc=$?
	check "plot -o $(printf %s "$o" | head -n 1)...-p" 0 "$o-p/freq.png"
	rm -rf "$o" "$o-p"
done

# A kernel trace: comms of at most 15 characters that any process on the
# traced machine can give itself
trace() {
	comm=$1 out=$2
	{
		echo '# tracer: nop'
		echo '#'
		echo '# entries-in-buffer/entries-written: 12/12   #P:4'
		for c in 0 1 2 3; do
			printf '          <idle>-0       [00%d]     1.000000: cpu_frequency: state=500000 cpu_id=%d\n' "$c" "$c"
		done
		printf '          <idle>-0       [000]     1.000100: sched_wakeup: comm=%s pid=4242 prio=120 target_cpu=000\n' "$comm"
		printf '          <idle>-0       [000]     1.000200: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=%s next_pid=4242 next_prio=120\n' "$comm"
		printf '          <idle>-0       [000]     1.000300: cpu_frequency: state=2000000 cpu_id=0\n'
		printf ' %s-4242    [000]     1.020000: sched_switch: prev_comm=%s prev_pid=4242 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n' "$comm" "$comm"
		printf '          <idle>-0       [000]     1.030000: sched_wakeup: comm=%s pid=4242 prio=120 target_cpu=001\n' "$comm"
		printf '          <idle>-0       [001]     1.030100: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=%s next_pid=4242 next_prio=120\n' "$comm"
		printf ' %s-4242    [001]     1.050000: sched_switch: prev_comm=%s prev_pid=4242 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n' "$comm" "$comm"
	} >"$out"
}
for comm in '`>pwned`' '`touch${IFS}x`' "'.\`>pwned\`.'" '".`>pwned`."' \
	"'.system('>pwned" '";system(">pwned'; do
	trace "$comm" k.txt
	# a comm of 14 characters that touches x: the marker of this one
	"$W" plot k.txt --platform sym4 --quiet -o kp >/dev/null 2>"$tmp/err"
	rc=$?
	[ -e x ] && { touch "$tmp/pwned"; rm -f x; }
	find "$tmp" -name x -exec touch "$tmp/pwned" \; -exec rm -f {} + 2>/dev/null
	check "plot of a kernel trace, comm $comm" 0 kp/activity.png kp/freq.svg
	# the label gnuplot sees is the comm itself, then the pid
	printf "%s\n" "load 'kp/data/vars.gp'" 'print lanelabel[1]' >"$tmp/label.gp"
	[ "$(gnuplot "$tmp/label.gp" 2>&1)" = "$comm-4242" ] ||
		bad "the comm $comm (pid 4242) is not the lane label in kp/data/vars.gp: $(gnuplot "$tmp/label.gp" 2>&1)"
	rm -rf kp
done

# the trace's own file name, with the default output directory
trace busy k.txt
for n in "$BT" "$SQ" "$PIPE"; do
	mkdir -p d
	cp k.txt "d/$n"
	( cd d && "$W" plot "$n" --platform sym4 --quiet >/dev/null 2>"$tmp/err" )
	rc=$?
	check "plot of a trace named $n, default output" 0 "d/plots-$n/freq.png"
	rm -rf d
done

# compare: hostile task names and -o
"$W" compare w.json --policies rfc,none --duration 0.3 --plots all --quiet -o "c$BT" >/dev/null 2>"$tmp/err"
rc=$?
check "compare -o c$BT" 0 "c$BT/rfc/plots/activity.png" "c$BT/none/plots/freq.svg"
# by default compare.svg only, and the command it prints to draw a
# policy's figures runs as printed, quoted for sh (capsim as $W here)
rm -rf "c$BT"
"$W" compare w.json --policies rfc,none --duration 0.3 -o "c$BT" >"$tmp/out" 2>"$tmp/err"
rc=$?
sed -n "s/^a policy's figures: capsim \(plot .*\) (or compare --plots all)\$/\"\$W\" \1 --quiet/p" "$tmp/out" >"$tmp/hint.sh"
[ -s "$tmp/hint.sh" ] || rc=9
W="$W" sh "$tmp/hint.sh" 2>>"$tmp/err" || rc=8
check "compare -o c$BT, default: compare.svg, and the printed plot command" 0 "c$BT/compare.svg" "c$BT/rfc/plots/activity.png"
rm -rf "c$BT"

# sweep, then --collect after the summaries are edited: the task, the
# workload and the platform named with hostile strings. One task wakes
# up, so it is the plot's metric (its name on the axis); the others are
# hogs (with several waking tasks a sweep needs --metric)
json ws.json '{"global": {"duration": 0.3}, "tasks": {
	e["BT"]: {"run": 1000},
	e["SQ"]: {"run": 2000, "sleep": 3000},
	e["DQ"]: {"run": 1000},
	e["MAC"]: {"run": 700}}}'
"$W" sweep ws.json --set 'tasks.'"$(printf %s "$BT")"'.run=1000,2000' --duration 0.3 \
	--quiet -o "s$SQ" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	# the task's path may not take a hostile name: sweep another value
	"$W" sweep ws.json --set 'global.duration=0.2,0.3' --quiet -o "s$SQ" >/dev/null 2>"$tmp/err"
	rc=$?
fi
check "sweep -o s$SQ" 0 "s$SQ/pareto.png" "s$SQ/pareto.svg"
for p in "s$SQ"/points/*; do
	[ -f "$p/summary.json" ] || continue
	python3 - "$p/summary.json" "$p/point.json" <<'EOF'
import json, sys
evil = 'e`touch${IFS}pwned`\'.system(\'touch${IFS}pwned\').\'"\nsystem "touch pwned"'
s = json.load(open(sys.argv[1]))
s["workload"]["name"] = evil
s["platform"]["name"] = evil
for t in s["tasks"]:
    t["name"] = evil + t["name"]
json.dump(s, open(sys.argv[1], "w"))
p = json.load(open(sys.argv[2]))
p["platform"] = evil
json.dump(p, open(sys.argv[2], "w"))
EOF
done
rm -f "s$SQ/pareto.png" "s$SQ/pareto.svg"
# the edited task names are no longer the workload's: name a metric
"$W" sweep --collect "s$SQ" --metric energy_mj --quiet >/dev/null 2>"$tmp/err"
rc=$?
check "sweep --collect of edited summaries" 0 "s$SQ/pareto.png" "s$SQ/pareto.svg"
for f in "s$SQ"/pareto-data/*.dat; do
	[ -f "$f" ] || continue
	# a label's quote would end its column early: every row has 5 fields
	awk -v f="$f" 'NR > 1 && !/^#/ && /"/ { n = gsub(/"/, "\""); if (n != 2) { print f ": " $0; exit 1 } }' "$f" ||
		bad "a label in $f breaks its columns"
done

# xcheck's report plot, on the saved guest trace (no guest booted)
"$W" xcheck "$SRC/traces/xcheck/bg-hog-capped.json" --guest-trace \
	"$SRC/tests/fixtures/guest/sym4-bg-hog-rfc-clamp.txt" --quiet -o "x$DQ" \
	>/dev/null 2>"$tmp/err"
rc=$?
# level 2 fails on this fixture (no decision events): exit 1, report written
check "xcheck -o x$DQ" 1 "x$DQ/xcheck-freq.png" "x$DQ/xcheck-residency.svg"
"$W" xcheck "$SRC/traces/xcheck/bg-hog-capped.json" --guest-trace \
	"$SRC/tests/fixtures/guest/sym4-bg-hog-rfc-clamp.txt" --quiet -o "$PIPE" \
	>/dev/null 2>"$tmp/err"
rc=$?
check "xcheck -o $PIPE" 1 "$PIPE/xcheck-freq.png"

# plots/freq-timeline.sh, the dependency-free quick look: the trace's
# name is in its title, the output's name is where it writes
trace busy k.txt
mkdir -p "ft$SQ"
cp k.txt "ft$SQ/k$BT.txt"
sh "$SRC/plots/freq-timeline.sh" "ft$SQ/k$BT.txt" "$OPIPE.png" >/dev/null 2>"$tmp/err"
rc=$?
check "freq-timeline.sh of a trace named k$BT.txt" 0 "$OPIPE.png"
rm -rf "ft$SQ" "$OPIPE.png"
# a CPU field that is gnuplot code: it named the data file pasted into
# the plot command (found in review); such lines are skipped now
cp k.txt kc.txt
printf '%s\n' "x-1 [000] .... 9.000000: cpu_frequency: state=1000000 cpu_id=0'.system('touch\${IFS}pwned').'" \
	"x-1 [000] .... 9.100000: cap_clamp_cpu: cpu=0'.system('touch\${IFS}pwned').' min=0 max=512" >>kc.txt
sh "$SRC/plots/freq-timeline.sh" kc.txt kc.png >/dev/null 2>"$tmp/err"
rc=$?
check "freq-timeline.sh of a trace whose cpu_id is gnuplot code" 0 kc.png
rm -f kc.txt kc.png

# What comes back from gnuplot: its warnings (stderr) are printed
# unless --quiet. A copy of the scripts that warns on every plot:
mkdir "$tmp/warn"
cp "$SRC"/plots/*.gp "$tmp/warn/"
echo "print 'gnuplot-says-hello'" >>"$tmp/warn/common.gp"
trace busy k.txt
for cmd in "plot k.txt --platform sym4 -o wp" "compare w.json --policies rfc --duration 0.2 -o wc"; do
	# shellcheck disable=SC2086
	CAPSIM_PLOTS="$tmp/warn" "$W" $cmd --quiet >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || grep -q gnuplot-says-hello "$tmp/err" "$tmp/out"; then
		bad "$cmd --quiet: exit $rc, or gnuplot's message printed: $(head -c 300 "$tmp/err")"
	else
		ok "$cmd --quiet: gnuplot's messages not printed"
	fi
	rm -rf wp wc
	# shellcheck disable=SC2086
	CAPSIM_PLOTS="$tmp/warn" "$W" $cmd >"$tmp/out" 2>"$tmp/err"
	if grep -q gnuplot-says-hello "$tmp/err"; then
		ok "$cmd: gnuplot's messages printed"
	else
		bad "$cmd: gnuplot's messages not printed without --quiet"
	fi
	rm -rf wp wc
done

# the scripts run no shell command of their own (data paths included)
if grep -v '^#' "$SRC"/plots/*.gp | grep -n 'system\|`\|"<\|'"'<"'\|popen'; then
	bad "a plots/*.gp script runs a command"
else
	ok "plots/*.gp run no command"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
