#!/bin/sh
# Sweeps of many points (issue 28 item 2), measured side by side in one
# run (never pass/fail): for each size (1 000 and 10 000 points of
# traces/audio.json, DURATION simulated seconds each, two --set axes of
# 100 x 10 and 100 x 100 values, policy rfc):
#  - the bare runs: the very same points (prepared by --emit-jobs, which
#    is not timed) run by a shell loop two at a time (xargs -P 2, a
#    `sh -c` per job line, as GNU parallel would);
#  - `capsim sweep -j 2` of the same points: it prepares each point,
#    runs it, streams its row into sweep.csv, then draws the Pareto plot.
# Printed: wall time, CPU time (user + sys, children included, from
# /usr/bin/time), points/s, the sweep's CPU beyond the bare runs', and the
# sweep parent's own CPU time and peak RSS (its last line, getrusage).
#   bench_sweep10k.sh CAPSIM SRCDIR [DURATION [SIZES]]
set -eu
capsim=$(readlink -f "$1")
src=$(readlink -f "$2")
dur=${3:-0.5}
sizes=${4:-"10 100"}	# the second axis: 100 x this many points
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
w="$src/traces/audio.json"
cd "$tmp"
args() {
	echo "$w --set tasks.audio_ft.run=300:399:1 --set tasks.mixer.run=1000:$((999 + $1)):1 --policies rfc --duration $dur --metric audio_ft.resp_p95_ms"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%7s  %9s  %8s  %10s  %9s  %12s  %14s  %10s  %10s  %11s\n' \
	points "bare wall" "bare CPU" "sweep wall" "sweep CPU" "CPU overhead" \
	"sweep itself" "parent RSS" "bare pts/s" "sweep pts/s"
for k in $sizes; do
	n=$((100 * k))
	# shellcheck disable=SC2046
	"$capsim" sweep $(args "$k") -o "bare$k" --emit-jobs "jobs$k" --quiet
	/usr/bin/time -f "%e %U %S" -o bt xargs -P 2 -d '\n' -n 1 sh -c < "jobs$k"
	# shellcheck disable=SC2046
	/usr/bin/time -f "%e %U %S" -o st "$capsim" sweep $(args "$k") -j 2 -o "sweep$k" > out
	read -r be bu bs < bt
	read -r se su ss < st
	own=$(sed -n 's/.*capsim sweep itself: \([0-9.]*\) s CPU, \([0-9.]*\) MB at most.*/\1 \2/p' out)
	cmp -s "bare$k/points/$(printf '%04d' 1)/run/summary.json" \
		"sweep$k/points/$(printf '%04d' 1)/run/summary.json" ||
		echo "warning: the bare and the swept point 1 differ" >&2
	echo "$n $be $bu $bs $se $su $ss $own" | awk '{
		bc = $3 + $4; sc = $6 + $7
		printf "%7d  %8.1fs  %7.1fs  %9.1fs  %8.1fs  %+11.1f%%  %7.2fs %5.1f%%  %7.1f MB  %10.1f  %11.1f\n",
		       $1, $2, bc, $5, sc, 100 * (sc - bc) / bc, $8, 100 * $8 / sc, $9,
		       $1 / $2, $1 / $5 }'
	rm -rf "bare$k" "sweep$k" "jobs$k" "jobs$k.slurm"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
