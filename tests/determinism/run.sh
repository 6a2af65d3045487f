#!/bin/sh
# Determinism (issue 15): the same inputs and seed give byte-identical
# trace.txt and summary.json, run after run, and in the normal and the
# sanitizer build alike (the builds scripts/test makes: SRCDIR/build and
# SRCDIR/build-asan). The other build's capsim is brought up to date
# first; without the other build dir that half is skipped, said so.
# Usage: run.sh CAPSIM SRCDIR SANITIZE
set -u
W=${1:?usage: run.sh CAPSIM SRCDIR SANITIZE}
SRC=${2:?}
SAN=${3:-none}
W=$(cd "$(dirname "$W")" && pwd)/$(basename "$W")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# Each case: a name, then the arguments of capsim run
cases() {
	T=$SRC/traces
	echo "whatif	$T/whatif-bg-cap.json --duration 3 --trace-util"
	echo "audio	$T/audio.json --duration 2"
	echo "video-sd855	$T/video-playback.json --platform sd855 --duration 2"
	echo "batch-none	$T/bg-batch-capped.json --policy none --duration 2"
	echo "rt-juno-410	$T/rt-capped.json --platform juno-r0 --clamp-order 4.10 --domain-rule rfc --duration 2"
	echo "rtapp-jitter	$SRC/tests/fuzz/seeds/workload/rtapp-tutorial-style.json --seed 7 --duration 1"
}

# run BIN OUTDIR ARGS...
run() {
	bin=$1 out=$2
	shift 2
	# shellcheck disable=SC2068
	"$bin" run "$@" -o "$out" --quiet >/dev/null 2>"$tmp/err" || {
		echo "FAIL: $bin run $*: $(cat "$tmp/err")"
		return 1
	}
}

same() {	# NAME DIR1 DIR2
	if cmp -s "$2/trace.txt" "$3/trace.txt" &&
	   cmp -s "$2/summary.json" "$3/summary.json"; then
		pass=$((pass + 1))
		echo "ok   $1 ($(wc -c <"$2/trace.txt") bytes of trace)"
	else
		fail=$((fail + 1))
		echo "FAIL $1: outputs differ"
		cmp "$2/trace.txt" "$3/trace.txt"
		cmp "$2/summary.json" "$3/summary.json"
	fi
}

if [ "$SAN" = none ]; then
	other=$SRC/build-asan
else
	other=$SRC/build
fi
O=
if [ -f "$other/build.ninja" ]; then
	if ninja -C "$other" capsim >/dev/null; then
		O=$other/capsim
	else
		fail=$((fail + 1))
		echo "FAIL: cannot bring $other/capsim up to date"
	fi
else
	echo "skip (said once): no $other: the cross-build comparison needs both builds (scripts/test makes them)"
fi

cases | while IFS='	' read -r name args; do
	# shellcheck disable=SC2086
	run "$W" "$tmp/$name-1" $args && run "$W" "$tmp/$name-2" $args &&
		echo "$name" >>"$tmp/ran"
	if [ -n "$O" ]; then
		# shellcheck disable=SC2086
		run "$O" "$tmp/$name-other" $args
	fi
done
while read -r name; do
	same "$name: two runs" "$tmp/$name-1" "$tmp/$name-2"
	if [ -n "$O" ]; then
		same "$name: $(basename "$(dirname "$W")") and $(basename "$other")" \
			"$tmp/$name-1" "$tmp/$name-other"
	fi
done <"$tmp/ran"
[ "$(wc -l <"$tmp/ran")" -eq "$(cases | wc -l)" ] ||
	{ fail=$((fail + 1)); echo "FAIL: some runs failed"; }

# A sweep gives the same files whatever its -j: every point's trace.txt,
# summary.json and activations.csv, sweep.csv/.json and the Pareto plot.
# Only point.json's "command" names the sweep's own directory.
for j in 1 2 4; do
	"$W" sweep "$SRC/traces/whatif-bg-cap.json" \
		--set 'capsim.taskgroups["/bg"].capacity_max=256,512,1024' \
		--set 'tasks.fg_touch.run=3000,8000' --policies rfc,uclamp,none \
		--duration 1 --seed 3 -j $j --quiet --keep-traces -o "$tmp/sweep-j$j" \
		>/dev/null 2>"$tmp/err" ||
		{ echo "FAIL: sweep -j $j: $(cat "$tmp/err")"; fail=$((fail + 1)); }
	find "$tmp/sweep-j$j" -name point.json -exec \
		sed -i "s|$tmp/sweep-j$j|DIR|g" {} +
	# the marker names the command, -j N included: the sweep's alone
	# differs (each point's run was started the same way)
	sed -i "s|-j $j|-j N|; s|$tmp/sweep-j$j|DIR|g" "$tmp/sweep-j$j/.capsim-output"
done
npts=$(find "$tmp/sweep-j1" -name trace.txt | wc -l)
for j in 2 4; do
	if [ "$npts" -eq 18 ] && diff -r "$tmp/sweep-j1" "$tmp/sweep-j$j" >"$tmp/diff"; then
		pass=$((pass + 1))
		echo "ok   sweep -j 1 and -j $j: $npts points, every file the same"
	else
		fail=$((fail + 1))
		echo "FAIL sweep -j 1 and -j $j ($npts points of 18):"
		head -20 "$tmp/diff"
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
