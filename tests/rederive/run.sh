#!/bin/sh
# summary.json re-derived from trace.txt and activations.csv by an
# independent reader (rederive.py, written from docs/simulator.md and
# docs/outputs.md) for every workload in traces/ on each platform under
# each policy: 3 simulated seconds each.
# Usage: run.sh CAPSIM SRCDIR [WORKLOAD...]
set -u
C=$(readlink -f "${1:?usage: run.sh CAPSIM SRCDIR}")
SRC=$(readlink -f "${2:?usage: run.sh CAPSIM SRCDIR}")
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
[ $# -gt 0 ] || set -- "$SRC"/traces/*.json
for pl in ${PLATFORMS:-sym4 juno-r0 sd855}; do
	"$C" platform show "$pl" > "$tmp/$pl.json" || exit 1
done
for w in "$@"; do
	name=$(basename "$w" .json)
	for pl in ${PLATFORMS:-sym4 juno-r0 sd855}; do
		for p in ${POLICIES:-rfc none uclamp}; do
			out=$tmp/$name-$p-$pl
			if ! "$C" run "$w" --quiet --policy "$p" --platform "$pl" \
				--duration 3 -o "$out" >"$tmp/log" 2>&1; then
				fail=$((fail + 1))
				echo "FAIL $name $p $pl: the run: $(head -3 "$tmp/log")"
				continue
			fi
			if python3 "$SRC/tests/rederive/rederive.py" "$out" \
				"$tmp/$pl.json" >"$tmp/log" 2>&1; then
				pass=$((pass + 1))
				echo "ok   $name $p $pl: $(tail -1 "$tmp/log")"
			else
				fail=$((fail + 1))
				echo "FAIL $name $p $pl:"
				head -20 "$tmp/log"
			fi
			rm -rf "$out"
		done
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
