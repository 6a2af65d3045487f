#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# capsim import of many tasks (issue 36 item 4): N tasks from
# bench/gen_import_trace.py (each woken once, comms two by two: every
# name COMM-PID), imported with --min-busy 0 (each task its own, the
# workload validated) and with the default (all folded into the
# background); wall time and peak RSS from /usr/bin/time -v. A "before"
# binary in CAPSIM_BEFORE adds its rows, each run cut at
# CAPSIM_BEFORE_TIMEOUT seconds (default 300).
#   bench_import_scale.sh CAPSIM SRCDIR [N...]   (default 50000 100000 1000000)
set -u
capsim=${1:?usage: bench_import_scale.sh CAPSIM SRCDIR [N...]}
src=${2:?}
shift 2
[ $# -gt 0 ] || set -- 50000 100000 1000000
dir=$(mktemp -d "${TMPDIR:-/tmp}/capsim-bench-import.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# one BINARY TRACE ARGS...: "exit wall_s maxrss_MB"
one() {
	bin=$1 tr=$2
	shift 2
	/usr/bin/time -v timeout "${limit:-3600}" "$bin" import "$tr" \
		-o "$dir/w.json" "$@" >/dev/null 2>"$dir/time"
	rc=$?
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time")
	echo "$rc $wall $((kb / 1024))"
	rm -f "$dir/w.json"
}

printf '%-8s %-7s %-14s %6s %9s %8s\n' tasks binary options exit wall_s rss_MB
for n in "$@"; do
	python3 "$src/bench/gen_import_trace.py" "$n" "$dir/t.txt" --dup
	for opt in "--min-busy 0" default; do
		a=
		[ "$opt" = default ] || a=$opt
		for b in after ${CAPSIM_BEFORE:+before}; do
			if [ $b = before ]; then
				bin=$CAPSIM_BEFORE limit=${CAPSIM_BEFORE_TIMEOUT:-300}
			else
				bin=$capsim limit=3600
			fi
			# shellcheck disable=SC2086
			set -- $(one "$bin" "$dir/t.txt" $a)
			printf '%-8s %-7s %-14s %6s %9s %8s\n' "$n" $b "$opt" "$1" "$2" "$3"
		done
	done
	rm -f "$dir/t.txt"
done
