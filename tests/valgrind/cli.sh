#!/bin/sh
# The command line under valgrind memcheck: runs, validations, platform
# commands and op-log replays, good and bad inputs, each with its usual
# exit status and no memcheck finding (invalid access, uninitialised
# value, definite or indirect leak). The unit tests run under memcheck
# through `meson test --setup valgrind`; this covers the programs.
# Usage: cli.sh CAPSIM CAPSIM_REPLAY SRCDIR SANITIZE
set -u
W=${1:?usage: cli.sh CAPSIM CAPSIM_REPLAY SRCDIR SANITIZE}
R=${2:?}
SRC=${3:?}
if [ "${4:-none}" != none ]; then
	echo "skip: a sanitizer build (valgrind cannot run ASan binaries)"
	exit 77
fi
command -v valgrind >/dev/null || { echo "skip: no valgrind"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# vg NAME STATUS COMMAND...: memcheck's own findings exit with 99
vg() {
	name=$1 want=$2
	shift 2
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq "$want" ]; then
		pass=$((pass + 1))
		echo "ok   $name"
	else
		fail=$((fail + 1))
		echo "FAIL $name: exit $rc, expected $want (99: memcheck)"
		grep '^==' "$tmp/err" | head -40
	fi
}

T=$SRC/traces
vg "run whatif-bg-cap 2 s" 0 $W run "$T/whatif-bg-cap.json" --duration 2 --trace-util -o "$tmp/o1"
vg "run video-playback on sd855, policy none" 0 $W run "$T/video-playback.json" --platform sd855 --policy none --duration 1 -o "$tmp/o2" --quiet
vg "run rt-capped on juno-r0, clamp order 4.10" 0 $W run "$T/rt-capped.json" --platform juno-r0 --clamp-order 4.10 --domain-rule rfc --duration 1 -o "$tmp/o3" --quiet
vg "run the rt-app-style seed (every event kind)" 0 $W run "$SRC/tests/fuzz/seeds/workload/rtapp-tutorial-style.json" --duration 0.5 -o "$tmp/o4" --quiet
vg "run stopped by --max-trace-mb" 1 $W run "$T/audio.json" --duration 1000 --max-trace-mb 1 -o "$tmp/o5" --quiet
# a sweep's parent (the points run natively): preparing, the workers,
# collecting the points from their summaries, sweep.csv, the Pareto plot
vg "sweep of 4 points" 0 $W sweep "$T/whatif-bg-cap.json" --set 'capsim.taskgroups["/bg"].capacity_max=128,512' --policies rfc,none --duration 1 -o "$tmp/s1" --quiet
# the import check's parent (its run is a native child): both traces
# profiled, the report, the plot data and gnuplot; a source it refuses
vg "import-check of a capture against its workload" 0 $W import-check "$SRC/tests/fixtures/traces/report.txt" "$T/audio.json" --platform juno-r0 -o "$tmp/ic1" --quiet
vg "import-check of a trace of another platform" 2 $W import-check "$SRC/tests/fixtures/traces/report.txt" "$T/audio.json" -o "$tmp/ic2" --quiet
vg "validate traces and platforms" 0 $W validate "$T/audio.json" "$T/bg-batch-capped.json" "$T/platforms/sym4.json" "$T/platforms/juno-r0.json"
printf '{ "tasks": { "t": { "run": "x", "policy": "NOPE", "taskgroup": "/a/..", "util_min": 9, "util_max": 1 } }, "capsim": { "events": [ { "group": 5 } ] } }' >"$tmp/bad.json"
vg "validate a workload full of errors" 2 $W validate "$tmp/bad.json"
vg "run a workload full of errors" 2 $W run "$tmp/bad.json" -o "$tmp/o6"
vg "run with a file-valued -o" 2 $W run "$T/audio.json" -o "$tmp/bad.json"
vg "platform show" 0 $W platform show sd855
vg "platform cmdline" 0 $W platform cmdline juno-r0
vg "platforms" 0 $W platforms
vg "replay basic.ops" 0 $R "$SRC/tests/replay/basic.ops"
vg "replay demo.ops" 0 $R "$T/demo.ops"
printf 'group /a\nwrite /a max 100\nenqueue 1 0 /a\nmove 1 /\nbogus\n' >"$tmp/bad.ops"
vg "replay stopping at a bad line" 2 $R "$tmp/bad.ops"
[ -d "$tmp/o6" ] && { fail=$((fail + 1)); echo "FAIL: a bad run left its directory"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
