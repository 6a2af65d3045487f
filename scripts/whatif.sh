#!/bin/sh
# The demo what-if: "what does capping the background group cost?" The same
# workload (traces/whatif-bg-cap.json: two background hogs capped at 256,
# uncapped at 4 s, capped again at 7 s, and a periodic foreground task) on
# the embedded sym4 platform, once with the RFC's capacity clamping and once
# with no clamping, then a frequency timeline of the clamped run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
w=traces/whatif-bg-cap.json

echo "== capsim run $w --policy rfc   (background capped)"
./build/capsim run "$w" --policy rfc -o out/whatif-rfc
echo
echo "== capsim run $w --policy none  (no clamping)"
./build/capsim run "$w" --policy none -o out/whatif-none
echo
energy() { sed -n 's/^  "energy_mj": *\([0-9.]*\).*/\1/p' "out/whatif-$1/summary.json"; }
awk -v r="$(energy rfc)" -v n="$(energy none)" 'BEGIN {
	printf "what-if: energy %.1f mJ capped vs %.1f mJ uncapped (%.0f%% saved)\n",
	       r, n, 100 * (1 - r / n) }'
if command -v gnuplot >/dev/null; then
	plots/freq-timeline.sh out/whatif-rfc/trace.txt out/whatif-rfc/freq.png 0
fi
echo "outputs: out/whatif-rfc/ and out/whatif-none/ (trace.txt, summary.json)"
