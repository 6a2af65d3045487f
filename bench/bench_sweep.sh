#!/bin/sh
# Sweep speed, measured side by side in one run (never pass/fail):
#  - a 16-point sweep (8 caps x 2 policies, rfc and none, of
#    traces/video-playback.json, DURATION simulated seconds each) at -j 1
#    and at -j 2: the speed-up;
#  - the same 16 points as bare `capsim run`s one after another: the
#    sweep's overhead beyond the runs themselves (editing and writing the
#    points, fork/exec, collecting the summaries, sweep.csv and the Pareto
#    plot), from the -j 1 sweep, in wall time and in CPU time (user + sys
#    of the process and its children: robust on a shared machine, where
#    wall times wander);
#  - the same bare runs two at a time (xargs -P 2): the speed-up this
#    machine gives two processes right now, the ceiling of the sweep's
#    (on a shared machine far below 2).
# ROUNDS rounds, the three commands interleaved (their order rotating each
# round) so a change in the machine's load hits them alike; medians over
# the rounds, every round printed too. The load average is printed before
# and after.
#   bench_sweep.sh CAPSIM SRCDIR [DURATION [ROUNDS]]
set -eu
capsim=$1
src=$2
dur=${3:-120}
rounds=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
w="$src/traces/video-playback.json"
# wall and CPU (user + sys, the children included) of a command; from the
# sweep's own line, the collection and its overhead by its own clock
# (its wall beyond its runs' summed walls, over those: one process, one
# time window, so the load's drift between commands does not enter)
measure() {
	label=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" > "$tmp/out"
	read -r e u s < "$tmp/t"
	coll=$(sed -n 's/.*collecting \([0-9.]*\) s.*/\1/p' "$tmp/out")
	own=$(sed -n 's/.* in \([0-9.]*\) s wall at .*the runs took \([0-9.]*\) s (sum).*/\1 \2/p' "$tmp/out" |
	      awk '{ printf "%.1f", 100 * ($1 - $2) / $2 }')
	echo "$label $e $(echo "$u + $s" | bc) ${coll:-0} ${own:-0}" >> "$tmp/times"
}
# the sweep into $tmp/$1 at -j $2 (measured: not a shell function)
sweep() {
	rm -rf "${tmp:?}/$1"
	set -- "$1" "$capsim" sweep "$w" --set \
		capsim.taskgroups./background.capacity_max=128:1024:128 \
		--policies rfc,none --duration "$dur" -j "$2" --keep-traces \
		--metric audio.resp_p95_ms \
		-o "$tmp/$1"
	measure "$@"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# the bare runs of the same points, as a script of plain capsim runs
sweep ref 2
: > "$tmp/times"
for p in "$tmp"/ref/points/*; do
	n=$(basename "$p")
	pol=$(sed -n 's/.*"policy": "\(.*\)".*/\1/p' "$p/point.json")
	seed=$(sed -n 's/.*"seed": \([0-9]*\).*/\1/p' "$p/point.json")
	echo "'$capsim' run '$p/video-playback.json' --policy $pol --platform sym4 --seed $seed --duration $dur --quiet -o '$tmp/bare/$n'"
done > "$tmp/bare.sh"
mkdir "$tmp/bare"
[ "$(wc -l < "$tmp/bare.sh")" = 16 ] || { echo "expected 16 points" >&2; exit 1; }
r=0
while [ $r -lt "$rounds" ]; do
	for k in 0 1 2 3; do
		case $(( (r + k) % 4 )) in
		0) sweep j1 1 ;;
		1) sweep j2 2 ;;
		2) measure bare sh "$tmp/bare.sh" ;;
		3) measure bare2 xargs -P 2 -d '\n' -n 1 sh -c < "$tmp/bare.sh" ;;
		esac
	done
	r=$((r + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v d="$dur" -v n="$rounds" '
function med(a, k,   i, j, t, b) {
	for (i = 1; i <= k; i++) b[i] = a[i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
		if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
	return k % 2 ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2
}
{ k = ++cnt[$1]; w[$1, k] = $2; c[$1, k] = $3; col[$1, k] = $4; own[$1, k] = $5 }
END {
	printf "16 points, %s s simulated each (video-playback, sym4, rfc and none), %d rounds interleaved\n", d, n
	printf "round  j1 wall  j2 wall  speed-up  bare wall  bare x2 wall  ceiling  j1 CPU  bare CPU  overhead wall  overhead CPU  collect(j1)  own clock\n"
	for (i = 1; i <= n; i++) {
		sp[i] = w["j1", i] / w["j2", i]
		ow[i] = 100 * (w["j1", i] - w["bare", i]) / w["bare", i]
		oc[i] = 100 * (c["j1", i] - c["bare", i]) / c["bare", i]
		ce[i] = w["bare", i] / w["bare2", i]
		wj1[i] = w["j1", i]; wj2[i] = w["j2", i]; wb[i] = w["bare", i]
		cj1[i] = c["j1", i]; cj2[i] = c["j2", i]; cb[i] = c["bare", i]
		cl[i] = col["j1", i]; oo[i] = own["j1", i]
		printf "%5d  %7.2f  %7.2f  %7.2fx  %9.2f  %12.2f  %6.2fx  %6.2f  %8.2f  %+12.1f%%  %+11.1f%%  %11.2f  %+8.1f%%\n",
		       i, wj1[i], wj2[i], sp[i], wb[i], w["bare2", i], ce[i], cj1[i], cb[i], ow[i], oc[i], cl[i], oo[i]
	}
	printf "median: sweep -j 1 %.2f s wall (%.2f s CPU), -j 2 %.2f s wall (%.2f s CPU): speed-up %.2fx (bare runs two at a time: %.2fx)\n",
	       med(wj1, n), med(cj1, n), med(wj2, n), med(cj2, n), med(sp, n), med(ce, n)
	printf "median: bare runs %.2f s wall, %.2f s CPU; sweep -j 1 beyond them %+.1f %% wall, %+.1f %% CPU; beyond its own runs %+.1f %% (collecting %.2f s)\n",
	       med(wb, n), med(cb, n), med(ow, n), med(oc, n), med(oo, n), med(cl, n)
}' "$tmp/times"
