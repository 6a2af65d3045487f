#!/bin/sh
# Sweep speed, measured side by side in one run (never pass/fail):
#  - a 16-point sweep (8 caps x 2 policies of traces/video-playback.json,
#    DURATION simulated seconds each) at -j 1 and at -j 2: the speed-up;
#  - the same 16 points as bare `capsim run`s one after another: the
#    sweep's overhead beyond the runs themselves (editing and writing the
#    points, fork/exec, the trace pass for response times, sweep.csv and
#    the Pareto plot), from the -j 1 sweep, in wall time and in CPU time
#    (user + sys of the process and its children: robust on a shared
#    machine, where wall times wander).
# The load average is printed too.
#   bench_sweep.sh CAPSIM SRCDIR [DURATION]
set -eu
capsim=$1
src=$2
dur=${3:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
w="$src/traces/video-playback.json"
# wall and CPU (user + sys, the children included) of a command
measure() {
	label=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@"
	read -r e u s < "$tmp/t"
	echo "$label $e $(echo "$u + $s" | bc)" >> "$tmp/times"
}
set -- sweep "$w" --set capsim.taskgroups./background.capacity_max=128:1024:128 \
	--duration "$dur" --quiet
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
measure j1 "$capsim" "$@" -j 1 -o "$tmp/j1"
measure j2 "$capsim" "$@" -j 2 -o "$tmp/j2"
# the bare runs of the same points, as a script of plain capsim runs
for p in "$tmp"/j1/points/*; do
	pol=$(sed -n 's/.*"policy": "\(.*\)".*/\1/p' "$p/point.json")
	seed=$(sed -n 's/.*"seed": \([0-9]*\).*/\1/p' "$p/point.json")
	echo "'$capsim' run '$p/video-playback.json' --policy $pol --platform sym4 --seed $seed --duration $dur --quiet -o '$tmp/bare'"
done > "$tmp/bare.sh"
measure bare sh "$tmp/bare.sh"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v d="$dur" '{ w[$1] = $2; c[$1] = $3 } END {
	printf "16 points, %s s simulated each (video-playback, sym4)\n", d
	printf "sweep -j 1: %.2f s wall   sweep -j 2: %.2f s wall   speed-up %.2fx\n",
	       w["j1"], w["j2"], w["j1"] / w["j2"]
	printf "bare runs one after another: %.2f s wall, %.2f s CPU\n", w["bare"], c["bare"]
	printf "sweep -j 1 beyond them: %+.2f s wall (%+.1f %%), %+.2f s CPU (%+.1f %%)\n",
	       w["j1"] - w["bare"], 100 * (w["j1"] - w["bare"]) / w["bare"],
	       c["j1"] - c["bare"], 100 * (c["j1"] - c["bare"]) / c["bare"]
}' "$tmp/times"
