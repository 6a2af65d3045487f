#!/bin/sh
# capsim compare with its plots against the same compare with --no-plots,
# side by side in one run (never pass/fail): issue 26 item 6 / issue 28
# item 5 ask for plots at most 2x. On the README's demo workload
# (traces/whatif-bg-cap.json, sym4, every policy), traces/frame-chain.json
# (both 10 s simulated) and traces/phone-minute.json (60 s): the default
# (compare.svg only), --png (compare.png too), --no-plots and --plots all
# (each policy's figures too; the output before issue 26 item 6), and
# with a second capsim
# (OTHER, e.g. a build without gnuplot's prestart) its default. ROUNDS
# rounds, the commands rotating (which goes first moves each round) so a
# change in the shared machine's load hits all alike; the median wall of
# each, the ratios of the medians to --no-plots, and CPU time (user +
# sys, gnuplot included), which a loaded machine does not inflate. The
# load average before and after. Then, with valgrind installed, the
# instructions of the demo's default and --no-plots once, every child
# (runs, gnuplot) counted: the ratio the load cannot move.
#   bench_compare_plots.sh CAPSIM SRCDIR [ROUNDS [OTHER]]
set -eu
capsim=$1
src=$2
rounds=${3:-5}
other=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# one compare (mode: compare, none, all, png or other), its wall and CPU
# seconds appended to $tmp/MODE
measure() {
	mode=$1
	w=$2
	bin=$capsim
	set -- --plots "$mode"
	[ "$mode" = png ] && set -- --png
	[ "$mode" = other ] && { bin=$other; set --; }
	rm -rf "$tmp/o"
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$bin" compare "$src/traces/$w.json" "$@" -o "$tmp/o" --quiet
	awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/t" >> "$tmp/$mode"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

modes="compare none png all"
[ -n "$other" ] && modes="$modes other"
for w in whatif-bg-cap frame-chain phone-minute; do
	for m in $modes; do rm -f "$tmp/$m"; done
	r=1
	while [ "$r" -le "$rounds" ]; do
		# rotate: round r starts with the r-th mode
		set -- $modes
		k=$(( (r - 1) % $# ))
		while [ "$k" -gt 0 ]; do m=$1; shift; set -- "$@" "$m"; k=$((k - 1)); done
		for m in "$@"; do measure "$m" "$w"; done
		r=$((r + 1))
	done
	n=$(cut -d' ' -f1 "$tmp/none" | median)
	nc=$(cut -d' ' -f2 "$tmp/none" | median)
	printf '%s (median of %d rounds; --no-plots %.3f s wall, %.3f s CPU)\n' "$w" "$rounds" "$n" "$nc"
	for m in $modes; do
		[ "$m" = none ] && continue
		p=$(cut -d' ' -f1 "$tmp/$m" | median)
		pc=$(cut -d' ' -f2 "$tmp/$m" | median)
		printf '  %-8s %6.3f s wall  %5.2fx | CPU %6.3f s  %5.2fx\n' "$m" "$p" \
			"$(echo "$p $n" | awk '{ print $1 / $2 }')" "$pc" \
			"$(echo "$pc $nc" | awk '{ print $1 / $2 }')"
	done
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
	printf '%-14s default %6d M instructions (%d processes)  --no-plots %5d M (%d)  ratio %5.1fx\n' \
		"$w" "$1" "$2" "$3" "$4" "$(echo "$1 $3" | awk '{ print $1 / $2 }')"
done
