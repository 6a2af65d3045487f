#!/bin/sh
# Sweep speed, measured side by side in one run (never pass/fail):
#  - a 16-point sweep (8 caps x 2 policies of traces/video-playback.json,
#    DURATION simulated seconds each) at -j 1 and at -j 2: the speed-up;
#  - the same 16 points as bare `capsim run`s one after another: the
#    sweep's overhead beyond the runs themselves (editing and writing the
#    points, fork/exec, the trace pass for response times, sweep.csv and
#    the Pareto plot), from the -j 1 sweep.
# The load average is printed too: the machine may be shared.
#   bench_sweep.sh CAPSIM SRCDIR [DURATION]
set -eu
capsim=$1
src=$2
dur=${3:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
w="$src/traces/video-playback.json"
now() { date +%s.%N; }
sweep() {
	"$capsim" sweep "$w" --set 'capsim.taskgroups["/background"].capacity_max=128:1024:128' \
		--duration "$dur" --quiet "$@"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(now); sweep -j 1 -o "$tmp/j1"; t1=$(now)
sweep -j 2 -o "$tmp/j2"; t2=$(now)
# the bare runs of the same points, one after another
t3=$(now)
for p in "$tmp"/j1/points/*; do
	(cd "$tmp/j1" && "$capsim" run "points/${p##*/}/video-playback.json" \
		--policy "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["policy"])' "$p/point.json")" \
		--platform sym4 --seed 0 --duration "$dur" --quiet -o "$tmp/bare")
done
t4=$(now)
# the python policy lookups above are not capsim's: time them alone
t5=$(now)
for p in "$tmp"/j1/points/*; do
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["policy"])' "$p/point.json" > /dev/null
done
t6=$(now)
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v j1="$(echo "$t1 - $t0" | bc)" -v j2="$(echo "$t2 - $t1" | bc)" \
    -v bare="$(echo "$t4 - $t3 - ($t6 - $t5)" | bc)" -v d="$dur" 'BEGIN {
	printf "16 points, %s s simulated each (video-playback, sym4)\n", d
	printf "sweep -j 1: %.2f s   sweep -j 2: %.2f s   speed-up %.2fx\n", j1, j2, j1 / j2
	printf "bare runs, one after another: %.2f s; sweep -j 1 overhead beyond them: %.2f s (%.1f %%)\n",
	       bare, j1 - bare, 100 * (j1 - bare) / bare
}'
