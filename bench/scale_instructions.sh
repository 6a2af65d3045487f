#!/bin/sh
# Issue 28's growth per event in instructions (callgrind: stable on a
# loaded machine, where CPU times move by tens of percent), for one or
# more binaries side by side: the points of bench_scale.sh (1 024 CPUs
# in 8-CPU domains against 8; 100 000 tasks against 64 on 1 024 CPUs),
# each `capsim run --no-trace` for the simulated time of bench_scale.sh
# at EVENTS 200 000 minus the same run for 1 us, over the events; and
# the 64 tasks on 1 024 CPUs in two 512-CPU shared policies, 0.2 s
# simulated (~8 000 events: at ~30x the cost per event of 8-CPU
# domains, the 5.2 s of the others would take an hour under callgrind).
# Then `capsim validate` of 100 000 distinct tasks, instructions alone.
# SCALE_AXES="cpus" measures the CPU axis alone (minutes; "cpus tasks"
# by default, the tasks axis and validate take ~10 min per binary).
# Usage: [SCALE_AXES=cpus] scale_instructions.sh CAPSIM...
set -eu
[ $# -ge 1 ] || { echo "usage: scale_instructions.sh CAPSIM..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "no valgrind: skipped" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(dirname "$0")
# the generators of bench_scale.sh, without its runs
sed -n '/^platform()/,/^}/p;/^workload()/,/^}/p' "$here/bench_scale.sh" >"$tmp/gen.sh"
. "$tmp/gen.sh"
platform 8
platform 1024
platform 1024 512
workload 64 1000 10000 && mv "$tmp/w64.json" "$tmp/c64.json"
workload 64 100 100000
workload 100000 100 100000
awk 'BEGIN { n = 100000; print "{ \"tasks\": {";
	for (i = 0; i < n; i++)
		printf "  \"t%d\": { \"delay\": %d, \"run\": 100, \"timer\": { \"ref\": \"unique\", \"period\": 100000 } }%s\n",
		       i, i, i < n - 1 ? "," : "";
	print "} }" }' >"$tmp/d100000.json"

# ir CAPSIM ARGS...: the instructions of one command
ir() {
	bin=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bin" "$@" \
		>/dev/null 2>"$tmp/vg" || { cat "$tmp/vg" >&2; exit 1; }
	sed -n 's/^summary: //p' "$tmp/cg"
}

# per_event CAPSIM PLATFORM WORKLOAD SECONDS: instructions per event
per_event() {
	rm -rf "$tmp/o"
	long=$(ir "$1" run "$3" --platform "$2" --duration "$4" -o "$tmp/o" --quiet --no-trace)
	ev=$(sed -n 's/^  "events": \([0-9]*\),$/\1/p' "$tmp/o/summary.json")
	rm -rf "$tmp/o"
	short=$(ir "$1" run "$3" --platform "$2" --duration 0.000001 -o "$tmp/o" --quiet --no-trace)
	bev=$(sed -n 's/^  "events": \([0-9]*\),$/\1/p' "$tmp/o/summary.json")
	awk -v l="$long" -v s="$short" -v e="$ev" -v b="$bev" \
		'BEGIN { printf "%.0f", (l - s) / (e - b) }'
}

axes=${SCALE_AXES:-cpus tasks}
case " $axes " in *" tasks "*) tasks=1 ;; *) tasks= ;; esac
echo "| binary | 8 CPUs | 1 024 CPUs | x | two 512-CPU policies | x | 64 tasks | 100 000 tasks | x | validate 100 000 distinct tasks |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for bin in "$@"; do
	c8=$(per_event "$bin" "$tmp/p8.json" "$tmp/c64.json" 5.208333)
	c1k=$(per_event "$bin" "$tmp/p1024.json" "$tmp/c64.json" 5.208333)
	c512=$(per_event "$bin" "$tmp/p1024x512.json" "$tmp/c64.json" 0.2)
	t64=0 t100k=0 val=0
	if [ -n "$tasks" ]; then
		t64=$(per_event "$bin" "$tmp/p1024.json" "$tmp/w64.json" 52.083333)
		t100k=$(per_event "$bin" "$tmp/p1024.json" "$tmp/w100000.json" 0.2)
		val=$(ir "$bin" validate --platform "$tmp/p1024.json" "$tmp/d100000.json")
	fi
	awk -v b="$bin" -v c8="$c8" -v c1k="$c1k" -v c512="$c512" -v t64="$t64" \
	    -v t100k="$t100k" -v val="$val" 'BEGIN {
		printf "| %s | %d | %d | %.2f | %d | %.2f |", b, c8, c1k, c1k / c8, c512, c512 / c8
		if (t64 > 0)
			printf " %d | %d | %.2f | %.2f G |\n", t64, t100k, t100k / t64, val / 1e9
		else
			printf " - | - | - | - |\n" }'
done
