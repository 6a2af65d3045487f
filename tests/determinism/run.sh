#!/bin/sh
# Determinism (issue 15): the same inputs and seed give byte-identical
# trace.txt and summary.json, run after run, and (opt-in) in this build
# and a sibling build of the other kind: with CAPSIM_DETERMINISM_CROSS=1,
# BUILDROOT/determinism-sibling is configured (once) as an ASan+UBSan
# debug build when this one has no sanitizer, as a plain one when it has,
# and its capsim built; if that cannot be done the test fails. No other
# build directory is touched. Without the variable that half is not run,
# said so (a first sibling build takes about a minute).
# Usage: run.sh CAPSIM SRCDIR SANITIZE BUILDROOT
set -u
W=${1:?usage: run.sh CAPSIM SRCDIR SANITIZE BUILDROOT}
SRC=${2:?}
SAN=${3:-none}
BUILDROOT=${4:?}
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

other=$BUILDROOT/determinism-sibling
if [ "$SAN" = none ]; then
	sibling_opts="-Db_sanitize=address,undefined -Dbuildtype=debug"
else
	sibling_opts="-Db_sanitize=none"
fi
O=
if [ "${CAPSIM_DETERMINISM_CROSS:-0}" = 1 ]; then
	# A setup that failed half-way is started again from scratch
	if [ ! -f "$other/build.ninja" ]; then
		rm -rf "$other"
		# shellcheck disable=SC2086
		meson setup "$other" "$SRC" $sibling_opts >"$tmp/setup" 2>&1 ||
			cat "$tmp/setup"
	fi
	if [ -f "$other/build.ninja" ] &&
	   ninja -C "$other" capsim >"$tmp/ninja" 2>&1; then
		O=$other/capsim
	else
		[ -f "$tmp/ninja" ] && tail -20 "$tmp/ninja"
		fail=$((fail + 1))
		echo "FAIL: cannot build the sibling build's capsim ($other, $sibling_opts)"
	fi
else
	echo "cross-build comparison not run: CAPSIM_DETERMINISM_CROSS=1 runs it (builds $other, $sibling_opts)"
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
		same "$name: this build ($SAN) and the sibling" \
			"$tmp/$name-1" "$tmp/$name-other"
	fi
done <"$tmp/ran"
[ "$(wc -l <"$tmp/ran")" -eq "$(cases | wc -l)" ] ||
	{ fail=$((fail + 1)); echo "FAIL: some runs failed"; }

# A sweep gives the same files whatever its -j: every point's trace.txt,
# summary.json and activations.csv, sweep.csv/.json and the Pareto plot.
# Only point.json's "command" names the sweep's own directory, and the
# sweep's id (a random number: sweep.json's "id", each point directory's
# marker) is the sweep's own.
for j in 1 2 4; do
	"$W" sweep "$SRC/traces/whatif-bg-cap.json" \
		--set 'capsim.taskgroups["/bg"].capacity_max=256,512,1024' \
		--set 'tasks.fg_touch.run=3000,8000' --policies rfc,uclamp,none \
		--duration 1 --seed 3 -j $j --quiet --keep-traces -o "$tmp/sweep-j$j" \
		>/dev/null 2>"$tmp/err" ||
		{ echo "FAIL: sweep -j $j: $(cat "$tmp/err")"; fail=$((fail + 1)); }
	find "$tmp/sweep-j$j" -name point.json -exec \
		sed -i "s|$tmp/sweep-j$j|DIR|g" {} +
	# the marker names the command, -j N included: the sweep's and
	# its points' differ (each point's run was started the same way)
	find "$tmp/sweep-j$j" -name .capsim-output ! -path '*/run/*' -exec \
		sed -i "s|-j $j|-j N|; s|$tmp/sweep-j$j|DIR|g; s|^sweep: [0-9a-f]*$|sweep: ID|" {} +
	sed -i 's|"id": "[0-9a-f]*"|"id": "ID"|' "$tmp/sweep-j$j/sweep.json"
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
