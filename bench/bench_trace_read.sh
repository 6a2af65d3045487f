#!/bin/sh
# Trace reading speed (issue 25): the reader (src/trace/trace_reader.c,
# through tests/trace/trace_events --count) on one capture as capsim's
# text, `trace-cmd report` text and trace.dat, beside
# `trace-cmd report > /dev/null` of the same trace.dat, in one run.
# Prints events/s and the ratio to trace-cmd. Not a pass/fail test.
# Usage: bench_trace_read.sh TRACE_EVENTS CAPSIM SRCDIR [SECONDS]
set -eu
EV=${1:?usage: bench_trace_read.sh TRACE_EVENTS CAPSIM SRCDIR [SECONDS]}
W=${2:?}
SRC=${3:?}
SECS=${4:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$W" run "$SRC/traces/audio.json" --platform juno-r0 --duration "$SECS" \
	-o "$tmp/run" --trace-dat --quiet
trace-cmd report -i "$tmp/run/trace.dat" > "$tmp/report.txt" 2>/dev/null
n=$("$EV" --count "$tmp/run/trace.dat" | cut -d' ' -f1)

# wall seconds of a command, its output thrown away
secs() {
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$e - $s" | bc -l
}
tc=$(secs trace-cmd report -i "$tmp/run/trace.dat")
echo "events: $n ($(du -h "$tmp/run/trace.txt" | cut -f1) of text)"
printf '%-34s %8.3f s %12.0f events/s\n' "trace-cmd report > /dev/null" \
	"$tc" "$(echo "$n / $tc" | bc -l)"
for f in "$tmp/run/trace.txt" "$tmp/report.txt" "$tmp/run/trace.dat"; do
	t=$(secs "$EV" --count "$f")
	printf '%-34s %8.3f s %12.0f events/s  %.2fx trace-cmd\n' \
		"reader: $(basename "$f")" "$t" "$(echo "$n / $t" | bc -l)" \
		"$(echo "$tc / $t" | bc -l)"
done
