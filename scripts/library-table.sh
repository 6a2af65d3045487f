#!/bin/sh
# The measured figures of traces/README.md: each workload of traces/
# compared under every policy the build simulates, on sym4 (or $1),
# printed as markdown rows: energy, deadline misses over all tasks, and
# the response p95 of the task with the most activations.
#   scripts/library-table.sh [PLATFORM]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
platform=${1:-sym4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for w in traces/*.json; do
	n=$(basename "$w" .json)
	./build/capsim compare "$w" --platform "$platform" --no-plots --quiet -o "$tmp/$n"
	python3 - "$tmp/$n/compare.json" "$n" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
cells = []
for pol, r in c.items():
    if r["status"] != "ok":
        cells.append(f"{pol}: failed")
        continue
    tasks = r["tasks"]
    misses = sum(t["deadline_misses"] or 0 for t in tasks)
    main = max((t for t in tasks if t["responses"]), key=lambda t: t["activations"], default=None)
    resp = f'{main["name"]} resp p95 {main["response_ms"]["p95"]:.1f} ms' if main else "-"
    cells.append(f'{pol}: {r["energy_mj"] / 1e3:.2f} J, {misses} misses, {resp}')
print(f"| `{sys.argv[2]}.json` | " + " | ".join(cells) + " |")
PY
done
