#!/bin/sh
# capsim compare with its plots against the same compare with --no-plots,
# side by side in one run (never pass/fail): issue 26 item 6 / issue 28
# item 5 ask for plots at most 2x. On the README's demo workload
# (traces/whatif-bg-cap.json, sym4, every policy) and on
# traces/frame-chain.json. ROUNDS rounds, the two commands alternating
# (which goes first swaps each round) so a change in the shared machine's
# load hits both alike; the median wall of each, the ratio of the
# medians, and CPU time (user + sys, gnuplot included), which a loaded
# machine does not inflate. The load average before and after. Then, with
# valgrind installed, the instructions of each command once, every child
# (runs, gnuplot) counted: the ratio the load cannot move.
#   bench_compare_plots.sh CAPSIM SRCDIR [ROUNDS]
set -eu
capsim=$1
src=$2
rounds=${3:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# one compare, its wall and CPU seconds appended to $tmp/LABEL
measure() {
	label=$1
	shift
	rm -rf "$tmp/o"
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$capsim" compare "$@" -o "$tmp/o" --quiet
	awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/t" >> "$tmp/$label"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for w in whatif-bg-cap frame-chain; do
	rm -f "$tmp/plots" "$tmp/noplots"
	r=1
	while [ "$r" -le "$rounds" ]; do
		if [ $((r % 2)) = 1 ]; then
			measure plots "$src/traces/$w.json"
			measure noplots "$src/traces/$w.json" --no-plots
		else
			measure noplots "$src/traces/$w.json" --no-plots
			measure plots "$src/traces/$w.json"
		fi
		r=$((r + 1))
	done
	p=$(cut -d' ' -f1 "$tmp/plots" | median)
	n=$(cut -d' ' -f1 "$tmp/noplots" | median)
	pc=$(cut -d' ' -f2 "$tmp/plots" | median)
	nc=$(cut -d' ' -f2 "$tmp/noplots" | median)
	printf '%-14s plots %6.3f s  --no-plots %6.3f s  ratio %5.2fx (wall, median of %d) | CPU %6.3f s / %6.3f s\n' \
		"$w" "$p" "$n" "$(echo "$p $n" | awk '{ print $1 / $2 }')" "$rounds" "$pc" "$nc"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# instructions of one compare and all its children, and their number
count() {
	mkdir "$tmp/cg"
	rm -rf "$tmp/o"
	valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file="$tmp/cg/%p" "$capsim" compare "$@" \
		-o "$tmp/o" --quiet >/dev/null 2>&1
	cat "$tmp/cg"/* | awk '/^totals:/ { s += $2; n++ } END { printf "%.0f %d\n", s / 1e6, n }'
	rm -rf "$tmp/cg"
}
command -v valgrind >/dev/null || { echo "valgrind not installed: no instruction counts"; exit 0; }
for w in whatif-bg-cap frame-chain; do
	set -- $(count "$src/traces/$w.json") $(count "$src/traces/$w.json" --no-plots)
	printf '%-14s plots %6d M instructions (%d processes)  --no-plots %5d M (%d)  ratio %5.1fx\n' \
		"$w" "$1" "$2" "$3" "$4" "$(echo "$1 $3" | awk '{ print $1 / $2 }')"
done
