#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The import round trip on rt-app's own doc/examples (tests/fixtures/rt-app,
# the standalone workloads capsim runs), or on the WORKLOADs given (paths
# from SRCDIR, e.g. traces/*.json): each file run for 3 s under
# --policy none, its trace imported, the import run over the window, and
# every task busy at least 0.5 % compared by compare_runs.py (busy 5 %,
# activations 2 %, period 1 %). A measurement, not a test: it prints each
# file's table and, last, the tasks within every bound per file
# (docs/import.md, "rt-app's own examples").
# usage: rtapp-examples.sh CAPSIM SRCDIR OUTDIR [WORKLOAD...]
set -u
capsim=$1 src=$2 out=$3
shift 3
mkdir -p "$out" || exit 1
[ $# -gt 0 ] || set -- $(cd "$src" && find tests/fixtures/rt-app -name '*.json' |
	grep -v -e '/merge/' -e '/video-' | sort)
total=0 within=0
for w in "$@"; do
	n=$(echo "$w" | sed 's|^tests/fixtures/rt-app/||; s|/|-|g; s|\.json$||')
	rm -rf "$out/$n" "$out/$n-2" "$out/$n-imp.json"
	if ! "$capsim" run "$src/$w" --policy none \
		--duration 3 -o "$out/$n" --quiet 2>/dev/null; then
		echo "== $w: source run failed"; continue
	fi
	"$capsim" import "$out/$n/trace.txt" -o "$out/$n-imp.json" \
		--explain >"$out/$n.explain" 2>&1 || { echo "== $w: import failed"; continue; }
	d=$(sed -n 's/.*--duration \([0-9.]*\).*/\1/p' "$out/$n-imp.json")
	"$capsim" run "$out/$n-imp.json" --policy none --duration "$d" \
		-o "$out/$n-2" --quiet 2>/dev/null || { echo "== $w: imported run failed"; continue; }
	echo "== $w"
	python3 "$src/tests/import/compare_runs.py" \
		"$src/$w" "$out/$n" "$out/$n-imp.json" \
		"$out/$n-2" >"$out/$n.table"
	cat "$out/$n.table"
	t=$(grep -c '^[^ ]* .*[0-9.]$\|OUT$\|missing from' "$out/$n.table")
	o=$(grep -c 'OUT$\|missing from' "$out/$n.table")
	total=$((total + t)) within=$((within + t - o))
	echo "$w: $((t - o)) of $t within" >>"$out/summary.txt.$$"
done
echo "== per file"
cat "$out/summary.txt.$$"
rm -f "$out/summary.txt.$$"
echo "total: $within of $total tasks within every bound"
