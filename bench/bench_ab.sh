#!/bin/sh
# Two capsim binaries side by side on one workload (a refactoring's guard
# rail): events per CPU second of each, ROUNDS interleaved rounds (A, B,
# A, B, ...; the median of each), and instructions per event counted by
# callgrind once each (stable on a shared machine). Prints B/A ratios.
# Usage: bench_ab.sh CAPSIM_A CAPSIM_B WORKLOAD [SIM_SECONDS [ROUNDS]]
set -eu
a=${1:?usage: bench_ab.sh CAPSIM_A CAPSIM_B WORKLOAD [SIM_SECONDS [ROUNDS]]}
b=${2:?usage}
w=${3:?usage}
secs=${4:-300}
rounds=${5:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one run: "events cpu_seconds" (user+sys of the child, from /usr/bin/time's
# format, else the shell's times)
one() {
	rm -rf "$tmp/out"
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$1" run "$w" --quiet \
		--no-trace --duration "$secs" -o "$tmp/out" >/dev/null
	ev=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/out/summary.json" | head -1)
	awk -v ev="$ev" '{ printf "%s %.6f\n", ev, $1 + $2 }' "$tmp/time"
}
: > "$tmp/A"; : > "$tmp/B"
i=0
while [ $i -lt "$rounds" ]; do
	one "$a" >> "$tmp/A"
	one "$b" >> "$tmp/B"
	i=$((i + 1))
done
med() { awk '{ print $1 / $2 }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ea=$(med "$tmp/A"); eb=$(med "$tmp/B")
evA=$(head -1 "$tmp/A" | cut -d' ' -f1); evB=$(head -1 "$tmp/B" | cut -d' ' -f1)
printf 'workload %s, %s s simulated, %s rounds interleaved\n' "$w" "$secs" "$rounds"
printf 'A %s: %s events, median %.0f events per CPU s\n' "$a" "$evA" "$ea"
printf 'B %s: %s events, median %.0f events per CPU s\n' "$b" "$evB" "$eb"
awk -v a="$ea" -v b="$eb" 'BEGIN { printf "B/A events per s: %.3f\n", b / a }'
if command -v valgrind >/dev/null; then
	for x in A B; do
		bin=$a; [ $x = B ] && bin=$b
		rm -rf "$tmp/out"
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$x" \
			"$bin" run "$w" --quiet --no-trace --duration 30 \
			-o "$tmp/out" >/dev/null 2>"$tmp/vg.$x"
		ir=$(sed -n 's/^summary: *//p' "$tmp/cg.$x")
		ev=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/out/summary.json" | head -1)
		echo "$x $ir $ev" >> "$tmp/ir"
		printf '%s: %s instructions, %s events (30 s simulated): %.0f per event\n' \
			"$x" "$ir" "$ev" "$(awk -v i="$ir" -v e="$ev" 'BEGIN { print i / e }')"
	done
	awk 'NR == 1 { a = $2 / $3 } NR == 2 { b = $2 / $3 } END { printf "B/A instructions per event: %.3f\n", b / a }' "$tmp/ir"
fi
