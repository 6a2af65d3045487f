#!/bin/sh
# capsim-replay throughput on a generated op log, side by side with the
# time to merely read the same file (wc -l), so the number is a ratio;
# with BENCH_OPLOG, also the replay loop against reading and parsing the
# same file in one process (bench_oplog.c: read, parse, replay).
set -eu
replay=${1:?usage: bench_replay.sh CAPSIM_REPLAY BENCH_CLAMP [OPS [BENCH_OPLOG]]}
gen=${2:?}
ops=${3:-2000000}
oplog=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mix in sched writes; do
	"$gen" --oplog "$ops" $mix >"$tmp/ops"
	n=$(wc -l <"$tmp/ops")
	t0=$(date +%s.%N); wc -l <"$tmp/ops" >/dev/null; t1=$(date +%s.%N)
	"$replay" "$tmp/ops" >/dev/null; t2=$(date +%s.%N)
	awk -v mix="$mix" -v n="$n" -v r="$t1" -v a="$t0" -v b="$t2" 'BEGIN {
		read = r - a; rep = b - r;
		printf "capsim-replay %-6s mix: %d ops in %.3f s = %.2f Mops/s (%.1fx the 1 Mops/s target); reading alone %.3f s (replay/read %.0fx)\n",
		       mix, n, rep, n / rep / 1e6, n / rep / 1e6, read, rep / read }'
	if [ -n "$oplog" ]; then
		echo "  in one process ($(wc -c <"$tmp/ops") bytes):"
		"$oplog" "$tmp/ops" 4 5 | sed 's/^/    /'
	fi
done
